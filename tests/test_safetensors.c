/* The safetensors reader (pack/safetensors.c) on valid, malformed and hostile
 * headers, all built in memory here, and on the committed fixtures:
 * tests/fixtures/st/good.safetensors (see make.py there) and the tiny checkpoint. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/json.h"
#include "../pack/safetensors.h"

/* 8-byte length + header + data, in a malloc'd buffer. */
static uint8_t *make_file(const char *header, const void *data, size_t data_len, size_t *len)
{
	size_t h = strlen(header);
	uint8_t *buf = malloc(8 + h + data_len + 1);
	assert_non_null(buf);
	for (int i = 0; i < 8; i++)
		buf[i] = (uint8_t)((uint64_t)h >> (8 * i));
	memcpy(buf + 8, header, h);
	if (data_len)
		memcpy(buf + 8 + h, data, data_len);
	*len = 8 + h + data_len;
	return buf;
}

static void test_reads_f32_f16_bf16_and_metadata(void **state)
{
	(void)state;
	/* f32 [1.5, -2], f16 [1, -0.5, 65504, tiny subnormal], bf16 [3, -inf] */
	uint8_t data[8 + 8 + 4];
	float f32[2] = { 1.5f, -2.0f };
	uint16_t f16[4] = { 0x3C00, 0xB800, 0x7BFF, 0x0001 };
	uint16_t bf16[2] = { 0x4040, 0xFF80 };
	memcpy(data, f32, 8);
	memcpy(data + 8, f16, 8);
	memcpy(data + 16, bf16, 4);
	const char *h = "{\"__metadata__\":{\"emb\":\"16\",\"name\":\"caf\\u00e9 \\ud83d\\ude00\"},"
			"\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
			"\"b\":{\"shape\":[2,2],\"dtype\":\"F16\",\"data_offsets\":[8,16]},"
			"\"c\":{\"dtype\":\"BF16\",\"shape\":[1,2],\"data_offsets\":[16,20]}}";
	size_t len;
	uint8_t *buf = make_file(h, data, sizeof data, &len);
	st_file *f;
	char err[256];
	assert_int_equal(st_open_mem(buf, len, &f, err, sizeof err), 0);
	assert_int_equal(st_count(f), 3);
	assert_string_equal(st_meta(f, "emb"), "16");
	assert_string_equal(st_meta(f, "name"), "caf\xc3\xa9 \xf0\x9f\x98\x80");
	assert_null(st_meta(f, "missing"));
	float out[4];
	const st_tensor *a = st_find(f, "a"), *b = st_find(f, "b"), *c = st_find(f, "c");
	assert_non_null(a);
	assert_int_equal(st_to_f32(a, out), 0);
	assert_true(out[0] == 1.5f && out[1] == -2.0f);
	assert_int_equal(b->ndim, 2);
	assert_int_equal(st_numel(b), 4);
	assert_int_equal(st_to_f32(b, out), 0);
	assert_true(out[0] == 1.0f && out[1] == -0.5f && out[2] == 65504.0f);
	assert_true(out[3] == ldexpf(1.0f, -24));   /* smallest f16 subnormal */
	assert_int_equal(st_to_f32(c, out), 0);
	assert_true(out[0] == 3.0f && isinf(out[1]) && out[1] < 0);
	assert_null(st_find(f, "d"));
	st_close(f);
	free(buf);
}

/* Opens a header + data built in memory; returns st_open_mem's result with the
 * message in err, closing the file on success. */
static int open_header(const char *header, const void *data, size_t data_len, char *err, size_t errlen)
{
	size_t len;
	uint8_t *buf = make_file(header, data, data_len, &len);
	st_file *f = NULL;
	err[0] = '\0';
	int rc = st_open_mem(buf, len, &f, err, errlen);
	st_close(f);
	free(buf);
	return rc;
}

static uint8_t *read_whole(const char *path, size_t *len)
{
	FILE *in = fopen(path, "rb");
	assert_non_null(in);
	assert_int_equal(fseek(in, 0, SEEK_END), 0);
	long size = ftell(in);
	assert_true(size > 0);
	rewind(in);
	uint8_t *buf = malloc((size_t)size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, in), (size_t)size);
	fclose(in);
	*len = (size_t)size;
	return buf;
}

static void assert_shape(const st_tensor *t, st_dtype dtype, int ndim, const int64_t *shape)
{
	assert_non_null(t);
	assert_int_equal(t->dtype, dtype);
	assert_int_equal(t->ndim, ndim);
	for (int i = 0; i < ndim; i++)
		assert_int_equal(t->shape[i], shape[i]);
}

