#include "multipart.h"

#include <ctype.h>
#include <string.h>

/* Where the delimiter "\r\n--" boundary next begins in p[0..n), or NULL. */
static const char *find_delimiter(const char *p, size_t n, const char *boundary, size_t blen)
{
	for (const char *end = p + n; p < end; p++) {
		p = memchr(p, '\r', (size_t)(end - p));
		if (!p)
			return NULL;
		size_t left = (size_t)(end - p);
		if (left >= 4 + blen && memcmp(p, "\r\n--", 4) == 0 && memcmp(p + 4, boundary, blen) == 0)
			return p;
	}
	return NULL;
}

static int starts_nocase(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	if (n < k)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (tolower((unsigned char)s[i]) != prefix[i])
			return 0;
	return 1;
}

/* A parameter's value in a Content-Disposition value v[0..n) ("form-data;
 * name="q"; filename="a.txt""): 1 with *at, *at_len; 0 if absent; -1 if an
 * opening quote is never closed. key includes its '='. */
static int disposition_param(const char *v, size_t n, const char *key, const char **at, size_t *at_len)
{
	size_t klen = strlen(key);
	for (size_t i = 0; i + klen <= n; i++) {
		if ((i > 0 && v[i - 1] != ';' && v[i - 1] != ' ') || !starts_nocase(v + i, n - i, key))
			continue;
		const char *b = v + i + klen, *end = v + n;
		if (b < end && *b == '"') {
			const char *q = memchr(b + 1, '"', (size_t)(end - b - 1));
			if (!q)
				return -1;
			*at = b + 1;
			*at_len = (size_t)(q - b - 1);
		} else {
			const char *e = b;
			while (e < end && *e != ';' && *e != ' ')
				e++;
			*at = b;
			*at_len = (size_t)(e - b);
		}
		return 1;
	}
	return 0;
}

typedef struct {
	const char *name;       /* the part's name */
	size_t name_len;
	const char *filename;   /* a file's name (maybe empty), or NULL for a field */
	size_t filename_len;
} part_head;

/* The headers of a part, p[0..n) up to and including the empty line: its
 * length, or -1 if malformed (no end, a line without ':', no form-data
 * Content-Disposition with a name). */
static long part_headers(const char *p, size_t n, part_head *h)
{
	size_t at = 0;
	int named = 0;
	for (;;) {
		const char *nl = at < n ? memchr(p + at, '\n', n - at) : NULL;
		if (!nl || nl == p + at || nl[-1] != '\r')
			return -1;
		size_t line = (size_t)(nl - (p + at)) - 1;
		const char *s = p + at;
		at += line + 2;
		if (line == 0)
			break;
		const char *colon = memchr(s, ':', line);
		if (!colon || colon == s)
			return -1;
		size_t name_n = (size_t)(colon - s);
		if (name_n != 19 || !starts_nocase(s, name_n, "content-disposition"))
			continue;
		const char *v = colon + 1, *end = s + line;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		int has_file = disposition_param(v, (size_t)(end - v), "filename=", &h->filename, &h->filename_len);
		if (!starts_nocase(v, (size_t)(end - v), "form-data") || has_file < 0 ||
		    disposition_param(v, (size_t)(end - v), "name=", &h->name, &h->name_len) != 1)
			return -1;
		if (!has_file)
			h->filename = NULL;
		named = 1;
	}
	return named ? (long)at : -1;
}

/* The first part called name that is a file (want_file) or a field: 1
 * with *out, 0 if none, -1 if the body is malformed anywhere (so whichever
 * part is asked for, a malformed body is refused alike). */
static int find_part(const char *body, size_t len, const char *boundary, const char *name, int want_file,
		     server_multipart_part *out)
{
	size_t blen = strlen(boundary), nlen = strlen(name);
	int found = 0;
	if (blen == 0 || len < 2 + blen || memcmp(body, "--", 2) != 0 || memcmp(body + 2, boundary, blen) != 0)
		return -1;
	size_t at = 2 + blen;   /* just past a delimiter */
	for (;;) {
		if (len - at >= 2 && memcmp(body + at, "--", 2) == 0)
			return found;   /* the close delimiter; what follows is an epilogue */
		if (len - at < 2 || memcmp(body + at, "\r\n", 2) != 0)
			return -1;
		at += 2;
		part_head h = { 0 };
		long head = part_headers(body + at, len - at, &h);
		if (head < 0)
			return -1;
		at += (size_t)head;
		const char *end = find_delimiter(body + at, len - at, boundary, blen);
		if (!end)
			return -1;
		if (!found && (h.filename != NULL) == want_file && h.name_len == nlen && memcmp(h.name, name, nlen) == 0) {
			*out = (server_multipart_part){ body + at, (size_t)(end - (body + at)), h.filename, h.filename_len };
			found = 1;
		}
		at = (size_t)(end - body) + 4 + blen;
	}
}

int server_multipart_get(const char *body, size_t len, const char *boundary, const char *name, const char **value,
			 size_t *value_len)
{
	server_multipart_part part;
	int rc = find_part(body, len, boundary, name, 0, &part);
	if (rc == 1) {
		*value = part.value;
		*value_len = part.value_len;
	}
	return rc;
}

int server_multipart_file(const char *body, size_t len, const char *boundary, const char *name,
			  server_multipart_part *file)
{
	return find_part(body, len, boundary, name, 1, file);
}
