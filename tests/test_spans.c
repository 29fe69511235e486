/* Protected spans: what text/spans.h finds, and how engine/protect.h
 * replaces them in a source and puts them back into a translation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../engine/protect.h"
#include "../text/spans.h"

/* The spans of text, each in brackets. */
static const char *spans_of(const char *text)
{
	static char out[2048];
	size_t pos = 0, start, end, len = strlen(text), used = 0;
	out[0] = '\0';
	while (nmt_spans_next(text, len, &pos, &start, &end))
		used += (size_t)snprintf(out + used, sizeof out - used, "[%.*s]", (int)(end - start), text + start);
	return out;
}

static void test_what_is_protected(void **state)
{
	(void)state;
	assert_string_equal(spans_of("He paid $4.50 (or 1,000.25 EUR) at 10:30 on 12/05/2021, 50% off."),
			    "[$4.50][1,000.25][10:30][12/05/2021][50%]");
	assert_string_equal(spans_of("See https://example.com/a.html. Or www.gnu.org!"),
			    "[https://example.com/a.html][www.gnu.org]");
	assert_string_equal(spans_of("Mail bob@example.org or @anna_b."), "[bob@example.org][@anna_b]");
	assert_string_equal(spans_of("Open /etc/hosts, ~/notes.txt or C:\\Temp\\a.txt and run `ls -l /tmp` now."),
			    "[/etc/hosts][~/notes.txt][C:\\Temp\\a.txt][`ls -l /tmp`]");
	assert_string_equal(spans_of("Room 214, 2021-05-12, 3pm, \xe2\x82\xac" "3.99 and \xc2\xa3" "5."),
			    "[214][2021-05-12][3pm][\xe2\x82\xac" "3.99][\xc2\xa3" "5]");
	/* not spans: words, a lone @ or /, an unclosed backtick, a version */
	assert_string_equal(spans_of("A dog runs at / the @ park ` and in v2 and a/b."), "");
}

static void test_replaced_and_put_back(void **state)
{
	(void)state;
	const char *src = "A man pays $4.50 at 10:30.";
	char subst[128];
	nmt_protected spans[8];
	int n;
	size_t len = nmt_protect_source(src, strlen(src), "something", subst, spans, 8, &n);
	assert_int_equal(n, 2);
	assert_memory_equal(subst, "A man pays something at something.", len);
	assert_int_equal(spans[0].src_word, 3);
	assert_int_equal(spans[1].src_word, 5);

	/* "Ein Mann zahlt etwas um etwas.": each placeholder's translation replaced */
	const char *tr = "Ein Mann zahlt etwas um etwas.";
	float lp[6] = { -1, -1, -1, -1, -1, -1 };
	int src_of[6] = { 0, 1, 2, 3, 4, 5 }, words;
	char out[128];
	float out_lp[8];
	int out_src[8];
	size_t out_len = nmt_place_spans(tr, strlen(tr), lp, src_of, 6, spans, 2, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Mann zahlt $4.50 um 10:30.", out_len);
	assert_int_equal(words, 6);

	/* placeholders dropped by the model: after the word of the nearest
	 * earlier source word, before the sentence's final full stop */
	const char *dropped = "Ein Mann zahlt.";
	int src2[3] = { 0, 1, 2 };
	out_len = nmt_place_spans(dropped, strlen(dropped), lp, src2, 3, spans, 2, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Mann zahlt $4.50 10:30.", out_len);
	assert_int_equal(words, 5);
	assert_true(out_lp[3] == 0 && out_src[3] == 3);

	/* two target words aligned to one placeholder: the span once */
	const char *twice = "Ein Mann zahlt vier Dollar um etwas.";
	int src3[7] = { 0, 1, 2, 3, 3, 4, 5 };
	float lp3[7] = { -1, -1, -1, -1, -1, -1, -1 };
	out_len = nmt_place_spans(twice, strlen(twice), lp3, src3, 7, spans, 2, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Mann zahlt $4.50 um 10:30.", out_len);
}

static void test_code_span_words(void **state)
{
	(void)state;
	const char *src = "Run `ls -l /tmp` and wait.";
	char subst[128];
	nmt_protected spans[4];
	int n;
	size_t len = nmt_protect_source(src, strlen(src), "X", subst, spans, 4, &n);
	assert_memory_equal(subst, "Run X and wait.", len);
	assert_int_equal(spans[0].extra_words, 2);
	/* words after it stand for source words two further on */
	assert_int_equal(nmt_protected_word(spans, n, 0), 0);
	assert_int_equal(nmt_protected_word(spans, n, 1), 1);
	assert_int_equal(nmt_protected_word(spans, n, 2), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_is_protected),
		cmocka_unit_test(test_replaced_and_put_back),
		cmocka_unit_test(test_code_span_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
