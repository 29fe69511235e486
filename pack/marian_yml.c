/* Marian's model YAML (see marian_yml.h), line by line. */
#include "marian_yml.h"

#include <stdlib.h>
#include <string.h>

#include "../common/error.h"

typedef struct {
	const char *p, *end;   /* the line, without its '\n' */
	int number;
} line;

static void trim(line *l)
{
	while (l->p < l->end && (*l->p == ' ' || *l->p == '\t'))
		l->p++;
	while (l->end > l->p && (l->end[-1] == ' ' || l->end[-1] == '\t' || l->end[-1] == '\r'))
		l->end--;
}

/* Whether [p, p + n) holds no control character: keys and values appear in
 * one-line messages. */
static int plain_text(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return 0;
	return 1;
}

/* A scalar from [p, end): quotes removed; 0, or -1 if it does not fit, a
 * quote is not closed or it holds a control character. */
static int scalar(const char *p, const char *end, char *out)
{
	size_t n = (size_t)(end - p);
	if (n >= 2 && (*p == '"' || *p == '\'')) {
		if (end[-1] != *p)
			return -1;
		p++;
		n -= 2;
	} else if (n >= 1 && (*p == '"' || *p == '\'')) {
		return -1;
	}
	if (n >= YML_VALUE_MAX || !plain_text(p, n))
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* "[a, b, c]" into e's items. */
static int flow_list(const char *p, const char *end, yml_entry *e)
{
	e->is_list = 1;
	p++;
	end--;   /* inside the brackets */
	while (p < end && *p == ' ')
		p++;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end, *q = stop;
		while (q > p && q[-1] == ' ')
			q--;
		if (e->n_items == YML_MAX_ITEMS || q == p || scalar(p, q, e->items[e->n_items++]) != 0)
			return -1;
		p = comma ? comma + 1 : end;
		while (p < end && *p == ' ')
			p++;
	}
	return 0;
}

static int add_entry(yml_doc *doc, line *l, char *err, size_t errlen)
{
	const char *colon = memchr(l->p, ':', (size_t)(l->end - l->p));
	if (!colon || colon == l->p || (colon + 1 < l->end && colon[1] != ' '))
		return error_set(err, errlen, "model.yml line %d: not \"key: value\"", l->number);
	if (doc->n == YML_MAX_ENTRIES)
		return error_set(err, errlen, "model.yml: more than %d keys", YML_MAX_ENTRIES);
	yml_entry *e = &doc->entries[doc->n];
	memset(e, 0, sizeof *e);
	size_t klen = (size_t)(colon - l->p);
	if (klen >= YML_KEY_MAX || !plain_text(l->p, klen))
		return error_set(err, errlen, "model.yml line %d: key too long or not text", l->number);
	memcpy(e->key, l->p, klen);
	line v = { colon + 1, l->end, l->number };
	trim(&v);
	if (v.p == v.end)
		e->is_list = 1;   /* a block list may follow (or nothing: an empty list) */
	else if (*v.p == '[' && v.end[-1] == ']') {
		if (flow_list(v.p, v.end, e) != 0)
			return error_set(err, errlen, "model.yml line %d: bad list for %s", l->number, e->key);
	} else if (scalar(v.p, v.end, e->value) != 0) {
		return error_set(err, errlen, "model.yml line %d: bad value for %s", l->number, e->key);
	}
	doc->n++;
	return 0;
}

/* "- item" under the last key, whose value was empty. */
static int add_item(yml_doc *doc, line *l, char *err, size_t errlen)
{
	yml_entry *e = doc->n > 0 ? &doc->entries[doc->n - 1] : NULL;
	if (!e || !e->is_list || e->n_items == YML_MAX_ITEMS)
		return error_set(err, errlen, "model.yml line %d: list item without a list", l->number);
	line v = { l->p + 1, l->end, l->number };
	trim(&v);
	if (v.p == v.end)
		return error_set(err, errlen, "model.yml line %d: empty list item", l->number);
	if (*v.p == '[' && v.end[-1] == ']' && v.end - v.p == 2)
		return 0;   /* "- []" under a key: Marian's way of writing no items */
	if (scalar(v.p, v.end, e->items[e->n_items++]) != 0)
		return error_set(err, errlen, "model.yml line %d: bad list item", l->number);
	return 0;
}

int yml_parse(const char *text, size_t len, yml_doc *doc, char *err, size_t errlen)
{
	const char *p = text, *end = memchr(text, '\0', len);
	end = end ? end : text + len;   /* Marian ends the text with a NUL */
	memset(doc, 0, sizeof *doc);
	if (!(doc->entries = malloc(YML_MAX_ENTRIES * sizeof *doc->entries)))
		return error_set(err, errlen, "out of memory");
	for (int number = 1; p < end; number++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		line l = { p, nl ? nl : end, number };
		p = nl ? nl + 1 : end;
		int indented = l.p < l.end && (*l.p == ' ' || *l.p == '\t');
		trim(&l);
		if (l.p == l.end || *l.p == '#')
			continue;
		int rc;
		if (*l.p == '-' && (l.p + 1 == l.end || l.p[1] == ' '))
			rc = add_item(doc, &l, err, errlen);
		else if (indented && l.end - l.p == 2 && l.p[0] == '[' && l.p[1] == ']' && doc->n > 0 &&
			 doc->entries[doc->n - 1].is_list)
			rc = 0;   /* "key:" then "  []": an empty list */
		else if (indented)
			rc = error_set(err, errlen, "model.yml line %d: nested mappings are not supported", number);
		else
			rc = add_entry(doc, &l, err, errlen);
		if (rc != 0) {
			yml_free(doc);
			return -1;
		}
	}
	return 0;
}

void yml_free(yml_doc *doc)
{
	free(doc->entries);
	memset(doc, 0, sizeof *doc);
}

const yml_entry *yml_find(const yml_doc *doc, const char *key)
{
	for (int i = 0; i < doc->n; i++)
		if (strcmp(doc->entries[i].key, key) == 0)
			return &doc->entries[i];
	return NULL;
}
