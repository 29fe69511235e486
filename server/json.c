#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *s, *end, *begin;
	char *err;
	size_t errlen;
} parser;

static int fail(parser *p, const char *why)
{
	snprintf(p->err, p->errlen, "invalid JSON at byte %zu: %s", (size_t)(p->s - p->begin), why);
	return -1;
}

static void skip_space(parser *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int hex4(parser *p, uint32_t *out)
{
	if (p->end - p->s < 4)
		return fail(p, "short \\u escape");
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p->s[i];
		v = v * 16 + (uint32_t)(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
					 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99);
		if (v > 0xffff || !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return fail(p, "bad \\u escape");
	}
	p->s += 4;
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* Length of the valid UTF-8 sequence at s (0 if invalid): no overlongs, no
 * surrogates, nothing above U+10FFFF. */
static size_t utf8_valid(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	if (len == 0 || len > n)
		return 0;
	uint32_t v = len == 1 ? c : len == 2 ? c & 0x1fu : len == 3 ? c & 0x0fu : c & 0x07u;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3fu);
	}
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (v < least[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	return len;
}

/* A string at p->s (after its opening quote): decoded into a malloc'd
 * buffer (*out, *len), or validated only when out is NULL. */
static int string(parser *p, char **out, size_t *len)
{
	const char *start = p->s;
	char *o = NULL;
	size_t n = 0;
	if (out && !(o = malloc((size_t)(p->end - start) + 1)))
		return fail(p, "out of memory");
	while (p->s < p->end && *p->s != '"') {
		unsigned char c = (unsigned char)*p->s;
		if (c < 0x20) {
			free(o);
			return fail(p, "control character in a string");
		}
		if (c != '\\') {
			size_t k = utf8_valid((const unsigned char *)p->s, (size_t)(p->end - p->s));
			if (k == 0) {
				free(o);
				return fail(p, "invalid UTF-8");
			}
			if (o)
				memcpy(o + n, p->s, k);
			n += k;
			p->s += k;
			continue;
		}
		if (++p->s >= p->end)
			break;
		char e = *p->s++, simple = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b'
					  : e == 'f' ? '\f' : e == '"' || e == '\\' || e == '/' ? e : 0;
		if (simple) {
			if (o)
				o[n] = simple;
			n++;
			continue;
		}
		uint32_t u, lo;
		if (e != 'u' || hex4(p, &u) != 0) {
			free(o);
			return e == 'u' ? -1 : fail(p, "bad escape");
		}
		if (u >= 0xd800 && u <= 0xdbff) {   /* a surrogate pair makes one character */
			if (p->end - p->s < 2 || p->s[0] != '\\' || p->s[1] != 'u' || (p->s += 2, hex4(p, &lo) != 0) ||
			    lo < 0xdc00 || lo > 0xdfff) {
				free(o);
				return fail(p, "lone surrogate");
			}
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		} else if (u >= 0xdc00 && u <= 0xdfff) {
			free(o);
			return fail(p, "lone surrogate");
		}
		char tmp[4];
		size_t k = put_utf8(tmp, u);   /* never longer than the escape it replaces */
		if (o)
			memcpy(o + n, tmp, k);
		n += k;
	}
	if (p->s >= p->end) {
		free(o);
		return fail(p, "unterminated string");
	}
	p->s++;
	if (o) {
		o[n] = '\0';
		*out = o;
		*len = n;
	}
	return 0;
}

static int number(parser *p)
{
	const char *s = p->s;
	if (s < p->end && *s == '-')
		s++;
	if (s >= p->end || *s < '0' || *s > '9')
		return fail(p, "bad value");
	if (*s == '0')
		s++;
	else
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	if (s < p->end && *s == '.') {
		if (++s >= p->end || *s < '0' || *s > '9')
			return fail(p, "bad number");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < p->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < p->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= p->end || *s < '0' || *s > '9')
			return fail(p, "bad number");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	p->s = s;
	return 0;
}

static int literal(parser *p, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n) != 0)
		return fail(p, "bad value");
	p->s += n;
	return 0;
}

