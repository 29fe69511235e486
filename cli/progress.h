/* The progress line on stderr: lines done, source words a second and, when
 * the input's size is known, the time left. On a terminal one line is
 * redrawn in place; elsewhere (--progress into a file or pipe) each update
 * is a line of its own. By default it shows only on a terminal, and only
 * for a large input: a regular file of CLI_PROGRESS_BIG_INPUT bytes or more, or
 * any input still being translated after CLI_PROGRESS_AFTER seconds. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H
#include <stdio.h>

#define CLI_PROGRESS_BIG_INPUT (1 << 20)
#define CLI_PROGRESS_AFTER 2.0
#define CLI_PROGRESS_EVERY 0.25   /* seconds between redraws */

typedef enum { CLI_PROGRESS_AUTO, CLI_PROGRESS_ON, CLI_PROGRESS_OFF } cli_progress_mode;

typedef struct {
	cli_progress_mode mode;
	int tty;                  /* stderr is a terminal: redraw in place */
	long long total_bytes;    /* the input's size, -1 if unknown */
	long long bytes, lines, words;
	double start, last_draw;  /* seconds */
	int shown;                /* something was drawn */
	FILE *out;
} cli_progress;

void cli_progress_init(cli_progress *p, cli_progress_mode mode, int tty, long long total_bytes, double now,
		       FILE *out);
/* Account for lines done (their bytes and words) and redraw if due. */
void cli_progress_add(cli_progress *p, long long bytes, long long lines, long long words, double now);
/* The last state, and end the line; nothing if nothing was shown. */
void cli_progress_finish(cli_progress *p, double now);
/* The text of one update (no newline): "12,345 lines, 6,789 words/s, 42%,
 * ETA 1:05" (the last two only with a known size). */
void cli_progress_format(char *buf, size_t size, long long lines, double words_per_s, double fraction, double eta);

#endif
