#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define JSON_MAX_DEPTH 32

static int fail(json_cursor *c, const char *fmt, ...)
{
	if (c->err[0] == '\0') {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof c->err, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void json_init(json_cursor *c, const char *text, size_t len)
{
	c->p = text;
	c->end = text + len;
	c->err[0] = '\0';
}

static void skip_space(json_cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

int json_accept(json_cursor *c, char ch)
{
	skip_space(c);
	if (c->err[0] == '\0' && c->p < c->end && *c->p == ch) {
		c->p++;
		return 1;
	}
	return 0;
}

int json_expect(json_cursor *c, char ch)
{
	return json_accept(c, ch) ? 0 : fail(c, "JSON: expected '%c'", ch);
}

static int hex4(json_cursor *c, uint32_t *out)
{
	*out = 0;
	if (c->end - c->p < 4)
		return fail(c, "JSON: truncated \\u escape");
	for (int i = 0; i < 4; i++) {
		char h = *c->p++;
		int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
			: h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
		if (v < 0)
			return fail(c, "JSON: bad \\u escape");
		*out = *out << 4 | (uint32_t)v;
	}
	return 0;
}

/* \uXXXX, with a following low surrogate when XXXX is a high one. */
static int unicode_escape(json_cursor *c, uint32_t *cp)
{
	if (hex4(c, cp) != 0)
		return -1;
	if (*cp >= 0xDC00 && *cp <= 0xDFFF)
		return fail(c, "JSON: lone low surrogate");
	if (*cp < 0xD800 || *cp > 0xDBFF)
		return *cp == 0 ? fail(c, "JSON: NUL in string") : 0;
	uint32_t lo;
	if (c->end - c->p < 2 || c->p[0] != '\\' || c->p[1] != 'u')
		return fail(c, "JSON: lone high surrogate");
	c->p += 2;
	if (hex4(c, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
		return fail(c, "JSON: bad surrogate pair");
	*cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
	return 0;
}

static size_t utf8_put(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static int escape(json_cursor *c, char *tmp, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	if (c->p >= c->end)
		return fail(c, "JSON: unterminated string");
	char e = *c->p++;
	if (e == 'u') {
		uint32_t cp;
		if (unicode_escape(c, &cp) != 0)
			return -1;
		*n = utf8_put(cp, tmp);
		return 0;
	}
	const char *hit = e ? strchr(from, e) : NULL;
	if (!hit)
		return fail(c, "JSON: bad escape \\%c", e);
	tmp[0] = to[hit - from];
	*n = 1;
	return 0;
}

int json_string(json_cursor *c, char *buf, size_t cap)
{
	size_t len = 0;

	if (json_expect(c, '"') != 0)
		return fail(c, "JSON: expected a string");
	for (;;) {
		char tmp[4];
		size_t n = 1;
		if (c->p >= c->end)
			return fail(c, "JSON: unterminated string");
		char ch = *c->p++;
		if (ch == '"')
			break;
		if ((unsigned char)ch < 0x20)
			return fail(c, "JSON: control character in string");
		tmp[0] = ch;
		if (ch == '\\' && escape(c, tmp, &n) != 0)
			return -1;
		if (len + n >= cap)
			return fail(c, "JSON: string longer than %zu bytes", cap - 1);
		memcpy(buf + len, tmp, n);
		len += n;
	}
	buf[len] = '\0';
	return 0;
}

int json_uint(json_cursor *c, int64_t *out)
{
	int64_t v = 0;
	int digits = 0;

	skip_space(c);
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		if (v > (INT64_MAX - (*c->p - '0')) / 10)
			return fail(c, "JSON: integer too large");
		v = v * 10 + (*c->p++ - '0');
		digits++;
	}
	if (digits == 0 || (c->p < c->end && strchr(".eE-+", *c->p) && *c->p))
		return fail(c, "JSON: expected a non-negative integer");
	*out = v;
	return 0;
}

static int skip_depth(json_cursor *c, int depth);

static int skip_container(json_cursor *c, int depth, char close, int is_object)
{
	if (json_accept(c, close))
		return 0;
	do {
		char key[256];
		if (is_object && (json_string(c, key, sizeof key) != 0 || json_expect(c, ':') != 0))
			return -1;
		if (skip_depth(c, depth + 1) != 0)
			return -1;
	} while (json_accept(c, ','));
	return json_expect(c, close);
}

static int skip_depth(json_cursor *c, int depth)
{
	char buf[256];
	int64_t n;

	if (depth > JSON_MAX_DEPTH)
		return fail(c, "JSON: nested too deeply");
	skip_space(c);
	if (c->p >= c->end)
		return fail(c, "JSON: unexpected end");
	switch (*c->p) {
	case '{': c->p++; return skip_container(c, depth, '}', 1);
	case '[': c->p++; return skip_container(c, depth, ']', 0);
	case '"': return json_string(c, buf, sizeof buf);
	case '-': c->p++; return json_uint(c, &n);
	default: break;
	}
	static const char *const words[] = { "true", "false", "null" };
	for (int i = 0; i < 3; i++) {
		size_t len = strlen(words[i]);
		if ((size_t)(c->end - c->p) >= len && memcmp(c->p, words[i], len) == 0) {
			c->p += len;
			return 0;
		}
	}
	return json_uint(c, &n);
}

int json_skip(json_cursor *c)
{
	return skip_depth(c, 0);
}

int json_end(json_cursor *c)
{
	skip_space(c);
	return c->p == c->end && c->err[0] == '\0' ? 0 : fail(c, "JSON: trailing characters");
}
