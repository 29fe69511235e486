/* vocab/spm_unigram.c - unigram segmentation: SentencePiece's Viterbi over all pieces that
 * match at each character start (Model::EncodeOptimized in unigram_model.cc).
 *
 * Faithful to the floating point of the reference, because exact ties are common (e.g.
 * "ab"+"c" vs "a"+"bc" with equal totals): a piece candidate is the double sum of a
 * double score and the float path score, compared in double against the stored float and
 * then stored as float; the unknown-character candidate is float throughout. */
#include <stddef.h>

#include "spm_internal.h"

/* Best path ending at a byte position. */
typedef struct {
	int32_t id;    /* last piece of the path */
	int32_t starts_at; /* where that piece starts; -1 = position not reached */
	float score;
} best_end;

/* SentencePiece's unknown penalty (kUnkPenalty) below the lowest piece score. */
static const float kUnkPenalty = 10.0f;

static int matchable(uint32_t type)
{
	return type == SPM_NORMAL || type == SPM_USER_DEFINED;
}

/* Score of a piece of `len` bytes: user-defined symbols get a bonus so that they always
 * win (length * max_score - 0.1, in double as in the reference). */
static double piece_score(const spm_model *m, int32_t id, size_t len)
{
	if (spm_piece_type(m, id) == SPM_USER_DEFINED) {
		float scaled = (float)len * m->max_score;
		return (double)scaled - 0.1;
	}
	return (double)spm_piece_score(m, id);
}

/* How many bytes from `start` a piece can span: the longest piece, and, when
 * no piece holds a space past its first byte (SentencePiece's default
 * split_by_whitespace), up to the next word's space: the lookups of longer
 * substrings could only miss. */
static size_t piece_limit(const spm_model *m, const char *text, size_t n, size_t start)
{
	size_t lim = n - start < m->max_match_len ? n - start : m->max_match_len;
	if (m->inner_space)
		return lim;
	size_t sp_len;
	const char *sp = spm_space(m, &sp_len);
	for (size_t i = 1; i + sp_len <= lim; i++)
		if (memcmp(text + start + i, sp, sp_len) == 0)
			return i;
	return lim;
}

/* Relax every piece starting at `start`; returns whether a one-character piece exists. */
static int relax_from(const spm_model *m, const char *text, size_t n, size_t start, size_t char_len, best_end *best)
{
	float here = best[start].score;
	int has_single = 0;
	size_t lim = piece_limit(m, text, n, start);
	uint32_t h = SPM_FNV_INIT;
	for (size_t len = 1; len <= lim; len++) {
		h = spm_fnv_step(h, (uint8_t)text[start + len - 1]);
		int32_t id = spm_lookup_hashed(m, h, text + start, len);
		if (id < 0 || !matchable(spm_piece_type(m, id)))
			continue; /* UNUSED never matches */
		best_end *t = &best[start + len];
		double cand = piece_score(m, id, len) + (double)here;
		if (t->starts_at == -1 || cand > (double)t->score) {
			t->score = (float)cand;
			t->starts_at = (int32_t)start;
			t->id = id;
		}
		if (len == char_len)
			has_single = 1;
	}
	return has_single;
}

static void relax_unknown(const spm_model *m, size_t start, size_t char_len, best_end *best)
{
	float unk_score = m->min_score - kUnkPenalty;
	float cand = unk_score + best[start].score;
	best_end *t = &best[start + char_len];
	if (t->starts_at == -1 || cand > t->score) {
		t->score = cand;
		t->starts_at = (int32_t)start;
		t->id = m->unk_id;
	}
}

/* Walk back from the end, writing spans in order. */
static int backtrack(spm_scratch *s, const best_end *best, size_t n, size_t *n_spans)
{
	size_t count = 0;
	for (size_t end = n; end > 0; end = (size_t)best[end].starts_at) {
		if (best[end].starts_at < 0 || (size_t)best[end].starts_at >= end)
			return -1;
		count++;
	}
	void *buf = s->spans;
	if (spm_reserve(&buf, &s->spans_cap, count, sizeof(spm_span)))
		return -1;
	s->spans = buf;
	size_t i = count;
	for (size_t end = n; end > 0; end = (size_t)best[end].starts_at) {
		size_t start = (size_t)best[end].starts_at;
		s->spans[--i] = (spm_span){ (uint32_t)start, (uint32_t)(end - start), best[end].id };
	}
	*n_spans = count;
	return 0;
}

int spm_unigram_segment(const spm_model *m, spm_scratch *s, size_t n, size_t *n_spans)
{
	*n_spans = 0;
	if (n == 0)
		return 0;
	if (spm_reserve(&s->work, &s->work_cap, (n + 1) * sizeof(best_end), 1))
		return -1;
	best_end *best = s->work;
	for (size_t i = 0; i <= n; i++)
		best[i] = (best_end){ -1, -1, 0.0f };
	const char *text = s->norm;
	for (size_t start = 0; start < n;) {
		size_t char_len = spm_one_char_len((uint8_t)text[start]);
		if (char_len > n - start)
			char_len = n - start;
		if (!relax_from(m, text, n, start, char_len, best))
			relax_unknown(m, start, char_len, best);
		start += char_len;
	}
	return backtrack(s, best, n, n_spans);
}