static void assert_floats(const st_tensor *t, const float *want, size_t n)
{
	assert_int_equal(st_numel(t), (int64_t)n);
	float *got = malloc(n * sizeof *got + 1);   /* exactly n floats: ASan sees any overrun */
	assert_non_null(got);
	assert_int_equal(st_to_f32(t, got), 0);
	for (size_t i = 0; i < n; i++)
		if (memcmp(&got[i], &want[i], sizeof(float)) != 0)   /* bitwise: -0 and 1e30 exactly */
			fail_msg("%s[%zu] = %.9g, want %.9g", t->name, i, (double)got[i], (double)want[i]);
	free(got);
}

/* tests/fixtures/st/good.safetensors, written by make.py next to it: odd
 * header length, tensors packed back to back (mostly unaligned), \u escapes. */
static void test_good_fixture_reads_back_exactly(void **state)
{
	(void)state;
	st_file *f;
	char err[256];
	assert_int_equal(st_open("tests/fixtures/st/good.safetensors", &f, err, sizeof err), 0);
	assert_int_equal(st_count(f), 8);
	assert_string_equal(st_meta(f, "format"), "pt");
	assert_string_equal(st_meta(f, "src_lang"), "en");
	assert_string_equal(st_meta(f, "note"), "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80 \"q\"\\");
	assert_null(st_meta(f, "dec.f16"));
	assert_string_equal(st_at(f, 0)->name, "dec.f16");   /* file order is kept */
	assert_null(st_at(f, 8));

	const st_tensor *t = st_find(f, "dec.f16");
	assert_shape(t, ST_F16, 1, (const int64_t[]){ 3 });
	assert_floats(t, (const float[]){ 1.0f, -0.5f, 0.333251953125f }, 3);

	t = st_find(f, "enc.weight");
	assert_shape(t, ST_F32, 2, (const int64_t[]){ 2, 3 });
	assert_int_equal(t->nbytes, 24);
	assert_true((uintptr_t)t->data % 4 != 0);   /* the point of the fixture: an unaligned f32 read */
	assert_floats(t, (const float[]){ 0.5f, -1.25f, 3.0f, 0.1f, -0.0f, 1e30f }, 6);

	t = st_find(f, "bf16");
	assert_shape(t, ST_BF16, 2, (const int64_t[]){ 2, 2 });
	assert_floats(t, (const float[]){ 3.0f, -0.15625f, 256.0f, -1.0f }, 4);

	t = st_find(f, "scalar");
	assert_shape(t, ST_F32, 0, NULL);
	assert_floats(t, (const float[]){ 7.0f }, 1);

	t = st_find(f, "empty");
	assert_shape(t, ST_F32, 2, (const int64_t[]){ 0, 4 });
	assert_int_equal(t->nbytes, 0);
	assert_int_equal(st_numel(t), 0);

	/* Integer tensors are validated and readable, but not converted. */
	float dummy[4];
	int32_t ids[3];
	t = st_find(f, "ids");
	assert_shape(t, ST_I32, 1, (const int64_t[]){ 3 });
	assert_int_equal(st_to_f32(t, dummy), -1);
	memcpy(ids, t->data, sizeof ids);   /* the host is little-endian, like the file */
	assert_true(ids[0] == 1 && ids[1] == -2 && ids[2] == INT32_MAX);
	int64_t steps;
	t = st_find(f, "steps");
	assert_shape(t, ST_I64, 1, (const int64_t[]){ 1 });
	assert_int_equal(st_to_f32(t, dummy), -1);
	memcpy(&steps, t->data, sizeof steps);
	assert_true(steps == (int64_t)1 << 40);
	st_close(f);
}

/* The same edge values from the fixture (written by numpy) and checked here. */
static void test_f16_edge_values(void **state)
{
	(void)state;
	st_file *f;
	char err[256];
	assert_int_equal(st_open("tests/fixtures/st/good.safetensors", &f, err, sizeof err), 0);
	const st_tensor *t = st_find(f, "edges.f16");
	assert_shape(t, ST_F16, 1, (const int64_t[]){ 10 });
	float v[10];
	assert_int_equal(st_to_f32(t, v), 0);
	assert_true(v[0] == ldexpf(1.0f, -24));      /* smallest subnormal */
	assert_true(v[1] == ldexpf(1023.0f, -24));   /* largest subnormal */
	assert_true(v[2] == ldexpf(1.0f, -14));      /* smallest normal */
	assert_true(v[3] == 65504.0f);               /* max */
	assert_true(isinf(v[4]) && v[4] > 0);
	assert_true(isinf(v[5]) && v[5] < 0);
	assert_true(v[6] == 0.0f && signbit(v[6]));  /* -0 keeps its sign */
	assert_true(isnan(v[7]));
	assert_true(v[8] == 1.0f && v[9] == -2.0f);
	st_close(f);
}

