/* The progress line (cli/progress.c): its text, and when it shows: forced
 * on or off, or by default only on a terminal for a large input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/progress.h"

static void test_format(void **state)
{
	(void)state;
	char buf[160];
	cli_progress_format(buf, sizeof buf, 1234567, 6789.4, -1.0, -1.0);
	assert_string_equal(buf, "1,234,567 lines, 6,789 words/s");
	cli_progress_format(buf, sizeof buf, 12, 100.0, 0.42, 65.0);
	assert_string_equal(buf, "12 lines, 100 words/s, 42%, ETA 1:05");
	cli_progress_format(buf, sizeof buf, 0, 0.0, 0.01, 3725.0);
	assert_string_equal(buf, "0 lines, 0 words/s, 1%, ETA 1:02:05");
	cli_progress_format(buf, 8, 1234567, 1.0, 0.5, 1.0);   /* truncated, still terminated */
	assert_int_equal(strlen(buf), 7);
}

/* What the progress writes for: one update at time 1, the finish at 3. */
static char *run(cli_progress_mode mode, int tty, long long total)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	cli_progress p;
	cli_progress_init(&p, mode, tty, total, 0.0, f);
	cli_progress_add(&p, 50, 10, 40, 1.0);
	cli_progress_finish(&p, 3.0);
	fclose(f);
	return text;
}

static void test_when_it_shows(void **state)
{
	(void)state;
	char *t = run(CLI_PROGRESS_ON, 0, 100);   /* forced, not a terminal: a line per update */
	assert_string_equal(t, "nmt: 10 lines, 40 words/s, 50%, ETA 0:01\nnmt: 10 lines, 13 words/s, 50%, ETA 0:03\n");
	free(t);
	t = run(CLI_PROGRESS_OFF, 1, 1 << 30);
	assert_string_equal(t, "");
	free(t);
	t = run(CLI_PROGRESS_AUTO, 0, 1 << 30);   /* a pipe or file: never by default */
	assert_string_equal(t, "");
	free(t);
	t = run(CLI_PROGRESS_AUTO, 1, 100);   /* a terminal, a small file, 1 s: not yet */
	assert_string_equal(t, "");
	free(t);
	t = run(CLI_PROGRESS_AUTO, 1, CLI_PROGRESS_BIG_INPUT);   /* a terminal and a large file: redrawn in place */
	assert_non_null(strstr(t, "\rnmt: 10 lines, 40 words/s, 0%, ETA"));
	assert_int_equal(t[strlen(t) - 1], '\n');
	free(t);
}

static void test_shows_after_a_while_of_unknown_size(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cli_progress p;
	cli_progress_init(&p, CLI_PROGRESS_AUTO, 1, -1, 0.0, f);
	cli_progress_add(&p, 10, 1, 5, CLI_PROGRESS_AFTER / 2);
	fflush(f);
	assert_int_equal(len, 0);
	cli_progress_add(&p, 10, 1, 5, CLI_PROGRESS_AFTER);
	cli_progress_add(&p, 10, 1, 5, CLI_PROGRESS_AFTER + CLI_PROGRESS_EVERY / 2);   /* too soon to redraw */
	fclose(f);
	assert_string_equal(text, "\rnmt: 2 lines, 5 words/s\033[K");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_when_it_shows),
		cmocka_unit_test(test_shows_after_a_while_of_unknown_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
