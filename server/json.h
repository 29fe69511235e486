/* The JSON the server reads and writes: a request body is one object whose
 * members' values are strings, arrays of strings, or anything else (kept as
 * "other"); it is parsed strictly (RFC 8259: UTF-8, escapes, numbers,
 * nesting at most JSON_MAX_DEPTH deep, nothing after the value). */
#ifndef NMT_SERVER_JSON_H
#define NMT_SERVER_JSON_H
#include <stddef.h>

#include "buf.h"

#define JSON_MAX_DEPTH 32

typedef enum { JSON_OTHER, JSON_STRING, JSON_STRINGS } json_kind;

typedef struct {
	char *key;       /* decoded, NUL-terminated */
	json_kind kind;
	char *str;       /* JSON_STRING: the decoded value */
	char **items;    /* JSON_STRINGS: an array whose every element is a string */
	size_t *item_lens;
	int n_items;
	size_t str_len;
} json_member;

typedef struct {
	json_member *members;
	int n;
} json_object;

/* Parse s[0..len) as a JSON object. 0, or -1 with a one-line reason. */
int json_parse_object(const char *s, size_t len, json_object *out, char *err, size_t errlen);
void json_object_free(json_object *o);
/* The first member named key, or NULL. */
const json_member *json_get(const json_object *o, const char *key);

/* s[0..n) as a JSON string (quotes, backslashes and control characters
 * escaped; other bytes as they are). */
void json_write_string(nmt_buf *b, const char *s, size_t n);

#endif
