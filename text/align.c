#include "align.h"

#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* text_piece_words' walk over the prefixes' decodings. */
typedef struct {
	const spm_model *vocab;
	const int32_t *ids;
	int encoded_text;
	int *word_of;
	size_t prev;   /* the previous prefix's length */
	int words, pending, in_word;
} piece_walk;

static int piece_words_step(void *ctx, size_t i, const char *text, size_t len)
{
	piece_walk *w = ctx;
	int first_word = -1;   /* the word of the first visible byte of piece i */
	int glyph = w->encoded_text && w->ids[i] == spm_unk_id(w->vocab);   /* its bytes one visible character */
	for (size_t b = w->prev < len ? w->prev : len; b < len; b++) {
		if (is_space(text[b]) && !glyph) {
			w->in_word = 0;
			continue;
		}
		if (!w->in_word) {
			w->in_word = 1;
			w->words++;
		}
		if (first_word < 0)
			first_word = w->words - 1;
	}
	w->prev = len;
	if (first_word < 0) {   /* no visible text: with the next word */
		w->pending++;
		return 0;
	}
	for (int k = (int)i - w->pending; k <= (int)i; k++)
		w->word_of[k] = first_word;
	w->pending = 0;
	return 0;
}

int text_piece_words(const spm_model *vocab, spm_scratch *scratch, const int32_t *ids, int n, int encoded_text,
		    int *word_of)
{
	/* Piece i covers bytes [end of i - 1, end of i) of the decoding, the
	 * end of i being the length of ids[0..i]'s decoding: SentencePiece
	 * decodes a prefix to a prefix (but inside a run of byte pieces). */
	piece_walk w = { vocab, ids, encoded_text, word_of, 0, 0, 0, 0 };
	if (n > 0 && spm_decode_prefixes(vocab, scratch, ids, (size_t)n, piece_words_step, &w) != 0)
		return -1;
	for (int k = n - w.pending; k < n; k++)
		word_of[k] = w.words > 0 ? w.words - 1 : 0;
	return w.words;
}

void text_align_words(const float *(*att)(const void *ctx, int t), const void *ctx, int n_tgt, const int *tgt_word_of,
		     int n_tgt_words, int n_src, const int *src_word_of, int n_src_words, float *sums, int *src_of,
		     int *tgt_of)
{
	memset(sums, 0, (size_t)n_tgt_words * (size_t)n_src_words * sizeof *sums);
	for (int t = 0; t < n_tgt; t++) {
		const float *a = att(ctx, t);
		float *row = sums + (size_t)tgt_word_of[t] * n_src_words;
		for (int j = 0; j < n_src; j++)
			row[src_word_of[j]] += a[j];
	}
	for (int w = 0; w < n_tgt_words; w++) {
		const float *row = sums + (size_t)w * n_src_words;
		int best = 0;
		for (int j = 1; j < n_src_words; j++)
			if (row[j] > row[best])
				best = j;
		src_of[w] = best;
	}
	for (int j = 0; tgt_of && j < n_src_words; j++) {
		int best = -1;
		for (int w = 0; w < n_tgt_words; w++)
			if (sums[(size_t)w * n_src_words + j] > 0 && (best < 0 || sums[(size_t)w * n_src_words + j] >
									    sums[(size_t)best * n_src_words + j]))
				best = w;
		tgt_of[j] = best;
	}
}

int text_align_pair(const char *s, long *src, long *tgt, const char **end)
{
	char *e;
	if (*s < '0' || *s > '9')
		return -1;
	*src = strtol(s, &e, 10);
	if (e[0] != '-' || e[1] < '0' || e[1] > '9')
		return -1;
	*tgt = strtol(e + 1, &e, 10);
	*end = e;
	return 0;
}
