#include "split.h"

#include <string.h>

#include "../common/utf8.h"

int text_split_is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int text_split_count_words(const char *text, size_t len)
{
	int words = 0;
	for (size_t i = 0; i < len; i++)
		words += !text_split_is_space((unsigned char)text[i]) && (i == 0 || text_split_is_space((unsigned char)text[i - 1]));
	return words;
}

/* Quotes and brackets that close a sentence after its terminator: ASCII,
 * guillemets (both directions: French and German use them oppositely) and
 * the typographic quotes. */
static int is_closer(uint32_t c)
{
	return c == '"' || c == '\'' || c == ')' || c == ']' || c == '}' || c == 0xBB || c == 0xAB ||
	       c == 0x201D || c == 0x201C || c == 0x2019 || c == 0x2018 || c == 0x203A || c == 0x2039;
}

/* And those that may open the next one before its first letter. */
static int is_opener(uint32_t c)
{
	return c == '"' || c == '\'' || c == '(' || c == '[' || c == '{' || c == 0xBF || c == 0xA1 ||
	       c == 0x201E || c == 0x201C || c == 0x2018 || c == 0x201A || c == 0xAB || c == 0xBB ||
	       c == 0x2039 || c == 0x203A;
}

/* The length of the terminator at text[i] (one of lang's), or 0. */
static size_t terminator_at(const text_split_lang *lang, const char *text, size_t i, size_t len)
{
	for (const char *t = lang->terminators; *t;) {
		size_t n = utf8_length((unsigned char)*t);
		if (n <= len - i && memcmp(text + i, t, n) == 0)
			return n;
		t += n;
	}
	return 0;
}

/* Past the characters from i on that `keep` accepts. */
static size_t skip_while(const char *text, size_t i, size_t len, int (*keep)(uint32_t))
{
	while (i < len) {
		size_t n;
		uint32_t c = utf8_decode(text + i, len - i, &n);
		if (!keep(c))
			break;
		i += n;
	}
	return i;
}

/* Whether word[0..n) stands alone on a line of the '\n'-separated list
 * (after `mark`, if not NUL). */
static int on_line(const char *list, char mark, const char *word, size_t n)
{
	char key[68];
	size_t k = 0;
	if (!list || n == 0 || n > sizeof key - 3 || memchr(word, '\0', n))
		return 0;
	key[k++] = '\n';
	if (mark)
		key[k++] = mark;
	memcpy(key + k, word, n);
	key[k + n] = '\n';
	return memmem(list, strlen(list), key, k + n + 1) != NULL;
}

/* Whether the list has word[0..n), also capitalised at a sentence's start
 * ("Approx." for "approx"), or a "-suffix" entry it ends with. */
static int in_list(const char *list, const char *word, size_t n)
{
	if (on_line(list, 0, word, n))
		return 1;
	if (n <= 64 && word[0] >= 'A' && word[0] <= 'Z') {
		char lower[64];
		memcpy(lower, word, n);
		lower[0] = (char)(lower[0] - 'A' + 'a');
		if (on_line(list, 0, lower, n))
			return 1;
	}
	for (size_t k = 1; k < n && k <= 8; k++)
		if (on_line(list, '-', word + n - k, k))
			return 1;
	return 0;
}

/* A single capital letter: an initial, "J." */
static int is_initial(const char *word, size_t n)
{
	size_t used;
	uint32_t c = utf8_decode(word, n, &used);
	return used == n && utf8_is_upper(c);
}

/* Groups of one or two letters joined by dots: "e.g", "U.S", "Ph.D", "z.B";
 * *capitals counts the capitals among them. */
static int is_dotted_abbreviation(const char *word, size_t n, int *capitals)
{
	int letters = 0, dots = 0;
	*capitals = 0;
	for (size_t i = 0; i < n;) {
		size_t used;
		uint32_t c = utf8_decode(word + i, n - i, &used);
		if (c == '.') {
			if (letters == 0)
				return 0;
			letters = 0;
			dots++;
		} else if (utf8_is_letter(c)) {
			if (++letters > 2)
				return 0;
			*capitals += utf8_is_upper(c);
		} else
			return 0;
		i += used;
	}
	return dots > 0 && letters > 0;
}

/* One to three digits: an ordinal where the language writes "3." for "3rd"
 * (a four-digit year before a period is more often a sentence's end). */
static int is_short_number(const char *word, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (word[i] < '0' || word[i] > '9')
			return 0;
	return n >= 1 && n <= 3;
}

static int is_opener_cp(uint32_t c) { return is_opener(c); }
static int is_letter_cp(uint32_t c) { return utf8_is_letter(c); }

/* Whether text[i..) starts with a capital. */
static int capitalised_word(const char *text, size_t i, size_t len)
{
	size_t used;
	return i < len && utf8_is_upper(utf8_decode(text + i, len - i, &used));
}

/* Whether text[i..) starts with a word of two or more capitals, an
 * acronym ("CET"), which follows abbreviations as often as it starts a
 * sentence. */
static int all_capitals(const char *text, size_t i, size_t len)
{
	size_t used, n = 0;
	for (; i < len; i += used, n++) {
		uint32_t c = utf8_decode(text + i, len - i, &used);
		if (!utf8_is_letter(c))
			break;
		if (!utf8_is_upper(c))
			return 0;
	}
	return n >= 2;
}

/* Whether the word before text[w] (after whitespace, not before `from`)
 * is a numeric prefix with its period, "Nr.": a number after it is an
 * identifier ("S. 3."), not an ordinal. */
