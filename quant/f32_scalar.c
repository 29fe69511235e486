/* Portable scalar kernels for f32 matrices: the reference every faster kernel
 * is tested against. */
#include "kernels.h"

#include <string.h>

/* Eight independent partial sums: without -ffast-math the compiler may not
 * reorder one running sum, and a single chain of dependent additions runs at
 * one add per latency; eight chains vectorize and pipeline. */
static float dot(const float *a, const float *b, int n)
{
	float acc[8] = { 0 };
	int c = 0;
	for (; c + 8 <= n; c += 8)
		for (int k = 0; k < 8; k++)
			acc[k] += a[c + k] * b[c + k];
	float sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
	for (; c < n; c++)
		sum += a[c] * b[c];
	return sum;
}

void nmt_matmul_f32_scalar(const nmt_matrix *W, const float *X, int n, int ldx,
			   const float *bias, float *Y, int ldy)
{
	const float *w = W->data;
	for (int i = 0; i < n; i++) {
		const float *x = X + (size_t)i * ldx;
		float *y = Y + (size_t)i * ldy;
		for (int r = 0; r < W->rows; r++) {
			float acc = dot(w + (size_t)r * W->cols, x, W->cols);
			y[r] = bias ? acc + bias[r] : acc;
		}
	}
}

void nmt_matmul_rows_f32_scalar(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X,
				int n, int ldx, const float *bias, float *Y, int ldy)
{
	const float *w = W->data;
	for (int i = 0; i < n; i++) {
		const float *x = X + (size_t)i * ldx;
		float *y = Y + (size_t)i * ldy;
		for (int k = 0; k < n_rows; k++) {
			float acc = dot(w + (size_t)rows[k] * W->cols, x, W->cols);
			y[k] = bias ? acc + bias[rows[k]] : acc;
		}
	}
}

void nmt_matrix_row_f32(const nmt_matrix *W, int row, float *out)
{
	const float *w = W->data;
	memcpy(out, w + (size_t)row * W->cols, (size_t)W->cols * sizeof *out);
}
