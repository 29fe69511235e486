/* The bidirectional GRU encoder, attention keys and the decoder's initial
 * state (docs/DESIGN.md §3, train/model.py NMT.encode), for a batch of
 * sentences whose positions lie one after the other. */
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "gru.h"
#include "precomp.h"
#include "../../format/grow.h"
#include "../../quant/ew.h"

/* Gather into s->gru.enc.h the state each sentence still running at step i of
 * direction dir continues from (zeros at its start), and into s->gru.enc.pos
 * the position it writes next. Returns how many there are. */
static int running_rows(engine_state *s, int i, int dir, const float *out)
{
	int re = s->m->gru.dims.enc_hidden, ctx = 2 * re, m = 0;

	for (int j = 0; j < s->n_sents; j++) {
		const engine_sentence *st = &s->sent[j];
		if (i >= st->src_len)
			continue;
		int t = dir == 0 ? i : st->src_len - 1 - i;
		float *h = s->gru.enc.h + (size_t)m * re;
		if (i == 0)
			memset(h, 0, (size_t)re * sizeof *h);
		else
			memcpy(h, out + (size_t)(st->src_off + (dir == 0 ? t - 1 : t + 1)) * ctx + (size_t)dir * re,
			       (size_t)re * sizeof *h);
		s->gru.enc.pos[m++] = st->src_off + t;
	}
	return m;
}

/* The first layer's input projections from the per-word tables where they
 * hold the word, computed for the other positions (their embeddings
 * gathered into one product) and kept in the translator's tables. */
static void table_projections(engine_state *s, const gru_layer *g, int dir)
{
	const nmt_model *m = s->m;
	int re = m->gru.dims.enc_hidden, e = m->d.emb, n = 0;
	size_t cols = 3 * (size_t)re;

	for (int p = 0; p < s->total_src; p++) {
		int32_t id = s->gru.enc.src_ids[p];
		const float *row = gru_src_row(s, id, dir);
		if (row)
			memcpy(s->gru.enc.gi + (size_t)p * cols, row, cols * sizeof *row);
		else {
			quant_matrix_row(&m->src_emb, id, s->gru.enc.x + (size_t)n * e);
			s->gru.enc.unc[n++] = p;
		}
	}
	quant_matmul(&g->w_ih, s->gru.enc.x, n, e, g->b_ih, s->gru.enc.gi_u, 3 * re, &s->kq);
	for (int k = 0; k < n; k++) {
		const float *row = s->gru.enc.gi_u + (size_t)k * cols;
		int p = s->gru.enc.unc[k];
		memcpy(s->gru.enc.gi + (size_t)p * cols, row, cols * sizeof *row);
		gru_src_row_keep(s, s->gru.enc.src_ids[p], dir, row);
	}
}

/* Run one direction of one layer over every sentence. `in` has a row of
 * in_dim floats per position (unused for a first layer with precomputed
 * projections); the outputs go to column block dir*re of `out` (stride
 * 2re). Step i advances all sentences at once, so the recurrent product has
 * one input per sentence. */
static void gru_direction(engine_state *s, int layer, int dir, const float *in, float *out)
{
	const gru_layer *g = &s->m->gru.enc[layer][dir];
	int re = s->m->gru.dims.enc_hidden, ctx = 2 * re, in_dim = layer ? ctx : s->m->d.emb;

	if (layer == 0 && gru_has_src_tables(s->m))
		table_projections(s, g, dir);
	else   /* all input projections at once: one matrix product instead of one per position */
		quant_matmul(&g->w_ih, in, s->total_src, in_dim, g->b_ih, s->gru.enc.gi, 3 * re, &s->kq);
	for (int i = 0; i < s->max_src; i++) {
		int m = running_rows(s, i, dir, out);
		quant_matmul(&g->w_hh, s->gru.enc.h, m, re, g->b_hh, s->gru.enc.gh, 3 * re, &s->kq);
		for (int k = 0; k < m; k++) {
			size_t pos = (size_t)s->gru.enc.pos[k];
			s->ew->gru_cell(re, s->gru.enc.gi + pos * 3 * re, s->gru.enc.gh + (size_t)k * 3 * re,
				     s->gru.enc.h + (size_t)k * re, out + pos * ctx + (size_t)dir * re);
		}
	}
}

/* h_0 = tanh(W_init mean_j(s_j) + b_init) for sentence i, into s->gru.enc.h0 row i. */
static void initial_state(engine_state *s, int i)
{
	const nmt_model *m = s->m;
	const engine_sentence *st = &s->sent[i];
	int ctx = 2 * m->gru.dims.enc_hidden;
	float *mean = s->gru.enc.mean, *h0 = s->gru.enc.h0 + (size_t)i * m->gru.dims.dec_hidden;
	const float *states = s->gru.enc.states + (size_t)st->src_off * ctx;

	memset(mean, 0, (size_t)ctx * sizeof *mean);
	for (int j = 0; j < st->src_len; j++)
		for (int k = 0; k < ctx; k++)
			mean[k] += states[(size_t)j * ctx + k];
	for (int k = 0; k < ctx; k++)
		mean[k] /= (float)st->src_len;
	quant_matmul(&m->gru.init.w, mean, 1, ctx, m->gru.init.b, h0, m->gru.dims.dec_hidden, &s->kq);
	s->ew->tanh(h0, m->gru.dims.dec_hidden);
}

