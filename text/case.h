/* Text written in capitals ("TWO DOGS PLAY IN THE SNOW."): the models
 * learnt from sentence-case text, where capitals start sentences and
 * names, and translate a sentence in capitals as a string of names, badly
 * (test_2016 in capitals: BLEU 0.40 against 34.66). So such a sentence is
 * translated in sentence case and its translation given back in capitals,
 * as its writer would have written it.
 *
 * Case is changed for Latin (ASCII, Latin-1, Latin Extended-A), Greek and
 * Cyrillic letters (common/utf8.h), always to a letter of the same UTF-8
 * length, so a changed text is exactly as long as the original and its
 * words stay where they were; other characters and invalid bytes are
 * copied. */
#ifndef TEXT_CASE_H
#define TEXT_CASE_H
#include <stddef.h>
#include <stdint.h>

#include "protect.h"

/* What text_case_scan has seen of a text so far. */
typedef struct {
	int lower;          /* small letters */
	int upper;          /* capitals */
	int upper_words;    /* words that hold a capital */
} text_case_count;

/* Add text[0..len)'s letters and words to *c (zeroed before the first
 * call; a text may be scanned in pieces, such as the stretches between
 * protected spans). */
void text_case_scan(const char *text, size_t len, text_case_count *c);

/* Whether what *c counted is written in capitals: no small letter, and at
 * least two words and six letters in capitals (so that an acronym or two,
 * "USA" or "UN UK", are not). */
int text_case_is_capitals(const text_case_count *c);

/* Whether sentence text[0..len) is written in capitals, its protected
 * spans[0..n_spans) (a URL, a code) not looked at. */
int text_case_in_capitals(const char *text, size_t len, const text_protected *spans, int n_spans);

/* text[0..len) in sentence case into out[0..len): every letter small
 * except the first letter of the text and the word "I" (English's
 * pronoun, also before an apostrophe: "I'M" -> "I'm"). */
void text_case_to_sentence(const char *text, size_t len, char *out);

/* text[0..len) with every letter small into out[0..len) (the same
 * length: a capital whose small letter is longer stays as it is). */
void text_case_to_lower(const char *text, size_t len, char *out);

/* The small letter of character c, or c itself (the same UTF-8 length:
 * what text_case_to_lower does to each character). */
uint32_t text_case_lower_char(uint32_t c);

/* text[0..len) in capitals into out[0..len): "ß" becomes "SS". */
void text_case_to_upper(const char *text, size_t len, char *out);

#endif
