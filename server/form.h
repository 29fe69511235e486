/* application/x-www-form-urlencoded bodies, as HTML forms and LibreTranslate's
 * clients send them: key=value pairs joined by '&', '+' for a space, %XX
 * for a byte. */
#ifndef SERVER_FORM_H
#define SERVER_FORM_H
#include <stddef.h>

/* The decoded value of the first `key` in body[0..len): 1 and a malloc'd,
 * NUL-terminated *value (*value_len bytes; it may hold NULs), 0 if absent,
 * -1 for a malformed %-escape or when memory runs out. */
int server_form_get(const char *body, size_t len, const char *key, char **value, size_t *value_len);

#endif
