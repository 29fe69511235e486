/* A weight matrix as the kernels see it, and the matrix-product operations
 * the engine uses. A matrix points into the read-only model mapping; its
 * format decides which kernel reads it. Adding a format or an ISA means a new
 * kernel file behind quant_matmul, not a change to the engine.

 * The byte layout of a q8/q4 matrix is format/weights.h's. */
#ifndef QUANT_MATRIX_H
#define QUANT_MATRIX_H
#include <stddef.h>
#include <stdint.h>

#include "../format/weights.h"

typedef struct {
	format_encoding format;
	int rows, cols;           /* y = W x maps cols inputs to rows outputs */
	const void *data;         /* f32: rows x cols, row-major; q8/q4: the codes in panels */
	const float *row_factor;  /* q8/q4: per row, scale / level[0]: the value of integer level 1 */
} quant_matrix;

/* A linear layer: y = W x + b. */
typedef struct {
	quant_matrix w;
	const float *b;            /* may be NULL */
} quant_linear;

/* Scratch for the activations' int8 copies, owned by the caller (one per
 * thread), sized by quant_kscratch_size for the widest matrix. */
struct quant_qdot;

typedef struct {
	const struct quant_qdot *qdot; /* the dot products for q8/q4 (quant/qdot.h) */
	int8_t *xq;       /* QUANT_KBATCH rows of padded columns */
	float *x_scale;   /* QUANT_KBATCH */
	int cap_cols;
} quant_kscratch;

/* Inputs quantized and multiplied together at most this many at a time. */
#define QUANT_KBATCH 8

int quant_kscratch_init(quant_kscratch *k, int max_cols, const struct quant_qdot *qdot);
void quant_kscratch_free(quant_kscratch *k);

/* Y[i][r] = bias[r] + sum_c W[r][c] * X[i][c]  for i < n, r < rows.
 * X is n rows of W->cols floats (stride ldx); Y is n rows of W->rows floats
 * (stride ldy). bias may be NULL. k is needed for q8/q4 (may be NULL for f32). */
void quant_matmul(const quant_matrix *W, const float *X, int n, int ldx,
		const float *bias, float *Y, int ldy, quant_kscratch *k);

/* The same for a subset of W's rows (a shortlist): Y[i][j] = bias[rows[j]] +
 * W[rows[j]] . X[i] for j < n_rows. bias may be NULL. */
void quant_matmul_rows(const quant_matrix *W, const int32_t *rows, int n_rows, const float *X, int n,
		     int ldx, const float *bias, float *Y, int ldy, quant_kscratch *k);

/* Bytes quant_matrix_gather needs for n rows of a q8/q4 matrix (0 for f32,
 * whose products read rows where they are: quant_matmul_rows). */
size_t quant_matrix_gather_bytes(const quant_matrix *W, int n);

/* Copy rows[0..n) of a q8/q4 matrix into `codes` (quant_matrix_gather_bytes)
 * and their factors into `factors` [n], making *out an n-row matrix in the
 * panel layout: a shortlist's rows gathered once, then multiplied by the
 * panel kernels, several inputs per decoded weight. quant_matmul on *out gives
 * exactly what quant_matmul_rows on W gives. */
void quant_matrix_gather(const quant_matrix *W, const int32_t *rows, int n, void *codes, float *factors,
		       quant_matrix *out);

/* One row of W as floats (an embedding lookup). */
void quant_matrix_row(const quant_matrix *W, int row, float *out);

#endif
