#include "utf8.h"

size_t utf8_length(unsigned char lead)
{
	return lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 1;
}

uint32_t utf8_decode(const char *s, size_t n, size_t *used)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = utf8_length(u[0]);
	*used = 1;
	if (len == 1)
		return u[0] < 0x80 ? u[0] : 0xFFFD;
	if (len > n)
		return 0xFFFD;
	uint32_t c = u[0] & (0x7F >> len);
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return 0xFFFD;
		c = c << 6 | (u[i] & 0x3F);
	}
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (c < least[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0xFFFD;   /* overlong, out of range or a surrogate */
	*used = len;
	return c;
}

size_t utf8_valid_length(const char *s, size_t n)
{
	size_t used;
	uint32_t c = utf8_decode(s, n, &used);
	return c == 0xFFFD && used == 1 ? 0 : used;
}

size_t utf8_prev(const char *s, size_t from, size_t end)
{
	size_t c = end - 1;
	while (c > from && ((unsigned char)s[c] & 0xC0) == 0x80)
		c--;
	return c;
}

size_t utf8_encode(uint32_t c, char out[4])
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3F));
	out[2] = (char)(0x80 | (c >> 6 & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/* Latin Extended-A (U+0100..U+017F) pairs capitals and small letters, the
 * capital first: on even code points, but on odd ones from U+0139 to
 * U+0148 and from U+0179 to U+017E; U+0138, U+0149 and U+017F are small
 * letters without a capital, U+0178 a capital. */
static int latin_ext_a_upper(uint32_t c)
{
	if (c == 0x138 || c == 0x149 || c == 0x17F)
		return 0;
	if (c == 0x178)
		return 1;
	int odd_capitals = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
	return (c & 1) == (uint32_t)odd_capitals;
}

int utf8_is_upper(uint32_t c)
{
	if (c < 0x80)
		return c >= 'A' && c <= 'Z';
	if (c >= 0xC0 && c <= 0xDE)
		return c != 0xD7;
	if (c >= 0x100 && c <= 0x17F)
		return latin_ext_a_upper(c);
	return (c >= 0x386 && c <= 0x3AB && c != 0x387) || (c >= 0x400 && c <= 0x42F);
}

int utf8_is_lower(uint32_t c)
{
	if (c < 0x80)
		return c >= 'a' && c <= 'z';
	if (c >= 0xDF && c <= 0xFF)
		return c != 0xF7;
	if (c >= 0x100 && c <= 0x17F)
		return !latin_ext_a_upper(c);
	return (c >= 0x3AC && c <= 0x3CE) || (c >= 0x430 && c <= 0x45F);
}

int utf8_is_letter(uint32_t c)
{
	if (utf8_is_upper(c) || utf8_is_lower(c) || c == 0xAA || c == 0xBA)
		return 1;
	/* other scripts: everything from U+0180 on that is not punctuation,
	 * a symbol or a space in the blocks below */
	return c >= 0x180 && c != 0xFFFD && !(c >= 0x2000 && c <= 0x2BFF) && !(c >= 0x3000 && c <= 0x303F) &&
	       !(c >= 0xFE30 && c <= 0xFE4F) && !(c >= 0xFF00 && c <= 0xFF20);
}
