/* The byte layout of a weight tensor (see weights.h). */
#include "weights.h"

#include "format.h"

static size_t chunks_per_row(nmt_format f, int cols)
{
	return ((size_t)cols + NMT_CHUNK_COLS(f) - 1) / NMT_CHUNK_COLS(f);
}

int nmt_matrix_padded_cols(nmt_format f, int cols)
{
	if (f == NMT_FMT_F32)
		return cols;
	return (int)chunks_per_row(f, cols) * NMT_CHUNK_COLS(f);
}

size_t nmt_matrix_code_bytes(nmt_format f, int rows, int cols)
{
	size_t panels = ((size_t)rows + NMT_PANEL_ROWS - 1) / NMT_PANEL_ROWS;
	return panels * NMT_PANEL_ROWS * chunks_per_row(f, cols) * NMT_CHUNK_BYTES;
}

size_t nmt_tensor_factors_at(nmt_format f, int rows, int cols)
{
	size_t codes = nmt_matrix_code_bytes(f, rows, cols);
	return (codes + NMT_ALIGN - 1) / NMT_ALIGN * NMT_ALIGN;
}

size_t nmt_tensor_bytes(nmt_format f, int rows, int cols)
{
	if (f == NMT_FMT_F32)
		return (size_t)rows * (size_t)cols * sizeof(float);
	return nmt_tensor_factors_at(f, rows, cols) + (size_t)rows * sizeof(float);
}
