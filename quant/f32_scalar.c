/* Portable scalar kernels for f32 matrices: the reference every faster kernel
 * is tested against. */
#include "kernels.h"

#include <string.h>

void nmt_matmul_f32_scalar(const nmt_matrix *W, const float *X, int n, int ldx,
			   const float *bias, float *Y, int ldy)
{
	const float *w = W->data;
	for (int i = 0; i < n; i++) {
		const float *x = X + (size_t)i * ldx;
		float *y = Y + (size_t)i * ldy;
		for (int r = 0; r < W->rows; r++) {
			const float *wr = w + (size_t)r * W->cols;
			float acc = 0.0f;
			for (int c = 0; c < W->cols; c++)
				acc += wr[c] * x[c];
			y[r] = bias ? acc + bias[r] : acc;
		}
	}
}

void nmt_matrix_row_f32(const nmt_matrix *W, int row, float *out)
{
	const float *w = W->data;
	memcpy(out, w + (size_t)row * W->cols, (size_t)W->cols * sizeof *out);
}
