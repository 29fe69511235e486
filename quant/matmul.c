/* Dispatch from a matrix's format to its kernel, and the kernels' scratch. */
#include <assert.h>
#include <stdlib.h>

#include "kernels.h"
#include "qlayout.h"

int quant_kscratch_init(quant_kscratch *k, int max_cols, const struct quant_qdot *qdot)
{
	k->qdot = qdot;
	/* q4 pads the most: to whole 128-column chunks */
	int padded = format_matrix_padded_cols(FORMAT_Q4, max_cols > 0 ? max_cols : 1);
	/* on a cache line: the kernels read every input row from here, and
	 * where malloc happened to place it moved q4's speed by 7% as the heap
	 * before it changed (padded is whole chunks, so the size is a multiple
	 * of 64, as aligned_alloc wants) */
	k->xq = aligned_alloc(64, (size_t)QUANT_KBATCH * padded);
	k->x_scale = malloc(QUANT_KBATCH * sizeof *k->x_scale);
	k->cap_cols = padded;
	if (!k->xq || !k->x_scale) {
		quant_kscratch_free(k);
		return -1;
	}
	return 0;
}

void quant_kscratch_free(quant_kscratch *k)
{
	free(k->xq);
	free(k->x_scale);
	k->xq = NULL;
	k->x_scale = NULL;
	k->cap_cols = 0;
}

void quant_matmul(const quant_matrix *W, const float *X, int n, int ldx,
		const float *bias, float *Y, int ldy, quant_kscratch *k)
{
	assert(W->data && n >= 0 && (n == 0 || (X && Y)));
	assert(ldx >= W->cols);
	assert(ldy >= W->rows);
	assert(W->format == FORMAT_F32 || format_matrix_padded_cols(W->format, W->cols) <= k->cap_cols);
	switch (W->format) {
	case FORMAT_F32:
		quant_matmul_f32(W, X, n, ldx, bias, Y, ldy, k);
		break;
	case FORMAT_Q8:
	case FORMAT_Q4:
	case FORMAT_Q4N:
	case FORMAT_I8:
		quant_matmul_q(W, X, n, ldx, bias, Y, ldy, k);
		break;
	}
}

void quant_matmul_rows(const quant_matrix *W, const int32_t *rows, int n_rows, const float *X, int n,
		     int ldx, const float *bias, float *Y, int ldy, quant_kscratch *k)
{
	assert(n >= 0 && (n == 0 || (X && Y)) && ldx >= W->cols && ldy >= n_rows);
	assert(W->format == FORMAT_F32 || format_matrix_padded_cols(W->format, W->cols) <= k->cap_cols);
	for (int i = 0; i < n_rows; i++)
		assert(rows[i] >= 0 && rows[i] < W->rows);
	switch (W->format) {
	case FORMAT_F32:
		quant_matmul_rows_f32(W, rows, n_rows, X, n, ldx, bias, Y, ldy, k);
		break;
	case FORMAT_Q8:
	case FORMAT_Q4:
	case FORMAT_Q4N:
	case FORMAT_I8:
		quant_matmul_rows_q(W, rows, n_rows, X, n, ldx, bias, Y, ldy, k);
		break;
	}
}

void quant_matrix_row(const quant_matrix *W, int row, float *out)
{
	assert(row >= 0 && row < W->rows);
	switch (W->format) {
	case FORMAT_F32:
		quant_matrix_row_f32(W, row, out);
		break;
	case FORMAT_Q8:
	case FORMAT_Q4:
	case FORMAT_Q4N:
	case FORMAT_I8:
		quant_matrix_row_q(W, row, out);
		break;
	}
}
