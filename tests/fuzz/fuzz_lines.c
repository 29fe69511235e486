/* The command line's input reader (cli/lines.c): any bytes, arriving in
 * pieces of any size through a pipe, come out as exactly the lines they
 * hold: split at "\n", one "\r" before it removed, a last line without a
 * newline kept. The first input byte sets the size of the pieces. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cli/lines.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

typedef struct {
	int fd;
	const uint8_t *data;
	size_t size, piece;
} writer;

static void *write_pieces(void *arg)
{
	writer *w = arg;
	for (size_t at = 0; at < w->size;) {
		size_t n = w->size - at < w->piece ? w->size - at : w->piece;
		ssize_t got = write(w->fd, w->data + at, n);
		if (got <= 0)
			break;
		at += (size_t)got;
	}
	close(w->fd);
	return NULL;
}

/* The next line the input should give, from *at: 1, or 0 at the end. */
static int expected_line(const uint8_t *data, size_t size, size_t *at, const uint8_t **line, size_t *len)
{
	if (*at >= size)
		return 0;
	const uint8_t *begin = data + *at, *nl = memchr(begin, '\n', size - *at);
	size_t n = nl ? (size_t)(nl - begin) : size - *at;
	*at += n + (nl != NULL);
	*line = begin;
	*len = n > 0 && begin[n - 1] == '\r' ? n - 1 : n;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	int fds[2];
	if (pipe(fds) != 0)
		return 0;
	writer w = { fds[1], data + 1, size - 1, 1 + (size_t)data[0] * 37 };
	pthread_t thread;
	if (pthread_create(&thread, NULL, write_pieces, &w) != 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	nmt_lines r;
	nmt_lines_init(&r, fds[0]);
	size_t at = 0;
	for (;;) {
		char *line;
		size_t len;
		while (nmt_lines_next(&r, &line, &len)) {
			const uint8_t *want;
			size_t want_len;
			FUZZ_ASSERT(expected_line(w.data, w.size, &at, &want, &want_len));
			FUZZ_ASSERT(len == want_len && memcmp(line, want, len) == 0);
		}
		int rc = nmt_lines_fill(&r);
		FUZZ_ASSERT(rc >= 0);
		if (rc == 0 && r.start == r.end)
			break;
	}
	FUZZ_ASSERT(at == w.size);   /* every line came out */
	pthread_join(thread, NULL);
	nmt_lines_free(&r);
	close(fds[0]);
	return 0;
}
