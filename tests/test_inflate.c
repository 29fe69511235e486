/* gzip and DEFLATE decoding (common/inflate.h) against /usr/bin/gzip's own
 * outputs (tests/fixtures/gzip/, made by make.sh there): levels 1, 6 and 9, a
 * stored block, an empty file, a file name in the header, two members; every
 * header flag on a header built here; every truncation, damaged checksums
 * and sizes, and the output cap refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../common/inflate.h"
#include "../format/crc32.h"
#include "read_fixture.h"

#define CAP ((size_t)1 << 20)

static uint8_t *slurp(const char *name, size_t *len)
{
	return read_fixture("tests/fixtures/gzip", name, 0, len);
}

/* gz[0..len) is refused under cap, with a reason that holds what ("": any). */
static void refused(const uint8_t *gz, size_t len, size_t cap, const char *what)
{
	uint8_t *out;
	size_t n;
	char err[256] = "";
	assert_int_equal(inflate_gzip(gz, len, cap, &out, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, what));
}

/* gz[0..len) decoded under cap: the output, to be freed, and *n its size. */
static uint8_t *decoded(const uint8_t *gz, size_t len, size_t cap, size_t *n)
{
	uint8_t *out;
	char err[256] = "";
	assert_int_equal(inflate_gzip(gz, len, cap, &out, n, err, sizeof err), 0);
	return out;
}

/* NAME.gz decodes to exactly PLAIN's bytes. */
static void same(const char *gz, const char *plain)
{
	size_t zn, pn, n;
	uint8_t *z = slurp(gz, &zn), *p = slurp(plain, &pn), *out;
	assert_true(inflate_is_gzip(z, zn));
	out = decoded(z, zn, CAP, &n);
	assert_int_equal(n, pn);
	assert_memory_equal(out, p, pn);
	free(out);
	free(z);
	free(p);
}

static void test_levels(void **state)
{
	(void)state;
	same("text.1.gz", "text.txt");
	same("text.6.gz", "text.txt");
	same("text.9.gz", "text.txt");
	same("random.gz", "random.bin");
	same("one.gz", "one.txt");
	same("named.txt.gz", "one.txt");
}

static void test_stored_and_empty(void **state)
{
	(void)state;
	size_t zn, n;
	uint8_t *z = slurp("random.gz", &zn), *out;
	/* gzip stored the random bytes: block header byte 1 (final, type 0) after the 10-byte header */
	assert_int_equal(z[10] & 7, 1);
	free(z);
	z = slurp("empty.gz", &zn);
	out = decoded(z, zn, CAP, &n);
	assert_int_equal(n, 0);
	assert_non_null(out);
	free(out);
	free(z);
}

static void test_two_members(void **state)
{
	(void)state;
	size_t zn, an, bn, n;
	uint8_t *z = slurp("two.gz", &zn), *a = slurp("one.txt", &an), *b = slurp("text.txt", &bn), *out;
	out = decoded(z, zn, CAP, &n);
	assert_int_equal(n, an + bn);
	assert_memory_equal(out, a, an);
	assert_memory_equal(out + an, b, bn);
	free(out);
	/* zero padding after the last member is allowed, anything else is not */
	uint8_t *padded = calloc(zn + 7, 1);
	memcpy(padded, z, zn);
	out = decoded(padded, zn + 7, CAP, &n);
	free(out);
	padded[zn + 3] = 'x';
	refused(padded, zn + 7, CAP, "trailing garbage");
	free(padded);
	free(z);
	free(a);
	free(b);
}

/* one.gz's deflate data and trailer behind a header with FEXTRA, FNAME,
 * FCOMMENT and FHCRC, the header's CRC right or wrong. */
static size_t all_flags(uint8_t *buf, int good_hcrc)
{
	size_t zn;
	uint8_t *z = slurp("one.gz", &zn);
	static const uint8_t head[] = { 0x1f, 0x8b, 8, 4 | 8 | 16 | 2, 0, 0, 0, 0, 0, 3, 5, 0, 'A', 'B', 3, 0, 'x',
					'n', 'a', 'm', 'e', 0, 'c', 'o', 'm', 'm', 'e', 'n', 't', 0 };
	memcpy(buf, head, sizeof head);
	size_t n = sizeof head;
	uint32_t c = format_crc32(0, buf, n) & 0xffff;
	if (!good_hcrc)
		c ^= 1;
	buf[n++] = (uint8_t)c;
	buf[n++] = (uint8_t)(c >> 8);
	memcpy(buf + n, z + 10, zn - 10);
	n += zn - 10;
	free(z);
	return n;
}

static void test_header_flags(void **state)
{
	(void)state;
	uint8_t buf[128], *out;
	size_t n, len = all_flags(buf, 1);
	out = decoded(buf, len, CAP, &n);
	assert_int_equal(n, 1);
	assert_int_equal(out[0], 'a');
	free(out);
	len = all_flags(buf, 0);
	refused(buf, len, CAP, "header checksum");
	buf[3] |= 0x20; /* a reserved flag */
	refused(buf, len, CAP, "");
	buf[3] &= 0x1f;
	buf[2] = 7; /* not deflate */
	refused(buf, len, CAP, "method");
	assert_false(inflate_is_gzip(buf, len));
}

