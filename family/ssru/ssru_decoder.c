/* The SSRU family's decoder step (docs/DESIGN.md §3b): for each row, the
 * previous word's embedding (a zero vector at the first step) scaled by
 * sqrt(d) plus the step's position encoding; then per layer an SSRU
 * (f = σ(W_f x + b_f), c = f ⊙ c + (1 − f) ⊙ W x, LN(ReLU(c) + x)), the
 * cross-attention over its sentence's encoding and the feed-forward block;
 * then the tied output layer. */
#include <math.h>
#include <string.h>

#include "ssru.h"
#include "../../quant/ew.h"

ENGINE_PROF_NOINLINE static void embed_previous(engine_state *s, int n)
{
	ssru_state *t = &s->ssru;
	int d = s->m->d.emb;
	float scale = sqrtf((float)d);
	for (int i = 0; i < n; i++) {
		float *x = t->rx + (size_t)i * d;
		if (t->pos == 0)
			memset(x, 0, (size_t)d * sizeof *x);
		else
			quant_matrix_row(&s->m->ssru.dec_emb, s->row_prev[i], x);
		ssru_scale_add_position(&s->m->ssru, x, d, scale, t->pos);
	}
}

/* Layer l's SSRU over the rows, cells in place; rx = LN(ReLU(c) + rx). */
ENGINE_PROF_NOINLINE static void ssru_layer(engine_state *s, int l, int n)
{
	ssru_state *t = &s->ssru;
	const ssru_w *r = &s->m->ssru.dec_rnn[l];
	int d = s->m->d.emb;
	float *c = t->c + (size_t)l * s->n_sents * s->beam * d;

	quant_matmul(&r->w, t->rx, n, d, NULL, t->rwx, d, &s->kq);
	quant_matmul(&r->wf, t->rx, n, d, r->bf, t->rfx, d, &s->kq);
	for (int i = 0; i < n; i++)
		s->ew->ssru(d, t->rwx + (size_t)i * d, t->rfx + (size_t)i * d, c + (size_t)i * d, t->ry + (size_t)i * d);
	s->ew->add(t->ry, t->rx, n * d);
	for (int i = 0; i < n; i++)
		s->ew->layer_norm(t->ry + (size_t)i * d, d, r->ln_s, r->ln_b, t->rx + (size_t)i * d);
}

/* Layer l's cross-attention: each sentence's rows over its source; the last
 * layer's weights, heads averaged, are the alignments. */
ENGINE_PROF_NOINLINE static void cross_attention(engine_state *s, int l, int n)
{
	ssru_state *t = &s->ssru;
	const ssru_weights *w = &s->m->ssru;
	const ssru_attention_w *a = &w->dec_att[l];
	int d = s->m->d.emb, dk = d / w->heads, P = s->total_src;
	size_t layer = (size_t)l * P * d, stride = (size_t)P * dk;
	int ld = P + SSRU_KEY_PAD;
	int keep = s->hist.keep_att && l == w->dec_layers - 1;

	quant_matmul(&a->q.w, t->rx, n, d, a->q.b, t->rq, d, &s->kq);
	ENGINE_PROF_LAP(s, CROSS_Q, (int64_t)n * d * d);
	for (int i0 = 0, i1; i0 < n; i0 = i1) {
		for (i1 = i0 + 1; i1 < n && s->row_sent[i1] == s->row_sent[i0]; i1++)
			;
		const engine_sentence *st = &s->sent[s->row_sent[i0]];
		size_t off = (size_t)st->src_off * dk;
		ssru_attend(s, t->rq + (size_t)i0 * d, i1 - i0, t->ck + (size_t)l * ld * d + (size_t)st->src_off, ld,
			    t->cv + layer + off, stride,
				st->src_len, t->rctx + (size_t)i0 * d,
				keep ? s->hist.step_att + (size_t)i0 * s->hist.att_stride : NULL, s->hist.att_stride);
		ENGINE_PROF_COUNT(s, CROSS_ATT, 2 * (int64_t)(i1 - i0) * st->src_len * d);
	}
	ENGINE_PROF_LAP(s, CROSS_ATT, 0);
	ssru_project_norm(s, &a->o, t->rctx, n, a->ln_s, a->ln_b, t->rx, t->ry);
	ENGINE_PROF_LAP(s, CROSS_OUT, (int64_t)n * d * d);
}

void ssru_step(engine_state *s, int n)
{
	const ssru_weights *w = &s->m->ssru;
	ssru_state *t = &s->ssru;

	embed_previous(s, n);
	ENGINE_PROF_LAP(s, DEC_EMBED, 0);
	for (int l = 0; l < w->dec_layers; l++) {
		ssru_layer(s, l, n);
		ENGINE_PROF_LAP(s, DEC_SSRU, 2 * (int64_t)n * s->m->d.emb * s->m->d.emb);
		cross_attention(s, l, n);
		ssru_ffn(s, &w->dec_ffn_w[l], w->dec_ffn, t->rx, n, t->rhid, t->ry);
	}
	engine_output_layer(s, t->rx, n);
	ENGINE_PROF_LAP(s, OUT_PRODUCT, 0);
	t->pos++;
}
