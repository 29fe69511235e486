#include "precomp.h"

#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"

size_t gru_precomp_src_cols(const gru_dims *gd)
{
	return 6 * (size_t)gd->enc_hidden;
}

size_t gru_precomp_tgt_cols(const gru_dims *gd)
{
	return (size_t)gd->att + 3 * (size_t)gd->dec_hidden;
}

/* Embeddings of ids 0..n-1 of E, as the engine looks them up. */
static float *embeddings(const quant_matrix *E, int n)
{
	float *x = malloc((size_t)(n > 0 ? n : 1) * (size_t)E->cols * sizeof *x);
	if (x)
		for (int id = 0; id < n; id++)
			quant_matrix_row(E, id, x + (size_t)id * E->cols);
	return x;
}

/* quant_matmul gives each row the same result whatever the other rows, on
 * every ISA: the tables hold exactly what the step would compute. */
int gru_precomp_fill(const nmt_model *m, int n_src, int n_tgt, float *enc, float *att)
{
	const engine_dims *d = &m->d;
	const gru_dims *gd = &m->gru.dims;
	int re = gd->enc_hidden, tgt_cols = (int)gru_precomp_tgt_cols(gd);
	quant_kscratch k;
	float *xs = embeddings(&m->src_emb, n_src), *xt = embeddings(&m->tgt_emb, n_tgt);
	int rc = -1;

	if (!xs || !xt || quant_kscratch_init(&k, d->emb, m->qdot) != 0)
		goto done;
	for (int dir = 0; dir < 2; dir++)
		quant_matmul(&m->gru.enc[0][dir].w_ih, xs, n_src, d->emb, m->gru.enc[0][dir].b_ih, enc + (size_t)dir * 3 * re,
			   6 * re, &k);
	quant_matmul(&m->gru.att_V, xt, n_tgt, d->emb, NULL, att, tgt_cols, &k);
	quant_matmul(&m->gru.dec_ih_x, xt, n_tgt, d->emb, NULL, att + gd->att, tgt_cols, &k);
	quant_kscratch_free(&k);
	rc = 0;
done:
	free(xs);
	free(xt);
	return rc;
}

int gru_has_src_tables(const nmt_model *m)
{
	return m->gru.pre_src > 0 || m->gru.cache_src > 0;
}

int gru_word_tables_reserve(gru_word_tables *w, const nmt_model *m)
{
	const gru_weights *g = &m->gru;
	/* reserved already, or none asked for (cache_src and cache_tgt are both
	 * 0 or both at least 1: precompute=K against vocabularies of >= 1 id) */
	if (w->enc || g->cache_src == 0)
		return 0;
	/* malloc'd, not cleared: a row's pages are touched when its word is met */
	w->enc = malloc((size_t)g->cache_src * gru_precomp_src_cols(&m->gru.dims) * sizeof *w->enc);
	w->att = malloc((size_t)g->cache_tgt * gru_precomp_tgt_cols(&m->gru.dims) * sizeof *w->att);
	w->enc_have = calloc((size_t)g->cache_src, 1);
	w->att_have = calloc((size_t)g->cache_tgt, 1);
	if (w->enc && w->att && w->enc_have && w->att_have)
		return 0;
	gru_word_tables_free(w);
	return -1;
}

void gru_word_tables_free(gru_word_tables *w)
{
	free(w->enc);
	free(w->att);
	free(w->enc_have);
	free(w->att_have);
	memset(w, 0, sizeof *w);
}

const float *gru_src_row(const engine_state *s, int32_t id, int dir)
{
	const gru_weights *g = &s->m->gru;
	size_t cols = 3 * (size_t)s->m->gru.dims.enc_hidden, at = ((size_t)id * 2 + (size_t)dir) * cols;
	if (id < g->pre_src)
		return g->pre_enc + at;
	if (id < g->cache_src && s->gru.words.enc_have[id] >> dir & 1)
		return s->gru.words.enc + at;
	return NULL;
}

void gru_src_row_keep(engine_state *s, int32_t id, int dir, const float *row)
{
	if (id >= s->m->gru.cache_src || id < s->m->gru.pre_src)
		return;
	size_t cols = 3 * (size_t)s->m->gru.dims.enc_hidden;
	memcpy(s->gru.words.enc + ((size_t)id * 2 + (size_t)dir) * cols, row, cols * sizeof *row);
	s->gru.words.enc_have[id] |= (uint8_t)(1u << dir);
}

const float *gru_tgt_row(const engine_state *s, int32_t id)
{
	const gru_weights *g = &s->m->gru;
	size_t at = (size_t)id * gru_precomp_tgt_cols(&s->m->gru.dims);
	if (id < g->pre_tgt)
		return g->pre_att + at;
	if (id < g->cache_tgt && s->gru.words.att_have[id])
		return s->gru.words.att + at;
	return NULL;
}

void gru_tgt_row_keep(engine_state *s, int32_t id, const float *qv, const float *gx)
{
	if (id >= s->m->gru.cache_tgt || id < s->m->gru.pre_tgt)
		return;
	size_t a = (size_t)s->m->gru.dims.att, g = 3 * (size_t)s->m->gru.dims.dec_hidden;
	float *row = s->gru.words.att + (size_t)id * (a + g);
	memcpy(row, qv, a * sizeof *row);
	memcpy(row + a, gx, g * sizeof *row);
	s->gru.words.att_have[id] = 1;
}
