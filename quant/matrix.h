/* A weight matrix as the kernels see it, and the one matrix-product operation
 * the engine uses. A matrix points into the read-only model mapping; the
 * format decides which kernel reads it (f32 now; q8/q4 in later formats).
 * Adding a format or an ISA means a new kernel file behind nmt_matmul, not a
 * change to the engine. */
#ifndef NMT_QUANT_MATRIX_H
#define NMT_QUANT_MATRIX_H
#include <stddef.h>
#include <stdint.h>

typedef enum { NMT_FMT_F32 = 0 } nmt_format;

typedef struct {
	nmt_format format;
	int rows, cols;     /* y = W x maps cols inputs to rows outputs */
	const void *data;   /* f32: rows x cols, row-major */
} nmt_matrix;

/* Y[i][r] = bias[r] + sum_c W[r][c] * X[i][c]  for i < n, r < rows.
 * X is n rows of W->cols floats (stride ldx); Y is n rows of W->rows floats
 * (stride ldy). bias may be NULL. */
void nmt_matmul(const nmt_matrix *W, const float *X, int n, int ldx,
		const float *bias, float *Y, int ldy);

/* The same for a subset of W's rows (a shortlist): Y[i][k] = bias[rows[k]] +
 * W[rows[k]] . X[i] for k < n_rows. bias may be NULL. */
void nmt_matmul_rows(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X, int n,
		     int ldx, const float *bias, float *Y, int ldy);

/* One row of W as floats (an embedding lookup). */
void nmt_matrix_row(const nmt_matrix *W, int row, float *out);

#endif
