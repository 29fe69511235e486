/* Language identification: which of a few candidate languages a text is
 * written in. Script first (a text in a script that only one candidate
 * writes is that language), then a naive-Bayes sum over the character
 * n-grams of the text's normalized form, hashed into the buckets of a
 * profile file (docs/FORMAT.md, "Language profiles"; made by
 * train/langid.py from the project's corpora).
 *
 * The normalized form: every letter (common/utf8.h) in small letters
 * (text/case.h), every run of anything else one space, one space before
 * and after. "Ça va, Marie?" -> " ça va marie ". */
#ifndef TEXT_LANGID_H
#define TEXT_LANGID_H
#include <stddef.h>
#include <stdint.h>

#define TEXT_LANGID_MAX_LANGS 64   /* a candidate set is a 64-bit mask */
#define TEXT_LANGID_CODE_SIZE 12   /* a code's bytes in the file, NUL-padded */
#define TEXT_LANGID_MAX_ORDER 8
#define TEXT_LANGID_HEADER 32
#define TEXT_LANGID_LANG_RECORD 16

/* The scripts the first step tells apart (the file stores each language's). */
enum {
	TEXT_SCRIPT_OTHER,
	TEXT_SCRIPT_LATIN,
	TEXT_SCRIPT_GREEK,
	TEXT_SCRIPT_CYRILLIC,
	TEXT_SCRIPT_ARMENIAN,
	TEXT_SCRIPT_HEBREW,
	TEXT_SCRIPT_ARABIC,
	TEXT_SCRIPT_DEVANAGARI,
	TEXT_SCRIPT_THAI,
	TEXT_SCRIPT_GEORGIAN,
	TEXT_SCRIPT_HANGUL,
	TEXT_SCRIPT_KANA,
	TEXT_SCRIPT_HAN,
	TEXT_SCRIPT_COUNT
};

/* How n-grams become buckets: orders min_order..max_order, `buckets` a
 * power of two. */
typedef struct {
	uint32_t buckets;
	int min_order, max_order;
} text_langid_shape;

/* An opened profile; table points into the caller's buffer, which must
 * outlive it (nothing is allocated, nothing to free). */
typedef struct {
	text_langid_shape shape;
	int n_langs;
	double scale;   /* a table byte's weight in the softmax: -log P(bucket | language) per unit / temperature */
	char codes[TEXT_LANGID_MAX_LANGS][TEXT_LANGID_CODE_SIZE];   /* NUL-terminated */
	unsigned char scripts[TEXT_LANGID_MAX_LANGS];
	const unsigned char *table;   /* [buckets][n_langs] */
} text_langid;

typedef struct {
	int lang;            /* index into the profile's languages */
	double confidence;   /* 0..1; a text's guesses sum to 1 */
} text_langid_guess;

/* Check buf[0..len) as a profile file, every field and size against the
 * buffer, and describe it in *out. 0, or -1 with a one-line message in err. */
int text_langid_open(const void *buf, size_t len, text_langid *out, char *err, size_t errlen);

/* The index of language code[0..len) in the profile, or -1. */
int text_langid_find(const text_langid *p, const char *code, size_t len);

/* Every language of the profile, as a candidate mask. */
uint64_t text_langid_all(const text_langid *p);

/* Guess text[0..len)'s language among the candidates (bit i: language i).
 * Writes one guess per candidate into out[], best first (ties in index
 * order) and returns how many; 0 (no guess: "und") when the text has no
 * letter or is in a script none of the candidates writes. */
int text_langid_classify(const text_langid *p, const char *text, size_t len, uint64_t candidates,
			 text_langid_guess out[TEXT_LANGID_MAX_LANGS]);

/* The script character c belongs to. */
int text_langid_script(uint32_t c);

/* Called once per character of the normalized form with the buckets of
 * the n-grams that end at it, orders min_order.. in turn (n of them). */
typedef void (*text_langid_sink)(void *ctx, const uint32_t *buckets, int n);

/* Feed text[0..len)'s n-grams to sink: what the classifier sums and the
 * trainer counts (tests/langid_tool.c), so both see the same features.
 * letters[TEXT_SCRIPT_COUNT] (may be NULL) gets each script's letters added. */
void text_langid_scan(const text_langid_shape *s, const char *text, size_t len, text_langid_sink sink, void *ctx,
		      uint64_t *letters);

/* text[0..len)'s normalized form into out (room for len + 2 bytes); its length. */
size_t text_langid_normalize(const char *text, size_t len, char *out);

#endif
