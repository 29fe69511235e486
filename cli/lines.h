/* Reading input lines from a file descriptor, so that the caller can tell
 * which lines have already arrived: a program that writes one line into a
 * pipe and waits gets it translated at once, while a file is read in large
 * blocks and translated in batches. */
#ifndef CLI_LINES_H
#define CLI_LINES_H
#include <stddef.h>

typedef struct {
	int fd;
	char *buf;
	size_t cap, start, end;   /* unread bytes are buf[start, end) */
	size_t scanned;           /* of those, the first `scanned` hold no "\n" */
	int eof;                  /* read() returned 0 */
} cli_lines;

void cli_lines_init(cli_lines *r, int fd);
void cli_lines_free(cli_lines *r);

/* The next line already in the buffer, without its "\n" or "\r\n": *line
 * points into the buffer, valid until the next call of cli_lines_fill.
 * After end of input, a last line without a newline counts too.
 * Returns 1 for a line, 0 if no complete line is buffered. */
int cli_lines_next(cli_lines *r, char **line, size_t *len);

/* Wait for more input: 1 if bytes arrived, 0 at end of input, -1 on a read
 * error or when memory runs out (errno says which). */
int cli_lines_fill(cli_lines *r);

#endif
