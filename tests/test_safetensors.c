/* The safetensors reader (pack/safetensors.c) on valid, malformed and hostile
 * headers, all built in memory here, and on the committed fixture checkpoint. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	assert_int_equal(st_open("tests/fixtures/tiny/does-not-exist", &f, err, sizeof err), -1);
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
}

/* Every prefix of a valid file, and random byte mutations, fail cleanly or
 * open without reading out of bounds (ASan checks the latter). */
static void test_truncation_and_mutation(void **state)
{
	(void)state;
	FILE *in = fopen("tests/fixtures/tiny/tiny.safetensors", "rb");
	assert_non_null(in);
	uint8_t *good = malloc(1 << 20);
	assert_non_null(good);
	size_t len = fread(good, 1, 1 << 20, in);
	fclose(in);
	size_t header_end = 8 + (size_t)good[0] + ((size_t)good[1] << 8);
	for (size_t cut = 0; cut < len; cut += cut < header_end + 64 ? 1 : 997) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, good, cut);
		st_file *f;
		char err[256];
		assert_int_equal(st_open_mem(copy, cut, &f, err, sizeof err), -1);
		free(copy);
	}
	uint32_t seed = 3;
	uint8_t *work = malloc(len);
	for (int round = 0; round < 2000; round++) {
		memcpy(work, good, len);
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			work[(seed >> 8) % header_end] = (uint8_t)(seed >> 20);
		}
		st_file *f;
		char err[256];
		if (st_open_mem(work, len, &f, err, sizeof err) == 0) {
			for (size_t i = 0; i < st_count(f); i++) {
				const st_tensor *t = st_at(f, i);
				float *tmp = malloc(t->nbytes * 2 + 4);
				st_to_f32(t, tmp);
				free(tmp);
			}
			st_close(f);
		}
	}
	free(work);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_f32_f16_bf16_and_metadata),
		cmocka_unit_test(test_fixture_checkpoint),
		cmocka_unit_test(test_malformed_headers),
		cmocka_unit_test(test_header_length_past_the_end),
		cmocka_unit_test(test_truncation_and_mutation),
	};
	return cmocka_run_group_tests_name("safetensors", tests, NULL, NULL);
}
