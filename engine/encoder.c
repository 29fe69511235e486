/* The bidirectional GRU encoder, attention keys and the decoder's initial
 * state (docs/DESIGN.md §3, train/model.py NMT.encode), for a batch of
 * sentences whose positions lie one after the other. */
#include <string.h>

#include "engine.h"
#include "../quant/ew.h"

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

/* The first layer's input projections from the model's precomputed table
 * where it has the word, computed for the other positions (their
 * embeddings gathered into one product). */
static void precomputed_projections(nmt_state *s, const nmt_gru *g, int dir)
{
	const nmt_model *m = s->m;
	int re = m->d.enc_hidden, e = m->d.emb, n = 0;

	for (int p = 0; p < s->total_src; p++) {
		int32_t id = s->src_ids[p];
		if (id < m->pre_src)
			memcpy(s->enc_gi + (size_t)p * 3 * re, m->pre_enc + ((size_t)id * 2 + (size_t)dir) * 3 * re,
			       (size_t)3 * re * sizeof(float));
		else {
			nmt_matrix_row(&m->src_emb, id, s->enc_x + (size_t)n * e);
			s->enc_unc[n++] = p;
		}
	}
	nmt_matmul(&g->w_ih, s->enc_x, n, e, g->b_ih, s->enc_gi_u, 3 * re, &s->kq);
	for (int k = 0; k < n; k++)
		memcpy(s->enc_gi + (size_t)s->enc_unc[k] * 3 * re, s->enc_gi_u + (size_t)k * 3 * re,
		       (size_t)3 * re * sizeof(float));
}

/* Run one direction of one layer over every sentence. `in` has a row of
 * in_dim floats per position (unused for a first layer with precomputed
 * projections); the outputs go to column block dir*re of `out` (stride
 * 2re). Step i advances all sentences at once, so the recurrent product has
 * one input per sentence. */
static void gru_direction(nmt_state *s, int layer, int dir, const float *in, float *out)
{
	const nmt_gru *g = &s->m->enc[layer][dir];
	int re = s->m->d.enc_hidden, ctx = 2 * re, in_dim = layer ? ctx : s->m->d.emb;

	if (layer == 0 && s->m->pre_src > 0)
		precomputed_projections(s, g, dir);
	else   /* all input projections at once: one matrix product instead of one per position */
		nmt_matmul(&g->w_ih, in, s->total_src, in_dim, g->b_ih, s->enc_gi, 3 * re, &s->kq);
	for (int i = 0; i < s->max_src; i++) {
		int m = running_rows(s, i, dir, out);
		nmt_matmul(&g->w_hh, s->enc_h, m, re, g->b_hh, s->enc_gh, 3 * re, &s->kq);
		for (int k = 0; k < m; k++) {
			size_t pos = (size_t)s->enc_pos[k];
			s->ew->gru_cell(re, s->enc_gi + pos * 3 * re, s->enc_gh + (size_t)k * 3 * re,
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
	s->ew->tanh(h0, m->d.dec_hidden);
}

void nmt_encode(nmt_state *s, const int32_t *const *src)
{
	const nmt_model *m = s->m;
	const nmt_dims *d = &m->d;
	int ctx = 2 * d->enc_hidden;
	float *in = s->layer_a, *out = s->layer_b;

	for (int i = 0; i < s->n_sents; i++)
		memcpy(s->src_ids + s->sent[i].src_off, src[i], (size_t)s->sent[i].src_len * sizeof *s->src_ids);
	if (m->pre_src == 0)
		for (int p = 0; p < s->total_src; p++)
			nmt_matrix_row(&m->src_emb, s->src_ids[p], in + (size_t)p * d->emb);
	for (int l = 0; l < d->enc_layers; l++) {
		gru_direction(s, l, 0, in, out);
		gru_direction(s, l, 1, in, out);
		float *tmp = in;
		in = out;
		out = tmp;
	}
	s->states = in;
	nmt_matmul(&m->att_U, s->states, s->total_src, ctx, NULL, s->keys, d->att, &s->kq);
	s->ew->tanh(s->keys, s->total_src * d->att);
	/* The decoder GRU's input projection of the context is that of the
	 * states weighed by the attention, W_ih,c c_i = sum_j a_ij (W_ih,c s_j):
	 * each state projected once here, in one product over the batch, not
	 * each step's context per hypothesis (docs/DESIGN.md §4). They take the
	 * memory of the encoder's input projections, needed no more. */
	s->proj = s->enc_gi;
	nmt_matmul(&m->dec_ih_c, s->states, s->total_src, ctx, NULL, s->proj, 3 * d->dec_hidden, &s->kq);
	for (int i = 0; i < s->n_sents; i++)
		initial_state(s, i);
}
