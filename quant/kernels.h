/* The kernels behind nmt_matmul, one per (format, ISA). Internal to quant/. */
#ifndef NMT_QUANT_KERNELS_H
#define NMT_QUANT_KERNELS_H
#include "matrix.h"

/* f32, on k->qdot's f32_rows (the scalar one when k is NULL). */
void nmt_matmul_f32(const nmt_matrix *W, const float *X, int n, int ldx,
		    const float *bias, float *Y, int ldy, nmt_kscratch *k);
void nmt_matmul_rows_f32(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X,
			 int n, int ldx, const float *bias, float *Y, int ldy, nmt_kscratch *k);
void nmt_matrix_row_f32(const nmt_matrix *W, int row, float *out);

/* q8 and q4 (the format is W->format), on k->qdot's dot products. */
void nmt_matmul_q(const nmt_matrix *W, const float *X, int n, int ldx,
		  const float *bias, float *Y, int ldy, nmt_kscratch *k);
void nmt_matmul_rows_q(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X,
		       int n, int ldx, const float *bias, float *Y, int ldy, nmt_kscratch *k);
void nmt_matrix_row_q(const nmt_matrix *W, int row, float *out);

#endif
