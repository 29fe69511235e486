#include "safetensors.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/json.h"
#include "../common/error.h"

#define ST_MAX_TENSORS 65536   /* far above any checkpoint we pack; bounds a hostile header */
#define ST_MAX_META 256
#define ST_NAME_MAX 256
#define ST_META_VALUE_MAX 4096

struct st_file {
	void *owned;               /* the file's bytes when opened from a path */
	st_tensor *tensors;        /* grown by doubling as the header is read */
	size_t n_tensors, cap_tensors;
	char *meta_keys[ST_MAX_META], *meta_values[ST_MAX_META];
	size_t n_meta;
};

/* Indexed by st_dtype. */
static const struct {
	const char *name;
	size_t size;
} dtypes[] = { { "F32", 4 }, { "F16", 2 }, { "BF16", 2 }, { "I32", 4 }, { "I64", 8 } };

static size_t dtype_size(st_dtype d)
{
	return dtypes[d].size;
}

static int parse_dtype(const char *s, st_dtype *d)
{
	for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
		if (strcmp(s, dtypes[i].name) == 0) {
			*d = (st_dtype)i;
			return 0;
		}
	}
	return -1;
}

/* strdup is POSIX, not C11; this keeps the file building under plain -std=c11. */
static char *copy_string(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	return p ? memcpy(p, s, n) : NULL;
}

static int parse_uint_array(json_cursor *c, int64_t *out, int max, int *n)
{
	*n = 0;
	if (json_expect(c, '[') != 0)
		return -1;
	if (json_accept(c, ']'))
		return 0;
	do {
		if (*n == max)
			return -1;
		if (json_uint(c, &out[(*n)++]) != 0)
			return -1;
	} while (json_accept(c, ','));
	return json_expect(c, ']');
}

/* One tensor's {"dtype", "shape", "data_offsets"} object. */
static int parse_tensor(json_cursor *c, st_tensor *t, int64_t offsets[2], char *err, size_t errlen)
{
	char key[32], dtype[16];
	int have = 0, n;

	if (json_expect(c, '{') != 0)
		return error_set(err, errlen, "tensor \"%s\": %s", t->name, c->err);
	do {
		if (json_string(c, key, sizeof key) != 0 || json_expect(c, ':') != 0)
			return error_set(err, errlen, "tensor \"%s\": %s", t->name, c->err);
		if (strcmp(key, "dtype") == 0 && !(have & 1)) {
			if (json_string(c, dtype, sizeof dtype) != 0)
				return error_set(err, errlen, "tensor \"%s\": dtype: %s", t->name, c->err);
			if (parse_dtype(dtype, &t->dtype) != 0)
				return error_set(err, errlen,
					    "tensor \"%s\": unsupported dtype \"%s\" (F32, F16, BF16, I32 and I64 are)",
					    t->name, dtype);
			have |= 1;
		} else if (strcmp(key, "shape") == 0 && !(have & 2)) {
			if (parse_uint_array(c, t->shape, ST_MAX_DIMS, &t->ndim) != 0)
				return error_set(err, errlen, "tensor \"%s\": shape is not a list of at most %d non-negative integers",
					    t->name, ST_MAX_DIMS);
			have |= 2;
		} else if (strcmp(key, "data_offsets") == 0 && !(have & 4)) {
			if (parse_uint_array(c, offsets, 2, &n) != 0 || n != 2)
				return error_set(err, errlen, "tensor \"%s\": data_offsets is not [begin, end]", t->name);
			have |= 4;
		} else {
			return error_set(err, errlen, "tensor \"%s\": unexpected or repeated field \"%s\"", t->name, key);
		}
	} while (json_accept(c, ','));
	if (json_expect(c, '}') != 0)
		return error_set(err, errlen, "tensor \"%s\": %s", t->name, c->err);
	if (have != 7)
		return error_set(err, errlen, "tensor \"%s\": needs dtype, shape and data_offsets", t->name);
	return 0;
}

/* Shape product times element size must equal the byte range, inside the data. */
static int place_tensor(st_tensor *t, const int64_t off[2], const uint8_t *data, size_t data_len,
			char *err, size_t errlen)
{
	uint64_t bytes = dtype_size(t->dtype);
	for (int i = 0; i < t->ndim; i++) {
		if (t->shape[i] != 0 && bytes > SIZE_MAX / (uint64_t)t->shape[i])
			return error_set(err, errlen, "tensor \"%s\": shape too large", t->name);
		bytes *= (uint64_t)t->shape[i];
	}
	if (off[1] < off[0])
		return error_set(err, errlen, "tensor \"%s\": data_offsets [%lld, %lld] end before they begin", t->name,
			    (long long)off[0], (long long)off[1]);
	if ((uint64_t)off[1] > data_len)
		return error_set(err, errlen, "tensor \"%s\": data_offsets [%lld, %lld] exceed data size %zu", t->name,
			    (long long)off[0], (long long)off[1], data_len);
	if ((uint64_t)(off[1] - off[0]) != bytes)
		return error_set(err, errlen, "tensor \"%s\": %lld bytes of data for a shape that needs %llu", t->name,
			    (long long)(off[1] - off[0]), (unsigned long long)bytes);
	t->data = data + off[0];
	t->nbytes = (size_t)bytes;
	return 0;
}

