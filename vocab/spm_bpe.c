/* vocab/spm_bpe.c - BPE segmentation as SentencePiece does it (bpe_model.cc): start from
 * characters (user-defined symbols are single, frozen symbols), repeatedly merge the
 * adjacent pair whose concatenation is the highest-scoring piece (ties: leftmost), then
 * split any UNUSED result back into the pieces it was merged from. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "spm_internal.h"

typedef struct {
	uint32_t start, len; /* bytes of the normalized text; len 0 = merged away */
	int32_t prev, next; /* neighbours in the current symbol list, -1 at the ends */
	int frozen;        /* user-defined symbol: never merged */
} symbol;

typedef struct {
	int32_t left, right; /* symbol indices */
	float score;
	uint32_t len;      /* combined length when queued: stale if it changed */
} pair;

/* Merge history of UNUSED pieces: text[start, start+len) was made of len_left + rest. */
typedef struct {
	uint32_t start, len, len_left;
} rev_merge;

typedef struct {
	const spm_model *m;
	spm_scratch *s;
	const char *text;
	symbol *sym;
	pair *pairs;
	size_t n_pairs;
	uint32_t *heap;
	size_t heap_len; /* indices into pairs */
	rev_merge *rev;
	size_t n_rev, rev_cap;
} bpe_state;

/* Heap order: higher score first, then smaller left index (the reference's comparator). */
static int pair_before(const bpe_state *st, uint32_t a, uint32_t b)
{
	const pair *x = &st->pairs[a], *y = &st->pairs[b];
	if (x->score != y->score)
		return x->score > y->score;
	return x->left < y->left;
}

static void heap_push(bpe_state *st, uint32_t p)
{
	size_t i = st->heap_len++;
	st->heap[i] = p;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!pair_before(st, st->heap[i], st->heap[parent]))
			break;
		uint32_t t = st->heap[i];
		st->heap[i] = st->heap[parent];
		st->heap[parent] = t;
		i = parent;
	}
}

static uint32_t heap_pop(bpe_state *st)
{
	uint32_t top = st->heap[0];
	st->heap[0] = st->heap[--st->heap_len];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;
		if (l < st->heap_len && pair_before(st, st->heap[l], st->heap[best]))
			best = l;
		if (r < st->heap_len && pair_before(st, st->heap[r], st->heap[best]))
			best = r;
		if (best == i)
			break;
		uint32_t t = st->heap[i];
		st->heap[i] = st->heap[best];
		st->heap[best] = t;
		i = best;
	}
	return top;
}

static int remember_unused(bpe_state *st, uint32_t start, uint32_t len, uint32_t len_left)
{
	void *buf = st->rev;
	if (spm_reserve(&buf, &st->rev_cap, st->n_rev + 1, sizeof(rev_merge)))
		return -1;
	st->rev = buf;
	st->rev[st->n_rev++] = (rev_merge){ start, len, len_left };
	return 0;
}

/* Queue the pair (left, right) if their concatenation is a piece. */
static int maybe_add_pair(bpe_state *st, int32_t left, int32_t right)
{
	if (left < 0 || right < 0 || st->sym[left].frozen || st->sym[right].frozen)
		return 0;
	const symbol *a = &st->sym[left], *b = &st->sym[right];
	uint32_t len = a->len + b->len;
	int32_t id = spm_lookup(st->m, st->text + a->start, len);
	if (id < 0)
		return 0;
	uint32_t type = spm_piece_type(st->m, id);
	if (type != SPM_NORMAL && type != SPM_USER_DEFINED && type != SPM_UNUSED)
		return 0;
	pair *p = &st->pairs[st->n_pairs];
	*p = (pair){ left, right, spm_piece_score(st->m, id), len };
	heap_push(st, (uint32_t)st->n_pairs++);
	return type == SPM_UNUSED ? remember_unused(st, a->start, len, a->len) : 0;
}

