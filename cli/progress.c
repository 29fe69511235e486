#include "progress.h"

#include <string.h>

void cli_progress_init(cli_progress *p, cli_progress_mode mode, int tty, long long total_bytes, double now,
		       FILE *out)
{
	*p = (cli_progress){ .mode = mode, .tty = tty, .total_bytes = total_bytes, .start = now, .out = out };
}

/* n with thousands separators */
static void with_commas(char *buf, size_t size, long long n)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%lld", n < 0 ? 0 : n), at = 0;
	for (int i = 0; i < len && (size_t)at + 2 < size; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[at++] = ',';
		buf[at++] = digits[i];
	}
	buf[at] = '\0';
}

void cli_progress_format(char *buf, size_t size, long long lines, double words_per_s, double fraction, double eta)
{
	char l[40], w[40];
	with_commas(l, sizeof l, lines);
	with_commas(w, sizeof w, (long long)(words_per_s + 0.5));
	int n = snprintf(buf, size, "%s lines, %s words/s", l, w);
	if (fraction >= 0.0 && eta >= 0.0 && n >= 0 && (size_t)n < size) {
		long s = (long)(eta + 0.5);
		if (s >= 3600)
			snprintf(buf + n, size - (size_t)n, ", %d%%, ETA %ld:%02ld:%02ld", (int)(fraction * 100.0), s / 3600,
				 s / 60 % 60, s % 60);
		else
			snprintf(buf + n, size - (size_t)n, ", %d%%, ETA %ld:%02ld", (int)(fraction * 100.0), s / 60, s % 60);
	}
}

static int wanted(const cli_progress *p, double now)
{
	if (p->mode != CLI_PROGRESS_AUTO)
		return p->mode == CLI_PROGRESS_ON;
	return p->tty && (p->total_bytes >= CLI_PROGRESS_BIG_INPUT || now - p->start >= CLI_PROGRESS_AFTER);
}

static void draw(cli_progress *p, double now)
{
	double elapsed = now - p->start, fraction = -1.0, eta = -1.0;
	if (p->total_bytes > 0 && p->bytes > 0) {
		fraction = (double)p->bytes / (double)p->total_bytes;
		if (fraction > 1.0)
			fraction = 1.0;
		eta = elapsed * (1.0 - fraction) / fraction;
	}
	char text[160];
	cli_progress_format(text, sizeof text, p->lines, elapsed > 0.0 ? (double)p->words / elapsed : 0.0, fraction, eta);
	/* in place on a terminal (\033[K clears what a longer line left) */
	fprintf(p->out, p->tty ? "\rnmt: %s\033[K" : "nmt: %s\n", text);
	fflush(p->out);
	p->shown = 1;
	p->last_draw = now;
}

void cli_progress_add(cli_progress *p, long long bytes, long long lines, long long words, double now)
{
	p->bytes += bytes;
	p->lines += lines;
	p->words += words;
	if (wanted(p, now) && (!p->shown || now - p->last_draw >= CLI_PROGRESS_EVERY))
		draw(p, now);
}

void cli_progress_finish(cli_progress *p, double now)
{
	if (!p->shown)
		return;
	draw(p, now);
	if (p->tty)
		fputc('\n', p->out);
	fflush(p->out);
}
