/* f32 matrix products: the driver every ISA shares, and the portable scalar
 * dot products that are the reference for the SIMD ones (qdot.h).
 *
 * The summation order is part of the format's contract: every implementation
 * keeps eight partial sums, lane k taking columns k, k + 8, k + 16, ... as
 * separately rounded products (no fused multiply-add: the build uses
 * -ffp-contract=off), reduces them as ((a0 + a4) + (a1 + a5)) +
 * ((a2 + a6) + (a3 + a7)) and adds the last cols % 8 products one by one.
 * So f32 results are bit-identical across scalar, AVX2, AVX-512 and NEON,
 * and a translation does not depend on the CPU. */
#include "kernels.h"
#include "ew_body.h"
#include "qdot.h"

#include <string.h>

void quant_f32_rows_scalar(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out)
{
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++)
		out[r] = quant_ew_dot8(w[r], x, cols);
}

/* Products of the rows named by `rows` (NULL: rows 0 .. n_rows - 1), taken
 * FORMAT_PANEL_ROWS at a time (the last group padded by repeating its last row),
 * with each input. The weight rows of a group stay in L1 while every input
 * passes over them. */
static void rows_times_inputs(const quant_matrix *W, const int32_t *rows, int n_rows, const float *X,
			      int n, int ldx, const float *bias, float *Y, int ldy, const quant_qdot *q)
{
	const float *data = W->data;
	for (int j0 = 0; j0 < n_rows; j0 += FORMAT_PANEL_ROWS) {
		const float *w[FORMAT_PANEL_ROWS];
		int32_t id[FORMAT_PANEL_ROWS];
		int m = n_rows - j0 < FORMAT_PANEL_ROWS ? n_rows - j0 : FORMAT_PANEL_ROWS;
		for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {
			int j = j0 + (r < m ? r : m - 1);
			id[r] = rows ? rows[j] : j;
			w[r] = data + (size_t)id[r] * W->cols;
		}
		for (int i = 0; i < n; i++) {
			float out[FORMAT_PANEL_ROWS];
			float *y = Y + (size_t)i * ldy + j0;
			q->f32_rows(w, X + (size_t)i * ldx, W->cols, out);
			for (int r = 0; r < m; r++)
				y[r] = bias ? out[r] + bias[id[r]] : out[r];
		}
	}
}

static const quant_qdot *or_scalar(const quant_kscratch *k)
{
	return k && k->qdot ? k->qdot : &quant_qdot_scalar;
}

void quant_matmul_f32(const quant_matrix *W, const float *X, int n, int ldx,
		    const float *bias, float *Y, int ldy, quant_kscratch *k)
{
	rows_times_inputs(W, NULL, W->rows, X, n, ldx, bias, Y, ldy, or_scalar(k));
}

void quant_matmul_rows_f32(const quant_matrix *W, const int32_t *rows, int n_rows, const float *X,
			 int n, int ldx, const float *bias, float *Y, int ldy, quant_kscratch *k)
{
	rows_times_inputs(W, rows, n_rows, X, n, ldx, bias, Y, ldy, or_scalar(k));
}

void quant_matrix_row_f32(const quant_matrix *W, int row, float *out)
{
	const float *w = W->data;
	memcpy(out, w + (size_t)row * W->cols, (size_t)W->cols * sizeof *out);
}