void gru_encode(engine_state *s, const int32_t *const *src)
{
	const nmt_model *m = s->m;
	const engine_dims *d = &m->d;
	const gru_dims *gd = &m->gru.dims;
	int ctx = 2 * gd->enc_hidden;
	float *in = s->gru.enc.layer_a, *out = s->gru.enc.layer_b;

	for (int i = 0; i < s->n_sents; i++)
		memcpy(s->gru.enc.src_ids + s->sent[i].src_off, src[i], (size_t)s->sent[i].src_len * sizeof *s->gru.enc.src_ids);
	if (!gru_has_src_tables(m))
		for (int p = 0; p < s->total_src; p++)
			quant_matrix_row(&m->src_emb, s->gru.enc.src_ids[p], in + (size_t)p * d->emb);
	for (int l = 0; l < gd->enc_layers; l++) {
		gru_direction(s, l, 0, in, out);
		gru_direction(s, l, 1, in, out);
		float *tmp = in;
		in = out;
		out = tmp;
	}
	s->gru.enc.states = in;
	quant_matmul(&m->gru.att_U, s->gru.enc.states, s->total_src, ctx, NULL, s->gru.enc.keys, gd->att, &s->kq);
	s->ew->tanh(s->gru.enc.keys, s->total_src * gd->att);
	/* The decoder GRU's input projection of the context is that of the
	 * states weighed by the attention, W_ih,c c_i = sum_j a_ij (W_ih,c s_j):
	 * each state projected once here, in one product over the batch, not
	 * each step's context per hypothesis (docs/DESIGN.md §4). They take the
	 * memory of the encoder's input projections, needed no more. */
	s->gru.enc.proj = s->gru.enc.gi;
	quant_matmul(&m->gru.dec_ih_c, s->gru.enc.states, s->total_src, ctx, NULL, s->gru.enc.proj, 3 * gd->dec_hidden, &s->kq);
	for (int i = 0; i < s->n_sents; i++)
		initial_state(s, i);
}

/* Grow array p to n elements; a failure sets the caller's `failed`. */
#define GROW(p, n) (failed |= format_grow(&(p), (n), sizeof *(p)))

int gru_encoder_reserve(gru_encoder_state *e, const nmt_model *m, int n_sents, int positions, int uncovered)
{
	const engine_dims *d = &m->d;
	const gru_dims *gd = &m->gru.dims;
	int failed = 0;
	size_t ctx = 2 * (size_t)gd->enc_hidden, width = ctx > (size_t)d->emb ? ctx : (size_t)d->emb;
	size_t gi = 3 * (size_t)(gd->enc_hidden > gd->dec_hidden ? gd->enc_hidden : gd->dec_hidden);

	if (!e->mean) {
		GROW(e->mean, ctx);
		if (failed)
			return -1;
	}
	if (n_sents > e->cap_sents) {
		size_t n = (size_t)n_sents;
		GROW(e->h, n * gd->enc_hidden);
		GROW(e->gh, n * 3 * gd->enc_hidden);
		GROW(e->pos, n);
		GROW(e->h0, n * gd->dec_hidden);
		if (failed)
			return -1;
		e->cap_sents = n_sents;
	}
	if (positions > e->cap_src) {
		size_t P = (size_t)positions;
		GROW(e->layer_a, P * width);
		GROW(e->layer_b, P * width);
		GROW(e->gi, P * gi);   /* also the projected states: engine.h */
		GROW(e->src_ids, P);
		GROW(e->keys, P * gd->att);
		if (failed)
			return -1;
		e->cap_src = positions;
	}
	/* the first layer's positions whose word has no precomputed
	 * projections: their embeddings and projections are computed together */
	if (uncovered > e->cap_unc) {
		size_t N = (size_t)uncovered;
		GROW(e->unc, N);
		GROW(e->x, N * d->emb);
		GROW(e->gi_u, N * 3 * gd->enc_hidden);
		if (failed)
			return -1;
		e->cap_unc = uncovered;
	}
	return 0;
}

void gru_encoder_free(gru_encoder_state *e)
{
	void *p[] = { e->layer_a, e->layer_b, e->gi, e->src_ids, e->unc, e->x, e->gi_u,
		      e->h, e->gh, e->pos, e->mean, e->keys, e->h0 };
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		free(p[i]);
	memset(e, 0, sizeof *e);
}
