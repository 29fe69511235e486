/* The server's parameter parsers on any bytes: query strings and
 * application/x-www-form-urlencoded bodies (server/form.c) and
 * multipart/form-data bodies (server/multipart.c), their fields and their
 * files. The first byte picks the
 * parser (and, for multipart, a boundary length); the rest is the input,
 * copied to an exact-size buffer so that reading past it is caught. A value
 * found lies within the input, and a decoded one is NUL-terminated and no
 * longer than its input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/form.h"
#include "../../server/multipart.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static const char *const keys[] = { "q", "source", "target", "api_key", "" };

static void check_form(const char *buf, size_t len)
{
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		char *v = NULL;
		size_t n = 0;
		int rc = server_form_get(buf, len, keys[k], &v, &n);
		FUZZ_ASSERT(rc >= -1 && rc <= 1);
		if (rc == 1) {
			FUZZ_ASSERT(n <= len && v[n] == '\0');
			free(v);
		}
	}
}

static void check_multipart(const char *buf, size_t len, const char *boundary)
{
	int first = 2;
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		const char *v = NULL;
		size_t n = 0;
		int rc = server_multipart_get(buf, len, boundary, keys[k], &v, &n);
		FUZZ_ASSERT(rc >= -1 && rc <= 1);
		/* malformed is a property of the body, whichever field is asked for */
		FUZZ_ASSERT(first == 2 || (first < 0) == (rc < 0));
		first = rc;
		if (rc == 1)
			FUZZ_ASSERT(v >= buf && n <= len && (size_t)(v - buf) <= len - n);
	}
	/* a file part too (POST /translate_file's "file"): its content and
	 * filename lie within the input, and malformed is malformed still */
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		server_multipart_part f = { 0 };
		int rc = server_multipart_file(buf, len, boundary, k ? keys[k] : "file", &f);
		FUZZ_ASSERT(rc >= -1 && rc <= 1);
		FUZZ_ASSERT(first == 2 || (first < 0) == (rc < 0));
		if (rc == 1)
			FUZZ_ASSERT(f.value >= buf && f.value_len <= len && (size_t)(f.value - buf) <= len - f.value_len &&
				    f.filename >= buf && f.filename_len <= len &&
				    (size_t)(f.filename - buf) <= len - f.filename_len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	char *buf = malloc(size - 1 ? size - 1 : 1);
	memcpy(buf, data + 1, size - 1);
	if (data[0] & 1) {
		check_form(buf, size - 1);
	} else {
		/* boundaries of 1..70 characters, the seeds' "b" among them */
		static const char bound[] = "bXyZ0123456789-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()";
		char boundary[71];
		size_t blen = 1 + (size_t)(data[0] >> 1) % 70;
		memcpy(boundary, bound, blen);
		boundary[blen] = '\0';
		check_multipart(buf, size - 1, boundary);
	}
	free(buf);
	return 0;
}
