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

/* A 4-bit row whose nibbles' levels are levels[] (q4 or q4n). */
static int32_t nibble_dot(const int8_t *levels, const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		for (int j = 0; j < FORMAT_CHUNK_BYTES; j++)
			sum += levels[row[j] & 0x0F] * xq[j] + levels[row[j] >> 4] * xq[FORMAT_CHUNK_BYTES + j];
	return sum;
}

static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	return nibble_dot(quant_q4_levels, row, chunks, xq);
}

static int32_t q4n_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	return nibble_dot(quant_q4n_levels, row, chunks, xq);
}

/* qdot.h's i8_block: a panel's 16 rows, each row's four bytes of a group
 * of four columns side by side, groups 64 bytes apart (format/weights.h). */
static void i8_block(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, int nb,
		     int32_t *sums, size_t ld)
{
	int groups = chunks * FORMAT_CHUNK_BYTES / 4;
	for (int p = 0; p < panels; p++, codes += (size_t)groups * 64)
		for (int b = 0; b < nb; b++)
			for (int r = 0; r < FORMAT_I8_PANEL_ROWS; r++) {
				const int8_t *x = xq + (size_t)b * stride;
				int32_t sum = 0;
				for (int g = 0; g < groups; g++)
					for (int j = 0; j < 4; j++)
						sum += (int8_t)codes[g * 64 + r * 4 + j] * x[4 * g + j];
				sums[(size_t)b * ld + (size_t)p * FORMAT_I8_PANEL_ROWS + (size_t)r] = sum;
			}
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

static void q4n_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++)
		out[r] = q4n_dot(panel + r * FORMAT_CHUNK_BYTES, chunks, xq);
}

const quant_qdot quant_qdot_scalar = { .name = "scalar", .q8 = q8_dot, .q4 = q4_dot, .q8_panel = q8_panel,
				       .q4_panel = q4_panel, .f32_rows = quant_f32_rows_scalar,
				       .ew = &quant_ew_generic, .i8_block = i8_block, .q4n = q4n_dot,
				       .q4n_panel = q4n_panel };
