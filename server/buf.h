/* A growable byte buffer for building responses. */
#ifndef SERVER_BUF_H
#define SERVER_BUF_H
#include <stddef.h>

typedef struct {
	char *data;
	size_t len, cap;
	int failed;   /* memory ran out: later appends do nothing */
} server_buf;

void server_buf_add(server_buf *b, const char *s, size_t n);
void server_buf_puts(server_buf *b, const char *s);
void server_buf_printf(server_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s[0..n) as a JSON string (common/json.h's json_write_string). */
void server_buf_json_string(server_buf *b, const char *s, size_t n);
void server_buf_free(server_buf *b);

#endif
