/* The q8/q4/q4n/i8 matrix products around the ISA's dot products (qdot.h): each
 * input row is quantized to int8 once (quant_quantize_x), each output is an
 * exact integer dot product, and one float rescale ends it:
 *     y = (float)sum * (row_factor[r] * x_scale) [+ bias[r]]
 * in that order, whatever the ISA, so every kernel gives the same floats. */
#include <string.h>

#include "kernels.h"
#include "qdot.h"
#include "qlayout.h"

/* The ISA's functions for a format (qdot.h); panel_multi and block may be
 * NULL. */
typedef struct {
	int32_t (*dot)(const uint8_t *, int, const int8_t *);
	void (*panel)(const uint8_t *, int, const int8_t *, int32_t *);
	void (*panel_multi)(const uint8_t *, int, const int8_t *, size_t, int, int32_t *);
	void (*block)(const uint8_t *, int, int, const int8_t *, size_t, int, int32_t *, size_t);
} format_kernels;

static format_kernels kernels_of(const quant_qdot *q, format_encoding f)
{
	switch (f) {
	case FORMAT_Q8: return (format_kernels){ q->q8, q->q8_panel, q->q8_panel_multi, q->q8_block };
	case FORMAT_Q4: return (format_kernels){ q->q4, q->q4_panel, q->q4_panel_multi, q->q4_block };
	case FORMAT_Q4N: return (format_kernels){ q->q4n, q->q4n_panel, q->q4n_panel_multi, q->q4n_block };
	default: return (format_kernels){ NULL, NULL, NULL, q->i8_block };
	}
}

static float finish(const quant_matrix *W, int row, int32_t sum, float x_scale, const float *bias)
{
	float y = (float)sum * (W->row_factor[row] * x_scale);
	return bias ? y + bias[row] : y;
}

/* Quantize up to QUANT_KBATCH input rows into the scratch. */
static void quantize_inputs(const quant_matrix *W, const float *X, int nb, int ldx, quant_kscratch *k)
{
	int padded = format_matrix_padded_cols(W->format, W->cols);
	for (int b = 0; b < nb; b++)
		k->x_scale[b] = k->qdot->ew->quantize_x(X + (size_t)b * ldx, W->cols, padded, k->xq + (size_t)b * padded);
}

/* Rows rescaled at a time: their sums wait in an array on the stack, and
 * the ISA's element-wise rescale (ew.h) turns them into floats in one
 * loop. A multiple of every format's panel rows. */
#define BLOCK_ROWS 256
_Static_assert(BLOCK_ROWS % FORMAT_I8_PANEL_ROWS == 0 && BLOCK_ROWS % FORMAT_PANEL_ROWS == 0, "whole panels");

/* The sums of `rows` rows (whole panels from `panel`) against nb <= QUANT_KBATCH
 * quantized inputs, sums[b * BLOCK_ROWS + r], with the ISA's panel
 * functions: for an ISA without a block function. */
static void block_by_panels(const format_kernels *fk, const uint8_t *panel, int rows, int chunks,
			    const int8_t *xq, int padded, int nb, int32_t *sums)
{
	size_t panel_bytes = (size_t)FORMAT_PANEL_ROWS * chunks * FORMAT_CHUNK_BYTES;
	void (*panel_dot)(const uint8_t *, int, const int8_t *, int32_t *) = fk->panel;
	void (*panel_multi)(const uint8_t *, int, const int8_t *, size_t, int, int32_t *) = fk->panel_multi;

	for (int p = 0; p < rows; p += FORMAT_PANEL_ROWS, panel += panel_bytes) {
		int32_t out[QUANT_KBATCH * FORMAT_PANEL_ROWS];
		for (int b = 0; b < nb; b += QUANT_PANEL_INPUTS) {
			int m = nb - b < QUANT_PANEL_INPUTS ? nb - b : QUANT_PANEL_INPUTS;
			if (panel_multi && m > 1)
				panel_multi(panel, chunks, xq + (size_t)b * padded, (size_t)padded, m,
					    out + b * FORMAT_PANEL_ROWS);
			else
				for (int j = b; j < b + m; j++)
					panel_dot(panel, chunks, xq + (size_t)j * padded, out + j * FORMAT_PANEL_ROWS);
		}
		for (int b = 0; b < nb; b++)
			memcpy(&sums[b * BLOCK_ROWS + p], out + b * FORMAT_PANEL_ROWS, sizeof(int32_t) * FORMAT_PANEL_ROWS);
	}
}

/* Every panel against nb quantized inputs, BLOCK_ROWS rows at a time: the
 * integer sums, then their rescale into Y. */
