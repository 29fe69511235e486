/* Per-thread engine state: allocation, growth, and setting up a batch. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "../format/grow.h"
#include "../quant/qdot.h"

/* Grow array p to n elements; a failure sets the caller's `failed`. */
#define GROW(p, n) (failed |= nmt_grow(&(p), (n), sizeof *(p)))

/* The widest input any matrix product of the model takes. */
static int widest_input(const nmt_dims *d)
{
	int ctx = 2 * d->enc_hidden;
	int w[] = { d->emb + ctx, ctx, d->emb, d->enc_hidden, d->dec_hidden, d->fc, d->att };
	int max = 1;
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		if (w[i] > max)
			max = w[i];
	return max;
}

int nmt_state_init(nmt_state *s, const nmt_model *m)
{
	int failed = 0;

	memset(s, 0, sizeof *s);
	s->m = m;
	s->ew = m->qdot->ew;
	GROW(s->enc_mean, 2 * (size_t)m->d.enc_hidden);
	if (failed || nmt_kscratch_init(&s->kq, widest_input(&m->d), m->qdot) != 0 ||
	    !(s->shortlist_marks = calloc((size_t)m->d.tgt_vocab, 1))) {
		nmt_state_free(s);
		return -1;
	}
	return 0;
}

/* Buffers per sentence of the batch. */
static int reserve_sentences(nmt_state *s, int n_sents)
{
	int failed = 0;
	const nmt_dims *d = &s->m->d;
	size_t n = (size_t)n_sents;

	if (n_sents > s->cap_sents) {
		GROW(s->sent, n);
		GROW(s->enc_h, n * d->enc_hidden);
		GROW(s->enc_gh, n * 3 * d->enc_hidden);
		GROW(s->enc_pos, n);
		GROW(s->h0, n * d->dec_hidden);
		GROW(s->cand, n * NMT_MAX_BEAM);
		GROW(s->n_cand, n);
		if (failed)
			return -1;
		s->cap_sents = n_sents;
		s->cap_steps = 0;   /* the history is per sentence: regrow it */
	}
	return 0;
}

/* Buffers per decoder row; the logits also grow with s->logit_stride. */
static int reserve_rows(nmt_state *s, int rows)
{
	int failed = 0;
	const nmt_dims *d = &s->m->d;
	size_t R = (size_t)rows;

	if (rows > s->cap_rows) {
		GROW(s->row_sent, R);
		GROW(s->row_prev, R);
		GROW(s->carry_from, R);
		GROW(s->h, R * d->dec_hidden);
		GROW(s->h_next, R * d->dec_hidden);
		GROW(s->x, R * d->emb);
		GROW(s->q, R * d->att);
		GROW(s->qv, R * d->att);
		GROW(s->gi, R * 3 * d->dec_hidden);
		GROW(s->gh, R * 3 * d->dec_hidden);
		GROW(s->gx, R * 3 * d->dec_hidden);
		GROW(s->qv_row, R);
		GROW(s->gx_row, R);
		GROW(s->z, R * d->fc);
		GROW(s->z_next, R * d->fc);
		GROW(s->t, R * d->emb);
		GROW(s->guard, R);
		if (failed)
			return -1;
		s->cap_rows = rows;
		s->cap_logit_stride = 0;   /* logits are per row: regrow them */
	}
	if (s->logit_stride > s->cap_logit_stride) {
		GROW(s->logits, (size_t)s->cap_rows * (size_t)s->logit_stride);
		if (failed)
			return -1;
		s->cap_logit_stride = s->logit_stride;
	}
	return 0;
}

static int reserve_source(nmt_state *s, int total)
{
	int failed = 0;
	const nmt_dims *d = &s->m->d;
	size_t ctx = 2 * (size_t)d->enc_hidden, width = ctx > (size_t)d->emb ? ctx : (size_t)d->emb;
	size_t gi = 3 * (size_t)(d->enc_hidden > d->dec_hidden ? d->enc_hidden : d->dec_hidden);

	if (total > s->cap_src) {
		size_t P = (size_t)total;
		GROW(s->layer_a, P * width);
		GROW(s->layer_b, P * width);
		GROW(s->enc_gi, P * gi);   /* also the projected states: engine.h */
		GROW(s->src_ids, P);
		GROW(s->keys, P * d->att);
		GROW(s->att, P * NMT_MAX_BEAM);   /* a sentence's hypotheses' weights */
		if (failed)
			return -1;
		s->cap_src = total;
	}
	return 0;
}

/* The first encoder layer's positions whose word has no precomputed
 * projections: their embeddings and projections are computed together. */
