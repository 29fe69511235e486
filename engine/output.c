/* The output layer, shared by every family: logits over each row's output
 * vocabulary from the last hidden values (engine.h). */
#include <assert.h>

#include "engine.h"

/* The output layer is the target embedding matrix itself (tied): over the
 * whole vocabulary in one product for all rows, or over each sentence's
 * shortlist. A shortlist's shared ids (the map's 0-grams, most of it) are
 * the same rows for every sentence: one product for all of the batch's
 * rows, whose decoded weights serve several rows at once and stay in
 * cache, writes every row's first n_shared logits; then each sentence's
 * rows multiply its own ids (gathered for q8/q4 when the batch was
 * prepared) into the logits after those. */
void engine_output_layer(engine_state *s, const float *x, int n)
{
	const nmt_model *m = s->m;
	int e = m->d.emb, ld = s->logit_stride, Z = s->sl.n_shared;
	assert(n >= 0 && n <= s->cap_rows && ld <= s->cap_logit_stride);

	if (Z > 0 && m->shared_w.data)
		quant_matmul(&m->shared_w, x, n, e, m->shared_bias, s->logits, ld, &s->kq);
	else if (Z > 0)
		quant_matmul_rows(&m->tgt_emb, m->shared_ids, Z, x, n, e, m->out_bias, s->logits, ld, &s->kq);
	ENGINE_PROF_COUNT(s, OUT_PRODUCT, (int64_t)n * Z * e);
	for (int i0 = 0, i1; i0 < n; i0 = i1) {
		const engine_sentence *st = &s->sent[s->row_sent[i0]];
		for (i1 = i0 + 1; i1 < n && (st->shortlist_len == 0 || s->row_sent[i1] == s->row_sent[i0]); i1++)
			;
		const float *t = x + (size_t)i0 * e;
		float *logits = s->logits + (size_t)i0 * ld + Z;
		int n_own = st->shortlist_len - Z;
		ENGINE_PROF_COUNT(s, OUT_PRODUCT, (int64_t)(i1 - i0) * (st->shortlist_len == 0 ? m->d.tgt_vocab : n_own) * e);
		if (st->shortlist_len == 0)
			quant_matmul(&m->tgt_emb, t, i1 - i0, e, m->out_bias, logits, ld, &s->kq);
		else if (n_own == 0)
			continue;
		else if (st->out_w.data)
			quant_matmul(&st->out_w, t, i1 - i0, e, st->out_bias, logits, ld, &s->kq);
		else
			quant_matmul_rows(&m->tgt_emb, st->shortlist + Z, n_own, t, i1 - i0, e, m->out_bias,
					logits, ld, &s->kq);
	}
}
