/* The quantized panel layout and the activation quantizer (see qlayout.h). */
#include "qlayout.h"

#include <math.h>
#include <string.h>

#include "ew_body.h"
#include "logquant.h"

int quant_q_level(format_encoding f, uint8_t code)
{
	if (f == FORMAT_I8)
		return (int8_t)code;
	quant_logq_format fmt = quant_logq_of(f);
	int level = quant_logq_table(fmt)[code & (quant_logq_levels(fmt) - 1)];
	return code >> (quant_logq_code_bits(fmt) - 1) & 1 ? -level : level;
}

static void put_code(format_encoding f, uint8_t *out, int cols, int row, int col, uint8_t code)
{
	if (f == FORMAT_I8) {
		out[quant_i8_offset(cols, row, col)] = code;
		return;
	}
	int per_chunk = quant_chunk_cols(f);
	uint8_t *chunk = out + quant_chunk_offset(f, cols, row, col / per_chunk);
	int j = col % per_chunk;
	if (f == FORMAT_Q8)
		chunk[j] = code;
	else if (j < FORMAT_CHUNK_BYTES)
		chunk[j] = (uint8_t)((chunk[j] & 0xF0) | (code & 0x0F));
	else
		chunk[j - FORMAT_CHUNK_BYTES] = (uint8_t)((chunk[j - FORMAT_CHUNK_BYTES] & 0x0F) | (code & 0x0F) << 4);
}

void quant_q_layout(format_encoding f, int rows, int cols, const uint8_t *codes, uint8_t *out)
{
	memset(out, quant_zero_code(f), format_matrix_code_bytes(f, rows, cols));
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			put_code(f, out, cols, r, c, codes[(size_t)r * cols + c]);
}

float quant_i8_quantize_row(const float *w, int n, uint8_t *codes)
{
	float max = 0.0f;
	for (int c = 0; c < n; c++)
		max = fabsf(w[c]) > max ? fabsf(w[c]) : max;
	float scale = max / 127.0f;
	for (int c = 0; c < n; c++) {
		/* |w / scale| <= 127 up to rounding: clamped so that -128 never
		 * appears (the format allows it; this quantizer is symmetric) */
		long q = scale > 0.0f ? lrintf(w[c] / scale) : 0;
		codes[c] = (uint8_t)(int8_t)(q > 127 ? 127 : q < -127 ? -127 : q);
	}
	return scale;
}

float quant_quantize_x(const float *x, int cols, int padded, int8_t *xq)
{
	return quant_ew_quantize_x(x, cols, padded, xq);
}

size_t quant_matrix_gather_bytes(const quant_matrix *W, int n)
{
	return W->format == FORMAT_F32 ? 0 : format_matrix_code_bytes(W->format, n, W->cols);
}

/* i8: each row's four bytes of each group of columns (format/weights.h),
 * the rows filling up the last panel zero. */
static void gather_i8(const quant_matrix *W, const int32_t *rows, int n, uint8_t *dst)
{
	int groups = format_matrix_padded_cols(FORMAT_I8, W->cols) / 4;
	const uint8_t *src = W->data;
	memset(dst, 0, format_matrix_code_bytes(FORMAT_I8, n, W->cols));
	for (int j = 0; j < n; j++) {
		const uint8_t *from = src + quant_i8_offset(W->cols, rows[j], 0);
		uint8_t *to = dst + quant_i8_offset(W->cols, j, 0);
		for (int g = 0; g < groups; g++)   /* a row's groups are 64 bytes apart */
			memcpy(to + (size_t)g * 64, from + (size_t)g * 64, 4);
	}
}

/* q8, q4: a row's chunks are FORMAT_CHUNK_BYTES apart in no particular
 * pattern once panels interleave them, so each is copied on its own; the
 * rows filling up the last panel get zero codes. */
static void gather_chunks(const quant_matrix *W, const int32_t *rows, int n, uint8_t *dst)
{
	format_encoding f = W->format;
	int chunks = quant_chunks_per_row(f, W->cols);
	int padded_rows = (n + FORMAT_PANEL_ROWS - 1) / FORMAT_PANEL_ROWS * FORMAT_PANEL_ROWS;
	const uint8_t *src = W->data;

	for (int j = 0; j < padded_rows; j++)
		for (int ch = 0; ch < chunks; ch++) {
			uint8_t *to = dst + quant_chunk_offset(f, W->cols, j, ch);
			if (j < n)
				memcpy(to, src + quant_chunk_offset(f, W->cols, rows[j], ch), FORMAT_CHUNK_BYTES);
			else
				memset(to, quant_zero_code(f), FORMAT_CHUNK_BYTES);
		}
}

void quant_matrix_gather(const quant_matrix *W, const int32_t *rows, int n, void *codes, float *factors,
		       quant_matrix *out)
{
	if (W->format == FORMAT_I8)
		gather_i8(W, rows, n, codes);
	else
		gather_chunks(W, rows, n, codes);
	for (int j = 0; j < n; j++)
		factors[j] = W->row_factor[rows[j]];
	*out = (quant_matrix){ .format = W->format, .rows = n, .cols = W->cols, .data = codes, .row_factor = factors };
}
