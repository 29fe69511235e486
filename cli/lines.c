#include "lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_BYTES 65536

void cli_lines_init(cli_lines *r, int fd)
{
	*r = (cli_lines){ .fd = fd };
}

void cli_lines_free(cli_lines *r)
{
	free(r->buf);
	*r = (cli_lines){ .fd = -1 };
}

static size_t strip_cr(const char *line, size_t len)
{
	return len > 0 && line[len - 1] == '\r' ? len - 1 : len;
}

int cli_lines_next(cli_lines *r, char **line, size_t *len)
{
	if (r->start == r->end)   /* nothing buffered (buf may still be NULL) */
		return 0;
	char *begin = r->buf + r->start;
	/* only the bytes not searched before: a long line arriving in many
	 * small reads costs its length once, not once per read */
	char *nl = memchr(begin + r->scanned, '\n', r->end - r->start - r->scanned);
	if (nl) {
		*line = begin;
		*len = strip_cr(begin, (size_t)(nl - begin));
		r->start += (size_t)(nl - begin) + 1;
		r->scanned = 0;
		return 1;
	}
	if (r->eof) {   /* the last line has no newline */
		*line = begin;
		*len = strip_cr(begin, r->end - r->start);
		r->start = r->end;
		r->scanned = 0;
		return 1;
	}
	r->scanned = r->end - r->start;
	return 0;
}

/* Room for READ_BYTES more: move the unread bytes to the front, then grow. */
static int make_room(cli_lines *r)
{
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end >= READ_BYTES)
		return 0;
	size_t cap = r->cap ? r->cap : READ_BYTES;
	while (cap - r->end < READ_BYTES)
		cap *= 2;
	char *buf = realloc(r->buf, cap);
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	r->buf = buf;
	r->cap = cap;
	return 0;
}

int cli_lines_fill(cli_lines *r)
{
	if (r->eof)
		return 0;
	if (make_room(r) != 0)
		return -1;
	for (;;) {
		ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n > 0) {
			r->end += (size_t)n;
			return 1;
		}
		if (n == 0) {
			r->eof = 1;
			return 0;
		}
		if (errno != EINTR)
			return -1;
	}
}
