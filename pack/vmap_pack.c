/* Reading train/vmap.py's text file and laying it out as the engine's
 * "vmap" section (engine/vmap.h): a hash table at load factor <= 3/4. */
#include "vmap_pack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/number.h"
#include "../format/format.h"
#include "../engine/vmap.h"

typedef struct {
	int32_t src[ENGINE_VMAP_MAX_N];
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
		long v;
		if (number_parse_long(tok, 0, limit - 1, &v) != 0 || n == max)
			return -1;
		out[n++] = (uint32_t)v;
	}
	return n;
}

static int parse_line(vmap_text *t, char *line, int is_zero, int src_vocab, int tgt_vocab)
{
	char *tab = strchr(line, '\t');
	uint32_t src[ENGINE_VMAP_MAX_N + 1];
	if (!tab)
		return -1;
	*tab = '\0';
	long n = parse_ids(line, src_vocab, src, ENGINE_VMAP_MAX_N);
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
		return error_set(err, errlen, "cannot open %s: %s", path, strerror(errno));
	while ((len = getline(&line, &cap, in)) >= 0) {
		line_no++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#')
			continue;
		if (parse_line(t, line, !seen_zero, src_vocab, tgt_vocab) != 0) {
			free(line);
			fclose(in);
			return error_set(err, errlen, "%s:%ld: expected \"SOURCE IDS<TAB>TARGET IDS\" with ids inside "
					"the vocabularies (the first line: \"<TAB>0-GRAM IDS\")", path, line_no);
		}
		seen_zero = 1;
	}
	free(line);
	fclose(in);
	if (!seen_zero)
		return error_set(err, errlen, "%s: empty vocabulary map", path);
	if (t->max_n == 0)
		t->max_n = 1;
	return 0;
}

/* Entries in key order (length, then ids), for finding an n-gram's parts. */
static int entry_cmp(const void *pa, const void *pb)
{
	const entry *a = pa, *b = pb;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = 0; i < a->n; i++)
		if (a->src[i] != b->src[i])
			return a->src[i] < b->src[i] ? -1 : 1;
	return 0;
}

static void mark_ids(const uint32_t *ids, size_t n, uint8_t *marks, uint8_t value)
{
	for (size_t i = 0; i < n; i++)
		marks[ids[i]] = value;
}

/* Mark (value 1) or unmark (0) the targets of e's proper parts, the shorter
 * n-grams inside it, as the text lists them (sorted: the entries by key). */
static void mark_parts(const vmap_text *t, const entry *sorted, const entry *e, uint8_t *marks, uint8_t value)
{
	for (int n = 1; n < e->n; n++)
		for (int i = 0; i + n <= e->n; i++) {
			entry key = { .n = n };
			memcpy(key.src, e->src + i, (size_t)n * sizeof key.src[0]);
			const entry *part = bsearch(&key, sorted, t->n_entries, sizeof key, entry_cmp);
			if (part)
				mark_ids(t->payload + part->offset, part->count, marks, value);
		}
}

/* A sentence's shortlist is the union of the 0-grams and the lists of all its
 * n-grams, and a sentence that holds an n-gram holds all its parts. So the
 * targets an n-gram shares with the 0-grams or with its parts add nothing:
 * drop them, and the n-grams left with none, and every sentence keeps exactly
 * the same shortlist (by induction on n). On the default model's map this
 * drops 86% of the ids and 80% of the n-grams (docs/RESULTS.md). */
static int prune_redundant(vmap_text *t, int tgt_vocab)
{
	entry *sorted = malloc((t->n_entries ? t->n_entries : 1) * sizeof *sorted);
	uint32_t *kept = malloc((t->n_payload ? t->n_payload : 1) * sizeof *kept);
	uint8_t *marks = calloc((size_t)tgt_vocab, 1);
	if (!sorted || !kept || !marks) {
		free(sorted);
		free(kept);
		free(marks);
		return -1;
	}
	if (t->n_entries) {   /* a map of 0-grams only has no entries (and no array) */
		memcpy(sorted, t->entries, t->n_entries * sizeof *sorted);
		qsort(sorted, t->n_entries, sizeof *sorted, entry_cmp);
	}
	size_t n_kept = 0, n_entries = 0;
	int max_n = 1;
	mark_ids(t->zero, t->n_zero, marks, 1);
	for (size_t i = 0; i < t->n_entries; i++) {
		entry e = t->entries[i];
		const uint32_t *ids = t->payload + e.offset;
		mark_parts(t, sorted, &e, marks, 1);
		uint32_t count = 0;
		for (uint32_t k = 0; k < e.count; k++)
			if (!marks[ids[k]])
				kept[n_kept + count++] = ids[k];
		mark_parts(t, sorted, &e, marks, 0);
		mark_ids(t->zero, t->n_zero, marks, 1);   /* a part may share ids with the 0-grams */
		if (count == 0)
			continue;
		e.offset = (uint32_t)n_kept;
		e.count = count;
		n_kept += count;
		t->entries[n_entries++] = e;
		if (e.n > max_n)
			max_n = e.n;
	}
	free(sorted);
	free(marks);
	free(t->payload);
	t->payload = kept;
	t->cap_payload = n_kept ? n_kept : 1;
	t->n_payload = n_kept;
	t->n_entries = n_entries;
	t->max_n = max_n;
	return 0;
}