/* Any value, validated and skipped. */
static int value(parser *p, int depth)
{
	skip_space(p);
	if (p->s >= p->end)
		return fail(p, "value expected");
	if (depth > JSON_MAX_DEPTH)
		return fail(p, "nested too deeply");
	char c = *p->s;
	if (c == '"') {
		p->s++;
		return string(p, NULL, NULL);
	}
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		p->s++;
		skip_space(p);
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return 0;
		}
		for (;;) {
			if (c == '{') {
				skip_space(p);
				if (p->s >= p->end || *p->s != '"')
					return fail(p, "member name expected");
				p->s++;
				if (string(p, NULL, NULL) != 0)
					return -1;
				skip_space(p);
				if (p->s >= p->end || *p->s++ != ':')
					return fail(p, "':' expected");
			}
			if (value(p, depth + 1) != 0)
				return -1;
			skip_space(p);
			if (p->s < p->end && *p->s == ',') {
				p->s++;
				continue;
			}
			if (p->s < p->end && *p->s == close) {
				p->s++;
				return 0;
			}
			return fail(p, "',' or end expected");
		}
	}
	if (c == 't')
		return literal(p, "true");
	if (c == 'f')
		return literal(p, "false");
	if (c == 'n')
		return literal(p, "null");
	return number(p);
}

static void member_free(json_member *m)
{
	free(m->key);
	free(m->str);
	for (int i = 0; i < m->n_items; i++)
		free(m->items[i]);
	free(m->items);
	free(m->item_lens);
}

/* An array whose elements are all strings, decoded; else JSON_OTHER. */
static int array_of_strings(parser *p, json_member *m)
{
	const char *start = p->s;
	if (value(p, 1) != 0)
		return -1;
	const char *end = p->s;
	p->s = start + 1;
	int n = 0, cap = 0;
	skip_space(p);
	while (p->s < end && *p->s != ']') {
		if (*p->s != '"') {   /* not all strings: a valid array of something else */
			for (int i = 0; i < n; i++)
				free(m->items[i]);
			free(m->items);
			free(m->item_lens);
			m->items = NULL;
			m->item_lens = NULL;
			m->n_items = 0;
			p->s = end;
			m->kind = JSON_OTHER;
			return 0;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			char **items = realloc(m->items, (size_t)cap * sizeof *items);
			size_t *lens = items ? realloc(m->item_lens, (size_t)cap * sizeof *lens) : NULL;
			if (items)
				m->items = items;
			if (!items || !lens)
				return fail(p, "out of memory");
			m->item_lens = lens;
		}
		p->s++;
		if (string(p, &m->items[n], &m->item_lens[n]) != 0)
			return -1;
		m->n_items = ++n;
		skip_space(p);
		if (*p->s == ',')
			p->s++;
		skip_space(p);
	}
	p->s = end;
	m->kind = JSON_STRINGS;
	return 0;
}

int json_parse_object(const char *s, size_t len, json_object *out, char *err, size_t errlen)
{
	parser p = { s, s + len, s, err, errlen };
	*out = (json_object){ 0 };
	/* the whole document first, so that everything below reads valid JSON */
	if (value(&p, 0) != 0)
		return -1;
	skip_space(&p);
	if (p.s != p.end)
		return fail(&p, "text after the value");
	p.s = s;
	skip_space(&p);
	if (*p.s != '{')
		return fail(&p, "an object expected");
	p.s++;
	for (;;) {
		skip_space(&p);
		if (*p.s == '}')
			return 0;
		if (*p.s == ',') {
			p.s++;
			continue;
		}
		json_member m = { 0 };
		size_t key_len;
		p.s++;   /* the name's quote */
		int rc = string(&p, &m.key, &key_len);
		skip_space(&p);
		p.s++;   /* ':' */
		skip_space(&p);
		if (rc == 0 && *p.s == '"') {
			p.s++;
			m.kind = JSON_STRING;
			rc = string(&p, &m.str, &m.str_len);
		} else if (rc == 0 && *p.s == '[') {
			rc = array_of_strings(&p, &m);
		} else if (rc == 0) {
			rc = value(&p, 1);
		}
		json_member *grown = rc == 0 ? realloc(out->members, (size_t)(out->n + 1) * sizeof *grown) : NULL;
		if (!grown) {
			member_free(&m);
			json_object_free(out);
			return rc == 0 ? fail(&p, "out of memory") : -1;
		}
		out->members = grown;
		out->members[out->n++] = m;
	}
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

void json_write_string(nmt_buf *b, const char *s, size_t n)
{
	nmt_buf_add(b, "\"", 1);
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		nmt_buf_add(b, s + start, i - start);
		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };
			nmt_buf_add(b, esc, 2);
		} else {
			nmt_buf_printf(b, "\\u%04x", c);
		}
		start = i + 1;
	}
	nmt_buf_add(b, s + start, n - start);
	nmt_buf_add(b, "\"", 1);
}
