/* One step of the decoder for a set of hypotheses: Devlin's cheap attention,
 * the attentional GRU, the tied FC stack and the tied output layer
 * (docs/DESIGN.md §3, train/model.py NMT.step). */
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "gru.h"
#include "precomp.h"
#include "../../format/grow.h"
#include "../../quant/ew.h"

/* The products of each row's previous-word embedding x, V_a x and the
 * GRU's input projection of it, W_ih,x x: s->gru.dec.qv_row[i] and
 * s->gru.dec.gx_row[i] point at them, in a per-word table where one holds
 * the word, else in s->gru.dec.qv and s->gru.dec.gx, computed for all such
 * rows in one product each and kept in the translator's tables. */
static void embedding_products(engine_state *s, int n)
{
	const nmt_model *m = s->m;
	const engine_dims *d = &m->d;
	const gru_dims *gd = &m->gru.dims;
	int e = d->emb, a = gd->att, g = 3 * gd->dec_hidden, u = 0;

	for (int i = 0; i < n; i++) {
		const float *row = gru_tgt_row(s, s->row_prev[i]);
		if (row) {
			s->gru.dec.qv_row[i] = row;
			s->gru.dec.gx_row[i] = row + a;
		} else {
			quant_matrix_row(&m->tgt_emb, s->row_prev[i], s->gru.dec.x + (size_t)u * e);
			s->gru.dec.unc[u++] = i;
		}
	}
	quant_matmul(&m->gru.att_V, s->gru.dec.x, u, e, NULL, s->gru.dec.qv, a, &s->kq);
	quant_matmul(&m->gru.dec_ih_x, s->gru.dec.x, u, e, NULL, s->gru.dec.gx, g, &s->kq);
	for (int k = 0; k < u; k++) {
		int i = s->gru.dec.unc[k];
		s->gru.dec.qv_row[i] = s->gru.dec.qv + (size_t)k * a;
		s->gru.dec.gx_row[i] = s->gru.dec.gx + (size_t)k * g;
		gru_tgt_row_keep(s, s->row_prev[i], s->gru.dec.qv_row[i], s->gru.dec.gx_row[i]);
	}
}

/* q = tanh(W_a h + V_a x) for every row. */
static void attention_query(engine_state *s, int n)
{
	const nmt_model *m = s->m;
	const gru_dims *gd = &m->gru.dims;

	quant_matmul(&m->gru.att_W, s->gru.dec.h, n, gd->dec_hidden, NULL, s->gru.dec.q, gd->att, &s->kq);
	for (int i = 0; i < n; i++)
		s->ew->add(s->gru.dec.q + (size_t)i * gd->att, s->gru.dec.qv_row[i], gd->att);
	s->ew->tanh(s->gru.dec.q, n * gd->att);
}

/* α = softmax_j(q · k_j) over the row's own sentence, and the GRU's input
 * projection of the context c = Σ_j α_j s_j, which is Σ_j α_j (W_ih,c s_j):
 * the projected states the encoder left in s->gru.enc.proj, weighed, into s->gru.dec.gi.
 * A sentence's rows (its hypotheses) go together: its keys multiply all of
 * their queries in one product, and its projected states are read once
 * for all of their weighed sums. */
static void attention_context(engine_state *s, int n)
{
	const gru_dims *gd = &s->m->gru.dims;
	int g = 3 * gd->dec_hidden;

	for (int i0 = 0, i1; i0 < n; i0 = i1) {
		for (i1 = i0 + 1; i1 < n && s->row_sent[i1] == s->row_sent[i0]; i1++)
			;
		const engine_sentence *st = &s->sent[s->row_sent[i0]];
		int S = st->src_len;
		quant_matrix keys = { .format = FORMAT_F32, .rows = S, .cols = gd->att,
				    .data = s->gru.enc.keys + (size_t)st->src_off * gd->att };
		quant_matmul(&keys, s->gru.dec.q + (size_t)i0 * gd->att, i1 - i0, gd->att, NULL, s->gru.dec.att, S, &s->kq);
		for (int i = 0; i < i1 - i0; i++)
			s->ew->softmax(s->gru.dec.att + (size_t)i * S, S);
		for (int i = 0; s->hist.keep_att && i < i1 - i0; i++)   /* kept for the alignments */
			memcpy(s->hist.step_att + (size_t)(i0 + i) * s->hist.att_stride, s->gru.dec.att + (size_t)i * S, (size_t)S * sizeof(float));
		s->ew->weighted_sum(s->gru.dec.att, i1 - i0, s->gru.enc.proj + (size_t)st->src_off * g, S, g,
					     s->gru.dec.gi + (size_t)i0 * g);
	}
}

