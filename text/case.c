#include "case.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "../common/utf8.h"

/* The small letter of capital c, or c: only pairs whose letters have the
 * same UTF-8 length (so not U+0130, whose small letter is "i" + a dot). */
static uint32_t lower_of(uint32_t c)
{
	if (!utf8_is_upper(c) || c == 0x130)
		return c;
	if (c < 0x80 || (c >= 0xC0 && c <= 0xDE) || (c >= 0x391 && c <= 0x3AB) || (c >= 0x410 && c <= 0x42F))
		return c + 0x20;
	if (c == 0x178)
		return 0xFF;
	if (c >= 0x100 && c <= 0x17F)
		return c + 1;
	if (c >= 0x400 && c <= 0x40F)
		return c + 0x50;
	if (c == 0x386)
		return 0x3AC;
	if (c == 0x38C)
		return 0x3CC;
	return c >= 0x388 && c <= 0x38A ? c + 0x25 : c >= 0x38E && c <= 0x38F ? c + 0x3F : c;
}

/* The capital of small letter c, or c (the same length rule; "ß" is the
 * caller's). */
static uint32_t upper_of(uint32_t c)
{
	if (!utf8_is_lower(c) || c == 0x131 || c == 0x390 || c == 0x3B0)
		return c;
	if (c == 0x3C2)   /* final sigma */
		return 0x3A3;
	if (c < 0x80 || (c >= 0xE0 && c <= 0xFE) || (c >= 0x3B1 && c <= 0x3CB) || (c >= 0x430 && c <= 0x44F))
		return c - 0x20;
	if (c == 0xFF)
		return 0x178;
	if (c >= 0x100 && c <= 0x17F)
		return c == 0x138 || c == 0x149 || c == 0x17F ? c : c - 1;
	if (c >= 0x450 && c <= 0x45F)
		return c - 0x50;
	if (c == 0x3AC)
		return 0x386;
	if (c == 0x3CC)
		return 0x38C;
	return c >= 0x3AD && c <= 0x3AF ? c - 0x25 : c >= 0x3CD && c <= 0x3CE ? c - 0x3F : c;
}

/* Write c, a character of n bytes (1 or 2, as it was read), at out: the
 * case maps here keep a character's length, so text is mapped in place. */
static void put(uint32_t c, size_t n, char *out)
{
	char bytes[4];
	size_t len = utf8_encode(c, bytes);

	assert(len == n);
	memcpy(out, bytes, len < n ? len : n);
}

static int is_space(unsigned char b)
{
	return b == ' ' || (b >= '\t' && b <= '\r');
}

void text_case_scan(const char *text, size_t len, text_case_count *c)
{
	int counted = 0;   /* the current word already counted */
	for (size_t i = 0, used; i < len; i += used) {
		if (is_space((unsigned char)text[i])) {
			counted = 0;
			used = 1;
			continue;
		}
		uint32_t ch = utf8_decode(text + i, len - i, &used);
		c->lower += utf8_is_lower(ch);
		if (utf8_is_upper(ch)) {
			c->upper++;
			c->upper_words += !counted;
			counted = 1;
		}
	}
}

int text_case_is_capitals(const text_case_count *c)
{
	return c->lower == 0 && c->upper_words >= 2 && c->upper >= 6;
}

int text_case_in_capitals(const char *text, size_t len, const text_protected *spans, int n_spans)
{
	text_case_count c = { 0 };
	const char *from = text;
	for (int k = 0; k < n_spans; k++) {
		text_case_scan(from, (size_t)(spans[k].text - from), &c);
		from = spans[k].text + spans[k].len;
	}
	text_case_scan(from, (size_t)(text + len - from), &c);
	return text_case_is_capitals(&c);
}

/* Whether the "I" at text[i] is a word of its own ("I", "I'M", "I’D"). */
static int pronoun_i(const char *text, size_t len, size_t i)
{
	int starts = i == 0 || is_space((unsigned char)text[i - 1]) || text[i - 1] == '"' || text[i - 1] == '(';
	int ends = i + 1 == len || is_space((unsigned char)text[i + 1]) || text[i + 1] == '\'' ||
		   (i + 4 <= len && memcmp(text + i + 1, "\xE2\x80\x99", 3) == 0) ||
		   strchr(",.;:!?)\"", text[i + 1]) != NULL;
	return starts && ends;
}

void text_case_to_sentence(const char *text, size_t len, char *out)
{
	int first = 1;   /* no letter yet */
	for (size_t i = 0, used; i < len; i += used) {
		uint32_t c = utf8_decode(text + i, len - i, &used);
		int letter = utf8_is_upper(c) || utf8_is_lower(c);
		if (used > 2 || c == 0xFFFD || (letter && first) || (c == 'I' && pronoun_i(text, len, i)))
			memcpy(out + i, text + i, used);
		else
			put(lower_of(c), used, out + i);
		first &= !letter;
	}
}

void text_case_to_lower(const char *text, size_t len, char *out)
{
	for (size_t i = 0, used; i < len; i += used) {
		unsigned char b = (unsigned char)text[i];
		/* Only ASCII capitals and two-byte characters change: any other
		 * byte (a longer character's, or no character's) is copied as it
		 * is, as its whole character would be, without decoding. */
		if (b < 0xC0 || b >= 0xE0) {
			out[i] = (char)(b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
			used = 1;
			continue;
		}
		uint32_t c = utf8_decode(text + i, len - i, &used);
		if (used > 2 || c == 0xFFFD)
			memcpy(out + i, text + i, used);
		else
			put(lower_of(c), used, out + i);
	}
}

uint32_t text_case_lower_char(uint32_t c)
{
	return lower_of(c);
}

void text_case_to_upper(const char *text, size_t len, char *out)
{
	for (size_t i = 0, used; i < len; i += used) {
		uint32_t c = utf8_decode(text + i, len - i, &used);
		if (c == 0xDF)
			memcpy(out + i, "SS", 2);
		else if (used > 2 || c == 0xFFFD)
			memcpy(out + i, text + i, used);
		else
			put(upper_of(c), used, out + i);
	}
}
