#include "guard.h"

#include <string.h>

#include "../common/utf8.h"

#define WORD_MARK 0x2581   /* SentencePiece's escaped space */

static int is_control(const spm_model *v, int32_t id)
{
	return id == spm_bos_id(v) || id == spm_eos_id(v) || id == spm_unk_id(v) || id == spm_pad_id(v);
}

void text_guard_head(const spm_model *vocab, int32_t id, text_piece_head *h)
{
	size_t len, used;
	const char *p = spm_piece(vocab, id, &len);

	memset(h, 0, sizeof *h);
	h->starts_word = 1;
	if (!p || len == 0 || is_control(vocab, id))
		return;
	uint32_t c = utf8_decode(p, len, &used);
	if (c == WORD_MARK)
		return;
	h->starts_word = 0;
	for (size_t i = 0; i < len && h->len < TEXT_GUARD_UNIT; i += used) {
		c = utf8_decode(p + i, len - i, &used);
		h->cp[h->len++] = c;
	}
}

/* Whether a[0..n) and b[0..n) are the same pieces but for case. */
static int same_but_case(const text_cases *c, const int32_t *a, const int32_t *b, int n)
{
	for (int i = 0; i < n; i++)
		if (text_cases_class(c, a[i]) != text_cases_class(c, b[i]))
			return 0;
	return 1;
}

/* The most copies in a row of any p-gram of ids[0..n), case aside. */
static int longest_run(const text_cases *c, const int32_t *ids, int n, int p)
{
	int best = 1;
	for (int i = 0; i + 2 * p <= n; i++) {
		int k = 1;
		while (i + (k + 1) * p <= n && same_but_case(c, ids + i, ids + i + k * p, p))
			k++;
		if (k > best)
			best = k;
	}
	return best;
}

/* A word's letters, collected from the end: how many copies of its last
 * L letters end it. */
static int unit_copies(const uint32_t *cp, int n, int L)
{
	if (n < L)
		return 0;
	for (int i = n - L; i < n; i++)
		if (!utf8_is_letter(cp[i]))
			return 0;
	int k = 1;
	while (n - (k + 1) * L >= 0 && memcmp(cp + n - (k + 1) * L, cp + n - L, (size_t)L * sizeof *cp) == 0)
		k++;
	return k;
}

/* Whether the text of pieces ids[0..n) has a word in which a unit of
 * 1..TEXT_GUARD_UNIT letters comes more than TEXT_GUARD_UNIT_COPIES times
 * in a row. */
static int has_letter_loop(const spm_model *vocab, const int32_t *ids, int n)
{
	uint32_t word[64];
	int w = 0;
	for (int i = 0; i < n; i++) {
		size_t len, used;
		const char *p = spm_piece(vocab, ids[i], &len);
		for (size_t j = 0; p && j < len; j += used) {
			uint32_t c = utf8_decode(p + j, len - j, &used);
			if (c == WORD_MARK || w == (int)(sizeof word / sizeof *word))
				w = 0;
			if (c == WORD_MARK)
				continue;
			word[w++] = c;
			for (int L = 1; L <= TEXT_GUARD_UNIT; L++)
				if (unit_copies(word, w, L) > TEXT_GUARD_UNIT_COPIES)
					return 1;
		}
	}
	return 0;
}

/* The most times any TEXT_GUARD_NGRAM-gram comes in ids[0..n), case aside. */
static int most_ngram_copies(const text_cases *c, const int32_t *ids, int n)
{
	int best = 0;
	for (int i = 0; i + TEXT_GUARD_NGRAM <= n && best < n; i++) {
		int k = 0;
		for (int j = i; j + TEXT_GUARD_NGRAM <= n; j++)
			k += same_but_case(c, ids + i, ids + j, TEXT_GUARD_NGRAM);
		if (k > best)
			best = k;
	}
	return best;
}

void text_guard_limits_of(const spm_model *src_vocab, const text_cases *src_cases, const int32_t *src, int n,
			 text_guard_limits *lim)
{
	int ngram = most_ngram_copies(src_cases, src, n < TEXT_GUARD_WINDOW ? n : TEXT_GUARD_WINDOW);
	lim->ngram_copies = ngram > TEXT_GUARD_COPIES ? ngram : TEXT_GUARD_COPIES;
	for (int p = 1; p <= TEXT_GUARD_PERIOD; p++) {
		int run = longest_run(src_cases, src, n, p);
		lim->copies[p] = run > TEXT_GUARD_COPIES ? run : TEXT_GUARD_COPIES;
	}
	lim->copies[0] = 0;
	lim->letters = !has_letter_loop(src_vocab, src, n);
}

int text_guard_window(const text_guard_limits *lim)
{
	(void)lim;   /* the n-gram rule looks at the whole window */
	return TEXT_GUARD_WINDOW;
}

static void block_id(text_guard_row *g, int32_t id)
{
	for (int k = 0; k < g->n_ids; k++)
		if (g->ids[k] == id)
			return;
	if (g->n_ids < TEXT_GUARD_IDS)
		g->ids[g->n_ids++] = id;
}