/* Every one of the 65536 half-precision patterns against value = mantissa *
 * 2^exponent computed independently with ldexpf. */
static void test_f16_all_patterns(void **state)
{
	(void)state;
	uint8_t *data = malloc(2 * 65536);
	assert_non_null(data);
	for (uint32_t h = 0; h < 65536; h++) {
		data[2 * h] = (uint8_t)h;
		data[2 * h + 1] = (uint8_t)(h >> 8);
	}
	size_t len;
	uint8_t *buf = make_file("{\"all\":{\"dtype\":\"F16\",\"shape\":[256,256],\"data_offsets\":[0,131072]}}", data,
				 2 * 65536, &len);
	st_file *f;
	char err[256];
	assert_int_equal(st_open_mem(buf, len, &f, err, sizeof err), 0);
	float *out = malloc(65536 * sizeof *out);
	assert_non_null(out);
	assert_int_equal(st_to_f32(st_find(f, "all"), out), 0);
	for (uint32_t h = 0; h < 65536; h++) {
		int exp = (int)(h >> 10 & 0x1F), mant = (int)(h & 0x3FF);
		float mag = exp == 0x1F ? (mant ? NAN : INFINITY)
			  : exp == 0    ? ldexpf((float)mant, -24)
					: ldexpf((float)(mant | 0x400), exp - 25);
		if (isnan(mag)) {
			assert_true(isnan(out[h]));
			continue;
		}
		float want = h & 0x8000 ? -mag : mag;
		if (memcmp(&out[h], &want, sizeof want) != 0)
			fail_msg("f16 0x%04x -> %.9g, want %.9g", (unsigned)h, (double)out[h], (double)want);
	}
	free(out);
	st_close(f);
	free(buf);
	free(data);
}

static void test_fixture_checkpoint(void **state)
{
	(void)state;
	st_file *f;
	char err[256];
	assert_int_equal(st_open("tests/fixtures/tiny/tiny.safetensors", &f, err, sizeof err), 0);
	assert_string_equal(st_meta(f, "src_lang"), "en");
	const st_tensor *t = st_find(f, "fc.weight");
	assert_non_null(t);
	assert_int_equal(t->ndim, 2);
	assert_int_equal(t->shape[0], 24);
	assert_int_equal(t->shape[1], 24);
	st_close(f);
	err[0] = '\0';
	assert_int_equal(st_open("tests/fixtures/tiny/does-not-exist", &f, err, sizeof err), -1);
	assert_null(f);
	assert_true(err[0] != '\0' && strchr(err, '\n') == NULL);
}

/* Overlapping byte ranges are legal (one buffer viewed twice) as long as each is in range. */
static void test_overlapping_tensors_allowed(void **state)
{
	(void)state;
	float data[2] = { 1.0f, 2.0f };
	char err[256];
	assert_int_equal(open_header("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
				     "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]},"
				     "\"c\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[2,6]}}",
				     data, sizeof data, err, sizeof err),
			 0);
	assert_int_equal(open_header("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
				     "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[6,10]}}",
				     data, sizeof data, err, sizeof err),
			 -1);
	assert_string_equal(err, "tensor \"b\": data_offsets [6, 10] exceed data size 8");
}

