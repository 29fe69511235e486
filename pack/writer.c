#include "writer.h"

#include "../quant/logquant.h"
#include "../quant/qlayout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format/crc32.h"

static size_t align_up(size_t x)
{
	return (x + FORMAT_ALIGN - 1) / FORMAT_ALIGN * FORMAT_ALIGN;
}

int pack_add_section(pack_file *f, const char *tag, uint8_t *data, size_t size, uint32_t flags)
{
	if (f->n == FORMAT_MAX_SECTIONS || strlen(tag) >= sizeof f->sections[0].tag) {
		free(data);
		return -1;
	}
	pack_section *s = &f->sections[f->n++];
	memset(s, 0, sizeof *s);
	strcpy(s->tag, tag);
	s->data = data;
	s->size = size;
	s->flags = flags;
	return 0;
}

void pack_free(pack_file *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->sections[i].data);
	f->n = 0;
}

/* Header + table, given each section's offset. */
static void build_head(const pack_file *f, const size_t *offsets, size_t file_size, uint8_t *head)
{
	size_t table_size = (size_t)f->n * FORMAT_SECTION_ENTRY_SIZE;
	uint8_t *table = head + FORMAT_HEADER_SIZE;

	memset(head, 0, FORMAT_HEADER_SIZE + table_size);
	for (int i = 0; i < f->n; i++) {
		const pack_section *s = &f->sections[i];
		uint8_t *e = table + (size_t)i * FORMAT_SECTION_ENTRY_SIZE;
		memcpy(e + FORMAT_S_TAG, s->tag, strlen(s->tag));
		format_wr64(e + FORMAT_S_OFFSET, offsets[i]);
		format_wr64(e + FORMAT_S_SIZE, s->size);
		format_wr32(e + FORMAT_S_ALIGN, FORMAT_ALIGN);
		format_wr32(e + FORMAT_S_CRC, format_crc32(0, s->data, s->size));
		format_wr32(e + FORMAT_S_FLAGS, s->flags);
	}
	memcpy(head + FORMAT_H_MAGIC, FORMAT_MAGIC, 8);
	format_wr32(head + FORMAT_H_VERSION, FORMAT_VERSION);
	format_wr32(head + FORMAT_H_NSECTIONS, (uint32_t)f->n);
	format_wr64(head + FORMAT_H_FILE_SIZE, file_size);
	format_wr32(head + FORMAT_H_TABLE_CRC, format_crc32(0, table, table_size));
	format_wr32(head + FORMAT_H_HEADER_CRC, format_crc32(0, head, FORMAT_H_HEADER_CRC));
}

static int write_padded(FILE *out, const void *data, size_t size, size_t *pos)
{
	static const uint8_t zeros[FORMAT_ALIGN];
	size_t pad = align_up(*pos) - *pos;

	if (fwrite(zeros, 1, pad, out) != pad || fwrite(data, 1, size, out) != size)
		return -1;
	*pos += pad + size;
	return 0;
}

int pack_write(const pack_file *f, const char *path, char *err, size_t errlen)
{
	size_t offsets[FORMAT_MAX_SECTIONS];
	size_t head_size = FORMAT_HEADER_SIZE + (size_t)f->n * FORMAT_SECTION_ENTRY_SIZE, pos = head_size;

	for (int i = 0; i < f->n; i++) {
		offsets[i] = align_up(pos);
		pos = offsets[i] + f->sections[i].size;
	}
	uint8_t *head = malloc(head_size);
	char tmp[4096];
	if (!head || snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		free(head);
		snprintf(err, errlen, "out of memory or path too long");
		return -1;
	}
	build_head(f, offsets, pos, head);
	FILE *out = fopen(tmp, "wb");
	if (!out) {
		free(head);
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	size_t written = 0;
	int bad = fwrite(head, 1, head_size, out) != head_size;
	written = head_size;
	for (int i = 0; i < f->n && !bad; i++)
		bad = write_padded(out, f->sections[i].data, f->sections[i].size, &written);
	free(head);
	if (fclose(out) != 0 || bad || rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int grow_bytes(uint8_t **p, size_t n)
{
	uint8_t *q = realloc(*p, n);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

/* Append one tensor's bytes (size of them, built by fill) and its entry. */
static int add_tensor(pack_tensors *t, const char *name, format_encoding dtype, int rows, int cols, size_t bytes,
		      uint8_t **dest)
{
	size_t off = align_up(t->weights_size);

	if (strlen(name) >= FORMAT_TENSOR_NAME_LEN)
		return -1;
	if (t->dir_size == 0)
		t->dir_size = 8;
	if (grow_bytes(&t->dir, t->dir_size + FORMAT_TENSOR_ENTRY_SIZE) != 0 ||
	    grow_bytes(&t->weights, off + bytes) != 0)
		return -1;
	memset(t->weights + t->weights_size, 0, off + bytes - t->weights_size);
	*dest = t->weights + off;
	t->weights_size = off + bytes;
	uint8_t *e = t->dir + t->dir_size;
	memset(e, 0, FORMAT_TENSOR_ENTRY_SIZE);
	memcpy(e + FORMAT_T_NAME, name, strlen(name));
	format_wr32(e + FORMAT_T_DTYPE, dtype);
	format_wr32(e + FORMAT_T_ROWS, (uint32_t)rows);
	format_wr32(e + FORMAT_T_COLS, (uint32_t)cols);
	format_wr64(e + FORMAT_T_OFFSET, off);
	format_wr64(e + FORMAT_T_SIZE, bytes);
	t->dir_size += FORMAT_TENSOR_ENTRY_SIZE;
	t->count++;
	format_wr32(t->dir, t->count);
	format_wr32(t->dir + 4, 0);
	return 0;
}

int pack_tensor_f32(pack_tensors *t, const char *name, int rows, int cols, const float *data)
{
	uint8_t *dest;
	size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
	if (add_tensor(t, name, FORMAT_F32, rows, cols, bytes, &dest) != 0)
		return -1;
	/* Little-endian hosts only (checked in main): floats are written as they lie. */
	memcpy(dest, data, bytes);
	return 0;
}

int pack_tensor_quant(pack_tensors *t, const char *name, format_encoding f, int rows, int cols,
		      const float *data)
{
	quant_logq_format fmt = quant_logq_of(f);
	size_t factors_at = format_tensor_factors_at(f, rows, cols);
	uint8_t *codes = malloc((size_t)rows * (size_t)cols), *dest;
	float *factors = malloc((size_t)rows * sizeof *factors);

	if (!codes || !factors || add_tensor(t, name, f, rows, cols, format_tensor_bytes(f, rows, cols), &dest) != 0) {
		free(codes);
		free(factors);
		return -1;
	}
	for (int r = 0; r < rows; r++) {
		const float *w = data + (size_t)r * cols;
		uint8_t *c = codes + (size_t)r * cols;
		/* i8's scale is the value of integer 1; a log format's is that of level[0] */
		factors[r] = f == FORMAT_I8 ? quant_i8_quantize_row(w, cols, c)
					    : quant_logq_quantize_row(fmt, w, cols, c) / (float)quant_logq_table(fmt)[0];
	}
	quant_q_layout(f, rows, cols, codes, dest);
	memcpy(dest + factors_at, factors, (size_t)rows * sizeof *factors);
	free(codes);
	free(factors);
	return 0;
}

void pack_tensors_free(pack_tensors *t)
{
	free(t->dir);
	free(t->weights);
	memset(t, 0, sizeof *t);
}