/* Block every piece of case class cls. */
static void block(const text_cases *cases, text_guard_row *g, int32_t cls)
{
	int32_t id = cls;
	do {
		block_id(g, id);
		id = text_cases_next(cases, id);
	} while (id != cls);
}

/* The piece rule: the next piece may not make hist's last (c + 1) p
 * pieces p-periodic, c copies of a p-gram and the start of another (bare
 * word marks left out). hist holds case classes, so "Ein Mann ... ein Mann"
 * is one 2-gram twice, as a reader sees it. */
static void block_ngrams(const text_cases *cases, const text_guard_limits *lim, const int32_t *hist, int n,
			 text_guard_row *g)
{
	for (int p = 1; p <= TEXT_GUARD_PERIOD; p++) {
		int need = (lim->copies[p] + 1) * p - 1;   /* pieces of history the rule looks at */
		if (need > n)
			continue;
		int i = n - need;
		while (i + p < n && hist[i] == hist[i + p])
			i++;
		if (i + p < n)
			continue;
		block(cases, g, hist[n - p]);
	}
	/* and the TEXT_GUARD_NGRAM-grams ending in the next piece: after each
	 * earlier occurrence of hist's last TEXT_GUARD_NGRAM - 1 pieces, what
	 * followed may not follow again once it has ngram_copies times */
	const int H = TEXT_GUARD_NGRAM - 1;
	if (n < H)
		return;
	for (int i = 0; i + H < n; i++) {
		if (memcmp(hist + i, hist + n - H, (size_t)H * sizeof *hist) != 0)
			continue;
		int32_t next = hist[i + H];
		int k = 0;
		for (int j = 0; j + H < n; j++)
			k += hist[j + H] == next && memcmp(hist + j, hist + n - H, (size_t)H * sizeof *hist) == 0;
		if (k >= lim->ngram_copies)
			block(cases, g, next);
	}
}

/* The letter rule: the letters of the word the hypothesis ends in (at most
 * TEXT_GUARD_UNIT x TEXT_GUARD_UNIT_COPIES of them), and each unit that ends
 * it TEXT_GUARD_UNIT_COPIES times. */
static void block_letter_units(const spm_model *vocab, const int32_t *hist, int n, text_guard_row *g)
{
	enum { MOST = TEXT_GUARD_UNIT * TEXT_GUARD_UNIT_COPIES };
	uint32_t tail[MOST];   /* filled from the end */
	int got = 0, word_start = 0;
	for (int i = n - 1; i >= 0 && got < MOST && !word_start; i--) {
		size_t len, used;
		const char *p = spm_piece(vocab, hist[i], &len);
		uint32_t cps[64];
		int m = 0;
		if (!p || is_control(vocab, hist[i]))
			break;
		for (size_t j = 0; j < len && m < 64; j += used)
			cps[m++] = utf8_decode(p + j, len - j, &used);
		int first = 0;
		if (m > 0 && cps[0] == WORD_MARK) {
			first = 1;
			word_start = 1;
		}
		for (int j = m - 1; j >= first && got < MOST; j--)
			tail[MOST - 1 - got++] = cps[j];
	}
	const uint32_t *word = tail + MOST - got;
	for (int L = 1; L <= TEXT_GUARD_UNIT; L++)
		if (unit_copies(word, got, L) >= TEXT_GUARD_UNIT_COPIES) {
			memcpy(g->unit[g->n_units], word + got - L, (size_t)L * sizeof *word);
			g->unit_len[g->n_units++] = (int8_t)L;
		}
}

/* Whether piece id is a bare word mark: " ", which spaces words apart
 * without being one ("w w  w w" loops as much as "w w w w"). */
static int bare_space(const spm_model *vocab, int32_t id)
{
	size_t len;
	const char *p = spm_piece(vocab, id, &len);
	return p && len == 3 && memcmp(p, "\xe2\x96\x81", 3) == 0;
}

void text_guard_row_build(const spm_model *tgt_vocab, const text_cases *tgt_cases, const text_guard_limits *lim,
			 const int32_t *hist, int n, text_guard_row *g)
{
	int32_t classes[TEXT_GUARD_WINDOW];
	int m = 0;
	for (int i = 0; i < n && m < TEXT_GUARD_WINDOW; i++)
		if (!bare_space(tgt_vocab, hist[i]))
			classes[m++] = text_cases_class(tgt_cases, hist[i]);
	g->n_ids = 0;
	g->n_units = 0;
	block_ngrams(tgt_cases, lim, classes, m, g);
	if (lim->letters)
		block_letter_units(tgt_vocab, hist, n, g);
}

int text_guard_violated(const spm_model *tgt_vocab, const text_cases *tgt_cases, const text_guard_limits *lim,
		       const int32_t *ids, int n)
{
	int w = text_guard_window(lim);
	for (int t = 1; t < n; t++) {
		int from = t > w ? t - w : 0;
		text_guard_row g;
		text_piece_head h;
		text_guard_row_build(tgt_vocab, tgt_cases, lim, ids + from, t - from, &g);
		if (g.n_ids == 0 && g.n_units == 0)
			continue;
		text_guard_head(tgt_vocab, ids[t], &h);
		if (text_guard_blocks(&g, ids[t], &h))
			return 1;
	}
	return 0;
}
