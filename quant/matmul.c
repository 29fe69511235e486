/* Dispatch from a matrix's format to its kernel. */
#include "kernels.h"

void nmt_matmul(const nmt_matrix *W, const float *X, int n, int ldx,
		const float *bias, float *Y, int ldy)
{
	switch (W->format) {
	case NMT_FMT_F32:
		nmt_matmul_f32_scalar(W, X, n, ldx, bias, Y, ldy);
		break;
	}
}

void nmt_matmul_rows(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X, int n,
		     int ldx, const float *bias, float *Y, int ldy)
{
	switch (W->format) {
	case NMT_FMT_F32:
		nmt_matmul_rows_f32_scalar(W, rows, n_rows, X, n, ldx, bias, Y, ldy);
		break;
	}
}

void nmt_matrix_row(const nmt_matrix *W, int row, float *out)
{
	switch (W->format) {
	case NMT_FMT_F32:
		nmt_matrix_row_f32(W, row, out);
		break;
	}
}
