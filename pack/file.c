/* Reading a whole file (see file.h). */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/inflate.h"

/* The most a gzipped input may decompress to: far above any model, far below
 * what a gzip bomb (up to ~1000:1) would take. */
#define PACK_GZIP_CAP (SIZE_MAX > 0xffffffffu ? (size_t)16 << 30 : (size_t)1 << 30)

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

int pack_read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	size_t cap = 0, n = 0, got;
	if (!f)
		return error_set(err, errlen, "cannot open %s: %s", path, strerror(errno));
	do {
		if (n == cap) {
			uint8_t *q = realloc(b, cap = cap ? 2 * cap : 1 << 16);
			if (!q) {
				free(b);
				fclose(f);
				return error_set(err, errlen, "out of memory reading %s", path);
			}
			b = q;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(b);
		return error_set(err, errlen, "cannot read %s", path);
	}
	/* a .gz name, or gzip's magic under another name: decoded here, so
	 * every reader sees the plain file */
	if (ends_with(path, ".gz") || inflate_is_gzip(b, n)) {
		uint8_t *plain;
		size_t plain_len;
		char why[256];
		int rc = inflate_gzip(b, n, PACK_GZIP_CAP, &plain, &plain_len, why, sizeof why);
		free(b);
		if (rc != 0)
			return error_set(err, errlen, "%s: %s", path, why);
		b = plain;
		n = plain_len;
	}
	*buf = b;
	*len = n;
	return 0;
}
