#include "precomp.h"

#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../format/error.h"
#include "../format/format.h"

/* Embeddings of ids 0..n-1 of E, as the engine looks them up. */
static float *embeddings(const nmt_matrix *E, int n)
{
	float *x = malloc((size_t)n * (size_t)E->cols * sizeof *x);
	if (x)
		for (int id = 0; id < n; id++)
			nmt_matrix_row(E, id, x + (size_t)id * E->cols);
	return x;
}

/* The tables, written where the section puts them: the same products the
 * engine would run (nmt_matmul gives each row the same result whatever
 * the other rows, on every ISA). */
static int fill(const nmt_model *m, int n_src, int n_tgt, float *enc, float *att, nmt_kscratch *k)
{
	const nmt_dims *d = &m->d;
	int re = d->enc_hidden;
	float *xs = embeddings(&m->src_emb, n_src), *xt = embeddings(&m->tgt_emb, n_tgt);

	if ((n_src && !xs) || (n_tgt && !xt)) {
		free(xs);
		free(xt);
		return -1;
	}
	for (int dir = 0; dir < 2; dir++)
		nmt_matmul(&m->enc[0][dir].w_ih, xs, n_src, d->emb, m->enc[0][dir].b_ih, enc + (size_t)dir * 3 * re,
			   6 * re, k);
	int tgt_cols = d->att + 3 * d->dec_hidden;
	nmt_matmul(&m->att_V, xt, n_tgt, d->emb, NULL, att, tgt_cols, k);
	nmt_matmul(&m->dec_ih_x, xt, n_tgt, d->emb, NULL, att + d->att, tgt_cols, k);
	free(xs);
	free(xt);
	return 0;
}

int pack_precomp(const char *path, int top, uint8_t **blob, size_t *len, char *err, size_t errlen)
{
	nmt_model *m;
	nmt_kscratch k;

	if (nmt_load_file(path, 0, &m, err, errlen) != 0)
		return -1;
	const nmt_dims *d = &m->d;
	int n_src = top < d->src_vocab ? top : d->src_vocab, n_tgt = top < d->tgt_vocab ? top : d->tgt_vocab;
	size_t enc_cols = 6 * (size_t)d->enc_hidden;
	size_t tgt_cols = (size_t)d->att + 3 * (size_t)d->dec_hidden;
	*len = 16 + 4 * ((size_t)n_src * enc_cols + (size_t)n_tgt * tgt_cols);
	*blob = malloc(*len);
	if (!*blob || nmt_kscratch_init(&k, d->emb, m->qdot) != 0) {
		free(*blob);
		nmt_unload(m);
		return nmt_fail(err, errlen, "out of memory");
	}
	nmt_wr32(*blob, (uint32_t)n_src);
	nmt_wr32(*blob + 4, (uint32_t)n_tgt);
	nmt_wr32(*blob + 8, (uint32_t)enc_cols);
	nmt_wr32(*blob + 12, (uint32_t)tgt_cols);
	float *enc = (float *)(*blob + 16);   /* malloc's alignment suits floats; little-endian host */
	int rc = fill(m, n_src, n_tgt, enc, enc + (size_t)n_src * enc_cols, &k);
	nmt_kscratch_free(&k);
	nmt_unload(m);
	if (rc != 0) {
		free(*blob);
		return nmt_fail(err, errlen, "out of memory");
	}
	return 0;
}