/* Where every entry goes: owner[slot] is the entry stored there (-1: empty);
 * an entry whose fingerprint is already on its probe path is merged into
 * that slot's entry instead (merged_next chains them from merged_head). */
typedef struct {
	uint32_t n_slots;
	int32_t *owner, *merged_head, *merged_next;
	uint32_t *fp;
} table;

static void place(table *tb, const vmap_text *t)
{
	for (size_t i = 0; i < t->n_entries; i++) {
		uint64_t hash = engine_vmap_hash(t->entries[i].src, t->entries[i].n);
		uint32_t fp = engine_vmap_fingerprint(hash);
		for (uint32_t k = engine_vmap_home(hash, tb->n_slots);; k = (k + 1) & (tb->n_slots - 1)) {
			if (tb->owner[k] < 0) {
				tb->owner[k] = (int32_t)i;
				tb->fp[k] = fp;
				break;
			}
			if (tb->fp[k] == fp) {
				int32_t j = tb->owner[k];
				tb->merged_next[i] = tb->merged_head[j];
				tb->merged_head[j] = (int32_t)i;
				break;
			}
		}
	}
}

static void put_value(uint8_t *p, int id_bytes, uint64_t i, uint32_t v)
{
	if (id_bytes == 2) {
		p[2 * i] = (uint8_t)v;
		p[2 * i + 1] = (uint8_t)(v >> 8);
	} else {
		format_wr32(p + 4 * i, v);
	}
}

/* Append entry e's targets not yet marked to list[*n]. */
static void add_targets(const vmap_text *t, const entry *e, uint8_t *marks, uint32_t *list, uint32_t *n)
{
	for (uint32_t k = 0; k < e->count; k++) {
		uint32_t id = t->payload[e->offset + k];
		if (!marks[id]) {
			marks[id] = 1;
			list[(*n)++] = id;
		}
	}
}

/* The payload: for each used slot in slot order, its count and the union of
 * its entry's and merged entries' targets. Returns the number of values. */
static uint64_t write_payload(const table *tb, const vmap_text *t, int id_bytes,
			      uint8_t *slots, uint8_t *payload, uint8_t *marks, uint32_t *list)
{
	uint64_t used = 0;
	for (uint32_t k = 0; k < tb->n_slots; k++) {
		if (tb->owner[k] < 0)
			continue;
		uint32_t n = 0;
		add_targets(t, &t->entries[tb->owner[k]], marks, list, &n);
		for (int32_t i = tb->merged_head[tb->owner[k]]; i >= 0; i = tb->merged_next[i])
			add_targets(t, &t->entries[i], marks, list, &n);
		format_wr32(slots + (size_t)k * ENGINE_VMAP_SLOT_BYTES, tb->fp[k]);
		format_wr32(slots + (size_t)k * ENGINE_VMAP_SLOT_BYTES + 4, (uint32_t)used);
		if (payload) {
			put_value(payload, id_bytes, used, n);
			for (uint32_t j = 0; j < n; j++)
				put_value(payload, id_bytes, used + 1 + j, list[j]);
		}
		for (uint32_t j = 0; j < n; j++)
			marks[list[j]] = 0;
		used += 1 + n;
	}
	return used;
}

static void free_table(table *tb)
{
	free(tb->owner);
	free(tb->merged_head);
	free(tb->merged_next);
	free(tb->fp);
}

static int make_table(table *tb, const vmap_text *t)
{
	/* load factor at most 3/4, and always an empty slot; the reader takes
	 * at most 2^30 slots */
	if (t->n_entries > (size_t)3 << 27)
		return -1;
	tb->n_slots = 2;
	while ((uint64_t)tb->n_slots * 3 < (uint64_t)t->n_entries * 4 || tb->n_slots <= t->n_entries)
		tb->n_slots *= 2;
	size_t n = t->n_entries ? t->n_entries : 1;
	tb->owner = malloc(tb->n_slots * sizeof *tb->owner);
	tb->fp = malloc(tb->n_slots * sizeof *tb->fp);
	tb->merged_head = malloc(n * sizeof *tb->merged_head);
	tb->merged_next = malloc(n * sizeof *tb->merged_next);
	if (!tb->owner || !tb->fp || !tb->merged_head || !tb->merged_next)
		return -1;
	for (uint32_t k = 0; k < tb->n_slots; k++)
		tb->owner[k] = -1;
	for (size_t i = 0; i < n; i++)
		tb->merged_head[i] = tb->merged_next[i] = -1;
	place(tb, t);
	return 0;
}

