/* gzip decoding (common/inflate.c) on any bytes, copied to an exact-size
 * buffer so that reading past it is caught. The output stays under the cap
 * (64 KB here, so bombs are cheap to meet); an input that decodes does so
 * again to the same bytes under a cap of exactly its size, and is refused
 * under one byte less. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/inflate.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

#define CAP ((size_t)1 << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1), *out = NULL, *again = NULL;
	memcpy(buf, data, size);
	size_t n = 0, m = 0;
	char err[256] = "";
	int rc = inflate_gzip(buf, size, CAP, &out, &n, err, sizeof err);
	FUZZ_ASSERT(rc == 0 || rc == -1);
	if (rc == 0) {
		FUZZ_ASSERT(out != NULL && n <= CAP);
		FUZZ_ASSERT(inflate_gzip(buf, size, n, &again, &m, err, sizeof err) == 0);
		FUZZ_ASSERT(m == n && memcmp(out, again, n) == 0);
		free(again);
		if (n > 0)
			FUZZ_ASSERT(inflate_gzip(buf, size, n - 1, &again, &m, err, sizeof err) == -1);
		free(out);
	} else {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\n', sizeof err) == NULL);
	}
	free(buf);
	return 0;
}
