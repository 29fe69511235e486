/* Reading train/vmap.py's text file and laying it out as the engine's
 * "vmap" section (engine/vmap.h): a hash table at load factor <= 1/2. */
#include "vmap_pack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/error.h"
#include "../engine/format.h"
#include "../engine/vmap.h"

typedef struct {
	int32_t src[NMT_VMAP_MAX_N];
	int n;
	uint32_t offset, count;   /* into the payload */
} entry;

typedef struct {
	entry *entries;
	size_t n_entries, cap_entries;
	uint32_t *payload;
	size_t n_payload, cap_payload;
	uint32_t *zero;
	size_t n_zero;
	int max_n;
} vmap_text;

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 1024;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* Space-separated decimal ids, each < limit; returns the count or -1. */
static long parse_ids(char *s, long limit, uint32_t *out, long max)
{
	long n = 0;
	for (char *tok = strtok(s, " "); tok; tok = strtok(NULL, " ")) {
		char *end;
		errno = 0;
		long v = strtol(tok, &end, 10);
		if (errno || *end || v < 0 || v >= limit || n == max)
			return -1;
		out[n++] = (uint32_t)v;
	}
	return n;
}

static int parse_line(vmap_text *t, char *line, int is_zero, int src_vocab, int tgt_vocab)
{
	char *tab = strchr(line, '\t');
	uint32_t src[NMT_VMAP_MAX_N + 1];
	if (!tab)
		return -1;
	*tab = '\0';
	long n = parse_ids(line, src_vocab, src, NMT_VMAP_MAX_N);
	if (n < 0 || (is_zero ? n != 0 : n == 0))
		return -1;
	if (grow((void **)&t->payload, &t->cap_payload, t->n_payload + (size_t)tgt_vocab, sizeof(uint32_t)) != 0)
		return -1;
	long m = parse_ids(tab + 1, tgt_vocab, t->payload + t->n_payload, tgt_vocab);
	if (m < 0)
		return -1;
	if (is_zero) {
		t->zero = malloc(((size_t)m + 1) * sizeof *t->zero);
		if (!t->zero)
			return -1;
		memcpy(t->zero, t->payload + t->n_payload, (size_t)m * sizeof *t->zero);
		t->n_zero = (size_t)m;
		return 0;
	}
	if (grow((void **)&t->entries, &t->cap_entries, t->n_entries + 1, sizeof(entry)) != 0)
		return -1;
	entry *e = &t->entries[t->n_entries++];
	for (long i = 0; i < n; i++)
		e->src[i] = (int32_t)src[i];
	e->n = (int)n;
	e->offset = (uint32_t)t->n_payload;
	e->count = (uint32_t)m;
	t->n_payload += (size_t)m;
	if (n > t->max_n)
		t->max_n = (int)n;
	return 0;
}

static int read_text(const char *path, vmap_text *t, int src_vocab, int tgt_vocab, char *err, size_t errlen)
{
	FILE *in = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long line_no = 0;
	int seen_zero = 0;

	if (!in)
		return nmt_fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
	while ((len = getline(&line, &cap, in)) >= 0) {
		line_no++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#')
			continue;
		if (parse_line(t, line, !seen_zero, src_vocab, tgt_vocab) != 0) {
			free(line);
			fclose(in);
			return nmt_fail(err, errlen, "%s:%ld: expected \"SOURCE IDS<TAB>TARGET IDS\" with ids inside "
					"the vocabularies (the first line: \"<TAB>0-GRAM IDS\")", path, line_no);
		}
		seen_zero = 1;
	}
	free(line);
	fclose(in);
	if (!seen_zero)
		return nmt_fail(err, errlen, "%s: empty vocabulary map", path);
	if (t->max_n == 0)
		t->max_n = 1;
	return 0;
}

static int insert(uint8_t *slots, uint32_t n_slots, const entry *e, char *err, size_t errlen)
{
	uint64_t key = nmt_vmap_hash(e->src, e->n);
	for (uint32_t i = (uint32_t)key & (n_slots - 1);; i = (i + 1) & (n_slots - 1)) {
		uint8_t *s = slots + (size_t)i * 16;
		uint64_t fp = nmt_rd64(s);
		if (fp == key)
			return nmt_fail(err, errlen, "vocabulary map: an n-gram appears twice (or two share a 64-bit hash)");
		if (fp == 0) {
			nmt_wr64(s, key);
			nmt_wr32(s + 8, e->offset);
			nmt_wr32(s + 12, e->count);
			return 0;
		}
	}
}

static int layout(const vmap_text *t, uint8_t **out, size_t *out_len, char *err, size_t errlen)
{
	uint32_t n_slots = 2;
	while (n_slots < 2 * t->n_entries + 1)
		n_slots *= 2;
	size_t zero_bytes = (t->n_zero + (t->n_zero & 1)) * 4;
	size_t size = 24 + zero_bytes + (size_t)n_slots * 16 + t->n_payload * 4;
	uint8_t *buf = calloc(1, size);
	if (!buf)
		return nmt_fail(err, errlen, "out of memory");
	nmt_wr32(buf, (uint32_t)t->max_n);
	nmt_wr32(buf + 4, (uint32_t)t->n_zero);
	nmt_wr32(buf + 8, n_slots);
	nmt_wr64(buf + 16, t->n_payload);
	for (size_t i = 0; i < t->n_zero; i++)
		nmt_wr32(buf + 24 + 4 * i, t->zero[i]);
	uint8_t *slots = buf + 24 + zero_bytes, *payload = slots + (size_t)n_slots * 16;
	for (size_t i = 0; i < t->n_entries; i++)
		if (insert(slots, n_slots, &t->entries[i], err, errlen) != 0) {
			free(buf);
			return -1;
		}
	for (size_t i = 0; i < t->n_payload; i++)
		nmt_wr32(payload + 4 * i, t->payload[i]);
	*out = buf;
	*out_len = size;
	return 0;
}

int pack_vmap(const char *path, int src_vocab, int tgt_vocab, uint8_t **out, size_t *out_len,
	      char *err, size_t errlen)
{
	vmap_text t = { 0 };
	int rc = read_text(path, &t, src_vocab, tgt_vocab, err, errlen);
	if (rc == 0)
		rc = layout(&t, out, out_len, err, errlen);
	free(t.entries);
	free(t.payload);
	free(t.zero);
	return rc;
}