/* gi = (W_ih,c c + b_ih) + W_ih,x x: the input projection in two parts, the
 * context's weighed from the projected states, the embedding's computed
 * (or looked up) once per word. */
static void gru_cell_step(engine_state *s, int n)
{
	const nmt_model *m = s->m;
	const gru_dims *gd = &m->gru.dims;
	int r = gd->dec_hidden, g = 3 * r;

	for (int i = 0; i < n; i++) {   /* (gi + b_ih) + gx */
		s->ew->add(s->gru.dec.gi + (size_t)i * g, m->gru.dec.b_ih, g);
		s->ew->add(s->gru.dec.gi + (size_t)i * g, s->gru.dec.gx_row[i], g);
	}
	quant_matmul(&m->gru.dec.w_hh, s->gru.dec.h, n, r, m->gru.dec.b_hh, s->gru.dec.gh, g, &s->kq);
	for (int i = 0; i < n; i++)
		s->ew->gru_cell(r, s->gru.dec.gi + (size_t)i * g, s->gru.dec.gh + (size_t)i * g, s->gru.dec.h + (size_t)i * r,
					 s->gru.dec.h_next + (size_t)i * r);
}

/* z_0 = relu(W_in h + b); z_k = relu(W_fc z_{k-1} + b_fc) + z_{k-1};
 * t = tanh(W_T z_N + b_T). */
static void fc_stack(engine_state *s, int n)
{
	const nmt_model *m = s->m;
	const engine_dims *d = &m->d;
	const gru_dims *gd = &m->gru.dims;
	int f = gd->fc;

	quant_matmul(&m->gru.fc_in.w, s->gru.dec.h_next, n, gd->dec_hidden, m->gru.fc_in.b, s->gru.dec.z, f, &s->kq);
	s->ew->relu(s->gru.dec.z, n * f);
	for (int layer = 0; layer < gd->fc_layers; layer++) {
		quant_matmul(&m->gru.fc.w, s->gru.dec.z, n, f, m->gru.fc.b, s->gru.dec.z_next, f, &s->kq);
		s->ew->add_relu(s->gru.dec.z, s->gru.dec.z_next, n * f);
	}
	quant_matmul(&m->gru.top.w, s->gru.dec.z, n, f, m->gru.top.b, s->gru.dec.t, d->emb, &s->kq);
	s->ew->tanh(s->gru.dec.t, n * d->emb);
}

void gru_step(engine_state *s, int n)
{
	embedding_products(s, n);
	attention_query(s, n);
	attention_context(s, n);
	gru_cell_step(s, n);
	fc_stack(s, n);
	engine_output_layer(s, s->gru.dec.t, n);
}

/* Grow array p to n elements; a failure sets the caller's `failed`. */
#define GROW(p, n) (failed |= format_grow(&(p), (n), sizeof *(p)))

int gru_decoder_reserve(gru_decoder_state *dec, const nmt_model *m, int rows, int positions)
{
	const engine_dims *d = &m->d;
	const gru_dims *gd = &m->gru.dims;
	int failed = 0;
	size_t R = (size_t)rows;

	if (rows > dec->cap_rows) {
		GROW(dec->h, R * gd->dec_hidden);
		GROW(dec->h_next, R * gd->dec_hidden);
		GROW(dec->x, R * d->emb);
		GROW(dec->q, R * gd->att);
		GROW(dec->qv, R * gd->att);
		GROW(dec->gi, R * 3 * gd->dec_hidden);
		GROW(dec->gh, R * 3 * gd->dec_hidden);
		GROW(dec->gx, R * 3 * gd->dec_hidden);
		GROW(dec->qv_row, R);
		GROW(dec->gx_row, R);
		GROW(dec->unc, R);
		GROW(dec->z, R * gd->fc);
		GROW(dec->z_next, R * gd->fc);
		GROW(dec->t, R * d->emb);
		if (failed)
			return -1;
		dec->cap_rows = rows;
	}
	if (positions > dec->cap_src) {
		GROW(dec->att, (size_t)positions * NMT_MAX_BEAM);   /* a sentence's hypotheses' weights */
		if (failed)
			return -1;
		dec->cap_src = positions;
	}
	return 0;
}

void gru_decoder_free(gru_decoder_state *dec)
{
	void *p[] = { dec->h, dec->h_next, dec->x, dec->q, dec->qv, (void *)dec->qv_row, (void *)dec->gx_row, dec->unc,
		      dec->att, dec->gi, dec->gh, dec->gx, dec->z, dec->z_next, dec->t };
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		free(p[i]);
	memset(dec, 0, sizeof *dec);
}
