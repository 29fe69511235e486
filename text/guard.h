/* The repetition guard: the search never lets a hypothesis loop.
 *
 *  - pieces: no n-gram of 1..TEXT_GUARD_PERIOD target pieces (a piece and
 *    its twins in other case counting as one, text/cases.h, as a reader
 *    reads "Ein Mann ... ein Mann") more than TEXT_GUARD_COPIES times in a
 *    row, and no TEXT_GUARD_NGRAM-gram more than
 *    TEXT_GUARD_COPIES times in the last TEXT_GUARD_WINDOW pieces at all (a
 *    loop varied by a piece now and then: "... der andere Mann in einem
 *    blauen Hemd und der anderen Mann in einem blauen Hemd ..."). Multi30k's
 *    German training captions, in the default's pieces and case aside,
 *    have a piece three times in a row in 4 of 29,000 lines (numbers,
 *    "10.000", and onomatopoeia, "Roooaaaarrrr", that the source has too),
 *    a longer n-gram twice in a row in 5 and three times in none, and no
 *    4-gram three times anywhere (bench/guard_data.py, docs/RESULTS.md):
 *    two copies is what the data allows;
 *  - letters: within a word, no unit of 1..TEXT_GUARD_UNIT letters more than
 *    TEXT_GUARD_UNIT_COPIES times in a row ("Srrrr", "mmmm"), whatever pieces
 *    spell it;
 * unless the sentence's source has as long a run (then as many copies as
 * the source has, or no letter rule).
 *
 * A sentence is searched without the guard first; only if one of its
 * translations breaks a rule (text_guard_violated) is it searched again with
 * it, so a translation that does not loop is never changed, not even by
 * the guard pruning its looping rivals from the beam. (Greedy search runs
 * guarded at once: with one hypothesis that is the same thing.) In the guarded
 * search, a blocked continuation is left out of a row's candidates after
 * its log-softmax, so every other score is unchanged; the end of sentence
 * is never blocked. What a row may not continue with is worked out once
 * per step from its history (text_guard_row) and checked, by the CPU search
 * and the CUDA one alike, only for the candidates good enough to enter the
 * k best. */
#ifndef TEXT_GUARD_H
#define TEXT_GUARD_H
#include <stdint.h>

#include "../quant/hd.h"
#include "cases.h"
#include "../vocab/spm.h"

#define TEXT_GUARD_PERIOD 12
#define TEXT_GUARD_NGRAM 4
#define TEXT_GUARD_COPIES 2
#define TEXT_GUARD_IDS 32     /* pieces one row may have blocked by the piece rules */
#define TEXT_GUARD_UNIT 3
#define TEXT_GUARD_UNIT_COPIES 3
/* pieces of history a row's rules look back over, at most */
#define TEXT_GUARD_WINDOW 64

/* The first letters of a target piece, as the letter rule sees them. */
typedef struct {
	uint32_t cp[TEXT_GUARD_UNIT];  /* its first codepoints */
	int8_t len;                    /* how many (at most TEXT_GUARD_UNIT) */
	int8_t starts_word;            /* U+2581 first, or a control piece: it continues no word */
} text_piece_head;

/* What one hypothesis may not continue with at this step. */
typedef struct {
	int8_t n_ids, n_units;
	int8_t unit_len[TEXT_GUARD_UNIT];
	int32_t ids[TEXT_GUARD_IDS];                      /* pieces that would repeat an n-gram */
	uint32_t unit[TEXT_GUARD_UNIT][TEXT_GUARD_UNIT]; /* letter units its word ends in too often */
} text_guard_row;

/* A sentence's limits, from its source. */
typedef struct {
	int copies[TEXT_GUARD_PERIOD + 1];  /* [p]: copies of a p-gram allowed in a row */
	int ngram_copies;                    /* copies of an TEXT_GUARD_NGRAM-gram allowed anywhere */
	int letters;                         /* 0: the letter rule is off */
} text_guard_limits;

/* Whether g blocks piece id, whose head is h. */
static inline QUANT_HD int text_guard_blocks(const text_guard_row *g, int32_t id, const text_piece_head *h)
{
	for (int i = 0; i < g->n_ids; i++)
		if (g->ids[i] == id)
			return 1;
	if (h->starts_word)
		return 0;
	for (int u = 0; u < g->n_units; u++) {   /* it spells (the start of) another copy */
		int n = h->len < g->unit_len[u] ? h->len : g->unit_len[u], j = 0;
		while (j < n && h->cp[j] == g->unit[u][j])
			j++;
		if (n > 0 && j == n)
			return 1;
	}
	return 0;
}

/* Piece id's head. */
void text_guard_head(const spm_model *vocab, int32_t id, text_piece_head *h);

/* The limits for a source of src[0..n) pieces (EOS excluded). */
void text_guard_limits_of(const spm_model *src_vocab, const text_cases *src_cases, const int32_t *src, int n,
			 text_guard_limits *lim);

/* The rules for a hypothesis whose last n pieces (n <= TEXT_GUARD_WINDOW;
 * fewer when it is shorter) are hist[0..n), oldest first. */
void text_guard_row_build(const spm_model *tgt_vocab, const text_cases *tgt_cases, const text_guard_limits *lim,
			 const int32_t *hist, int n, text_guard_row *g);

/* How many pieces of history text_guard_row_build needs under lim. */
int text_guard_window(const text_guard_limits *lim);

/* Whether a translation ids[0..n) takes a continuation the guard would
 * have blocked somewhere. */
int text_guard_violated(const spm_model *tgt_vocab, const text_cases *tgt_cases, const text_guard_limits *lim,
		       const int32_t *ids, int n);

#endif