/* The messages a user sees for the common mistakes, word for word. */
static void test_error_messages(void **state)
{
	(void)state;
	static const struct {
		const char *header, *message;
	} cases[] = {
		{ "{\"x\":{\"dtype\":\"F32\",\"shape\":[5],\"data_offsets\":[0,20]}}",
		  "tensor \"x\": data_offsets [0, 20] exceed data size 16" },
		{ "{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,4]}}",
		  "tensor \"x\": data_offsets [8, 4] end before they begin" },
		{ "{\"x\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}",
		  "tensor \"x\": 8 bytes of data for a shape that needs 12" },
		{ "{\"x\":{\"dtype\":\"F64\",\"shape\":[2],\"data_offsets\":[0,16]}}",
		  "tensor \"x\": unsupported dtype \"F64\" (F32, F16, BF16, I32 and I64 are)" },
		{ "{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
		  "\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
		  "tensor \"x\" appears twice" },
		{ "{\"__metadata__\":{\"k\":\"1\",\"k\":\"2\"}}", "__metadata__ key \"k\" appears twice" },
		{ "{\"x\":{\"dtype\":\"F32\",\"shape\":[1]}}", "tensor \"x\": needs dtype, shape and data_offsets" },
		{ "{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"y\":1}}",
		  "tensor \"x\": unexpected or repeated field \"y\"" },
		{ "[]", "not a safetensors file (header is not a JSON object)" },
		{ "{\"x", "safetensors header: JSON: unterminated string" },
	};
	uint8_t data[16] = { 0 };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[256];
		assert_int_equal(open_header(cases[i].header, data, sizeof data, err, sizeof err), -1);
		assert_string_equal(err, cases[i].message);
	}
}

/* Appends printf output to a growing buffer (for the big headers below). */
static void append(char **buf, size_t *len, size_t *cap, const char *fmt, int i)
{
	char piece[128];
	int n = snprintf(piece, sizeof piece, fmt, i);
	assert_true(n > 0 && (size_t)n < sizeof piece);
	if (*len + (size_t)n + 1 > *cap) {
		*cap = 2 * (*len + (size_t)n + 1);
		*buf = realloc(*buf, *cap);
		assert_non_null(*buf);
	}
	memcpy(*buf + *len, piece, (size_t)n + 1);
	*len += (size_t)n;
}

/* Many entries: up to the limits they open (and fast: the duplicate check is
 * not quadratic); one past them they are refused. */
static void test_entry_limits(void **state)
{
	(void)state;
#define EMPTY_F32 "{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}"
	static const struct {
		const char *first, *entry, *last;
		int count, ok;
	} cases[] = {
		{ "{", "\"t%d\":" EMPTY_F32 ",", "\"z\":" EMPTY_F32 "}", 65535, 1 },   /* 65536 in all */
		{ "{", "\"t%d\":" EMPTY_F32 ",", "\"z\":" EMPTY_F32 "}", 65536, 0 },
		{ "{", "\"t%d\":" EMPTY_F32 ",", "\"t77\":" EMPTY_F32 "}", 5000, 0 },   /* a late duplicate */
		{ "{\"__metadata__\":{", "\"k%d\":\"v\",", "\"z\":\"v\"}}", 255, 1 },
		{ "{\"__metadata__\":{", "\"k%d\":\"v\",", "\"z\":\"v\"}}", 256, 0 },
	};
#undef EMPTY_F32
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char *h = NULL, err[256];
		size_t len = 0, cap = 0;
		append(&h, &len, &cap, cases[c].first, 0);
		for (int i = 0; i < cases[c].count; i++)
			append(&h, &len, &cap, cases[c].entry, i);
		append(&h, &len, &cap, cases[c].last, 0);
		int rc = open_header(h, NULL, 0, err, sizeof err);
		if (rc != (cases[c].ok ? 0 : -1))
			fail_msg("case %zu: rc %d (%s)", c, rc, err);
		free(h);
	}
}

/* st_open's own failures: a directory (fopen works, reading does not) and a
 * file that is not safetensors at all. */
static void test_open_failures(void **state)
{
	(void)state;
	st_file *f;
	char err[256] = "";
	assert_int_equal(st_open("tests/fixtures/st", &f, err, sizeof err), -1);
	assert_null(f);
	assert_true(err[0] != '\0' && strchr(err, '\n') == NULL);
	err[0] = '\0';
	assert_int_equal(st_open("tests/fixtures/st/make.py", &f, err, sizeof err), -1);
	assert_null(f);
	assert_non_null(strstr(err, "not a safetensors file"));
}

/* Hostile nesting must fail without recursing (ASan would see a stack overflow). */
static void test_deep_nesting(void **state)
{
	(void)state;
	size_t depth = 100000;
	char *h = malloc(2 * depth + 64);
	assert_non_null(h);
	static const char *const prefixes[] = { "{\"__metadata__\":{\"k\":", "{\"a\":{\"shape\":", "{\"a\":", "" };
	for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
		size_t n = strlen(prefixes[p]);
		memcpy(h, prefixes[p], n);
		memset(h + n, '[', depth);
		memset(h + n + depth, ']', depth);
		h[n + 2 * depth] = '\0';
		char err[256];
		assert_int_equal(open_header(h, NULL, 0, err, sizeof err), -1);
		assert_true(err[0] != '\0' && strchr(err, '\n') == NULL);
	}
	free(h);
}

