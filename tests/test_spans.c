/* Protected spans: what text/spans.h finds, and how text/protect.h
 * replaces them in a source and puts them back into a translation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../text/protect.h"
#include "../text/spans.h"

/* The spans of text, each in brackets, for a language that does or does
 * not capitalise its nouns. */
static const char *spans_in(const char *text, int nouns_capitalised)
{
	static char out[2048];
	size_t pos = 0, start, end, len = strlen(text), used = 0;
	out[0] = '\0';
	while (text_spans_next(text, len, nouns_capitalised, &pos, &start, &end))
		used += (size_t)snprintf(out + used, sizeof out - used, "[%.*s]", (int)(end - start), text + start);
	return out;
}

static const char *spans_of(const char *text) { return spans_in(text, 0); }

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

static void test_quoted_names(void **state)
{
	(void)state;
	/* names, titles and sign text in title case or capitals, with their marks */
	assert_string_equal(spans_of("A boat named \"El Corazon\" and a \"VAIO\" notebook."),
			    "[\"El Corazon\"][\"VAIO\"]");
	assert_string_equal(spans_of("A sign reads \"Welcome to Aberdeen\", a grill called \"32 De Neude.\""),
			    "[\"Welcome to Aberdeen\"][\"32 De Neude.\"]");
	assert_string_equal(spans_of("She reads (\"The Lord of the Rings\") on a \"Pullman\"-shaped bench."),
			    "[\"The Lord of the Rings\"][\"Pullman\"]");
	assert_string_equal(spans_of("Marks: \xe2\x80\x9c" "Open\xe2\x80\x9d, \xe2\x80\x9e" "Caf\xc3\xa9 \xc3\x96st\xe2\x80\x9c and "
				     "\xc2\xab" "Chez Nous\xc2\xbb."),
			    "[\xe2\x80\x9c" "Open\xe2\x80\x9d][\xe2\x80\x9e" "Caf\xc3\xa9 \xc3\x96st\xe2\x80\x9c][\xc2\xab"
			    "Chez Nous\xc2\xbb]");
	/* quoted words are translated: a small word of four letters or more,
	 * a small first or last word, more than eight words, no letter at all */
	assert_string_equal(spans_of("A sign saying \"free hugs\" and \"Come on now, what's gayer than tea.\""), "");
	assert_string_equal(spans_of("After saying \"I do\" they kiss."), "");
	assert_string_equal(spans_of("\"One Two Three Four Five Six Seven Eight Nine\" and \"...\" here."), "");
	/* a mark inside a word opens nothing; an unclosed one neither */
	assert_string_equal(spans_of("A 5\"Wide board and \"Open sign."), "");
	/* a number in quotes is kept with its marks */
	assert_string_equal(spans_of("The number \"93\" again."), "[\"93\"]");
	/* where nouns are capitalised, one capitalised word is a noun */
	assert_string_equal(spans_in("Eine Frau in \"Stra\xc3\x9f" "enkleidung\" vor \"VAIO\", \"IL PORTO\" und "
				     "\"El Corazon\".", 1),
			    "[\"VAIO\"][\"IL PORTO\"][\"El Corazon\"]");
}

/* English source src's spans put back into tr, a translation of its
 * substituted text aligned word for word. */
static const char *put_back(const char *src, const char *tr)
{
	static char out[256];
	char subst[256];
	text_protected spans[8];
	float lp[16] = { 0 }, out_lp[32];
	int src_of[16], out_src[32], n, words;
	text_protect_source(text_split_lang_for("en"), src, strlen(src), subst, spans, 8, &n);
	for (int w = 0; w < 16; w++)
		src_of[w] = w;
	int n_words = 0;
	for (size_t i = 0; tr[i]; i++)
		n_words += tr[i] != ' ' && (i == 0 || tr[i - 1] == ' ');
	size_t len = text_place_spans(tr, strlen(tr), lp, src_of, n_words, spans, n, out, out_lp, out_src, &words);
	out[len] = '\0';
	return out;
}

/* English source src's spans, its translation tr aligned to source words
 * src_of[], realigned by its placeholder words ("etwas") and the spans put
 * back; *realigned gets text_align_placeholders' count. */