static size_t split_symbols(bpe_state *st, size_t n)
{
	size_t count = 0;
	for (size_t at = 0; at < n; count++) {
		size_t len = st->m->max_user_len ? spm_user_prefix(st->m, st->text + at, n - at) : 0;
		int frozen = len > 0;
		if (!frozen) {
			len = spm_one_char_len((uint8_t)st->text[at]);
			if (len > n - at)
				len = n - at;
		}
		st->sym[count] = (symbol){ (uint32_t)at, (uint32_t)len, (int32_t)count - 1,
					   at + len < n ? (int32_t)count + 1 : -1, frozen };
		at += len;
	}
	return count;
}

static int merge_all(bpe_state *st, size_t n_sym)
{
	for (size_t i = 1; i < n_sym; i++)
		if (maybe_add_pair(st, (int32_t)i - 1, (int32_t)i))
			return -1;
	while (st->heap_len > 0) {
		const pair p = st->pairs[heap_pop(st)];
		symbol *a = &st->sym[p.left], *b = &st->sym[p.right];
		if (a->len == 0 || b->len == 0 || a->len + b->len != p.len)
			continue; /* stale */
		a->len += b->len;
		a->next = b->next;
		if (b->next >= 0)
			st->sym[b->next].prev = p.left;
		b->len = 0;
		if (maybe_add_pair(st, a->prev, p.left) || maybe_add_pair(st, p.left, a->next))
			return -1;
	}
	return 0;
}

static int push_span(spm_scratch *s, size_t *n, uint32_t start, uint32_t len, int32_t id)
{
	void *buf = s->spans;
	if (spm_reserve(&buf, &s->spans_cap, *n + 1, sizeof(spm_span)))
		return -1;
	s->spans = buf;
	s->spans[(*n)++] = (spm_span){ start, len, id };
	return 0;
}

/* The latest merge that produced text equal to [start, start+len), or NULL. */
static const rev_merge *find_rev(const bpe_state *st, uint32_t start, uint32_t len)
{
	for (size_t i = st->n_rev; i-- > 0;) {
		const rev_merge *r = &st->rev[i];
		if (r->len == len && memcmp(st->text + r->start, st->text + start, len) == 0)
			return r;
	}
	return NULL;
}

/* Emit [start, start+len) as one piece, or recursively as the parts an UNUSED piece was
 * merged from. Depth is bounded by len, since both parts are strictly shorter. */
static int resegment(bpe_state *st, uint32_t start, uint32_t len, size_t *n_spans)
{
	int32_t id = spm_lookup(st->m, st->text + start, len);
	if (id < 0)
		id = st->m->unk_id; /* PieceToId falls back to <unk> */
	const rev_merge *r = spm_piece_type(st->m, id) == SPM_UNUSED ? find_rev(st, start, len) : NULL;
	if (r == NULL)
		return push_span(st->s, n_spans, start, len, id);
	uint32_t left = r->len_left;
	if (resegment(st, start, left, n_spans))
		return -1;
	return resegment(st, start + left, len - left, n_spans);
}

int spm_bpe_segment(const spm_model *m, spm_scratch *s, size_t n, size_t *n_spans)
{
	*n_spans = 0;
	if (n == 0)
		return 0;
	/* n symbols at most; each merge queues at most two pairs: 3n pairs in all.
     * The work buffers' capacities count bytes (spm_internal.h), since the
     * unigram segmenter shares them with other element types: counting
     * elements here once let a scratch that had served a unigram model
     * overflow (found by tests/fuzz/fuzz_tokenizer.c). */
	if (n > SIZE_MAX / (3 * sizeof(pair)) || spm_reserve(&s->work, &s->work_cap, n * sizeof(symbol), 1) ||
	    spm_reserve(&s->work2, &s->work2_cap, 3 * n * sizeof(pair), 1) ||
	    spm_reserve(&s->work3, &s->work3_cap, 3 * n * sizeof(uint32_t), 1))
		return -1;
	bpe_state st = { m, s, s->norm, s->work, s->work2, 0, s->work3, 0, NULL, 0, 0 };
	size_t n_sym = split_symbols(&st, n);
	int rc = merge_all(&st, n_sym);
	for (int32_t i = 0; rc == 0 && i != -1; i = st.sym[i].next)
		rc = resegment(&st, st.sym[i].start, st.sym[i].len, n_spans);
	free(st.rev);
	return rc;
}
