/* Runs a fuzz harness over files without libFuzzer: each argument is an
 * input file or a directory of them. Prints "replay NAME: N inputs" and
 * exits 0 if none failed (a failure aborts). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return -1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			uint8_t *p = realloc(buf, cap *= 2);
			if (!p)
				free(buf);
			buf = p;
		}
	}
	fclose(f);
	if (!buf)
		return -1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int run_path(const char *path, int *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: %s does not exist\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int rc = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char sub[4096];
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		rc = run_path(sub, count);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	int count = 0;
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		if (run_path(argv[i], &count) != 0)
			return 1;
	printf("replay %s: %d inputs\n", argv[0], count);
	return 0;
}