static int reserve_uncovered(nmt_state *s, int n)
{
	int failed = 0;
	const nmt_dims *d = &s->m->d;

	if (n > s->cap_unc) {
		size_t N = (size_t)n;
		GROW(s->enc_unc, N);
		GROW(s->enc_x, N * d->emb);
		GROW(s->enc_gi_u, N * 3 * d->enc_hidden);
		if (failed)
			return -1;
		s->cap_unc = n;
	}
	return 0;
}

static int reserve_steps(nmt_state *s, int steps)
{
	int failed = 0;
	if (steps > s->cap_steps) {
		size_t n = (size_t)s->cap_sents * (size_t)steps * NMT_MAX_BEAM;
		GROW(s->hist_tok, n);
		GROW(s->hist_parent, n);
		GROW(s->hist_lp, n);
		GROW(s->out_ids, n);
		GROW(s->out_slot, n);
		GROW(s->out_lp, n);
		if (failed)
			return -1;
		s->cap_steps = steps;
	}
	return 0;
}

/* Remove the sorted ids `shared` (all of which it holds) from the sorted
 * list ids[0..n), in place; returns how many are left. */
static int remove_shared(int32_t *ids, int n, const int32_t *shared, int n_shared)
{
	int k = 0, j = 0;
	for (int i = 0; i < n; i++) {
		if (j < n_shared && ids[i] == shared[j])
			j++;
		else
			ids[k++] = ids[i];
	}
	return k;
}

/* Sentence i's shortlist into out (room for n_shared + Vt ids): the shared
 * ids, then its own in id order, the whole list in id order when
 * n_shared == 0. Returns its length. */
static int build_shortlist(nmt_state *s, const int32_t *src, int i, int32_t *out)
{
	const nmt_model *m = s->m;
	int Z = s->n_shared;
	int n = nmt_vmap_shortlist(&m->vmap, src, s->sent[i].src_len - 1, m->d.eos_id, m->d.tgt_vocab,
				   s->shortlist_marks, out + Z);
	if (Z == 0)
		return n;
	memcpy(out, m->shared_ids, (size_t)Z * sizeof *out);
	return Z + remove_shared(out + Z, n, m->shared_ids, Z);
}

/* Build every sentence's shortlist into s->shortlist_ids, one after the
 * other; 0 on success. */
static int build_shortlists(nmt_state *s, const int32_t *const *src)
{
	int failed = 0;
	const nmt_model *m = s->m;
	size_t used = 0;

	for (int i = 0; i < s->n_sents; i++) {
		if (used + (size_t)s->n_shared + (size_t)m->d.tgt_vocab > s->cap_shortlist_ids) {
			size_t cap = used + (size_t)s->n_shared + (size_t)m->d.tgt_vocab;
			if (cap < 2 * s->cap_shortlist_ids)
				cap = 2 * s->cap_shortlist_ids;
			GROW(s->shortlist_ids, cap);
			if (failed)
				return -1;
			s->cap_shortlist_ids = cap;
		}
		nmt_sentence *st = &s->sent[i];
		st->shortlist_len = build_shortlist(s, src[i], i, s->shortlist_ids + used);
		used += (size_t)st->shortlist_len;
	}
	used = 0;   /* the array has stopped moving: point into it */
	for (int i = 0; i < s->n_sents; i++) {
		s->sent[i].shortlist = s->shortlist_ids + used;
		used += (size_t)s->sent[i].shortlist_len;
	}
	return 0;
}

/* Gather each shortlist's own rows (past the shared ones, which the model
 * holds gathered) of the (q8/q4) output layer and their biases, once for
 * the whole batch; 0 on success. */
static int gather_output_rows(nmt_state *s)
{
	int failed = 0;
	const nmt_model *m = s->m;
	size_t bytes = 0, floats = 0;

	for (int i = 0; i < s->n_sents; i++) {
		bytes += nmt_matrix_gather_bytes(&m->tgt_emb, s->sent[i].shortlist_len - s->n_shared);
		floats += 2 * (size_t)(s->sent[i].shortlist_len - s->n_shared);
	}
	if (bytes > s->cap_gathered) {
		GROW(s->gathered, bytes);
		if (failed)
			return -1;
		s->cap_gathered = bytes;
	}
	if (floats > s->cap_gathered_f) {
		GROW(s->gathered_f, floats);
		if (failed)
			return -1;
		s->cap_gathered_f = floats;
	}
	bytes = floats = 0;
	for (int i = 0; i < s->n_sents; i++) {
		nmt_sentence *st = &s->sent[i];
		int n = st->shortlist_len - s->n_shared;
		const int32_t *own = st->shortlist + s->n_shared;
		float *factors = s->gathered_f + floats, *bias = factors + n;
		nmt_matrix_gather(&m->tgt_emb, own, n, s->gathered + bytes, factors, &st->out_w);
		for (int k = 0; k < n; k++)
			bias[k] = m->out_bias[own[k]];
		st->out_bias = bias;
		bytes += nmt_matrix_gather_bytes(&m->tgt_emb, n);
		floats += 2 * (size_t)n;
	}
	return 0;
}

