/* Marian's model files as model-pack reads them (pack/marian_file.h,
 * pack/marian_yml.h): the small files of tests/fuzz/marian (a stored .npz
 * and a .bin as Marian lays them out, and YAML), and those files damaged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../pack/marian_file.h"
#include "../pack/marian_yml.h"
#include "read_fixture.h"

/* A seed file without its first byte (the fuzz harness's selector). */
static uint8_t *seed(const char *name, size_t *len)
{
	uint8_t *buf = read_fixture("tests/fuzz/marian", name, 1, len);
	assert_true(*len > 0);
	return buf;
}

static void test_npz_items(void **state)
{
	(void)state;
	size_t len;
	uint8_t *buf = seed("seed_npz", &len);
	mf_file f;
	char err[256];
	assert_int_equal(mf_open_npz(buf, len, &f, err, sizeof err), 0);
	assert_int_equal(f.n, 3);
	const mf_item *w = mf_find(&f, "Wemb"), *y = mf_find(&f, "special:model.yml");
	assert_non_null(w);
	assert_int_equal(w->type, MF_F32);
	assert_int_equal(w->ndim, 2);
	assert_int_equal(w->shape[0], 3);
	assert_int_equal(w->shape[1], 4);
	float v;
	memcpy(&v, w->data + 4 * 7, 4);
	assert_true(v == 7.0f);
	assert_non_null(y);
	assert_int_equal(y->type, MF_I8);
	assert_null(mf_find(&f, "nothing"));
	size_t at = (size_t)(w->data - buf) + 5;
	mf_close(&f);

	/* a flipped data byte: the member's CRC-32 catches it */
	buf[at] ^= 1;
	assert_int_equal(mf_open_npz(buf, len, &f, err, sizeof err), -1);
	assert_non_null(strstr(err, "CRC-32"));
	buf[at] ^= 1;
	/* truncated: no end of central directory */
	assert_int_equal(mf_open_npz(buf, len - 30, &f, err, sizeof err), -1);
	free(buf);
}

static void test_npz_compressed_refused(void **state)
{
	(void)state;
	size_t len;
	uint8_t *buf = seed("seed_npz", &len);
	mf_file f;
	char err[256];
	/* the first central directory entry's method: deflate (8) */
	uint8_t *cd = NULL;
	for (size_t i = 0; i + 4 <= len; i++)
		if (memcmp(buf + i, "PK\x01\x02", 4) == 0) {
			cd = buf + i;
			break;
		}
	assert_non_null(cd);
	cd[10] = 8;
	assert_int_equal(mf_open_npz(buf, len, &f, err, sizeof err), -1);
	assert_non_null(strstr(err, "compressed"));
	free(buf);
}

static void test_bin_items(void **state)
{
	(void)state;
	size_t len;
	uint8_t *buf = seed("seed_bin", &len);
	mf_file f;
	char err[256];
	assert_int_equal(mf_open_bin(buf, len, &f, err, sizeof err), 0);
	assert_int_equal(f.n, 3);
	const mf_item *q = mf_find(&f, "x_W");
	assert_non_null(q);
	assert_int_equal(q->type, MF_INTGEMM8);
	assert_int_equal(q->nbytes, 4 * 2 + 4);   /* the values, then the multiplier */
	float mult;
	memcpy(&mult, q->data + 8, 4);
	assert_true(mult == 12.5f);
	mf_close(&f);
	/* cut inside the data */
	assert_int_equal(mf_open_bin(buf, len - 300, &f, err, sizeof err), -1);
	/* an unknown type code */
	buf[16 + 8] = 0x99;
	assert_int_equal(mf_open_bin(buf, len, &f, err, sizeof err), -1);
	assert_non_null(strstr(err, "Wemb"));
	free(buf);
}

static void test_yml(void **state)
{
	(void)state;
	static const char text[] = "type: transformer\ndim-vocabs:\n  - 8000\n  - 8000\ninput-types:\n  []\n"
				   "transformer-tied-layers: []\nsep: \"[eos]\"\nempty: \"\"\nlist: [1, 2]\n"
				   "version: v1 2025-06-23 19:47:45 +0000\n\0\0\0";
	yml_doc d;
	char err[256];
	assert_int_equal(yml_parse(text, sizeof text - 1, &d, err, sizeof err), 0);
	assert_string_equal(yml_find(&d, "type")->value, "transformer");
	const yml_entry *v = yml_find(&d, "dim-vocabs");
	assert_true(v->is_list && v->n_items == 2);
	assert_string_equal(v->items[1], "8000");
	assert_true(yml_find(&d, "input-types")->is_list && yml_find(&d, "input-types")->n_items == 0);
	assert_int_equal(yml_find(&d, "transformer-tied-layers")->n_items, 0);
	assert_string_equal(yml_find(&d, "sep")->value, "[eos]");
	assert_string_equal(yml_find(&d, "empty")->value, "");
	assert_int_equal(yml_find(&d, "list")->n_items, 2);
	assert_string_equal(yml_find(&d, "version")->value, "v1 2025-06-23 19:47:45 +0000");
	yml_free(&d);

	static const char *const bad[] = { "a: 'open\n", "nested:\n  key: 1\n", "- item\n", "novalue\n", "a: [1, , 2]\n" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(yml_parse(bad[i], strlen(bad[i]), &d, err, sizeof err), -1);
		assert_non_null(strstr(err, "model.yml"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_npz_items),
		cmocka_unit_test(test_npz_compressed_refused),
		cmocka_unit_test(test_bin_items),
		cmocka_unit_test(test_yml),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
