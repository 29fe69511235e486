/* The bidirectional GRU encoder, attention keys and the decoder's initial
 * state (design-notes §1, train/model.py NMT.encode), for a batch of
 * sentences whose positions lie one after the other. */
#include <string.h>

#include "../quant/vecmath.h"
#include "engine.h"

/* Gather into s->enc_h the state each sentence still running at step i of
 * direction dir continues from (zeros at its start), and into s->enc_pos
 * the position it writes next. Returns how many there are. */
static int running_rows(nmt_state *s, int i, int dir, const float *out)
{
	int re = s->m->d.enc_hidden, ctx = 2 * re, m = 0;

	for (int j = 0; j < s->n_sents; j++) {
		const nmt_sentence *st = &s->sent[j];
		if (i >= st->src_len)
			continue;
		int t = dir == 0 ? i : st->src_len - 1 - i;
		float *h = s->enc_h + (size_t)m * re;
		if (i == 0)
			memset(h, 0, (size_t)re * sizeof *h);
		else
			memcpy(h, out + (size_t)(st->src_off + (dir == 0 ? t - 1 : t + 1)) * ctx + (size_t)dir * re,
			       (size_t)re * sizeof *h);
		s->enc_pos[m++] = st->src_off + t;
	}
	return m;
}

/* Run one direction of one layer over every sentence. `in` has a row of
 * in_dim floats per position; the outputs go to column block dir*re of
 * `out` (stride 2re). Step i advances all sentences at once, so the
 * recurrent product has one input per sentence. */
static void gru_direction(nmt_state *s, const nmt_gru *g, const float *in, int in_dim, int dir, float *out)
{
	int re = s->m->d.enc_hidden, ctx = 2 * re;

	/* All input projections at once: one matrix product instead of one per position. */
	nmt_matmul(&g->w_ih, in, s->total_src, in_dim, g->b_ih, s->enc_gi, 3 * re, &s->kq);
	for (int i = 0; i < s->max_src; i++) {
		int m = running_rows(s, i, dir, out);
		nmt_matmul(&g->w_hh, s->enc_h, m, re, g->b_hh, s->enc_gh, 3 * re, &s->kq);
		for (int k = 0; k < m; k++) {
			size_t pos = (size_t)s->enc_pos[k];
			nmt_gru_cell(re, s->enc_gi + pos * 3 * re, s->enc_gh + (size_t)k * 3 * re,
				     s->enc_h + (size_t)k * re, out + pos * ctx + (size_t)dir * re);
		}
	}
}

/* h_0 = tanh(W_init mean_j(s_j) + b_init) for sentence i, into s->h0 row i. */
static void initial_state(nmt_state *s, int i)
{
	const nmt_model *m = s->m;
	const nmt_sentence *st = &s->sent[i];
	int ctx = 2 * m->d.enc_hidden;
	float *mean = s->enc_mean, *h0 = s->h0 + (size_t)i * m->d.dec_hidden;
	const float *states = s->states + (size_t)st->src_off * ctx;

	memset(mean, 0, (size_t)ctx * sizeof *mean);
	for (int j = 0; j < st->src_len; j++)
		for (int k = 0; k < ctx; k++)
			mean[k] += states[(size_t)j * ctx + k];
	for (int k = 0; k < ctx; k++)
		mean[k] /= (float)st->src_len;
	nmt_matmul(&m->init.w, mean, 1, ctx, m->init.b, h0, m->d.dec_hidden, &s->kq);
	nmt_vec_tanh(h0, m->d.dec_hidden);
}

void nmt_encode(nmt_state *s, const int32_t *const *src)
{
	const nmt_model *m = s->m;
	const nmt_dims *d = &m->d;
	int ctx = 2 * d->enc_hidden;
	float *in = s->layer_a, *out = s->layer_b;

	for (int i = 0; i < s->n_sents; i++)
		for (int j = 0; j < s->sent[i].src_len; j++)
			nmt_matrix_row(&m->src_emb, src[i][j], in + (size_t)(s->sent[i].src_off + j) * d->emb);
	for (int l = 0; l < d->enc_layers; l++) {
		int in_dim = l ? ctx : d->emb;
		gru_direction(s, &m->enc[l][0], in, in_dim, 0, out);
		gru_direction(s, &m->enc[l][1], in, in_dim, 1, out);
		float *tmp = in;
		in = out;
		out = tmp;
	}
	s->states = in;
	nmt_matmul(&m->att_U, s->states, s->total_src, ctx, NULL, s->keys, d->att, &s->kq);
	nmt_vec_tanh(s->keys, s->total_src * d->att);
	for (int i = 0; i < s->n_sents; i++)
		initial_state(s, i);
}