static int parse_metadata(json_cursor *c, st_file *f, char *err, size_t errlen)
{
	char key[ST_NAME_MAX], *value = malloc(ST_META_VALUE_MAX);

	if (!value)
		return error_set(err, errlen, "out of memory");
	if (json_expect(c, '{') != 0)
		goto bad;
	if (!json_accept(c, '}')) {
		do {
			if (f->n_meta == ST_MAX_META) {
				free(value);
				return error_set(err, errlen, "__metadata__ has more than %d entries", ST_MAX_META);
			}
			if (json_string(c, key, sizeof key) != 0 || json_expect(c, ':') != 0 ||
			    json_string(c, value, ST_META_VALUE_MAX) != 0)
				goto bad;
			if (st_meta(f, key)) {   /* JSON leaves duplicates undefined; refuse rather than guess */
				free(value);
				return error_set(err, errlen, "__metadata__ key \"%s\" appears twice", key);
			}
			f->meta_keys[f->n_meta] = copy_string(key);
			f->meta_values[f->n_meta] = copy_string(value);
			if (!f->meta_keys[f->n_meta] || !f->meta_values[f->n_meta]) {
				f->n_meta++;
				free(value);
				return error_set(err, errlen, "out of memory");
			}
			f->n_meta++;
		} while (json_accept(c, ','));
		if (json_expect(c, '}') != 0)
			goto bad;
	}
	free(value);
	return 0;
bad:
	free(value);
	return error_set(err, errlen, "__metadata__ must map strings to strings (%s)", c->err);
}

static int add_tensor(json_cursor *c, st_file *f, const char *name, const uint8_t *data, size_t data_len,
		      char *err, size_t errlen)
{
	int64_t off[2];

	if (f->n_tensors == ST_MAX_TENSORS)
		return error_set(err, errlen, "more than %d tensors", ST_MAX_TENSORS);
	if (f->n_tensors == f->cap_tensors) {
		size_t cap = f->cap_tensors ? 2 * f->cap_tensors : 64;
		st_tensor *grown = realloc(f->tensors, cap * sizeof *grown);
		if (!grown)
			return error_set(err, errlen, "out of memory");
		f->tensors = grown;
		f->cap_tensors = cap;
	}
	st_tensor *t = &f->tensors[f->n_tensors];
	memset(t, 0, sizeof *t);
	if (!(t->name = copy_string(name)))
		return error_set(err, errlen, "out of memory");
	f->n_tensors++;   /* from here on st_close frees the name */
	if (parse_tensor(c, t, off, err, errlen) != 0)
		return -1;
	return place_tensor(t, off, data, data_len, err, errlen);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorting once keeps a hostile header with many tensors from costing a
 * quadratic number of name comparisons. */
static int check_unique_names(const st_file *f, char *err, size_t errlen)
{
	if (f->n_tensors < 2)
		return 0;
	const char **names = malloc(f->n_tensors * sizeof *names);
	if (!names)
		return error_set(err, errlen, "out of memory");
	for (size_t i = 0; i < f->n_tensors; i++)
		names[i] = f->tensors[i].name;
	qsort(names, f->n_tensors, sizeof *names, compare_names);
	int rc = 0;
	for (size_t i = 1; i < f->n_tensors && rc == 0; i++)
		if (strcmp(names[i - 1], names[i]) == 0)
			rc = error_set(err, errlen, "tensor \"%s\" appears twice", names[i]);
	free(names);
	return rc;
}

static int parse_header(st_file *f, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	json_cursor c;
	char name[ST_NAME_MAX];

	if (len < 8)
		return error_set(err, errlen, "not a safetensors file (%zu bytes)", len);
	uint64_t n = 0;
	for (int i = 7; i >= 0; i--)
		n = n << 8 | buf[i];
	if (n > len - 8)
		return error_set(err, errlen, "not a safetensors file (header length %llu exceeds the file)",
			    (unsigned long long)n);
	const uint8_t *data = buf + 8 + n;
	size_t data_len = len - 8 - (size_t)n;
	json_init(&c, (const char *)buf + 8, (size_t)n);
	if (json_expect(&c, '{') != 0)
		return error_set(err, errlen, "not a safetensors file (header is not a JSON object)");
	if (json_accept(&c, '}'))
		return json_end(&c) == 0 ? 0 : error_set(err, errlen, "%s", c.err);
	do {
		if (json_string(&c, name, sizeof name) != 0 || json_expect(&c, ':') != 0)
			return error_set(err, errlen, "safetensors header: %s", c.err);
		int rc = strcmp(name, "__metadata__") == 0
				 ? parse_metadata(&c, f, err, errlen)
				 : add_tensor(&c, f, name, data, data_len, err, errlen);
		if (rc != 0)
			return -1;
	} while (json_accept(&c, ','));
	if (json_expect(&c, '}') != 0 || json_end(&c) != 0)
		return error_set(err, errlen, "safetensors header: %s", c.err);
	return check_unique_names(f, err, errlen);
}

int st_open_mem(const void *buf, size_t len, st_file **out, char *err, size_t errlen)
{
	st_file *f = calloc(1, sizeof *f);

	*out = NULL;
	if (!f)
		return error_set(err, errlen, "out of memory");
	if (parse_header(f, buf, len, err, errlen) != 0) {
		st_close(f);
		return -1;
	}
	*out = f;
	return 0;
}

int st_open(const char *path, st_file **out, char *err, size_t errlen)
{
	FILE *in = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, got;

	*out = NULL;
	if (!in)
		return error_set(err, errlen, "cannot open: %s", strerror(errno));
	do {
		if (len == cap) {
			uint8_t *p = realloc(buf, cap = cap ? 2 * cap : 1 << 20);
			if (!p) {
				free(buf);
				fclose(in);
				return error_set(err, errlen, "out of memory");
			}
			buf = p;
		}
		got = fread(buf + len, 1, cap - len, in);
		len += got;
	} while (got > 0);
	int read_error = ferror(in);
	fclose(in);
	if (read_error) {
		free(buf);
		return error_set(err, errlen, "read error");
	}
	if (st_open_mem(buf, len, out, err, errlen) != 0) {
		free(buf);
		return -1;
	}
	(*out)->owned = buf;
	return 0;
}

void st_close(st_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n_tensors; i++)
		free((char *)f->tensors[i].name);
	for (size_t i = 0; i < f->n_meta; i++) {
		free(f->meta_keys[i]);
		free(f->meta_values[i]);
	}
	free(f->tensors);
	free(f->owned);
	free(f);
}

