#include "precomp.h"

#include <stdlib.h>

#include "../../engine/engine.h"
#include "../../common/error.h"

size_t gru_precomp_src_cols(const engine_dims *d)
{
	return 6 * (size_t)d->enc_hidden;
}

size_t gru_precomp_tgt_cols(const engine_dims *d)
{
	return (size_t)d->att + 3 * (size_t)d->dec_hidden;
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
	int re = d->enc_hidden, tgt_cols = (int)gru_precomp_tgt_cols(d);
	quant_kscratch k;
	float *xs = embeddings(&m->src_emb, n_src), *xt = embeddings(&m->tgt_emb, n_tgt);
	int rc = -1;

	if (!xs || !xt || quant_kscratch_init(&k, d->emb, m->qdot) != 0)
		goto done;
	for (int dir = 0; dir < 2; dir++)
		quant_matmul(&m->gru.enc[0][dir].w_ih, xs, n_src, d->emb, m->gru.enc[0][dir].b_ih, enc + (size_t)dir * 3 * re,
			   6 * re, &k);
	quant_matmul(&m->gru.att_V, xt, n_tgt, d->emb, NULL, att, tgt_cols, &k);
	quant_matmul(&m->gru.dec_ih_x, xt, n_tgt, d->emb, NULL, att + d->att, tgt_cols, &k);
	quant_kscratch_free(&k);
	rc = 0;
done:
	free(xs);
	free(xt);
	return rc;
}

int gru_precomp_derive(nmt_model *m, long top, char *err, size_t errlen)
{
	const engine_dims *d = &m->d;
	int n_src = top < d->src_vocab ? (int)top : d->src_vocab, n_tgt = top < d->tgt_vocab ? (int)top : d->tgt_vocab;
	size_t src_floats = (size_t)n_src * gru_precomp_src_cols(d);
	float *t = malloc((src_floats + (size_t)n_tgt * gru_precomp_tgt_cols(d)) * sizeof *t);

	if (!t || gru_precomp_fill(m, n_src, n_tgt, t, t + src_floats) != 0) {
		free(t);
		return error_set(err, errlen, "out of memory for the precomputed tables");
	}
	m->gru.owned_precomp = t;
	m->gru.pre_src = n_src;
	m->gru.pre_tgt = n_tgt;
	m->gru.pre_enc = t;
	m->gru.pre_att = t + src_floats;
	return 0;
}
