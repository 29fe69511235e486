#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* ---- the cursor ------------------------------------------------------------ */

static int fail(json_cursor *c, const char *fmt, ...)
{
	if (c->err[0] == '\0') {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof c->err, fmt, ap);
		va_end(ap);
		c->err_at = (size_t)(c->p - c->begin);
	}
	return -1;
}

void json_init(json_cursor *c, const char *text, size_t len)
{
	c->p = c->begin = text;
	c->end = text + len;
	c->err[0] = '\0';
	c->err_at = 0;
}

static void skip_space(json_cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

char json_peek(json_cursor *c)
{
	skip_space(c);
	return c->err[0] == '\0' && c->p < c->end ? *c->p : 0;
}

int json_accept(json_cursor *c, char ch)
{
	if (json_peek(c) != ch || ch == 0)
		return 0;
	c->p++;
	return 1;
}

int json_expect(json_cursor *c, char ch)
{
	return json_accept(c, ch) ? 0 : fail(c, "JSON: expected '%c'", ch);
}

/* ---- strings --------------------------------------------------------------- */

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

/* The escape after a backslash, decoded into tmp (*n bytes). */
static int escape(json_cursor *c, char tmp[4], size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	if (c->p >= c->end)
		return fail(c, "JSON: unterminated string");
	char e = *c->p++;
	if (e == 'u') {
		uint32_t cp;
		if (unicode_escape(c, &cp) != 0)
			return -1;
		*n = utf8_encode(cp, tmp);
		return 0;
	}
	const char *hit = e ? strchr(from, e) : NULL;
	/* the byte is named in hex when it would not print: error messages are one line */
	if (!hit && e > ' ' && e < 0x7f)
		return fail(c, "JSON: bad escape \\%c", e);
	if (!hit)
		return fail(c, "JSON: bad escape \\ before byte 0x%02x", (unsigned char)e);
	tmp[0] = to[hit - from];
	*n = 1;
	return 0;
}

/* The string's characters after its opening quote, up to and including
 * the closing one, decoded into buf (at most cap - 1 bytes, then a NUL). */
static int string_body(json_cursor *c, char *buf, size_t cap, size_t *len)
{
	size_t n = 0;
	for (;;) {
		char tmp[4];
		size_t k = 1;
		if (c->p >= c->end)
			return fail(c, "JSON: unterminated string");
		const char *at = c->p;
		unsigned char ch = (unsigned char)*c->p;
		if (ch == '"') {
			c->p++;
			break;
		}
		if (ch < 0x20)
			return fail(c, "JSON: control character in string");
		if (ch == '\\') {
			c->p++;
			if (escape(c, tmp, &k) != 0)
				return -1;
		} else {
			k = utf8_valid_length(c->p, (size_t)(c->end - c->p));
			if (k == 0)
				return fail(c, "JSON: invalid UTF-8 in string");
			c->p += k;
		}
		if (n + k >= cap)
			return fail(c, "JSON: string longer than %zu bytes", cap - 1);
		memcpy(buf + n, ch == '\\' ? tmp : at, k);
		n += k;
	}
	buf[n] = '\0';
	*len = n;
	return 0;
}

int json_string(json_cursor *c, char *buf, size_t cap)
{
	size_t len;
	if (cap == 0 || !json_accept(c, '"'))
		return fail(c, "JSON: expected a string");
	return string_body(c, buf, cap, &len);
}

int json_string_dup(json_cursor *c, char **out, size_t *len)
{
	*out = NULL;
	if (!json_accept(c, '"'))
		return fail(c, "JSON: expected a string");
	/* decoded, a string is never longer than its text up to the closing quote */
	const char *q = c->p;
	while (q < c->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	size_t cap = (size_t)((q < c->end ? q : c->end) - c->p) + 1;
	char *buf = malloc(cap);
	if (!buf)
		return fail(c, "JSON: out of memory");
	if (string_body(c, buf, cap, len) != 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	return 0;
}

/* ---- numbers and other values ------------------------------------------- */

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
	if (digits == 0 || (c->p < c->end && *c->p && strchr(".eE-+", *c->p)))
		return fail(c, "JSON: expected a non-negative integer");
	*out = v;
	return 0;
}

static int digits(json_cursor *c)
{
	if (c->p >= c->end || *c->p < '0' || *c->p > '9')
		return fail(c, "JSON: bad number");
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		c->p++;
	return 0;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number(json_cursor *c)
{
	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0')
		c->p++;
	else if (digits(c) != 0)
		return -1;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (digits(c) != 0)
			return -1;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (digits(c) != 0)
			return -1;
	}
	return 0;
}

int json_number(json_cursor *c, double *out)
{
	char buf[JSON_MAX_NUMBER];
	skip_space(c);
	const char *start = c->p;
	if (number(c) != 0)
		return -1;
	size_t n = (size_t)(c->p - start);
	if (n >= sizeof buf)
		return fail(c, "JSON: number too long");
	memcpy(buf, start, n);
	buf[n] = '\0';   /* strtod reads a NUL-terminated string; the text need not be */
	*out = strtod(buf, NULL);
	return 0;
}

static int skip_depth(json_cursor *c, int depth);

static int skip_container(json_cursor *c, int depth, char close, int is_object)
{
	if (json_accept(c, close))
		return 0;
	do {
		char *key;
		size_t len;
		if (is_object) {
			if (json_string_dup(c, &key, &len) != 0)
				return -1;
			free(key);
			if (json_expect(c, ':') != 0)
				return -1;
		}
		if (skip_depth(c, depth + 1) != 0)
			return -1;
	} while (json_accept(c, ','));
	return json_expect(c, close);
}

static int skip_depth(json_cursor *c, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return fail(c, "JSON: nested too deeply");
	char *s;
	size_t len;
	switch (json_peek(c)) {
	case 0: return fail(c, "JSON: unexpected end");
	case '{': c->p++; return skip_container(c, depth, '}', 1);
	case '[': c->p++; return skip_container(c, depth, ']', 0);
	case '"':
		if (json_string_dup(c, &s, &len) != 0)
			return -1;
		free(s);
		return 0;
	default: break;
	}
	static const char *const words[] = { "true", "false", "null" };
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);
		if ((size_t)(c->end - c->p) >= n && memcmp(c->p, words[i], n) == 0) {
			c->p += n;
			return 0;
		}
	}
	return number(c);
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

/* ---- an object of strings ------------------------------------------------ */

static void member_free(json_member *m)
{
	free(m->key);
	free(m->str);
	for (int i = 0; i < m->n_items; i++)
		free(m->items[i]);
	free(m->items);
	free(m->item_lens);
	*m = (json_member){ 0 };
}

static int add_item(json_cursor *c, json_member *m)
{
	size_t cap = (size_t)m->n_items + 1;
	char **items = realloc(m->items, cap * sizeof *items);
	if (items)
		m->items = items;
	size_t *lens = items ? realloc(m->item_lens, cap * sizeof *lens) : NULL;
	if (!lens)
		return fail(c, "JSON: out of memory");
	m->item_lens = lens;
	if (json_string_dup(c, &m->items[m->n_items], &m->item_lens[m->n_items]) != 0)
		return -1;
	m->n_items++;
	return 0;
}

/* An array whose elements are all strings, decoded (JSON_STRINGS); any
 * other array is skipped (JSON_OTHER). */
static int array_of_strings(json_cursor *c, json_member *m)
{
	const char *start = c->p;
	m->kind = JSON_STRINGS;
	if (json_expect(c, '[') != 0)
		return -1;
	if (json_accept(c, ']'))
		return 0;
	do {
		if (json_peek(c) != '"') {
			char *key = m->key;
			m->key = NULL;
			member_free(m);
			m->key = key;
			m->kind = JSON_OTHER;
			c->p = start;
			return json_skip(c);
		}
		if (add_item(c, m) != 0)
			return -1;
	} while (json_accept(c, ','));
	return json_expect(c, ']');
}

static int member_value(json_cursor *c, json_member *m)
{
	switch (json_peek(c)) {
	case '"':
		m->kind = JSON_STRING;
		return json_string_dup(c, &m->str, &m->str_len);
	case '[':
		return array_of_strings(c, m);
	default:
		m->kind = JSON_OTHER;
		json_peek(c);   /* past the whitespace, so that raw begins at the value */
		m->raw = c->p;
		if (json_skip(c) != 0)
			return -1;
		m->raw_len = (size_t)(c->p - m->raw);
		return 0;
	}
}

static int append_member(json_cursor *c, json_object *o, json_member *m)
{
	json_member *grown = realloc(o->members, (size_t)(o->n + 1) * sizeof *grown);
	if (!grown)
		return fail(c, "JSON: out of memory");
	o->members = grown;
	o->members[o->n++] = *m;
	return 0;
}

static int object_members(json_cursor *c, json_object *out)
{
	if (json_expect(c, '{') != 0)
		return -1;
	if (json_accept(c, '}'))
		return 0;
	do {
		json_member m = { 0 };
		size_t key_len;
		if (json_string_dup(c, &m.key, &key_len) != 0 || json_expect(c, ':') != 0 ||
		    member_value(c, &m) != 0 || append_member(c, out, &m) != 0) {
			member_free(&m);
			return -1;
		}
	} while (json_accept(c, ','));
	return json_expect(c, '}');
}

int json_parse_object(const char *s, size_t len, json_object *out, char *err, size_t errlen)
{
	json_cursor c;
	*out = (json_object){ 0 };
	/* the whole document first, so that a reading error below is the first one */
	json_init(&c, s, len);
	if (json_skip(&c) == 0 && json_end(&c) == 0) {
		json_init(&c, s, len);
		if (object_members(&c, out) == 0)
			return 0;
	}
	json_object_free(out);
	snprintf(err, errlen, "invalid JSON at byte %zu: %s", c.err_at, c.err + strlen("JSON: "));
	return -1;
}

void json_object_free(json_object *o)
{
	for (int i = 0; i < o->n; i++)
		member_free(&o->members[i]);
	free(o->members);
	*o = (json_object){ 0 };
}

const json_member *json_get(const json_object *o, const char *key)
{
	for (int i = 0; i < o->n; i++)
		if (strcmp(o->members[i].key, key) == 0)
			return &o->members[i];
	return NULL;
}

/* ---- writing ------------------------------------------------------------- */

void json_write_string(const char *s, size_t n, json_put_fn put, void *ctx)
{
	put(ctx, "\"", 1);
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(ctx, s + start, i - start);
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(ctx, esc, 2);
		} else {
			snprintf(esc, sizeof esc, "\\u%04x", c);
			put(ctx, esc, 6);
		}
		start = i + 1;
	}
	put(ctx, s + start, n - start);
	put(ctx, "\"", 1);
}
