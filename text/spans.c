#include "spans.h"

#include <string.h>

#include "quoted.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

/* Punctuation that opens or closes around a token without being part of it. */
static int is_wrapper(char c)
{
	return c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == '"' || c == '\'' ||
	       c == ',' || c == ';' || c == ':' || c == '.' || c == '!' || c == '?' || c == '<' || c == '>';
}

static int starts_with(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);
	return n >= p && memcmp(s, prefix, p) == 0;
}

/* Currency signs, in UTF-8: $ € £ ¥. Their length at s, or 0. */
static size_t currency(const char *s, size_t n)
{
	if (n >= 1 && s[0] == '$')
		return 1;
	if (n >= 3 && memcmp(s, "\xe2\x82\xac", 3) == 0)
		return 3;
	if (n >= 2 && (memcmp(s, "\xc2\xa3", 2) == 0 || memcmp(s, "\xc2\xa5", 2) == 0))
		return 2;
	return 0;
}

/* A number, time, date, price or percentage filling s[0..n): an optional
 * currency sign, digit groups joined by single . , : / - (4.50, 1,000.25,
 * 10:30, 12/05/2021, 2021-05-12), an optional %, currency sign, or
 * "am"/"pm"/"h"/"st"/"nd"/"rd"/"th". */
static int is_number(const char *s, size_t n)
{
	size_t i = currency(s, n), groups = 0;
	while (i < n && is_digit(s[i])) {
		while (i < n && is_digit(s[i]))
			i++;
		groups++;
		if (i + 1 < n && strchr(".,:/-", s[i]) && is_digit(s[i + 1]))
			i++;
		else
			break;
	}
	if (groups == 0)
		return 0;
	if (i == n)
		return 1;
	size_t c = currency(s + i, n - i);
	if (c > 0)
		return i + c == n;
	const char *suffixes[] = { "%", "am", "pm", "h", "st", "nd", "rd", "th", "k", "km", "kg", "cm", "mm", "m" };
	for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++)
		if (n - i == strlen(suffixes[k]) && memcmp(s + i, suffixes[k], n - i) == 0)
			return 1;
	return 0;
}

static int is_url(const char *s, size_t n)
{
	return (starts_with(s, n, "http://") && n > 7) || (starts_with(s, n, "https://") && n > 8) ||
	       (starts_with(s, n, "ftp://") && n > 6) || (starts_with(s, n, "www.") && n > 4);
}

/* name@host.tld */
static int is_email(const char *s, size_t n)
{
	const char *at = memchr(s, '@', n);
	if (!at || at == s)
		return 0;
	const char *dot = memchr(at, '.', n - (size_t)(at - s));
	return dot && dot > at + 1 && dot + 1 < s + n && is_word(s[n - 1]);
}

/* @name */
static int is_handle(const char *s, size_t n)
{
	if (n < 2 || s[0] != '@')
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!is_word(s[i]))
			return 0;
	return 1;
}

/* /usr/share/doc, ~/notes.txt, ./run.sh, C:\Temp\a.txt */
static int is_path(const char *s, size_t n)
{
	if (n >= 3 && is_alpha(s[0]) && s[1] == ':' && s[2] == '\\')
		return 1;
	size_t from = starts_with(s, n, "~/") ? 2 : starts_with(s, n, "./") ? 2 : starts_with(s, n, "../") ? 3 : 0;
	if (from == 0 && (n < 2 || s[0] != '/'))
		return 0;
	for (size_t i = from + 1; i < n; i++)
		if (s[i] == '/' || s[i] == '.')
			return is_word(s[n - 1]);
	return from > 0 && is_word(s[n - 1]);
}

/* Whether the whitespace-delimited token s[0..n) holds a span: its bounds
 * within it, with the punctuation around it left out (a URL keeps its own
 * inner punctuation but not a sentence's full stop after it). */
static int token_span(const char *s, size_t n, size_t *b, size_t *e)
{
	size_t i = 0, j = n;
	while (i < j && is_wrapper(s[i]) && s[i] != '.')
		i++;
	while (j > i && is_wrapper(s[j - 1]))
		j--;
	if (i == j)
		return 0;
	const char *t = s + i;
	size_t m = j - i;
	if (is_url(t, m) || is_email(t, m) || is_handle(t, m) || is_path(t, m) || is_number(t, m)) {
		*b = i;
		*e = j;
		return 1;
	}
	return 0;
}

/* The quoted name that starts the token at text[i], perhaps after opening
 * brackets ("(\"Pullman\")"): its bounds, or 0. */
static int quoted_span(const char *text, size_t len, size_t i, int nouns_capitalised, size_t *start, size_t *end)
{
	while (i < len && (text[i] == '(' || text[i] == '['))
		i++;
	size_t e = i < len ? text_quoted_name(text, len, i, nouns_capitalised) : 0;
	if (e == 0)
		return 0;
	*start = i;
	*end = e;
	return 1;
}

int text_spans_next(const char *text, size_t len, int nouns_capitalised, size_t *pos, size_t *start, size_t *end)
{
	size_t i = *pos;
	while (i < len) {
		if (text[i] == '`') {   /* `code`, spaces and all */
			const char *close = memchr(text + i + 1, '`', len - i - 1);
			if (close && close > text + i + 1) {
				*start = i;
				*end = *pos = (size_t)(close - text) + 1;
				return 1;
			}
		}
		if (is_space(text[i])) {
			i++;
			continue;
		}
		if (quoted_span(text, len, i, nouns_capitalised, start, end)) {
			*pos = *end;
			return 1;
		}
		size_t j = i;
		while (j < len && !is_space(text[j]) && text[j] != '`')
			j++;
		size_t b, e;
		if (j > i && token_span(text + i, j - i, &b, &e)) {
			*start = i + b;
			*end = *pos = i + e;
			return 1;
		}
		i = j > i ? j : i + 1;
	}
	*pos = len;
	return 0;
}
