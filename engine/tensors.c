/* Binding tensors by name (see tensors.h). */
#include "tensors.h"

#include <stdio.h>
#include <string.h>

#include "../common/error.h"
#include "../format/weights.h"

int engine_tensor_dir_open(const format_file_view *v, engine_tensor_dir *td, char *err, size_t errlen)
{
	const format_section *s = format_find(v, FORMAT_TAG_TENSORS);
	td->weights = format_find(v, FORMAT_TAG_WEIGHTS);
	if (!s || !td->weights)
		return error_set(err, errlen, "corrupt model: missing \"%s\" section", !s ? FORMAT_TAG_TENSORS : FORMAT_TAG_WEIGHTS);
	if (s->size < 8)
		return error_set(err, errlen, "corrupt model: tensor directory too small");
	td->count = format_rd32(s->data);
	if ((uint64_t)td->count * FORMAT_TENSOR_ENTRY_SIZE != s->size - 8)
		return error_set(err, errlen, "corrupt model: tensor directory size does not match its count");
	td->dir = s->data + 8;
	return 0;
}

/* Find a tensor by name and check its shape and that [offset, offset+size)
 * lies inside the weights section. */
static int find_tensor(const engine_tensor_dir *td, const char *name, int rows, int cols, const uint8_t **entry,
		       char *err, size_t errlen)
{
	for (uint32_t i = 0; i < td->count; i++) {
		const uint8_t *e = td->dir + (size_t)i * FORMAT_TENSOR_ENTRY_SIZE;
		if (strncmp((const char *)e + FORMAT_T_NAME, name, FORMAT_TENSOR_NAME_LEN) != 0)
			continue;
		uint32_t r = format_rd32(e + FORMAT_T_ROWS), c = format_rd32(e + FORMAT_T_COLS);
		uint64_t off = format_rd64(e + FORMAT_T_OFFSET), size = format_rd64(e + FORMAT_T_SIZE);
		if (r != (uint32_t)rows || c != (uint32_t)cols)
			return error_set(err, errlen, "tensor \"%s\" is %ux%u, the metadata implies %dx%d",
				    name, r, c, rows, cols);
		if (off % FORMAT_ALIGN != 0 || off > td->weights->size || size > td->weights->size - off)
			return error_set(err, errlen, "corrupt model: tensor \"%s\" lies outside the weights section", name);
		*entry = e;
		return 0;
	}
	return error_set(err, errlen, "model has no tensor \"%s\"", name);
}

static int size_mismatch(const char *name, char *err, size_t errlen)
{
	return error_set(err, errlen, "corrupt model: tensor \"%s\" has the wrong size for its shape and dtype", name);
}

int engine_bind_f32(const engine_tensor_dir *td, const char *name, int rows, int cols, const float **data,
		char *err, size_t errlen)
{
	const uint8_t *e;
	if (find_tensor(td, name, rows, cols, &e, err, errlen) != 0)
		return -1;
	uint32_t dtype = format_rd32(e + FORMAT_T_DTYPE);
	if (dtype != FORMAT_F32)
		return error_set(err, errlen, "tensor \"%s\": dtype %u where f32 is required", name, dtype);
	if (format_rd64(e + FORMAT_T_SIZE) != (uint64_t)rows * (uint64_t)cols * sizeof(float))
		return size_mismatch(name, err, errlen);
	*data = (const float *)(td->weights->data + format_rd64(e + FORMAT_T_OFFSET));
	return 0;
}

int engine_bind_matrix(const engine_tensor_dir *td, const char *name, int rows, int cols, quant_matrix *w,
		       char *err, size_t errlen)
{
	const uint8_t *e;
	if (find_tensor(td, name, rows, cols, &e, err, errlen) != 0)
		return -1;
	uint32_t dtype = format_rd32(e + FORMAT_T_DTYPE);
	uint64_t size = format_rd64(e + FORMAT_T_SIZE);
	const uint8_t *data = td->weights->data + format_rd64(e + FORMAT_T_OFFSET);
	*w = (quant_matrix){ .rows = rows, .cols = cols, .data = data };
	if (dtype != FORMAT_F32 && dtype != FORMAT_Q8 && dtype != FORMAT_Q4 && dtype != FORMAT_I8 && dtype != FORMAT_Q4N)
		return error_set(err, errlen, "tensor \"%s\": unsupported dtype %u", name, dtype);
	w->format = (format_encoding)dtype;
	if (w->format == FORMAT_Q8 && cols > FORMAT_Q8_MAX_COLS)
		return error_set(err, errlen, "tensor \"%s\": q8 matrices may have at most %d columns", name,
			    FORMAT_Q8_MAX_COLS);
	if (w->format == FORMAT_I8 && cols > FORMAT_I8_MAX_COLS)
		return error_set(err, errlen, "tensor \"%s\": i8 matrices may have at most %d columns", name,
			    FORMAT_I8_MAX_COLS);
	if (size != format_tensor_bytes(w->format, rows, cols))
		return size_mismatch(name, err, errlen);
	if (w->format != FORMAT_F32)
		w->row_factor = (const float *)(data + format_tensor_factors_at(w->format, rows, cols));
	return 0;
}