/* With the attention option: room for every pick's attention over its
 * source, and this step's rows'. */
static int reserve_attention(nmt_state *s, int n, int beam, int steps, int stride)
{
	int failed = 0;
	size_t hist = (size_t)n * (size_t)steps * (size_t)beam * (size_t)stride, step = (size_t)n * beam * stride;
	if (hist > s->cap_hist_att) {
		GROW(s->hist_att, hist);
		if (!failed)
			s->cap_hist_att = hist;
	}
	if (step > s->cap_step_att) {
		GROW(s->step_att, step);
		if (!failed)
			s->cap_step_att = step;
	}
	s->att_steps = steps;
	s->att_stride = stride;
	return failed ? -1 : 0;
}

int nmt_batch_prepare(nmt_state *s, int n, const int32_t *const *src, const int *src_len,
		      const nmt_search_options *o)
{
	const nmt_model *m = s->m;
	int total = 0, longest = 0, steps = 0, uncovered = 0;

	if (reserve_sentences(s, n) != 0)
		return -1;
	s->n_sents = n;
	s->beam = o->beam;
	s->guard_on = o->guard;
	for (int i = 0; i < n; i++) {
		nmt_sentence *st = &s->sent[i];
		memset(st, 0, sizeof *st);
		st->src_off = total;
		st->src_len = src_len[i];
		st->max_len = o->max_len > 0 ? o->max_len : nmt_default_max_len(src_len[i]);
		st->out_bias = m->out_bias;
		if (o->guard)
			nmt_guard_limits_of(m->src_vocab, src[i], src_len[i] - 1, &st->guard);
		total += src_len[i];
		for (int j = 0; m->pre_src > 0 && j < src_len[i]; j++)
			uncovered += src[i][j] >= m->pre_src;
		longest = src_len[i] > longest ? src_len[i] : longest;
		steps = st->max_len > steps ? st->max_len : steps;
	}
	s->total_src = total;
	s->max_src = longest;
	s->logit_stride = m->d.tgt_vocab;
	s->n_shared = o->use_shortlist ? m->n_shared : 0;
	if (o->use_shortlist && m->has_vmap) {
		if (build_shortlists(s, src) != 0)
			return -1;
		s->logit_stride = 1;
		for (int i = 0; i < n; i++)
			if (s->sent[i].shortlist_len > s->logit_stride)
				s->logit_stride = s->sent[i].shortlist_len;
		/* Gathered, a sentence's rows run on the panel kernels, whose
		 * beam rows share each decoded weight, and which beat one dot
		 * product per row even for a single row (greedy q4: 5% faster
		 * overall). f32 rows are read in place anyway. */
		if (m->tgt_emb.format != NMT_FMT_F32 && gather_output_rows(s) != 0)
			return -1;
	}
	s->keep_att = o->attention;
	return reserve_rows(s, n * o->beam) | reserve_source(s, total) | reserve_uncovered(s, uncovered) |
	       reserve_steps(s, steps) | (o->attention ? reserve_attention(s, n, o->beam, steps, longest) : 0);
}

void nmt_state_free(nmt_state *s)
{
	void *p[] = { s->sent, s->layer_a, s->layer_b, s->enc_gi, s->src_ids, s->enc_unc, s->enc_x, s->enc_gi_u, s->enc_h, s->enc_gh, s->enc_pos, s->enc_mean,
		      s->keys, s->h0, s->row_sent, s->row_prev, s->h, s->h_next, s->x, s->q, s->qv, s->att,
		      (void *)s->qv_row, (void *)s->gx_row,
		      s->gi, s->gh, s->gx, s->z, s->z_next, s->t, s->logits, s->shortlist_ids, s->shortlist_marks,
		      s->gathered, s->gathered_f, s->hist_tok, s->hist_parent, s->out_ids, s->hist_lp, s->out_slot,
		      s->out_lp, s->hist_att, s->step_att,
		      s->cand, s->n_cand, s->carry_from, s->guard };
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		free(p[i]);
	nmt_kscratch_free(&s->kq);
	memset(s, 0, sizeof *s);
}
