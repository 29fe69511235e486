/* A fixture file read whole, for the unit tests that decode one
 * (test_inflate, test_marian); included after cmocka.h. */
#ifndef TESTS_READ_FIXTURE_H
#define TESTS_READ_FIXTURE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dir/name's bytes after its first skip (at most 64 KiB in all) and *len
 * their number, in a new buffer of exactly that size (one byte for none),
 * so that the sanitizers catch a decoder reading past the end. */
static inline uint8_t *read_fixture(const char *dir, const char *name, size_t skip, size_t *len)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static uint8_t buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	assert_true(n >= skip);
	*len = n - skip;
	uint8_t *out = malloc(*len ? *len : 1);
	assert_non_null(out);
	memcpy(out, buf + skip, *len);
	return out;
}
#endif