size_t st_count(const st_file *f)
{
	return f->n_tensors;
}

const st_tensor *st_at(const st_file *f, size_t i)
{
	return i < f->n_tensors ? &f->tensors[i] : NULL;
}

const st_tensor *st_find(const st_file *f, const char *name)
{
	for (size_t i = 0; i < f->n_tensors; i++)
		if (strcmp(f->tensors[i].name, name) == 0)
			return &f->tensors[i];
	return NULL;
}

const char *st_meta(const st_file *f, const char *key)
{
	for (size_t i = 0; i < f->n_meta; i++)
		if (strcmp(f->meta_keys[i], key) == 0)
			return f->meta_values[i];
	return NULL;
}

int64_t st_numel(const st_tensor *t)
{
	int64_t n = 1;
	for (int i = 0; i < t->ndim; i++)
		n *= t->shape[i];
	return n;
}

/* IEEE half to float, subnormals, infinities and NaN included. */
static float half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, exp = h >> 10 & 0x1F, mant = h & 0x3FF, bits;

	if (exp == 0x1F) {
		bits = sign | 0x7F800000u | mant << 13;
	} else if (exp != 0) {
		bits = sign | (exp + 112) << 23 | mant << 13;
	} else if (mant == 0) {
		bits = sign;
	} else {   /* subnormal: normalize the mantissa */
		int shift = 0;
		while (!(mant & 0x400)) {
			mant <<= 1;
			shift++;
		}
		bits = sign | (uint32_t)(113 - shift) << 23 | (mant & 0x3FF) << 13;
	}
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

int st_to_f32(const st_tensor *t, float *dst)
{
	const uint8_t *p = t->data;
	size_t n = t->nbytes / dtype_size(t->dtype);

	if (t->dtype != ST_F32 && t->dtype != ST_F16 && t->dtype != ST_BF16)
		return -1;   /* integer tensors are not weights; converting them would hide a mistake */
	for (size_t i = 0; i < n; i++) {
		uint32_t bits;
		switch (t->dtype) {
		case ST_F32:
			bits = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
			       (uint32_t)p[4 * i + 3] << 24;
			memcpy(&dst[i], &bits, sizeof bits);
			break;
		case ST_F16:
			dst[i] = half_to_float((uint16_t)(p[2 * i] | p[2 * i + 1] << 8));
			break;
		case ST_BF16:
			bits = (uint32_t)(p[2 * i] | p[2 * i + 1] << 8) << 16;
			memcpy(&dst[i], &bits, sizeof bits);
			break;
		default:
			return -1;
		}
	}
	return 0;
}
