/* The kernels behind quant_matmul, one per (format, ISA). Internal to quant/. */
#ifndef QUANT_KERNELS_H
#define QUANT_KERNELS_H
#include "matrix.h"

/* f32, on k->qdot's f32_rows (the scalar one when k is NULL). */
void quant_matmul_f32(const quant_matrix *W, const float *X, int n, int ldx,
		    const float *bias, float *Y, int ldy, quant_kscratch *k);
void quant_matmul_rows_f32(const quant_matrix *W, const int32_t *rows, int n_rows, const float *X,
			 int n, int ldx, const float *bias, float *Y, int ldy, quant_kscratch *k);
void quant_matrix_row_f32(const quant_matrix *W, int row, float *out);

/* q8 and q4 (the format is W->format), on k->qdot's dot products. */
void quant_matmul_q(const quant_matrix *W, const float *X, int n, int ldx,
		  const float *bias, float *Y, int ldy, quant_kscratch *k);
void quant_matmul_rows_q(const quant_matrix *W, const int32_t *rows, int n_rows, const float *X,
		       int n, int ldx, const float *bias, float *Y, int ldy, quant_kscratch *k);
void quant_matrix_row_q(const quant_matrix *W, int row, float *out);

#endif
