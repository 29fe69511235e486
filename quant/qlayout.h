/* Where a quantized matrix's codes live (the panel layout of matrix.h) and
 * how a code becomes a signed integer level. Shared by the packer, the
 * kernels and the tests. */
#ifndef QUANT_QLAYOUT_H
#define QUANT_QLAYOUT_H
#include <stddef.h>
#include <stdint.h>

#include "hd.h"
#include "logquant.h"
#include "matrix.h"

/* The log format of a q8, q4 or q4n tensor. */
static inline quant_logq_format quant_logq_of(format_encoding f)
{
	return f == FORMAT_Q8 ? QUANT_LOGQ_8 : f == FORMAT_Q4N ? QUANT_LOGQ_4N : QUANT_LOGQ_4;
}

/* The 16 signed levels of a 4-bit format's nibbles (q4 or q4n), the table
 * its kernels look codes up in. */
static inline const int8_t *quant_nibble_levels(format_encoding f)
{
	return f == FORMAT_Q4N ? quant_q4n_levels : quant_q4_levels;
}

/* Columns one chunk holds: 64 q8 or i8 codes, 128 q4 or q4n codes. */
static inline QUANT_HD int quant_chunk_cols(format_encoding f)
{
	return FORMAT_CHUNK_COLS(f);
}

static inline QUANT_HD int quant_chunks_per_row(format_encoding f, int cols)
{
	return (cols + quant_chunk_cols(f) - 1) / quant_chunk_cols(f);
}

/* Byte offset of chunk `chunk` of row `row` (q8, q4: a chunk is 64
 * consecutive bytes of its row). */
static inline QUANT_HD size_t quant_chunk_offset(format_encoding f, int cols, int row, int chunk)
{
	size_t panel = (size_t)(row / FORMAT_PANEL_ROWS);
	size_t per_row = (size_t)quant_chunks_per_row(f, cols);
	return ((panel * per_row + (size_t)chunk) * FORMAT_PANEL_ROWS + (size_t)(row % FORMAT_PANEL_ROWS)) *
	       FORMAT_CHUNK_BYTES;
}

/* Byte offset of W[row][col] in the i8 layout (format/weights.h). */
static inline QUANT_HD size_t quant_i8_offset(int cols, int row, int col)
{
	size_t padded = (size_t)quant_chunks_per_row(FORMAT_I8, cols) * FORMAT_CHUNK_BYTES;
	return (size_t)(row / FORMAT_I8_PANEL_ROWS) * FORMAT_I8_PANEL_ROWS * padded + (size_t)(col / 4) * 64 +
	       (size_t)(row % FORMAT_I8_PANEL_ROWS) * 4 + (size_t)(col % 4);
}

/* The code of W[row][col] inside the layout. */
static inline QUANT_HD uint8_t quant_q_code_at(format_encoding f, const uint8_t *codes, int cols, int row, int col)
{
	if (f == FORMAT_I8)
		return codes[quant_i8_offset(cols, row, col)];
	int per_chunk = quant_chunk_cols(f);
	const uint8_t *chunk = codes + quant_chunk_offset(f, cols, row, col / per_chunk);
	int j = col % per_chunk;
	if (f == FORMAT_Q8)
		return chunk[j];
	return j < FORMAT_CHUNK_BYTES ? chunk[j] & 0x0F : chunk[j - FORMAT_CHUNK_BYTES] >> 4;
}

/* Signed integer level of a code (q8/q4/q4n, logquant.h: bit bits-1 is the
 * sign, the rest indexes the magnitude table; i8: the signed byte). */
int quant_q_level(format_encoding f, uint8_t code);

/* The code of integer level 0, which pads rows and columns. */
static inline QUANT_HD uint8_t quant_zero_code(format_encoding f)
{
	return f == FORMAT_Q8 ? 0x7F : FORMAT_IS_4BIT(f) ? 0x77 : 0x00;
}

/* Quantize one row of n weights linearly into n i8 codes, round(w / s)
 * with s = max|w| / 127, and return s (0 for a row of zeros). */
float quant_i8_quantize_row(const float *w, int n, uint8_t *codes);

/* Lay out row-major codes (rows x cols, one per byte, as quant_logq_quantize_row
 * or quant_i8_quantize_row make them) into the panel layout, padding with zero codes.
 * out must hold format_matrix_code_bytes(f, rows, cols) bytes. */
void quant_q_layout(format_encoding f, int rows, int cols, const uint8_t *codes, uint8_t *out);

/* Quantize one activation row: xq[c] = round(x[c] * 127 / max|x|) for
 * c < cols, 0 up to padded; returns the scale max|x| / 127 (0 for zeros).
 * Every kernel uses this same function, so all ISAs see the same integers. */
float quant_quantize_x(const float *x, int cols, int padded, int8_t *xq);

#endif