/* Every proper prefix of every fixture is refused, with a message. */
static void test_truncated(void **state)
{
	(void)state;
	static const char *const names[] = { "text.1.gz", "text.6.gz", "text.9.gz", "random.gz", "one.gz", "empty.gz", "named.txt.gz", "two.gz" };
	for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
		size_t zn, n;
		uint8_t *z = slurp(names[k], &zn), *out;
		for (size_t cut = 0; cut < zn; cut++) {
			uint8_t *part = malloc(cut ? cut : 1); /* exact size: reads past it are caught by ASan */
			memcpy(part, z, cut);
			char err[256] = "";
			int rc = inflate_gzip(part, cut, CAP, &out, &n, err, sizeof err);
			/* two.gz cut after its first member is a whole gzip file */
			if (rc == 0) {
				assert_string_equal(names[k], "two.gz");
				assert_int_equal(n, 1);
				free(out);
			} else {
				assert_int_equal(rc, -1);
				assert_true(err[0] != '\0');
			}
			free(part);
		}
		free(z);
	}
}

static void test_corrupt_trailer(void **state)
{
	(void)state;
	size_t zn, n;
	uint8_t *z = slurp("text.9.gz", &zn), *out;
	z[zn - 8] ^= 1; /* CRC-32 */
	refused(z, zn, CAP, "CRC-32");
	z[zn - 8] ^= 1;
	z[zn - 4] ^= 1; /* ISIZE */
	refused(z, zn, CAP, "ISIZE");
	z[zn - 4] ^= 1;
	/* a flipped bit anywhere in the data is refused (checksum or structure);
	 * the last byte's unused high bits may be anything */
	for (size_t i = 10; i < zn - 9; i++) {
		z[i] ^= 0x10;
		refused(z, zn, CAP, "");
		z[i] ^= 0x10;
	}
	out = decoded(z, zn, CAP, &n);
	free(out);
	free(z);
}

static void test_cap(void **state)
{
	(void)state;
	size_t zn, n;
	uint8_t *z = slurp("text.6.gz", &zn), *out;
	out = decoded(z, zn, 4444, &n);
	assert_int_equal(n, 4444);
	free(out);
	refused(z, zn, 4443, "limit of 4443 bytes");
	free(z);
	/* a bomb: one fixed block of 258-byte matches of one zero byte, 647 KB
	 * of zeros from 4 KB, stopped at a 100 KB cap */
	uint8_t bomb[4096];
	memset(bomb, 0, sizeof bomb);
	static const uint8_t head[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	memcpy(bomb, head, sizeof head);
	/* fixed block: BFINAL 1, BTYPE 01; literal 0 (code 00110000, 8 bits);
	 * then length 258 (symbol 285, code 11000101) distance 1 (code 00000)
	 * repeated; bits written LSB first, Huffman codes MSB first */
	size_t bit = sizeof head * 8;
#define PUT(v, nb)                                                  \
	for (int b_ = 0; b_ < (nb); b_++, bit++)                    \
		if (((v) >> b_) & 1)                                \
			bomb[bit / 8] |= (uint8_t)(1u << (bit % 8));
#define PUTCODE(v, nb)                                              \
	for (int b_ = (nb) - 1; b_ >= 0; b_--, bit++)               \
		if (((v) >> b_) & 1)                                \
			bomb[bit / 8] |= (uint8_t)(1u << (bit % 8));
	PUT(1, 1);
	PUT(1, 2);
	PUTCODE(0x30, 8);
	while (bit < (sizeof bomb - 16) * 8) {
		PUTCODE(0xc5, 8);
		PUTCODE(0, 5);
	}
	refused(bomb, sizeof bomb, 100000, "limit of 100000 bytes");
	/* under a large cap it decodes, ends at the zero bits (end of block) and
	 * fails on the trailer instead */
	refused(bomb, sizeof bomb, CAP, "CRC-32");
}

static void test_not_gzip(void **state)
{
	(void)state;
	static const uint8_t plain[] = "PK\x03\x04 not gzip at all";
	assert_false(inflate_is_gzip(plain, sizeof plain));
	refused(plain, sizeof plain, CAP, "not a gzip file");
	/* block type 3 */
	static const uint8_t bad_type[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	refused(bad_type, sizeof bad_type, CAP, "block type");
	/* stored block whose length and complement disagree */
	static const uint8_t bad_len[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 1, 0, 0, 0, 'a', 0, 0, 0, 0, 0, 0, 0, 0 };
	refused(bad_len, sizeof bad_len, CAP, "complement");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),	      cmocka_unit_test(test_stored_and_empty),
		cmocka_unit_test(test_two_members),   cmocka_unit_test(test_header_flags),
		cmocka_unit_test(test_truncated),     cmocka_unit_test(test_corrupt_trailer),
		cmocka_unit_test(test_cap),	      cmocka_unit_test(test_not_gzip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