void quant_matmul_q(const quant_matrix *W, const float *X, int n, int ldx,
		  const float *bias, float *Y, int ldy, quant_kscratch *k)
{
	const quant_qdot *q = k->qdot;
	const uint8_t *codes = W->data;
	int padded = format_matrix_padded_cols(W->format, W->cols);
	int chunks = quant_chunks_per_row(W->format, W->cols), panel_rows = FORMAT_PANEL_ROWS_OF(W->format);
	size_t panel_bytes = (size_t)panel_rows * chunks * FORMAT_CHUNK_BYTES;
	format_kernels fk = kernels_of(q, W->format);

	for (int i0 = 0; i0 < n; i0 += QUANT_KBATCH) {
		int nb = n - i0 < QUANT_KBATCH ? n - i0 : QUANT_KBATCH;
		quantize_inputs(W, X + (size_t)i0 * ldx, nb, ldx, k);
		for (int r0 = 0; r0 < W->rows; r0 += BLOCK_ROWS) {
			int32_t sums[QUANT_KBATCH * BLOCK_ROWS];
			int rows = W->rows - r0 < BLOCK_ROWS ? W->rows - r0 : BLOCK_ROWS;
			const uint8_t *panel = codes + (size_t)(r0 / panel_rows) * panel_bytes;
			if (fk.block)
				fk.block(panel, (rows + panel_rows - 1) / panel_rows, chunks, k->xq,
				      (size_t)padded, nb, sums, BLOCK_ROWS);
			else
				block_by_panels(&fk, panel, rows, chunks, k->xq, padded, nb, sums);
			for (int b = 0; b < nb; b++)
				q->ew->rescale(sums + b * BLOCK_ROWS, W->row_factor + r0, k->x_scale[b], bias ? bias + r0 : NULL,
					rows, Y + (size_t)(i0 + b) * ldy + r0);
		}
	}
}

/* One i8 row's sum: its four bytes of each group of columns, 64 bytes
 * apart (format/weights.h). Shortlists are gathered into blocks where speed
 * matters (quant_matrix_gather); this serves the rest. */
static int32_t i8_row_dot(const quant_matrix *W, int row, const int8_t *xq)
{
	const uint8_t *w = (const uint8_t *)W->data + quant_i8_offset(W->cols, row, 0);
	int groups = format_matrix_padded_cols(FORMAT_I8, W->cols) / 4;
	int32_t sum = 0;
	for (int g = 0; g < groups; g++, w += 64, xq += 4)
		for (int j = 0; j < 4; j++)
			sum += (int8_t)w[j] * xq[j];
	return sum;
}

/* Row `row`'s sum against one quantized input. */
static int32_t row_sum(const quant_matrix *W, int32_t (*dot)(const uint8_t *, int, const int8_t *), int row,
		       const int8_t *xq)
{
	if (W->format == FORMAT_I8)
		return i8_row_dot(W, row, xq);
	const uint8_t *codes = (const uint8_t *)W->data + quant_chunk_offset(W->format, W->cols, row, 0);
	return dot(codes, quant_chunks_per_row(W->format, W->cols), xq);
}

void quant_matmul_rows_q(const quant_matrix *W, const int32_t *rows, int n_rows, const float *X,
		       int n, int ldx, const float *bias, float *Y, int ldy, quant_kscratch *k)
{
	int padded = format_matrix_padded_cols(W->format, W->cols);
	int32_t (*dot)(const uint8_t *, int, const int8_t *) = kernels_of(k->qdot, W->format).dot;

	for (int i0 = 0; i0 < n; i0 += QUANT_KBATCH) {
		int nb = n - i0 < QUANT_KBATCH ? n - i0 : QUANT_KBATCH;
		quantize_inputs(W, X + (size_t)i0 * ldx, nb, ldx, k);
		for (int j = 0; j < n_rows; j++)
			for (int b = 0; b < nb; b++)
				Y[(size_t)(i0 + b) * ldy + j] = finish(W, rows[j], row_sum(W, dot, rows[j], k->xq + (size_t)b * padded),
								       k->x_scale[b], bias);
	}
}

/* A row chunk by chunk: a q8 chunk is 64 codes in column order; a q4 chunk
 * 64 bytes whose low nibbles are its first 64 columns and high nibbles the
 * next 64 (qlayout.c); i8 column by column (its rows are interleaved). */
void quant_matrix_row_q(const quant_matrix *W, int row, float *out)
{
	const uint8_t *codes = W->data;
	int per_chunk = quant_chunk_cols(W->format), chunks = quant_chunks_per_row(W->format, W->cols);
	float factor = W->row_factor[row];
	if (W->format == FORMAT_I8) {   /* four bytes a group, groups 64 bytes apart */
		const uint8_t *w = codes + quant_i8_offset(W->cols, row, 0);
		for (int c = 0; c < W->cols; c++)
			out[c] = (float)(int8_t)w[(c / 4) * 64 + c % 4] * factor;
		return;
	}

	const int8_t *nibble = quant_nibble_levels(W->format);
	float level[16];   /* each 4-bit code's value in this row: the same product as per column */
	for (int k = 0; k < 16; k++)
		level[k] = (float)nibble[k] * factor;
	for (int ch = 0; ch < chunks; ch++) {
		const uint8_t *chunk = codes + quant_chunk_offset(W->format, W->cols, row, ch);
		int c0 = ch * per_chunk, n = W->cols - c0 < per_chunk ? W->cols - c0 : per_chunk;
		float *o = out + c0;
		if (W->format == FORMAT_Q8)
			for (int j = 0; j < n; j++)
				o[j] = (float)quant_q8_levels[chunk[j]] * factor;
		else {   /* the low nibbles are the chunk's first 64 columns, the high ones the next */
			int lo = n < FORMAT_CHUNK_BYTES ? n : FORMAT_CHUNK_BYTES;
			for (int j = 0; j < lo; j++)
				o[j] = level[chunk[j] & 0x0F];
			for (int j = lo; j < n; j++)
				o[j] = level[chunk[j - FORMAT_CHUNK_BYTES] >> 4];
		}
	}
}
