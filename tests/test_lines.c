/* The command line's input reader (cli/lines.c): line ends, a last line
 * without a newline, empty lines, NUL bytes, and lines longer than one read,
 * fed through a pipe in pieces as a program would write them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/lines.h"

/* All lines of `input` as the reader returns them, written into a pipe in
 * pieces of `piece` bytes; joined as "line|line|...". */
static char *read_all_lines(const char *input, size_t n, size_t piece)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	cli_lines r;
	cli_lines_init(&r, fd[0]);
	size_t written = 0, cap = 2 * n + 16, used = 0;
	int closed = 0;
	char *joined = calloc(cap, 1);
	assert_non_null(joined);
	for (;;) {
		char *line;
		size_t len;
		while (cli_lines_next(&r, &line, &len)) {
			assert_true(used + len + 1 < cap);
			memcpy(joined + used, line, len);
			used += len;
			joined[used++] = '|';
		}
		if (written < n) {   /* the writer sends its next piece only now */
			size_t k = n - written < piece ? n - written : piece;
			assert_int_equal(write(fd[1], input + written, k), (ssize_t)k);
			written += k;
		}
		if (written == n && !closed) {
			close(fd[1]);
			closed = 1;
		}
		int rc = cli_lines_fill(&r);
		assert_true(rc >= 0);
		if (rc == 0 && r.start == r.end)
			break;
	}
	close(fd[0]);
	cli_lines_free(&r);
	return joined;
}

static void check(const char *input, size_t n, const char *want)
{
	/* at most a pipe's capacity, or the single-threaded writer would block */
	const size_t pieces[] = { 1, 2, 3, 7, 4096 };
	for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
		char *got = read_all_lines(input, n, pieces[i]);
		assert_string_equal(got, want);
		free(got);
	}
}

static void test_line_ends(void **state)
{
	(void)state;
	check("a\nb\n", 4, "a|b|");
	check("a\r\nb\r\n", 6, "a|b|");
	check("a\nlast", 6, "a|last|");
	check("a\r\nlast\r", 8, "a|last|");
	check("\n\n\n", 3, "|||");
	check("", 0, "");
	check("x\ry\n", 4, "x\ry|");   /* a lone CR inside a line stays */
}

static void test_nul_bytes(void **state)
{
	(void)state;
	char *got = read_all_lines("a\0b\nc\n", 6, 2);
	assert_memory_equal(got, "a\0b|c|", 6);
	free(got);
}

static void test_long_line(void **state)
{
	(void)state;
	size_t n = 300000;
	char *input = malloc(n + 3), *want = malloc(n + 4);
	assert_non_null(input);
	assert_non_null(want);
	for (size_t i = 0; i < n; i++)
		input[i] = want[i] = (char)('a' + i % 26);
	memcpy(input + n, "\nz", 2);
	memcpy(want + n, "|z|", 4);
	check(input, n + 2, want);
	free(input);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_long_line),
	};
	return cmocka_run_group_tests_name("lines", tests, NULL, NULL);
}