/* The JSON cursor's generic skip, which the header reader itself does not need. */
static void test_json_skip(void **state)
{
	(void)state;
	static const char ok[] = " {\"a\":[1,-2,0.5,-1.5e-3,2E+2,true,false,null,\"s\\\"\\u00e9\"],\"b\":{}} ";
	json_cursor c;
	json_init(&c, ok, strlen(ok));
	assert_int_equal(json_skip(&c), 0);
	assert_int_equal(json_end(&c), 0);

	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	json_init(&c, deep, sizeof deep);
	assert_int_equal(json_skip(&c), -1);
	assert_string_equal(c.err, "JSON: nested too deeply");

	static const char *const bad[] = { "\"abc", "[1,", "{\"a\" 1}", "tru", "1.", "01", "-", "1e", "[1]x", "\"\\u12\"",
					   "\"\\u0000\"", "\"\xc3(\"", "\"\xed\xa0\x80\"" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		json_init(&c, bad[i], strlen(bad[i]));
		if (json_skip(&c) == 0 && json_end(&c) == 0)
			fail_msg("json accepted %s", bad[i]);
		assert_true(c.err[0] != '\0');
	}
}

/* Each malformed header must be refused with a one-line message. */
static void test_malformed_headers(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "[]", "{", "{\"a\":1}", "{\"a\":{}}", "\"x\"", "{} x",
		"{\"a\":{\"dtype\":\"F64\",\"shape\":[1],\"data_offsets\":[0,8]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,8]}}",          /* past the data */
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,0]}}",          /* end < begin */
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}",          /* size != shape */
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"x\":1}}", /* extra field */
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}",                                /* missing field */
		("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
		 "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}"),         /* duplicate */
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,4294967296],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[99999999999999999999],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1,1,1,1,1],\"data_offsets\":[0,4]}}",
		"{\"__metadata__\":{\"k\":1}}", "{\"__metadata__\":[]}",
		"{\"a\\u0000b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
		"{\"a\\ud800\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
		"{\"a\\q\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}",          /* unclosed */
		"{\"unterminated",
		"null", "1", "{\"a\":[]}", "{\"a\":\"x\"}", "{\"a\":{}",
		"{\"a\":{\"dtype\":\"f32\",\"shape\":[1],\"data_offsets\":[0,4]}}",        /* case matters */
		"{\"a\":{\"dtype\":32,\"shape\":[1],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32F32F32F32F32F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,4]}}",        /* 8 bytes needed */
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[\"1\"],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1e0],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":null,\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[-1,3]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0.0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,9223372036854775807]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"dtype\":\"F32\",\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[9223372036854775807,2],\"data_offsets\":[0,4]}}",
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},}",        /* trailing comma */
		"{\"__metadata__\":{\"k\":\"v\"}", "{\"__metadata__\":{\"k\":\"v\\ud800x\"}}",
		"{\"__metadata__\":{\"k\":\"tab\tinside\"}}",                                   /* raw control char */
	};
	float four = 1.0f;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		st_file *f = NULL;
		char err[256] = "";
		size_t len;
		uint8_t *buf = make_file(bad[i], &four, sizeof four, &len);
		if (st_open_mem(buf, len, &f, err, sizeof err) == 0)
			fail_msg("accepted malformed header #%zu: %s", i, bad[i]);
		assert_true(err[0] != '\0' && strchr(err, '\n') == NULL);
		free(buf);
	}
}

static void test_header_length_past_the_end(void **state)
{
	(void)state;
	uint8_t buf[16] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, '{', '}' };
	st_file *f;
	char err[256];
	assert_int_equal(st_open_mem(buf, sizeof buf, &f, err, sizeof err), -1);
	assert_int_equal(st_open_mem(buf, 7, &f, err, sizeof err), -1);
	assert_int_equal(st_open_mem(buf, 0, &f, err, sizeof err), -1);
	assert_null(f);
	buf[0] = 9;   /* one byte more header than the file holds */
	memset(buf + 1, 0, 7);
	assert_int_equal(st_open_mem(buf, 8 + 8, &f, err, sizeof err), -1);
	assert_string_equal(err, "not a safetensors file (header length 9 exceeds the file)");
	buf[0] = 2;   /* "{}" and no data at all: an empty checkpoint is valid */
	assert_int_equal(st_open_mem(buf, 10, &f, err, sizeof err), 0);
	assert_int_equal(st_count(f), 0);
	st_close(f);
}

