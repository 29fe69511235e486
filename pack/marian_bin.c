/* Reading Marian's binary model format (see marian_file.h):
 *
 *   u64 version (1)   u64 n
 *   n x { u64 name length (with its NUL), u64 type, u64 dims, u64 data bytes }
 *   the n names, NUL-terminated, one after the other
 *   the n shapes, `dims` int32 each
 *   u64 pad, then pad zero bytes (the data starts on a 256-byte boundary)
 *   the n items' data, each `data bytes` long (a multiple of 256: padded)
 *
 * Types are Marian's codes: float32 0x404, int8 0x101 (the model's YAML),
 * intgemm8 0x10001 (int8 values, the transpose of the matrix, then its
 * float quantization multiplier). Other types, including the CPU-specific
 * intgemm layouts, are refused by name. */
#include "marian_file.h"

#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../format/format.h"

#define TYPE_INT8 0x101u
#define TYPE_FLOAT32 0x404u
#define TYPE_INTGEMM8 0x10001u
#define MAX_ITEMS 100000
#define HEADER_WORDS 4

static int type_of(uint64_t code, mf_type *t)
{
	switch (code) {
	case TYPE_FLOAT32:
		*t = MF_F32;
		return 0;
	case TYPE_INT8:
		*t = MF_I8;
		return 0;
	case TYPE_INTGEMM8:
		*t = MF_INTGEMM8;
		return 0;
	default:
		return -1;
	}
}

/* The bytes an item's shape and type need: floats, int8 values, or int8
 * values and one float multiplier. */
static int payload_bytes(const mf_item *it, size_t *out)
{
	int64_t n = mf_numel(it);
	if (n < 0 || (uint64_t)n > SIZE_MAX / 8)
		return -1;
	*out = it->type == MF_F32 ? (size_t)n * 4 : it->type == MF_INTGEMM8 ? (size_t)n + 4 : (size_t)n;
	return 0;
}

static int bad(mf_file *f, char *err, size_t errlen, const char *what)
{
	mf_close(f);
	return error_set(err, errlen, "corrupt Marian .bin: %s", what);
}

int mf_open_bin(const uint8_t *buf, size_t len, mf_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	if (len < 16)
		return error_set(err, errlen, "not a Marian .bin model (too short)");
	uint64_t version = format_rd64(buf), n = format_rd64(buf + 8);
	if (version != 1)
		return error_set(err, errlen, "Marian .bin version %llu is not supported (1 is; 2 is encrypted)",
			    (unsigned long long)version);
	if (n == 0 || n > MAX_ITEMS || (len - 16) / (HEADER_WORDS * 8) < n)
		return error_set(err, errlen, "corrupt Marian .bin: %llu items", (unsigned long long)n);
	if (!(f->items = calloc((size_t)n, sizeof *f->items)))
		return error_set(err, errlen, "out of memory");
	f->n = (size_t)n;
	const uint8_t *hdr = buf + 16;
	size_t at = 16 + (size_t)n * HEADER_WORDS * 8;

	for (size_t i = 0; i < f->n; i++) {   /* the names */
		uint64_t name_len = format_rd64(hdr + i * 32);
		if (name_len < 2 || name_len > MF_NAME_MAX || name_len > len - at || buf[at + name_len - 1] != '\0' ||
		    !mf_printable((const char *)buf + at, name_len - 1))
			return bad(f, err, errlen, "item name");
		memcpy(f->items[i].name, buf + at, name_len);
		at += name_len;
	}
	for (size_t i = 0; i < f->n; i++) {   /* the shapes */
		mf_item *it = &f->items[i];
		uint64_t dims = format_rd64(hdr + i * 32 + 16);
		if (dims > MF_MAX_DIMS || dims * 4 > len - at)
			return bad(f, err, errlen, "item shape");
		it->ndim = (int)dims;
		for (int d = 0; d < it->ndim; d++, at += 4) {
			int32_t v = (int32_t)((uint32_t)buf[at] | (uint32_t)buf[at + 1] << 8 | (uint32_t)buf[at + 2] << 16 |
					      (uint32_t)buf[at + 3] << 24);
			if (v < 0)
				return bad(f, err, errlen, "negative dimension");
			it->shape[d] = v;
		}
	}
	if (len - at < 8 || format_rd64(buf + at) > len - at - 8)
		return bad(f, err, errlen, "padding runs past the end");
	at += 8 + (size_t)format_rd64(buf + at);
	for (size_t i = 0; i < f->n; i++) {   /* the data */
		mf_item *it = &f->items[i];
		uint64_t code = format_rd64(hdr + i * 32 + 8), bytes = format_rd64(hdr + i * 32 + 24);
		size_t need;
		if (type_of(code, &it->type) != 0) {
			error_set(err, errlen, "%s: Marian type 0x%llx is not supported (float32, int8 and intgemm8 are)",
				 it->name, (unsigned long long)code);
			mf_close(f);
			return -1;
		}
		if (bytes > len - at || payload_bytes(it, &need) != 0 || need > bytes)
			return bad(f, err, errlen, "item data runs past the end or is smaller than its shape");
		it->data = buf + at;
		it->nbytes = need;
		at += (size_t)bytes;
	}
	return 0;
}
