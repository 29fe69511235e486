/* The metadata section: UTF-8 text, one "key=value" per line ('\n'-ended).
 * Lookups work on the raw bytes of the mapping, which are not NUL-terminated. */
#ifndef FORMAT_META_H
#define FORMAT_META_H
#include <stddef.h>

/* Copy the value of key, NUL-terminated, into val. -1 if absent or if the
 * value (plus NUL) does not fit or contains a NUL byte. */
int format_meta_get(const char *meta, size_t len, const char *key, char *val, size_t vallen);
/* 1 if a line sets key (whatever its value), else 0. */
int format_meta_has(const char *meta, size_t len, const char *key);
/* A decimal integer value; -1 if absent or not entirely a number. */
int format_meta_get_long(const char *meta, size_t len, const char *key, long *out);

#endif
