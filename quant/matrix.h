/* A weight matrix as the kernels see it, and the matrix-product operations
 * the engine uses. A matrix points into the read-only model mapping; its
 * format decides which kernel reads it. Adding a format or an ISA means a new
 * kernel file behind nmt_matmul, not a change to the engine.

 * The byte layout of a q8/q4 matrix is format/weights.h's. */
#ifndef NMT_QUANT_MATRIX_H
#define NMT_QUANT_MATRIX_H
#include <stddef.h>
#include <stdint.h>

#include "../format/weights.h"

typedef struct {
	nmt_format format;
	int rows, cols;           /* y = W x maps cols inputs to rows outputs */
	const void *data;         /* f32: rows x cols, row-major; q8/q4: the codes in panels */
	const float *row_factor;  /* q8/q4: per row, scale / level[0]: the value of integer level 1 */
} nmt_matrix;

/* A linear layer: y = W x + b. */
typedef struct {
	nmt_matrix w;
	const float *b;            /* may be NULL */
} nmt_linear;

/* Scratch for the activations' int8 copies, owned by the caller (one per
 * thread), sized by nmt_kscratch_size for the widest matrix. */
struct nmt_qdot;

typedef struct {
	const struct nmt_qdot *qdot;   /* the dot products for q8/q4 (quant/qdot.h) */
	int8_t *xq;       /* NMT_KBATCH rows of padded columns */
	float *x_scale;   /* NMT_KBATCH */
	int cap_cols;
} nmt_kscratch;

/* Inputs quantized and multiplied together at most this many at a time. */
#define NMT_KBATCH 8

int nmt_kscratch_init(nmt_kscratch *k, int max_cols, const struct nmt_qdot *qdot);
void nmt_kscratch_free(nmt_kscratch *k);

/* Y[i][r] = bias[r] + sum_c W[r][c] * X[i][c]  for i < n, r < rows.
 * X is n rows of W->cols floats (stride ldx); Y is n rows of W->rows floats
 * (stride ldy). bias may be NULL. k is needed for q8/q4 (may be NULL for f32). */
void nmt_matmul(const nmt_matrix *W, const float *X, int n, int ldx,
		const float *bias, float *Y, int ldy, nmt_kscratch *k);

/* The same for a subset of W's rows (a shortlist): Y[i][j] = bias[rows[j]] +
 * W[rows[j]] . X[i] for j < n_rows. bias may be NULL. */
void nmt_matmul_rows(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X, int n,
		     int ldx, const float *bias, float *Y, int ldy, nmt_kscratch *k);

/* Bytes nmt_matrix_gather needs for n rows of a q8/q4 matrix (0 for f32,
 * whose products read rows where they are: nmt_matmul_rows). */
size_t nmt_matrix_gather_bytes(const nmt_matrix *W, int n);

/* Copy rows[0..n) of a q8/q4 matrix into `codes` (nmt_matrix_gather_bytes)
 * and their factors into `factors` [n], making *out an n-row matrix in the
 * panel layout: a shortlist's rows gathered once, then multiplied by the
 * panel kernels, several inputs per decoded weight. nmt_matmul on *out gives
 * exactly what nmt_matmul_rows on W gives. */
void nmt_matrix_gather(const nmt_matrix *W, const int32_t *rows, int n, void *codes, float *factors,
		       nmt_matrix *out);

/* One row of W as floats (an embedding lookup). */
void nmt_matrix_row(const nmt_matrix *W, int row, float *out);

#endif
