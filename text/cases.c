#include "cases.h"

#include <stdlib.h>
#include <string.h>

#include "case.h"

struct text_cases {
	int n;
	int32_t *class_of;   /* [n] */
	int32_t *next;       /* [n] */
};

/* The pieces' texts with every letter small, side by side. */
typedef struct {
	char *bytes;
	size_t *off, *len;
} lowered;

/* Whether id is one of the vocabulary's control pieces, ctl[0..4). */
static int is_control(const int32_t ctl[4], int32_t id)
{
	return id == ctl[0] || id == ctl[1] || id == ctl[2] || id == ctl[3];
}

static int lower_all(const spm_model *v, int n, lowered *lo)
{
	size_t total = 0, len;
	for (int id = 0; id < n; id++)
		total += spm_piece(v, id, &len) ? len : 0;
	lo->bytes = malloc(total + 1);
	lo->off = malloc((size_t)n * sizeof *lo->off);
	lo->len = malloc((size_t)n * sizeof *lo->len);
	if (!lo->bytes || !lo->off || !lo->len)
		return -1;
	total = 0;
	for (int id = 0; id < n; id++) {
		const char *p = spm_piece(v, id, &len);
		lo->off[id] = total;
		lo->len[id] = p ? len : 0;
		if (p)
			text_case_to_lower(p, len, lo->bytes + total);
		total += lo->len[id];
	}
	return 0;
}

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;   /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int same_text(const lowered *lo, int32_t a, int32_t b)
{
	return lo->len[a] == lo->len[b] && memcmp(lo->bytes + lo->off[a], lo->bytes + lo->off[b], lo->len[a]) == 0;
}

/* Each piece joins the class of the first piece with its lowered text: an
 * open-addressing table of first pieces, twice the vocabulary's size. */
static int join_classes(const spm_model *v, const lowered *lo, text_cases *c)
{
	size_t size = 16;
	while (size < 2 * (size_t)c->n)
		size *= 2;
	int32_t *first = malloc(size * sizeof *first);
	if (!first)
		return -1;
	memset(first, 0xff, size * sizeof *first);   /* -1: empty */
	const int32_t ctl[4] = { spm_bos_id(v), spm_eos_id(v), spm_unk_id(v), spm_pad_id(v) };
	for (int32_t id = 0; id < c->n; id++) {
		c->class_of[id] = c->next[id] = id;
		if (lo->len[id] == 0 || is_control(ctl, id))
			continue;
		size_t slot = hash(lo->bytes + lo->off[id], lo->len[id]) & (size - 1);
		while (first[slot] >= 0 && !same_text(lo, first[slot], id))
			slot = (slot + 1) & (size - 1);
		int32_t r = first[slot];
		if (r < 0) {
			first[slot] = id;
			continue;
		}
		c->class_of[id] = r;
		c->next[id] = c->next[r];   /* into r's cycle, after r */
		c->next[r] = id;
	}
	free(first);
	return 0;
}

int text_cases_build(const spm_model *vocab, text_cases **out)
{
	text_cases *c = calloc(1, sizeof *c);
	lowered lo = { 0 };
	int rc = -1;

	*out = NULL;
	if (!c)
		return -1;
	c->n = spm_vocab_size(vocab);
	c->class_of = malloc((size_t)c->n * sizeof *c->class_of);
	c->next = malloc((size_t)c->n * sizeof *c->next);
	if (c->class_of && c->next && lower_all(vocab, c->n, &lo) == 0 && join_classes(vocab, &lo, c) == 0)
		rc = 0;
	free(lo.bytes);
	free(lo.off);
	free(lo.len);
	if (rc != 0) {
		text_cases_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void text_cases_free(text_cases *c)
{
	if (!c)
		return;
	free(c->class_of);
	free(c->next);
	free(c);
}

int32_t text_cases_class(const text_cases *c, int32_t id)
{
	return id >= 0 && id < c->n ? c->class_of[id] : id;
}

int32_t text_cases_next(const text_cases *c, int32_t id)
{
	return id >= 0 && id < c->n ? c->next[id] : id;
}
