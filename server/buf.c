#include "buf.h"

#include "../common/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void server_buf_add(server_buf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *grown = realloc(b->data, cap);
		if (!grown) {
			b->failed = 1;
			return;
		}
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void server_buf_puts(server_buf *b, const char *s)
{
	server_buf_add(b, s, strlen(s));
}

void server_buf_printf(server_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	if ((size_t)n < sizeof small) {
		server_buf_add(b, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big) {
		b->failed = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	server_buf_add(b, big, (size_t)n);
	free(big);
}

void server_buf_free(server_buf *b)
{
	free(b->data);
	*b = (server_buf){ 0 };
}

static void put_into_buf(void *ctx, const char *p, size_t n)
{
	server_buf_add(ctx, p, n);
}

void server_buf_json_string(server_buf *b, const char *s, size_t n)
{
	json_write_string(s, n, put_into_buf, b);
}
