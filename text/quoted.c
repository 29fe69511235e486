#include "quoted.h"

#include <string.h>

#include "split.h"
#include "../common/utf8.h"

#define MAX_WORDS 8
#define MAX_BYTES 160   /* a name's quoted text is never longer */

static int is_space(char c) { return text_split_is_space((unsigned char)c); }

/* A pair of quotation marks: the opening one and what may close it. */
typedef struct {
	const char *open;
	const char *closers[3];
} quote_pair;

static const quote_pair pairs[] = {
	{ "\"", { "\"" } },
	{ "\xe2\x80\x9c", { "\xe2\x80\x9d", "\"" } },                  /* “ ” */
	{ "\xe2\x80\x9e", { "\xe2\x80\x9c", "\xe2\x80\x9d", "\"" } },  /* „ “ */
	{ "\xc2\xab", { "\xc2\xbb" } },                                /* « » */
	{ "\xc2\xbb", { "\xc2\xab" } },                                /* » « */
};

static int starts_with(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);
	return n >= p && memcmp(s, prefix, p) == 0;
}

/* What a word's characters say about it. */
typedef struct {
	int letters, digits;
	int first_upper;   /* its first letter is a capital */
	int any_lower;
} word_case;

static word_case case_of(const char *w, size_t n)
{
	word_case c = { 0, 0, 0, 0 };
	for (size_t i = 0, used; i < n; i += used) {
		uint32_t ch = utf8_decode(w + i, n - i, &used);
		c.digits += ch >= '0' && ch <= '9';
		if (!utf8_is_letter(ch))
			continue;
		if (c.letters++ == 0)
			c.first_upper = utf8_is_upper(ch);
		c.any_lower |= utf8_is_lower(ch);
	}
	return c;
}

/* Whether the words of s[0..n) make a name, by the rule of quoted.h. */
static int is_name(const char *s, size_t n, int nouns_capitalised)
{
	int words = 0, lettered = 0, digits = 0, any_lower = 0, title = 1, last_upper = 0;
	for (size_t i = 0; i < n;) {
		while (i < n && is_space(s[i]))
			i++;
		size_t j = i;
		while (j < n && !is_space(s[j]))
			j++;
		if (j == i)
			break;
		if (++words > MAX_WORDS)
			return 0;
		word_case c = case_of(s + i, j - i);
		digits += c.digits;
		if (c.letters > 0) {
			/* title case lets short small words stand inside ("of the") */
			title &= c.first_upper || (lettered > 0 && c.letters < 4);
			any_lower |= c.any_lower;
			last_upper = c.first_upper;
			lettered++;
		}
		i = j;
	}
	if (lettered == 0)   /* a number on a shirt ("28") is a name; "..." is not */
		return digits > 0;
	if (!any_lower)      /* capitals: "VAIO", "IL PORTO" */
		return 1;
	/* a title ends on a capital ("Welcome to Aberdeen", not "I do"); where
	 * every noun is capitalised, one capitalised word is just a noun */
	return title && last_upper && (!nouns_capitalised || lettered >= 2);
}

/* Where a closing mark of p at text[j] ends, or 0. */
static size_t closes(const quote_pair *p, const char *text, size_t len, size_t j)
{
	for (int k = 0; k < 3 && p->closers[k]; k++)
		if (starts_with(text + j, len - j, p->closers[k]))
			return j + strlen(p->closers[k]);
	return 0;
}

/* An ASCII mark closes a quotation only at a word's end (before a space,
 * punctuation or the end), so that a mark inside a word (5"x2) does not. */
static int ends_word(const char *text, size_t len, size_t e)
{
	return e == len || is_space(text[e]) || (text[e] != '\0' && strchr(".,;:!?)]}-'", text[e]));
}

size_t text_quoted_name(const char *text, size_t len, size_t i, int nouns_capitalised)
{
	const quote_pair *p = NULL;
	for (size_t k = 0; k < sizeof pairs / sizeof *pairs && !p; k++)
		if (starts_with(text + i, len - i, pairs[k].open))
			p = &pairs[k];
	if (!p)
		return 0;
	if (i > 0 && !is_space(text[i - 1]) && (text[i - 1] == '\0' || !strchr("([{/-", text[i - 1])))
		return 0;   /* a mark inside a word opens nothing */
	int ascii = p->open[0] == '"';
	size_t from = i + strlen(p->open);
	for (size_t j = from; j < len && j - from <= MAX_BYTES; j++) {
		size_t e = closes(p, text, len, j);
		if (e > 0 && j > from && (!ascii || ends_word(text, len, e)))
			return is_name(text + from, j - from, nouns_capitalised) ? e : 0;
	}
	return 0;
}
