/* The byte layout of a weight tensor (see weights.h). */
#include "weights.h"

#include <string.h>

#include "format.h"

static const char *const ENCODING_NAMES[] = { [FORMAT_F32] = "f32", [FORMAT_Q8] = "q8", [FORMAT_Q4] = "q4",
					      [FORMAT_I8] = "i8", [FORMAT_Q4N] = "q4n" };

const char *format_encoding_name(format_encoding f)
{
	return ENCODING_NAMES[f];
}

int format_encoding_parse(const char *name, format_encoding *f)
{
	for (int i = 0; i < (int)(sizeof ENCODING_NAMES / sizeof *ENCODING_NAMES); i++)
		if (strcmp(name, ENCODING_NAMES[i]) == 0) {
			*f = (format_encoding)i;
			return 0;
		}
	return -1;
}

static size_t chunks_per_row(format_encoding f, int cols)
{
	return ((size_t)cols + FORMAT_CHUNK_COLS(f) - 1) / FORMAT_CHUNK_COLS(f);
}

int format_matrix_padded_cols(format_encoding f, int cols)
{
	if (f == FORMAT_F32)
		return cols;
	return (int)chunks_per_row(f, cols) * FORMAT_CHUNK_COLS(f);
}

size_t format_matrix_code_bytes(format_encoding f, int rows, int cols)
{
	size_t panel_rows = FORMAT_PANEL_ROWS_OF(f);
	size_t panels = ((size_t)rows + panel_rows - 1) / panel_rows;
	return panels * panel_rows * chunks_per_row(f, cols) * FORMAT_CHUNK_BYTES;
}

size_t format_tensor_factors_at(format_encoding f, int rows, int cols)
{
	size_t codes = format_matrix_code_bytes(f, rows, cols);
	return (codes + FORMAT_ALIGN - 1) / FORMAT_ALIGN * FORMAT_ALIGN;
}

size_t format_tensor_bytes(format_encoding f, int rows, int cols)
{
	if (f == FORMAT_F32)
		return (size_t)rows * (size_t)cols * sizeof(float);
	return format_tensor_factors_at(f, rows, cols) + (size_t)rows * sizeof(float);
}
