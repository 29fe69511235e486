/* A small JSON reader, enough for a safetensors header: a cursor over the
 * text that the caller drives value by value. Strings are returned decoded
 * (escapes, \uXXXX with surrogate pairs) into a caller buffer. Nothing is
 * allocated; every read is bounds-checked. */
#ifndef PACK_JSON_H
#define PACK_JSON_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
	const char *p, *end;
	char err[128];     /* set on the first error; later calls then fail too */
} json_cursor;

void json_init(json_cursor *c, const char *text, size_t len);
/* Consume the expected punctuation (one of "{}[]:,") after whitespace; 0 or -1. */
int json_expect(json_cursor *c, char ch);
/* If the next non-space character is ch, consume it and return 1; else 0. */
int json_accept(json_cursor *c, char ch);
/* A string into buf (NUL-terminated, no NULs inside); -1 if not a string or too long. */
int json_string(json_cursor *c, char *buf, size_t cap);
/* A non-negative integer that fits in int64; -1 otherwise. */
int json_uint(json_cursor *c, int64_t *out);
/* Skip any value (depth-limited); -1 on malformed input. */
int json_skip(json_cursor *c);
/* After the top-level value: only whitespace may remain. */
int json_end(json_cursor *c);

#endif