static const char *placed_by_placeholders(const char *src, const char *tr, int *src_of, int n_words, int *realigned)
{
	static char out[256];
	char subst[256];
	text_protected spans[8];
	float lp[16] = { 0 }, out_lp[32];
	int out_src[32], n, words;
	text_protect_source(text_split_lang_for("en"), src, strlen(src), subst, spans, 8, &n);
	*realigned = text_align_placeholders(tr, strlen(tr), src_of, n_words, spans, n, "etwas");
	size_t len = text_place_spans(tr, strlen(tr), lp, src_of, n_words, spans, n, out, out_lp, out_src, &words);
	out[len] = '\0';
	return out;
}

static void test_placeholder_words_written_by_the_model_take_the_spans(void **state)
{
	(void)state;
	int k;
	/* "etwas" aligned to "had" (1), nothing to the placeholder (3): the span
	 * had gone after etwas; now in its place */
	int a[5] = { 0, 1, 1, 4, 2 };
	assert_string_equal(placed_by_placeholders("Vidal had played 49 games.", "Vidal hatte etwas Spiele gespielt.", a, 5,
						   &k),
			    "Vidal hatte 49 Spiele gespielt.");
	assert_int_equal(k, 1);
	assert_int_equal(a[2], 3);
	/* another word aligned to the placeholder goes to the source word before it */
	int b[5] = { 0, 1, 2, 3, 2 };
	assert_string_equal(placed_by_placeholders("Vidal had played 49 games.", "Vidal hatte etwas Spiele gespielt.", b, 5,
						   &k),
			    "Vidal hatte 49 Spiele gespielt.");
	assert_int_equal(b[3], 2);
	/* in order, whatever the case and the marks around them */
	int c[6] = { 0, 1, 2, 2, 4, 4 };
	assert_string_equal(placed_by_placeholders("From 9:30 to 10:30 we work.", "Von (Etwas) bis etwas, arbeiten wir.", c, 6, &k),
			    "Von (9:30) bis 10:30, arbeiten wir.");
	assert_int_equal(k, 2);

	/* the source's own "something": its etwas may be that one; alignment as before */
	int d[6] = { 0, 1, 2, 3, 4, 5 };
	placed_by_placeholders("I need something for 5 people.", "Ich brauche etwas für etwas Leute.", d, 6, &k);
	assert_int_equal(k, 0);
	/* as many placeholder words as spans, or nothing changes */
	int e[6] = { 0, 1, 2, 3, 4, 4 };
	assert_string_equal(placed_by_placeholders("From 9:30 to 10:30 we work.", "Von etwas bis um arbeiten wir.", e, 6, &k),
			    "Von 9:30 bis 10:30 arbeiten wir.");
	assert_int_equal(k, 0);
	assert_true(e[1] == 1 && e[3] == 3);
	/* a word aligned to a first-word span has no source word before it to go to */
	int f[2] = { 0, 0 };
	placed_by_placeholders("49 games.", "Spiele etwas.", f, 2, &k);
	assert_int_equal(k, 0);
	assert_true(f[0] == 0 && f[1] == 0);
}

static void test_quoted_name_replaced_and_put_back(void **state)
{
	(void)state;
	const char *src = "A boat named \"El Corazon\" sails.";
	char subst[128];
	text_protected spans[4];
	int n;
	size_t len = text_protect_source(text_split_lang_for("en"), src, strlen(src), subst, spans, 4, &n);
	assert_memory_equal(subst, "A boat named something sails.", len);
	assert_int_equal(n, 1);
	assert_int_equal(spans[0].extra_words, 1);
	const char *tr = "Ein Boot namens etwas segelt.";
	float lp[5] = { -1, -1, -1, -1, -1 }, out_lp[8];
	int src_of[5] = { 1, 1, 2, 3, 4 }, out_src[8], words;
	char out[128];
	size_t out_len = text_place_spans(tr, strlen(tr), lp, src_of, 5, spans, 1, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Boot namens \"El Corazon\" segelt.", out_len);
	assert_int_equal(words, 6);

	/* a quotation that ends its own sentence takes no second full stop;
	 * one that does not end with a full stop does */
	const char *sign = "A sign says \"Welcome Bikers.\"";
	len = text_protect_source(text_split_lang_for("en"), sign, strlen(sign), subst, spans, 4, &n);
	assert_memory_equal(subst, "A sign says something", len);
	assert_string_equal(put_back("A sign says \"Welcome Bikers.\"", "Ein Schild sagt etwas."),
			    "Ein Schild sagt \"Welcome Bikers.\"");
	assert_string_equal(put_back("A sign says \"Welcome Bikers\"", "Ein Schild sagt etwas."),
			    "Ein Schild sagt \"Welcome Bikers\".");
}