static int after_numeric_prefix(const text_split_lang *lang, const char *text, size_t from, size_t w)
{
	size_t e = w;
	while (e > from && text_split_is_space((unsigned char)text[e - 1]))
		e--;
	if (e == w || e == from || text[e - 1] != '.')
		return 0;
	size_t b = e - 1;
	while (b > from && !text_split_is_space((unsigned char)text[b - 1]))
		b--;
	return in_list(lang->numeric_prefixes, text + b, e - 1 - b);
}

/* Whether a lone "." at text[dot], ending the word that starts after the
 * whitespace before it (not before `from`), is an abbreviation's, given
 * that the next sentence would start at text[next]. */
static int abbreviation_period(const text_split_lang *lang, const char *text, size_t from, size_t dot,
			       size_t next, size_t len)
{
	size_t w = dot;
	while (w > from && !text_split_is_space((unsigned char)text[w - 1]))
		w--;
	w = skip_while(text, w, dot, is_opener_cp);
	const char *word = text + w;
	size_t n = dot - w;
	if (n == 0)
		return 0;
	int number_follows = next < len && text[next] >= '0' && text[next] <= '9', capitals;
	if (on_line(lang->starters, 0, text + next, skip_while(text, next, len, is_letter_cp) - next))
		return 0;
	if (in_list(lang->prefixes, word, n) || (number_follows && in_list(lang->numeric_prefixes, word, n)) ||
	    is_initial(word, n))
		return 1;
	if (is_dotted_abbreviation(word, n, &capitals))   /* "U.S. Navy", but "5 p.m. Tickets" */
		return capitals > 0 || !capitalised_word(text, next, len) || all_capitals(text, next, len);
	if (w == from && is_short_number(word, n))   /* a list item's number: "1. Open the box." */
		return 1;
	return lang->ordinals && is_short_number(word, n) && !after_numeric_prefix(lang, text, from, w);
}

/* Whether the sentence that started at `from` ends after the terminators
 * text[term..term_end) and the closers up to `closed`, the next
 * non-whitespace character being text[next] (next < len). */
static int sentence_ends(const text_split_lang *lang, const char *text, size_t from, size_t term,
			 size_t term_end, size_t closed, size_t next, size_t len)
{
	size_t first = skip_while(text, next, len, is_opener_cp), used, used2;
	if (first < len && utf8_is_lower(utf8_decode(text + first, len - first, &used)) &&
	    !(first + used < len &&
	      utf8_is_upper(utf8_decode(text + first + used, len - first - used, &used2))))
		return 0;   /* "e.g. a dog", "etc. and", "I was... thinking", but not "eBay" */
	int lone_period = term_end == term + 1 && text[term] == '.' && closed == term_end;
	return !(lone_period && abbreviation_period(lang, text, from, term, first, len));
}

/* The word at text[i..): its end (letters only). */
static size_t word_end(const char *text, size_t i, size_t len)
{
	return skip_while(text, i, len, is_letter_cp);
}

/* Whether a sentence starts at text[i], after the whitespace before it,
 * with no terminator before: text[i..) is an unmarked starter, the
 * character before the whitespace a small letter, and the starter is
 * followed by a space and a word not on the unmarked_not_before list
 * (and a small one, where nouns are not capitalised). */
static int unmarked_start(const text_split_lang *lang, const char *text, size_t from, size_t i, size_t len)
{
	if (!lang->unmarked_starters || i < from + 2 || !text_split_is_space((unsigned char)text[i - 1]))
		return 0;
	size_t w = word_end(text, i, len), b = i - 1, used;
	if (w == i || w >= len || text[w] != ' ' || !on_line(lang->unmarked_starters, 0, text + i, w - i))
		return 0;
	while (b > from && text_split_is_space((unsigned char)text[b - 1]))
		b--;
	size_t c = utf8_prev(text, from, b);   /* the character before the whitespace */
	if (!utf8_is_lower(utf8_decode(text + c, b - c, &used)))
		return 0;
	size_t n = word_end(text, w + 1, len);
	if (n == w + 1 || on_line(lang->unmarked_not_before, 0, text + w + 1, n - w - 1))
		return 0;
	return lang->nouns_capitalised || utf8_is_lower(utf8_decode(text + w + 1, len - w - 1, &used));
}

int text_split_next(const text_split_lang *lang, const char *text, size_t len, size_t *pos, size_t *start,
		   size_t *end)
{
	size_t i = *pos;
	while (i < len && text_split_is_space((unsigned char)text[i]))
		i++;
	if (i == len) {
		*pos = len;
		return 0;
	}
	*start = i;
	while (i < len) {
		size_t t = terminator_at(lang, text, i, len);
		if (t == 0) {
			if (unmarked_start(lang, text, *start, i, len)) {
				size_t e = i;
				while (text_split_is_space((unsigned char)text[e - 1]))
					e--;
				*end = *pos = e;
				return 1;
			}
			i++;
			continue;
		}
		size_t term_end = i + t, n;
		while (term_end < len && (n = terminator_at(lang, text, term_end, len)) > 0)
			term_end += n;
		size_t closed = skip_while(text, term_end, len, is_closer);
		size_t next = closed;
		while (next < len && text_split_is_space((unsigned char)text[next]))
			next++;
		if (next == closed || next == len) {   /* inside a token, or the text's end */
			i = closed > term_end ? closed : term_end;
			continue;
		}
		if (sentence_ends(lang, text, *start, i, term_end, closed, next, len)) {
			*end = *pos = closed;
			return 1;
		}
		i = next;
	}
	size_t e = len;
	while (e > *start && text_split_is_space((unsigned char)text[e - 1]))
		e--;
	*end = *pos = e;
	return 1;
}