static int layout(const vmap_text *t, int tgt_vocab, uint8_t **out, size_t *out_len, char *err, size_t errlen)
{
	int id_bytes = tgt_vocab <= 65535 ? 2 : 4;
	table tb = { 0 };
	uint8_t *marks = calloc((size_t)tgt_vocab, 1);
	uint32_t *list = malloc((size_t)tgt_vocab * sizeof *list);
	if (!marks || !list || make_table(&tb, t) != 0) {
		free(marks);
		free(list);
		free_table(&tb);
		return error_set(err, errlen, "out of memory (or a vocabulary map of over 400 million n-grams)");
	}
	size_t zero_bytes = (t->n_zero * (size_t)id_bytes + 3) / 4 * 4;
	size_t slot_bytes = (size_t)tb.n_slots * ENGINE_VMAP_SLOT_BYTES;
	uint8_t *slots = calloc(1, slot_bytes);
	uint64_t n_payload = slots ? write_payload(&tb, t, id_bytes, slots, NULL, marks, list) : 0;
	size_t size = 24 + zero_bytes + slot_bytes + (size_t)n_payload * id_bytes;
	uint8_t *buf = slots && n_payload < UINT32_MAX ? calloc(1, size) : NULL;
	if (buf) {
		format_wr32(buf, (uint32_t)t->max_n);
		format_wr32(buf + 4, (uint32_t)t->n_zero);
		format_wr32(buf + 8, tb.n_slots);
		format_wr32(buf + 12, (uint32_t)id_bytes);
		format_wr64(buf + 16, n_payload);
		for (size_t i = 0; i < t->n_zero; i++)
			put_value(buf + 24, id_bytes, i, t->zero[i]);
		uint8_t *table_at = buf + 24 + zero_bytes;
		write_payload(&tb, t, id_bytes, table_at, table_at + slot_bytes, marks, list);
	}
	free(slots);
	free(marks);
	free(list);
	free_table(&tb);
	if (!buf)
		return error_set(err, errlen, "out of memory (or a vocabulary map over 2^32 ids)");
	*out = buf;
	*out_len = size;
	return 0;
}

/* The map read so far (rc 0) pruned and laid out; t freed either way. */
static int finish(vmap_text *t, int rc, int tgt_vocab, uint8_t **out, size_t *out_len, char *err, size_t errlen)
{
	if (rc == 0 && prune_redundant(t, tgt_vocab) != 0)
		rc = error_set(err, errlen, "out of memory");
	if (rc == 0)
		rc = layout(t, tgt_vocab, out, out_len, err, errlen);
	free(t->entries);
	free(t->payload);
	free(t->zero);
	return rc;
}

int pack_vmap(const char *path, int src_vocab, int tgt_vocab, uint8_t **out, size_t *out_len,
	      char *err, size_t errlen)
{
	vmap_text t = { 0 };
	int rc = read_text(path, &t, src_vocab, tgt_vocab, err, errlen);
	return finish(&t, rc, tgt_vocab, out, out_len, err, errlen);
}

int pack_vmap_unigrams(const uint32_t *zero, size_t n_zero, const uint64_t *offsets, const uint32_t *ids,
		       int src_vocab, int tgt_vocab, uint8_t **out, size_t *out_len, char *err, size_t errlen)
{
	vmap_text t = { .max_n = 1 };
	int rc = 0;
	size_t n_ids = (size_t)offsets[src_vocab];

	t.zero = malloc((n_zero + 1) * sizeof *t.zero);
	t.payload = malloc((n_ids + 1) * sizeof *t.payload);
	t.entries = malloc(((size_t)src_vocab + 1) * sizeof *t.entries);
	if (!t.zero || !t.payload || !t.entries)
		rc = error_set(err, errlen, "out of memory");
	for (size_t i = 0; rc == 0 && i < n_zero; i++)
		if ((t.zero[t.n_zero++] = zero[i]) >= (uint32_t)tgt_vocab)
			rc = error_set(err, errlen, "vocabulary map: target id %u outside the vocabulary", zero[i]);
	for (int s = 0; rc == 0 && s < src_vocab; s++) {
		uint64_t a = offsets[s], b = offsets[s + 1];
		if (a == b)
			continue;
		entry *e = &t.entries[t.n_entries++];
		e->src[0] = s;
		e->n = 1;
		e->offset = (uint32_t)t.n_payload;
		e->count = (uint32_t)(b - a);
		for (uint64_t k = a; k < b; k++)
			t.payload[t.n_payload++] = ids[k];
	}
	return finish(&t, rc, tgt_vocab, out, out_len, err, errlen);
}
