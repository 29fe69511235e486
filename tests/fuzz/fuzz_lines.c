/* The command line's input reader (cli/lines.c): any bytes, arriving in
 * pieces of any size through a pipe, come out as exactly the lines they
 * hold: split at "\n", one "\r" before it removed, a last line without a
 * newline kept. The first input byte sets the size of the pieces. */
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

/* Every complete line the reader holds now: each must be the next one expected. */
static void take_lines(cli_lines *r, const uint8_t *data, size_t size, size_t *at)
{
	char *line;
	size_t len;
	while (cli_lines_next(r, &line, &len)) {
		const uint8_t *want;
		size_t want_len;
		FUZZ_ASSERT(expected_line(data, size, at, &want, &want_len));
		FUZZ_ASSERT(len == want_len && memcmp(line, want, len) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	/* One thread, deterministic: a piece into the pipe (never more than
	 * it holds), then one read by the reader, then the lines it completed. */
	size_t piece = 1 + (size_t)data[0] * 37, at = 0;
	data++;
	size--;
	int fds[2];
	if (pipe(fds) != 0)
		return 0;
	cli_lines r;
	cli_lines_init(&r, fds[0]);
	for (size_t sent = 0; sent < size;) {
		size_t n = size - sent < piece ? size - sent : piece;
		FUZZ_ASSERT(write(fds[1], data + sent, n) == (ssize_t)n);
		sent += n;
		FUZZ_ASSERT(cli_lines_fill(&r) == 1);
		take_lines(&r, data, size, &at);
	}
	close(fds[1]);
	FUZZ_ASSERT(cli_lines_fill(&r) == 0);   /* end of input: a last line without newline now counts */
	take_lines(&r, data, size, &at);
	FUZZ_ASSERT(at == size);   /* every line came out */
	FUZZ_ASSERT(r.start == r.end);
	cli_lines_free(&r);
	close(fds[0]);
	return 0;
}
