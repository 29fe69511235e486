/* Portable scalar kernels for q8 and q4 matrices: the reference every SIMD
 * kernel must match exactly. Each input row is quantized to int8 once
 * (nmt_quantize_x), each output is an exact integer dot product of levels and
 * int8 activations, and one float rescale ends it:
 *     y = (float)sum * (row_factor[r] * x_scale) [+ bias[r]]
 * in that order, so every kernel rounds identically. */
#include "kernels.h"

#include "qlayout.h"

/* Signed level of every code byte (q8) or nibble (q4), built per call on
 * the stack: 256 entries cost nothing next to a matrix. */
typedef struct {
	int16_t level[256];
} level_lut;

static void make_lut(nmt_format f, level_lut *lut)
{
	int n = f == NMT_FMT_Q8 ? 256 : 16;
	for (int c = 0; c < n; c++)
		lut->level[c] = (int16_t)nmt_q_level(f, (uint8_t)c);
}

/* Integer dot product of row `row` with one quantized input row. */
static int32_t row_dot(const nmt_matrix *W, const level_lut *lut, int row, const int8_t *xq)
{
	const uint8_t *codes = W->data;
	int per_chunk = nmt_chunk_cols(W->format);
	int chunks = nmt_chunks_per_row(W->format, W->cols);
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++) {
		const uint8_t *p = codes + nmt_chunk_offset(W->format, W->cols, row, ch);
		const int8_t *x = xq + (size_t)ch * per_chunk;
		if (W->format == NMT_FMT_Q8) {
			for (int j = 0; j < NMT_CHUNK_BYTES; j++)
				sum += lut->level[p[j]] * x[j];
		} else {
			for (int j = 0; j < NMT_CHUNK_BYTES; j++)
				sum += lut->level[p[j] & 0x0F] * x[j] + lut->level[p[j] >> 4] * x[NMT_CHUNK_BYTES + j];
		}
	}
	return sum;
}

static float finish(const nmt_matrix *W, int row, int32_t sum, float x_scale, const float *bias)
{
	float y = (float)sum * (W->row_factor[row] * x_scale);
	return bias ? y + bias[row] : y;
}

/* Quantize up to NMT_KBATCH input rows into the scratch. */
static void quantize_inputs(const nmt_matrix *W, const float *X, int nb, int ldx, nmt_kscratch *k)
{
	int padded = nmt_matrix_padded_cols(W->format, W->cols);
	for (int b = 0; b < nb; b++)
		k->x_scale[b] = nmt_quantize_x(X + (size_t)b * ldx, W->cols, padded, k->xq + (size_t)b * padded);
}

void nmt_matmul_q_scalar(const nmt_matrix *W, const float *X, int n, int ldx,
			 const float *bias, float *Y, int ldy, nmt_kscratch *k)
{
	int padded = nmt_matrix_padded_cols(W->format, W->cols);
	level_lut lut;
	make_lut(W->format, &lut);
	for (int i0 = 0; i0 < n; i0 += NMT_KBATCH) {
		int nb = n - i0 < NMT_KBATCH ? n - i0 : NMT_KBATCH;
		quantize_inputs(W, X + (size_t)i0 * ldx, nb, ldx, k);
		for (int r = 0; r < W->rows; r++)
			for (int b = 0; b < nb; b++)
				Y[(size_t)(i0 + b) * ldy + r] =
					finish(W, r, row_dot(W, &lut, r, k->xq + (size_t)b * padded), k->x_scale[b], bias);
	}
}

void nmt_matmul_rows_q_scalar(const nmt_matrix *W, const int32_t *rows, int n_rows, const float *X,
			      int n, int ldx, const float *bias, float *Y, int ldy, nmt_kscratch *k)
{
	int padded = nmt_matrix_padded_cols(W->format, W->cols);
	level_lut lut;
	make_lut(W->format, &lut);
	for (int i0 = 0; i0 < n; i0 += NMT_KBATCH) {
		int nb = n - i0 < NMT_KBATCH ? n - i0 : NMT_KBATCH;
		quantize_inputs(W, X + (size_t)i0 * ldx, nb, ldx, k);
		for (int j = 0; j < n_rows; j++)
			for (int b = 0; b < nb; b++)
				Y[(size_t)(i0 + b) * ldy + j] = finish(W, rows[j],
					row_dot(W, &lut, rows[j], k->xq + (size_t)b * padded), k->x_scale[b], bias);
	}
}

void nmt_matrix_row_q(const nmt_matrix *W, int row, float *out)
{
	const uint8_t *codes = W->data;
	level_lut lut;
	make_lut(W->format, &lut);
	for (int c = 0; c < W->cols; c++)
		out[c] = (float)lut.level[nmt_q_code_at(W->format, codes, W->cols, row, c)] * W->row_factor[row];
}
