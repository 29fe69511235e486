/* Reading a whole file (see file.h). */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"

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
	*buf = b;
	*len = n;
	return 0;
}