static void test_replaced_and_put_back(void **state)
{
	(void)state;
	const char *src = "A man pays $4.50 at 10:30.";
	char subst[128];
	text_protected spans[8];
	int n;
	size_t len = text_protect_source(text_split_lang_for("en"), src, strlen(src), subst, spans, 8, &n);
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
	size_t out_len = text_place_spans(tr, strlen(tr), lp, src_of, 6, spans, 2, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Mann zahlt $4.50 um 10:30.", out_len);
	assert_int_equal(words, 6);

	/* placeholders dropped by the model: after the word of the nearest
	 * earlier source word, before the sentence's final full stop */
	const char *dropped = "Ein Mann zahlt.";
	int src2[3] = { 0, 1, 2 };
	out_len = text_place_spans(dropped, strlen(dropped), lp, src2, 3, spans, 2, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Mann zahlt $4.50 10:30.", out_len);
	assert_int_equal(words, 5);
	assert_true(out_lp[3] == 0 && out_src[3] == 3);

	/* two target words aligned to one placeholder: the span once */
	const char *twice = "Ein Mann zahlt vier Dollar um etwas.";
	int src3[7] = { 0, 1, 2, 3, 3, 4, 5 };
	float lp3[7] = { -1, -1, -1, -1, -1, -1, -1 };
	out_len = text_place_spans(twice, strlen(twice), lp3, src3, 7, spans, 2, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Mann zahlt $4.50 um 10:30.", out_len);

	/* ... and the last of them ends the sentence: its full stop stays */
	const char *last = "Ein Mann zahlt vier Dollar um zehn Uhr.";
	int src4[8] = { 0, 1, 2, 3, 3, 4, 5, 5 };
	float lp4[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
	out_len = text_place_spans(last, strlen(last), lp4, src4, 8, spans, 2, out, out_lp, out_src, &words);
	assert_memory_equal(out, "Ein Mann zahlt $4.50 um 10:30.", out_len);
}

/* a span keeps the brackets and punctuation around its placeholder's
 * translation: "(etwas)." is "(10:30).", not "10:30." */
static void test_brackets_around_a_span(void **state)
{
	(void)state;
	assert_string_equal(put_back("It exploded (see https://example.org/a.html).", "Es explodierte (siehe etwas)."),
			    "Es explodierte (siehe https://example.org/a.html).");
	assert_string_equal(put_back("It was late (10:30 UTC) again.", "Es war spät (etwas UTC) wieder."),
			    "Es war spät (10:30 UTC) wieder.");
	assert_string_equal(put_back("Pay [$4.50], now.", "Zahle [etwas], jetzt."), "Zahle [$4.50], jetzt.");
	/* a full stop inside the brackets */
	assert_string_equal(put_back("It costs ($4.50.)", "Es kostet (etwas.)"), "Es kostet ($4.50.)");
	/* a word of marks alone is no placeholder's translation */
	assert_string_equal(put_back("At 10:30 we go.", "Um etwas gehen wir."), "Um 10:30 gehen wir.");
}

static void test_code_span_words(void **state)
{
	(void)state;
	const char *src = "Run `ls -l /tmp` and wait.";
	char subst[128];
	text_protected spans[4];
	int n;
	size_t len = text_protect_source(text_split_lang_for(NULL), src, strlen(src), subst, spans, 4, &n);
	assert_memory_equal(subst, "Run X and wait.", len);
	assert_int_equal(spans[0].extra_words, 2);
	/* words after it stand for source words two further on */
	assert_int_equal(text_protected_word(spans, n, 0), 0);
	assert_int_equal(text_protected_word(spans, n, 1), 1);
	assert_int_equal(text_protected_word(spans, n, 2), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_is_protected),
		cmocka_unit_test(test_quoted_names),
		cmocka_unit_test(test_quoted_name_replaced_and_put_back),
		cmocka_unit_test(test_replaced_and_put_back),
		cmocka_unit_test(test_placeholder_words_written_by_the_model_take_the_spans),
		cmocka_unit_test(test_brackets_around_a_span),
		cmocka_unit_test(test_code_span_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
