/* The bidirectional GRU encoder, attention keys and the decoder's initial
 * state (design-notes §1, train/model.py NMT.encode). */
#include <string.h>

#include "../quant/vecmath.h"
#include "engine.h"

/* Run one direction of one layer over S positions. `in` has S rows of
 * in_dim floats; the outputs go to column block dir*re of `out` (stride 2re). */
static void gru_direction(nmt_state *s, const nmt_gru *g, const float *in, int in_dim, int S,
			  int dir, float *out)
{
	int re = s->m->d.enc_hidden, ctx = 2 * re;

	/* All input projections at once: one matrix product instead of S. */
	nmt_matmul(&g->w_ih, in, S, in_dim, g->b_ih, s->enc_gi, 3 * re, &s->kq);
	const float *h = s->enc_h0;
	for (int i = 0; i < S; i++) {
		int t = dir == 0 ? i : S - 1 - i;
		float *h_out = out + (size_t)t * ctx + (size_t)dir * re;
		nmt_matmul(&g->w_hh, h, 1, re, g->b_hh, s->enc_gh, 3 * re, &s->kq);
		nmt_gru_cell(re, s->enc_gi + (size_t)t * 3 * re, s->enc_gh, h, h_out);
		h = h_out;
	}
}

/* h_0 = tanh(W_init mean_j(s_j) + b_init) into row 0 of s->h. */
static void initial_state(nmt_state *s, int S)
{
	const nmt_model *m = s->m;
	int ctx = 2 * m->d.enc_hidden;
	float *mean = s->enc_mean;

	memset(mean, 0, (size_t)ctx * sizeof *mean);
	for (int j = 0; j < S; j++)
		for (int k = 0; k < ctx; k++)
			mean[k] += s->states[(size_t)j * ctx + k];
	for (int k = 0; k < ctx; k++)
		mean[k] /= (float)S;
	nmt_matmul(&m->init.w, mean, 1, ctx, m->init.b, s->h, m->d.dec_hidden, &s->kq);
	nmt_vec_tanh(s->h, m->d.dec_hidden);
}

void nmt_encode(nmt_state *s, const int32_t *src, int S)
{
	const nmt_model *m = s->m;
	const nmt_dims *d = &m->d;
	int ctx = 2 * d->enc_hidden;
	float *in = s->layer_a, *out = s->layer_b;

	for (int j = 0; j < S; j++)
		nmt_matrix_row(&m->src_emb, src[j], in + (size_t)j * d->emb);
	for (int l = 0; l < d->enc_layers; l++) {
		int in_dim = l ? ctx : d->emb;
		gru_direction(s, &m->enc[l][0], in, in_dim, S, 0, out);
		gru_direction(s, &m->enc[l][1], in, in_dim, S, 1, out);
		float *tmp = in;
		in = out;
		out = tmp;
	}
	s->states = in;
	s->src_len = S;
	nmt_matmul(&m->att_U, s->states, S, ctx, NULL, s->keys, d->att, &s->kq);
	nmt_vec_tanh(s->keys, S * d->att);
	initial_state(s, S);
}
