/* Portable scalar dot products for q8 and q4: the reference every SIMD
 * implementation must match exactly (qdot.h). */
#include "matrix.h"
#include "qdot.h"

#define CHUNK_STRIDE (NMT_PANEL_ROWS * NMT_CHUNK_BYTES)

static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		for (int j = 0; j < NMT_CHUNK_BYTES; j++)
			sum += nmt_q8_levels[row[j]] * xq[j];
	return sum;
}

static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES)
		for (int j = 0; j < NMT_CHUNK_BYTES; j++)
			sum += nmt_q4_levels[row[j] & 0x0F] * xq[j] + nmt_q4_levels[row[j] >> 4] * xq[NMT_CHUNK_BYTES + j];
	return sum;
}

static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		out[r] = q8_dot(panel + r * NMT_CHUNK_BYTES, chunks, xq);
}

static void q4_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		out[r] = q4_dot(panel + r * NMT_CHUNK_BYTES, chunks, xq);
}

const nmt_qdot nmt_qdot_scalar = { "scalar", q8_dot, q4_dot, q8_panel, q4_panel, NULL, NULL, nmt_f32_rows_scalar, &nmt_ew_generic, NULL };
