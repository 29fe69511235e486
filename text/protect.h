/* Protected spans through translation (text/spans.h finds them): each is
 * replaced in the source by the language's placeholder word, and put back,
 * byte for byte, in the translation where the placeholder went: in place
 * of the target words aligned to the placeholder's source word, or, when
 * the model aligned none to it, after the target word aligned to the
 * nearest source word before it; the brackets and punctuation around the
 * replaced word stay. Alignment-guided copying: a model need not copy the
 * placeholder itself (the caption models never learnt to; docs/INPUT.md). */
#ifndef TEXT_PROTECT_H
#define TEXT_PROTECT_H
#include <stddef.h>

#include "split.h"

typedef struct {
	const char *text;   /* the span, in the caller's line */
	size_t len;
	int src_word;       /* its placeholder's word in the sentence as translated */
	int extra_words;    /* the span's words less one (a `code span` may have several) */
	int own_placeholders; /* the sentence's placeholder words that are no span (its own
				 "something"): the same in each of its spans */
} text_protected;

/* text[0..len), in language lang, with each span replaced by the
 * language's placeholder word, into out (room for len + (strlen(placeholder)
 * + 2) x spans + 1 bytes: spans[] are at most that many); the spans into
 * spans[0..*n) (room for max). Returns the substituted length. */
size_t text_protect_source(const text_split_lang *lang, const char *text, size_t len, char *out, text_protected *spans,
			  int max, int *n);

/* The translation text[0..len), its n_words words (split on whitespace)
 * with their log-probabilities lp[] and aligned source words src[], with
 * the spans placed: the new text into out (room for len + the spans'
 * lengths + 4 x n_spans + 1), its words' log-probabilities and source
 * words into out_lp[] / out_src[] (room for n_words + the spans' words).
 * A span's words have log-probability 0 and its placeholder's source word.
 * Returns the new length; *out_words gets the new word count. */
size_t text_place_spans(const char *text, size_t len, const float *lp, const int *src, int n_words,
		       const text_protected *spans, int n_spans, char *out, float *out_lp, int *out_src, int *out_words);

/* A translation's words that are the target language's placeholder word
 * (tgt_placeholder, "etwas"), as many as the spans, where the source has no
 * placeholder word of its own: the model wrote the placeholders, and they
 * are where the spans go, whatever the attention says (it may lean on a
 * neighbour: "Vidal had played something games" -> "... war Vidal etwas
 * Spiele", etwas aligned to "had"). The k-th such word is aligned in
 * src[0..n_words) to the k-th span's placeholder, and the other words
 * aligned there to the source word before it, so that text_place_spans
 * replaces the placeholder words. Otherwise src is left as it is. Returns
 * the number of words realigned to spans. */
int text_align_placeholders(const char *text, size_t len, int *src, int n_words, const text_protected *spans, int n_spans,
			    const char *tgt_placeholder);

/* The source word of the sentence before substitution that substituted
 * word w stands for. */
int text_protected_word(const text_protected *spans, int n_spans, int w);

#endif
