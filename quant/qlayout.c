/* The quantized panel layout and the activation quantizer (see qlayout.h). */
#include "qlayout.h"

#include <math.h>
#include <string.h>

#include "ew_body.h"
#include "logquant.h"

int nmt_q_level(nmt_format f, uint8_t code)
{
	nmt_logq_bits bits = f == NMT_FMT_Q4 ? NMT_LOGQ_4 : NMT_LOGQ_8;
	int level = nmt_logq_table(bits)[code & (nmt_logq_levels(bits) - 1)];
	return code >> (bits - 1) & 1 ? -level : level;
}

static void put_code(nmt_format f, uint8_t *out, int cols, int row, int col, uint8_t code)
{
	int per_chunk = nmt_chunk_cols(f);
	uint8_t *chunk = out + nmt_chunk_offset(f, cols, row, col / per_chunk);
	int j = col % per_chunk;
	if (f == NMT_FMT_Q8)
		chunk[j] = code;
	else if (j < NMT_CHUNK_BYTES)
		chunk[j] = (uint8_t)((chunk[j] & 0xF0) | (code & 0x0F));
	else
		chunk[j - NMT_CHUNK_BYTES] = (uint8_t)((chunk[j - NMT_CHUNK_BYTES] & 0x0F) | (code & 0x0F) << 4);
}

void nmt_q_layout(nmt_format f, int rows, int cols, const uint8_t *codes, uint8_t *out)
{
	/* The zero code: magnitude index levels-1, positive. */
	uint8_t zero = f == NMT_FMT_Q8 ? 0x7F : 0x77;
	memset(out, zero, nmt_matrix_code_bytes(f, rows, cols));
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			put_code(f, out, cols, r, c, codes[(size_t)r * cols + c]);
}

float nmt_quantize_x(const float *x, int cols, int padded, int8_t *xq)
{
	return nmt_ew_quantize_x(x, cols, padded, xq);
}

size_t nmt_matrix_gather_bytes(const nmt_matrix *W, int n)
{
	return W->format == NMT_FMT_F32 ? 0 : nmt_matrix_code_bytes(W->format, n, W->cols);
}

/* A row's chunks are NMT_CHUNK_BYTES apart in no particular pattern once
 * panels interleave them, so each is copied on its own; the rows filling up
 * the last panel get zero codes. */
void nmt_matrix_gather(const nmt_matrix *W, const int32_t *rows, int n, void *codes, float *factors,
		       nmt_matrix *out)
{
	nmt_format f = W->format;
	int chunks = nmt_chunks_per_row(f, W->cols);
	int padded_rows = (n + NMT_PANEL_ROWS - 1) / NMT_PANEL_ROWS * NMT_PANEL_ROWS;
	const uint8_t *src = W->data;
	uint8_t *dst = codes;

	for (int j = 0; j < padded_rows; j++)
		for (int ch = 0; ch < chunks; ch++) {
			uint8_t *to = dst + nmt_chunk_offset(f, W->cols, j, ch);
			if (j < n)
				memcpy(to, src + nmt_chunk_offset(f, W->cols, rows[j], ch), NMT_CHUNK_BYTES);
			else
				memset(to, f == NMT_FMT_Q8 ? 0x7F : 0x77, NMT_CHUNK_BYTES);
		}
	for (int j = 0; j < n; j++)
		factors[j] = W->row_factor[rows[j]];
	*out = (nmt_matrix){ .format = f, .rows = n, .cols = W->cols, .data = codes, .row_factor = factors };
}
