/* JSON, read and written (RFC 8259), for everything that speaks it: the
 * safetensors header model-pack reads, the server's request bodies, and
 * the --json output and server answers.
 *
 * Reading is a cursor over the text that the caller drives value by value:
 * strict (UTF-8 checked, escapes with surrogate pairs, the number grammar,
 * nesting at most JSON_MAX_DEPTH deep, no NUL inside a string), every read
 * bounds-checked, and the first error kept with where it happened. On top
 * of it, json_parse_object reads an object whose members are strings or
 * arrays of strings, as a request body is. */
#ifndef COMMON_JSON_H
#define COMMON_JSON_H
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 32

typedef struct {
	const char *p, *end, *begin;
	char err[128];     /* "JSON: ...", set on the first error; later calls then fail too */
	size_t err_at;     /* the byte offset of that error */
} json_cursor;

void json_init(json_cursor *c, const char *text, size_t len);
/* Consume the expected punctuation (one of "{}[]:,") after whitespace; 0 or -1. */
int json_expect(json_cursor *c, char ch);
/* If the next non-space character is ch, consume it and return 1; else 0. */
int json_accept(json_cursor *c, char ch);
/* The next non-space character, not consumed (0 at the end). */
char json_peek(json_cursor *c);
/* A string decoded into buf (NUL-terminated); -1 if not a string or too long. */
int json_string(json_cursor *c, char *buf, size_t cap);
/* A string decoded into a malloc'd buffer *out of *len bytes (NUL-terminated). */
int json_string_dup(json_cursor *c, char **out, size_t *len);
/* A non-negative integer that fits in int64; -1 otherwise. */
int json_uint(json_cursor *c, int64_t *out);
/* A number, as the nearest double (+-HUGE_VAL beyond its range); -1 if the
 * next value is not one, or is written in JSON_MAX_NUMBER characters or more. */
#define JSON_MAX_NUMBER 32
int json_number(json_cursor *c, double *out);
/* Skip any value; -1 on malformed input. */
int json_skip(json_cursor *c);
/* After the top-level value: only whitespace may remain. */
int json_end(json_cursor *c);

/* ---- an object of strings ------------------------------------------------ */

typedef enum { JSON_OTHER, JSON_STRING, JSON_STRINGS } json_kind;

typedef struct {
	char *key;       /* decoded, NUL-terminated */
	json_kind kind;
	char *str;       /* JSON_STRING: the decoded value */
	size_t str_len;
	char **items;    /* JSON_STRINGS: an array whose every element is a string */
	size_t *item_lens;
	int n_items;
	const char *raw;   /* JSON_OTHER: the value's text, a pointer into the parsed text (a number, true, {...}) */
	size_t raw_len;
} json_member;

typedef struct {
	json_member *members;
	int n;
} json_object;

/* Parse s[0..len) as a JSON object. 0, or -1 with a one-line reason
 * ("invalid JSON at byte N: ..."). */
int json_parse_object(const char *s, size_t len, json_object *out, char *err, size_t errlen);
void json_object_free(json_object *o);
/* The first member named key, or NULL. */
const json_member *json_get(const json_object *o, const char *key);

/* ---- writing ------------------------------------------------------------- */

/* s[0..n) as a JSON string, quotes included, handed to put piece by piece:
 * quotes, backslashes and control characters escaped, every other byte
 * (UTF-8) as it is. */
typedef void (*json_put_fn)(void *ctx, const char *p, size_t n);
void json_write_string(const char *s, size_t n, json_put_fn put, void *ctx);

#endif
