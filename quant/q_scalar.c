/* Portable scalar dot products for q8, q4 and i8: the reference every SIMD
 * implementation must match exactly (qdot.h). */
#include "matrix.h"
#include "qdot.h"

#define CHUNK_STRIDE (FORMAT_PANEL_ROWS * FORMAT_CHUNK_BYTES)

static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		for (int j = 0; j < FORMAT_CHUNK_BYTES; j++)
			sum += quant_q8_levels[row[j]] * xq[j];
	return sum;
}

static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		for (int j = 0; j < FORMAT_CHUNK_BYTES; j++)
			sum += quant_q4_levels[row[j] & 0x0F] * xq[j] + quant_q4_levels[row[j] >> 4] * xq[FORMAT_CHUNK_BYTES + j];
	return sum;
}

static int32_t i8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		for (int j = 0; j < FORMAT_CHUNK_BYTES; j++)
			sum += (int8_t)row[j] * xq[j];
	return sum;
}

static void i8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++)
		out[r] = i8_dot(panel + r * FORMAT_CHUNK_BYTES, chunks, xq);
}

static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++)
		out[r] = q8_dot(panel + r * FORMAT_CHUNK_BYTES, chunks, xq);
}

static void q4_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++)
		out[r] = q4_dot(panel + r * FORMAT_CHUNK_BYTES, chunks, xq);
}

const quant_qdot quant_qdot_scalar = { "scalar", q8_dot, q4_dot, q8_panel, q4_panel, NULL, NULL, quant_f32_rows_scalar, &quant_ew_generic, NULL, NULL,
				       i8_dot, i8_panel, NULL };
