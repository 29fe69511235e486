/* Chaining alignments through a pivot (cli/pivot.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "../cli/pivot.h"

static void check(const char *first, const char *second, const char *want)
{
	char *got = cli_compose_alignment(first, second);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_compose(void **state)
{
	(void)state;
	check("0-0 1-1", "0-1 1-0", "0-1 1-0");                 /* a swap in the second hop */
	check("0-0 1-0", "0-0 0-2", "0-0 0-2 1-0 1-2");         /* many-to-one, then one-to-many */
	check("0-1 1-1", "1-0", "0-0 1-0");                     /* sorted, each once */
	check("2-0 0-1", "0-3 1-2 0-3", "0-2 2-3");
	check("0-5", "1-1", "");                                /* nothing meets */
	check("", "0-0", "");
	check("x 1-1 2- -3 3-x 4-4", "1-7 4-8", "1-7 4-8");     /* malformed pairs skipped */
	check("10-12 11-13", "12-20 13-21", "10-20 11-21");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_compose) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
