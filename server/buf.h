/* A growable byte buffer for building responses. */
#ifndef NMT_SERVER_BUF_H
#define NMT_SERVER_BUF_H
#include <stddef.h>

typedef struct {
	char *data;
	size_t len, cap;
	int failed;   /* memory ran out: later appends do nothing */
} nmt_buf;

void nmt_buf_add(nmt_buf *b, const char *s, size_t n);
void nmt_buf_puts(nmt_buf *b, const char *s);
void nmt_buf_printf(nmt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s[0..n) as a JSON string (common/json.h's json_write_string). */
void nmt_buf_json_string(nmt_buf *b, const char *s, size_t n);
void nmt_buf_free(nmt_buf *b);

#endif
