/* Per-thread engine state: allocation and growth. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static int grow(float **p, size_t n)
{
	float *q = realloc(*p, (n ? n : 1) * sizeof **p);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

static int grow_i32(int32_t **p, size_t n)
{
	int32_t *q = realloc(*p, (n ? n : 1) * sizeof **p);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

/* Buffers whose size depends only on the model and the beam width. */
static int alloc_fixed(nmt_state *s)
{
	const nmt_dims *d = &s->m->d;
	size_t B = NMT_MAX_BEAM, ctx = 2 * (size_t)d->enc_hidden;

	if (grow(&s->enc_h0, (size_t)d->enc_hidden) != 0)
		return -1;
	memset(s->enc_h0, 0, (size_t)d->enc_hidden * sizeof *s->enc_h0);
	return grow(&s->enc_gh, 3 * (size_t)d->enc_hidden) | grow(&s->enc_mean, ctx) | grow(&s->h, B * d->dec_hidden) |
	       grow(&s->h_next, B * d->dec_hidden) | grow(&s->xc, B * (d->emb + ctx)) |
	       grow(&s->q, B * d->att) | grow(&s->qv, B * d->att) |
	       grow(&s->gi, B * 3 * d->dec_hidden) | grow(&s->gh, B * 3 * d->dec_hidden) |
	       grow(&s->z, B * d->fc) | grow(&s->z_next, B * d->fc) | grow(&s->t, B * d->emb) |
	       grow(&s->logits, B * d->tgt_vocab);
}

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
	memset(s, 0, sizeof *s);
	s->m = m;
	if (nmt_kscratch_init(&s->kq, widest_input(&m->d), m->qdot) != 0)
		return -1;
	s->shortlist = malloc((size_t)m->d.tgt_vocab * sizeof *s->shortlist);
	s->shortlist_marks = calloc((size_t)m->d.tgt_vocab, 1);
	if (!s->shortlist || !s->shortlist_marks || alloc_fixed(s) != 0 ||
	    nmt_state_reserve(s, 64, 128) != 0) {
		nmt_state_free(s);
		return -1;
	}
	return 0;
}

int nmt_state_reserve(nmt_state *s, int src_len, int max_steps)
{
	const nmt_dims *d = &s->m->d;
	size_t ctx = 2 * (size_t)d->enc_hidden;
	size_t width = ctx > (size_t)d->emb ? ctx : (size_t)d->emb;

	if (src_len > s->cap_src) {
		size_t S = (size_t)src_len;
		if (grow(&s->layer_a, S * width) | grow(&s->layer_b, S * width) |
		    grow(&s->enc_gi, S * 3 * d->enc_hidden) | grow(&s->keys, S * d->att) |
		    grow(&s->att, S))
			return -1;
		s->cap_src = src_len;
	}
	if (max_steps > s->cap_steps) {
		size_t n = (size_t)max_steps * NMT_MAX_BEAM;
		if (grow_i32(&s->hist_tok, n) | grow_i32(&s->hist_parent, n) | grow_i32(&s->out_ids, n))
			return -1;
		s->cap_steps = max_steps;
	}
	return 0;
}

void nmt_state_free(nmt_state *s)
{
	float *floats[] = { s->layer_a, s->layer_b, s->enc_gi, s->enc_gh, s->enc_h0, s->enc_mean, s->keys, s->h, s->h_next,
			    s->xc, s->q, s->qv, s->att, s->gi, s->gh, s->z, s->z_next, s->t, s->logits };
	for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
		free(floats[i]);
	free(s->hist_tok);
	free(s->hist_parent);
	free(s->out_ids);
	free(s->shortlist);
	free(s->shortlist_marks);
	nmt_kscratch_free(&s->kq);
	memset(s, 0, sizeof *s);
}
