/* The server's request-head parser (server/http.c) on any bytes, fed whole
 * and in every prefix: it never reads past what it is given, a complete
 * head's length lies within the input, an error is an HTTP status the server
 * can answer, and what it keeps is NUL-terminated and bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/http.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void check(const char *buf, size_t len, size_t max_head)
{
	server_http_request r;
	long rc = server_http_parse_head(buf, len, max_head, &r);
	if (rc > 0) {
		FUZZ_ASSERT((size_t)rc <= len && (size_t)rc <= max_head);
		FUZZ_ASSERT(memchr(r.method, '\0', sizeof r.method) && memchr(r.path, '\0', sizeof r.path));
		FUZZ_ASSERT(memchr(r.content_type, '\0', sizeof r.content_type));
		FUZZ_ASSERT(r.minor == 0 || r.minor == 1);
		FUZZ_ASSERT(r.content_length >= -1);
		FUZZ_ASSERT(r.query_at <= (size_t)rc && r.query_len <= (size_t)rc - r.query_at);
		FUZZ_ASSERT(memchr(r.boundary, '\0', sizeof r.boundary));
	} else if (rc < 0) {
		FUZZ_ASSERT(rc == -400 || rc == -431 || rc == -501 || rc == -505);
	} else {
		FUZZ_ASSERT(len < max_head);
	}
	FUZZ_ASSERT(strlen(server_http_reason((int)-rc)) > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so that reading past the end is caught */
	char *buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	size_t max_head = size > 0 ? 16 + data[0] * 64 : 16384;
	check(buf, size, max_head);
	check(buf, size, 16384);
	for (size_t n = 0; n < size && n < 512; n++)
		check(buf, n, 16384);
	free(buf);
	return 0;
}