/* Opens work (a mutated copy) and, if it opens, checks every tensor lies in
 * the buffer and converts it into a buffer of exactly numel floats. */
static void open_and_touch(const uint8_t *work, size_t len)
{
	st_file *f;
	char err[256] = "";
	if (st_open_mem(work, len, &f, err, sizeof err) != 0) {
		assert_true(err[0] != '\0' && strchr(err, '\n') == NULL);
		return;
	}
	for (size_t i = 0; i < st_count(f); i++) {
		const st_tensor *t = st_at(f, i);
		const uint8_t *p = t->data;
		assert_true(p >= work && p <= work + len && t->nbytes <= (size_t)(work + len - p));
		int64_t n = st_numel(t);
		float *tmp = malloc(n > 0 ? (size_t)n * sizeof *tmp : 1);
		assert_non_null(tmp);
		st_to_f32(t, tmp);
		free(tmp);
	}
	st_close(f);
}

/* Every prefix of a valid file must fail cleanly (a safetensors file has no
 * slack: the last tensor ends at the last byte), and random byte mutations
 * must fail cleanly or open without reading out of bounds. Each prefix and
 * mutant is a fresh exact-size malloc so ASan sees any overrun. */
static void truncate_and_mutate(const char *path, size_t prefix_step_after, int rounds)
{
	size_t len;
	uint8_t *good = read_whole(path, &len);
	uint64_t header = 0;
	for (int i = 7; i >= 0; i--)
		header = header << 8 | good[i];
	size_t header_end = 8 + (size_t)header;
	assert_true(header_end <= len);
	for (size_t cut = 0; cut < len; cut += cut < prefix_step_after ? 1 : 997) {
		uint8_t *copy = malloc(cut ? cut : 1);
		assert_non_null(copy);
		memcpy(copy, good, cut);
		st_file *f;
		char err[256] = "";
		if (st_open_mem(copy, cut, &f, err, sizeof err) != -1)
			fail_msg("%s: prefix of %zu bytes accepted", path, cut);
		assert_true(err[0] != '\0' && strchr(err, '\n') == NULL);
		free(copy);
	}
	uint32_t seed = 3;   /* fixed: a failure reproduces */
	for (int round = 0; round < rounds; round++) {
		uint8_t *work = malloc(len);
		assert_non_null(work);
		memcpy(work, good, len);
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly the header (length bytes included), where the parsing is */
			size_t where = round % 8 == 7 ? (seed >> 8) % len : (seed >> 8) % header_end;
			seed = seed * 1103515245u + 12345u;
			/* every third round a JSON-significant byte, so mutants get past the tokenizer */
			static const char syntax[] = "{}[]\":,0-9\\u";
			work[where] = round % 3 == 0 ? (uint8_t)syntax[(seed >> 16) % (sizeof syntax - 1)] : (uint8_t)(seed >> 16);
		}
		open_and_touch(work, len);
		free(work);
	}
	free(good);
}

static void test_truncation_and_mutation_good(void **state)
{
	(void)state;
	truncate_and_mutate("tests/fixtures/st/good.safetensors", SIZE_MAX, 20000);
}

static void test_truncation_and_mutation_tiny(void **state)
{
	(void)state;
	size_t len;
	uint8_t *buf = read_whole("tests/fixtures/tiny/tiny.safetensors", &len);
	size_t header_end = 8 + (size_t)buf[0] + ((size_t)buf[1] << 8);
	free(buf);
	/* every prefix through the header and a little data, then a stride */
	truncate_and_mutate("tests/fixtures/tiny/tiny.safetensors", header_end + 64, 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_f32_f16_bf16_and_metadata),
		cmocka_unit_test(test_good_fixture_reads_back_exactly),
		cmocka_unit_test(test_f16_edge_values),
		cmocka_unit_test(test_f16_all_patterns),
		cmocka_unit_test(test_fixture_checkpoint),
		cmocka_unit_test(test_overlapping_tensors_allowed),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_entry_limits),
		cmocka_unit_test(test_open_failures),
		cmocka_unit_test(test_json_skip),
		cmocka_unit_test(test_malformed_headers),
		cmocka_unit_test(test_header_length_past_the_end),
		cmocka_unit_test(test_truncation_and_mutation_good),
		cmocka_unit_test(test_truncation_and_mutation_tiny),
	};
	return cmocka_run_group_tests_name("safetensors", tests, NULL, NULL);
}
