/* Sentence splitting: a line of text is a paragraph, cut here into the
 * sentences the model translates one at a time (it has only ever seen one
 * sentence per example). Rule-based, one pass over the bytes, no memory:
 *
 *  - a sentence ends after a run of the language's terminators (". ! ? …"),
 *    the closing quotes and brackets right after them, when whitespace
 *    follows and the next sentence does not start with a lowercase letter
 *    (a word like "eBay", small then capital, counts as capitalised);
 *  - a single "." does not end one after the language's non-breaking
 *    prefixes (titles, months, "e.g."), after its numeric prefixes when a
 *    number follows ("No. 5"), after a single capital (an initial:
 *    "J. R. R. Tolkien"), after a dotted abbreviation ("U.S.", "Ph.D."),
 *    and, in languages that write ordinals so ("am 3. Oktober"), after a
 *    number — unless the next word is one of the language's frequent
 *    sentence starters (as in Kiss & Strunk's Punkt: "in the U.S. He").
 * A terminator inside a token (4.50, 1.000, example.com/a.html,
 * bob@example.org) never ends a sentence: whitespace must follow it.
 * Without a terminator, a sentence ends only before one of the language's
 * unmarked starters (a capitalised "The", "Two", "Der" after a small
 * letter): text joined from lines that had no final period. 
 * The per-language lists are data (split_langs.c), not code. */
#ifndef TEXT_SPLIT_H
#define TEXT_SPLIT_H
#include <stddef.h>

typedef struct {
	const char *code;             /* ISO 639-1: "en" */
	const char *terminators;      /* UTF-8 characters that can end a sentence */
	/* words (without their final ".") after which a "." never ends a
	 * sentence, each between '\n's: "\nMr\nDr\n" */
	const char *prefixes;
	const char *numeric_prefixes; /* the same, but only before a number */
	/* in either list, "-str" stands for every word ending in "str" */
	/* words that, after a period, start a sentence far more often than
	 * they follow an abbreviation ("The", "He"): they outweigh the rules
	 * above ("in the U.S. He ...", "vitamin C. The ...") */
	const char *starters;
	/* words that start a sentence even where no terminator ends the one
	 * before ("... in the water Two men walk"): capitalised after a word
	 * ending in a small letter, and followed by a word that is not one of
	 * unmarked_not_before ("from A to B", "either A or B") and, unless the
	 * language capitalises nouns, starts with a small letter ("wrote The
	 * Hobbit") */
	const char *unmarked_starters;
	const char *unmarked_not_before;
	int ordinals;                 /* a number followed by "." is an ordinal */
	int nouns_capitalised;        /* German: a capital says little about a sentence start */
	/* a word that stands in for a protected span while a sentence is
	 * translated (text/protect.h): one the model translates as a word of
	 * its own */
	const char *placeholder;
} text_split_lang;

/* The rules for language `code` (an ISO 639-1 code, as a model's src_lang
 * metadata holds it), or the generic ones (". ! ? …", initials and dotted
 * abbreviations, no word lists) for a language without a list or NULL.
 * Never NULL; the data is static and immutable. */
const text_split_lang *text_split_lang_for(const char *code);

/* Whether c is whitespace between sentences (ASCII space, tab, CR, LF, VT, FF). */
int text_split_is_space(unsigned char c);

/* Whitespace-separated words in text[0..len) (the words an alignment
 * numbers). */
int text_split_count_words(const char *text, size_t len);

/* The next sentence of text[*pos..len): skips whitespace, sets
 * text[*start..*end) to the sentence (no whitespace at either end) and
 * moves *pos to its end. Returns 0, leaving *pos at len, when only
 * whitespace remains. Any bytes are accepted (invalid UTF-8 is text like
 * any other); time is linear in the bytes scanned. */
int text_split_next(const text_split_lang *lang, const char *text, size_t len, size_t *pos, size_t *start,
		   size_t *end);

#endif
