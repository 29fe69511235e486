/* Dispatch from a matrix's format to its kernel, and the kernels' scratch. */
#include <stdlib.h>

#include "kernels.h"
#include "qlayout.h"

int nmt_kscratch_init(nmt_kscratch *k, int max_cols, const struct nmt_qdot *qdot)
{
	k->qdot = qdot;
	/* q4 pads the most: to whole 128-column chunks */
	int padded = nmt_matrix_padded_cols(NMT_FMT_Q4, max_cols > 0 ? max_cols : 1);
	k->xq = malloc((size_t)NMT_KBATCH * padded);
	k->x_scale = malloc(NMT_KBATCH * sizeof *k->x_scale);
	k->cap_cols = padded;
	if (!k->xq || !k->x_scale) {
		nmt_kscratch_free(k);
		return -1;
	}
	return 0;
}

void nmt_kscratch_free(nmt_kscratch *k)
{
	free(k->xq);
	free(k->x_scale);
	k->xq = NULL;
	k->x_scale = NULL;
	k->cap_cols = 0;
}

void nmt_matmul(const nmt_matrix *W, const float *X, int n, int ldx,
		const float *bias, float *Y, int ldy, nmt_kscratch *k)
{
	switch (W->format) {
	case NMT_FMT_F32:
		nmt_matmul_f32(W, X, n, ldx, bias, Y, ldy, k);
		break;
	case NMT_FMT_Q8:
	case NMT_FMT_Q4:
		nmt_matmul_q(W, X, n, ldx, bias, Y, ldy, k);
		break;
	}
}

void nmt_matmul_rows(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X, int n,
		     int ldx, const float *bias, float *Y, int ldy, nmt_kscratch *k)
{
	switch (W->format) {
	case NMT_FMT_F32:
		nmt_matmul_rows_f32(W, rows, n_rows, X, n, ldx, bias, Y, ldy, k);
		break;
	case NMT_FMT_Q8:
	case NMT_FMT_Q4:
		nmt_matmul_rows_q(W, rows, n_rows, X, n, ldx, bias, Y, ldy, k);
		break;
	}
}

void nmt_matrix_row(const nmt_matrix *W, int row, float *out)
{
	switch (W->format) {
	case NMT_FMT_F32:
		nmt_matrix_row_f32(W, row, out);
		break;
	case NMT_FMT_Q8:
	case NMT_FMT_Q4:
		nmt_matrix_row_q(W, row, out);
		break;
	}
}
