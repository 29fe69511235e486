/* tests/spm_tool.c - command-line driver for vocab/spm*, used by tests/spm_parity.sh.
 *
 *   spm_tool MODEL.model < text > ids         one line of space-separated ids per line
 *   spm_tool --decode MODEL.model < ids > text
 *   spm_tool --pieces MODEL.model < text      pieces instead of ids (debugging)
 *   spm_tool --normalize MODEL.model < text   the normalized text (debugging)
 *
 * The model is packed in memory with spm_pack and opened with spm_open, exactly the path
 * the engine takes with a packed file. Input lines may contain any bytes, NUL included. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../vocab/spm.h"

enum mode { ENCODE, DECODE, PIECES, NORMALIZE };

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (bigger == NULL)
				free(buf);
			buf = bigger;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static int encode_line(const spm_model *m, spm_scratch *s, enum mode mode, const char *line, size_t len)
{
	if (mode == NORMALIZE) {
		const char *norm;
		size_t n;
		if (spm_normalize_text(m, s, line, len, &norm, &n))
			return -1;
		fwrite(norm, 1, n, stdout);
		putchar('\n');
		return 0;
	}
	const int32_t *ids;
	size_t n;
	if (spm_encode(m, s, line, len, &ids, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (i)
			putchar(' ');
		if (mode == PIECES) {
			size_t plen;
			const char *p = spm_piece(m, ids[i], &plen);
			fwrite(p, 1, plen, stdout);
		} else {
			printf("%d", (int)ids[i]);
		}
	}
	putchar('\n');
	return 0;
}

static int decode_line(const spm_model *m, spm_scratch *s, char *line)
{
	int32_t *ids = NULL;
	size_t n = 0, cap = 0;
	for (char *p = line, *end; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v < -1 || v > 0x7fffffff) {
			free(ids);
			return -1;
		}
		if (n == cap) {
			int32_t *bigger = realloc(ids, (cap = cap ? 2 * cap : 64) * sizeof *ids);
			if (bigger == NULL) {
				free(ids);
				return -1;
			}
			ids = bigger;
		}
		ids[n++] = (int32_t)v;
		p = end;
	}
	const char *text;
	size_t len;
	int rc = spm_decode(m, s, ids, n, &text, &len);
	free(ids);
	if (rc)
		return -1;
	fwrite(text, 1, len, stdout);
	putchar('\n');
	return 0;
}

static int run(const spm_model *m, enum mode mode)
{
	spm_scratch *s = spm_scratch_new();
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	long lineno = 0;
	int rc = s ? 0 : 1;
	while (rc == 0 && (got = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		size_t len = (size_t)got;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		int r = mode == DECODE ? decode_line(m, s, line) : encode_line(m, s, mode, line, len);
		if (r) {
			fprintf(stderr, "spm_tool: failed on line %ld\n", lineno);
			rc = 1;
		}
	}
	free(line);
	spm_scratch_free(s);
	return rc;
}

int main(int argc, char **argv)
{
	enum mode mode = ENCODE;
	int arg = 1;
	if (argc == 3 && strcmp(argv[1], "--decode") == 0)
		mode = DECODE, arg = 2;
	else if (argc == 3 && strcmp(argv[1], "--pieces") == 0)
		mode = PIECES, arg = 2;
	else if (argc == 3 && strcmp(argv[1], "--normalize") == 0)
		mode = NORMALIZE, arg = 2;
	else if (argc != 2) {
		fprintf(stderr, "usage: spm_tool [--decode|--pieces|--normalize] MODEL.model\n");
		return 2;
	}
	size_t len, blob_len;
	uint8_t *proto = read_file(argv[arg], &len), *blob;
	char err[256];
	spm_model *m;
	if (proto == NULL) {
		perror(argv[arg]);
		return 1;
	}
	if (spm_pack(proto, len, &blob, &blob_len, err, sizeof err) || spm_open(blob, blob_len, &m, err, sizeof err)) {
		fprintf(stderr, "spm_tool: %s: %s\n", argv[arg], err);
		return 1;
	}
	free(proto);
	int rc = run(m, mode);
	spm_close(m);
	free(blob);
	return rc;
}
