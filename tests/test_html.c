/* The HTML walker: what text/html.h makes of fragments (plain text,
 * elements, points), and how text/html_render.h puts the tags back
 * around a translation's aligned words. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../text/html.h"
#include "../text/html_render.h"
#include "html_check.h"

static text_html h;
static text_html_render_buf b;

static int teardown(void **state)
{
	(void)state;
	text_html_free(&h);
	text_html_render_free(&b);
	return 0;
}

static void parse(const char *html)
{
	assert_int_equal(text_html_parse(&h, html, strlen(html)), 0);
}

/* html rendered around translation tr, target word t aligned to source
 * word src[t] (n of them). */
static const char *render(const char *html, const char *tr, const int *src, int n)
{
	parse(html);
	assert_int_equal(text_html_render(&h, html, strlen(html), tr, strlen(tr), src, n, NULL, 0, &b), 0);
	return b.out;
}

static void test_plain_text_and_nodes(void **state)
{
	(void)state;
	parse("The <b class=\"x > y\">red</b> car &amp; a <i>dog</i>.<br>Two&nbsp;men &#x41;&#66; &bogus; 1 < 2.");
	assert_string_equal(h.text, "The red car & a dog. Two\xc2\xa0men AB &bogus; 1 < 2.");
	assert_int_equal(h.n_nodes, 3);
	assert_int_equal(h.nodes[0].kind, TEXT_HTML_ELEMENT);
	assert_int_equal(h.nodes[0].open_len, strlen("<b class=\"x > y\">"));
	assert_int_equal(h.nodes[2].kind, TEXT_HTML_POINT);  /* <br> */
	/* untranslated elements are points, whole */
	parse("Run <code>ls <b>-l</b></code> and <span translate=\"no\">Acme Inc</span> now.");
	assert_string_equal(h.text, "Run  and  now.");
	assert_int_equal(h.n_nodes, 2);
	assert_int_equal(h.nodes[0].kind, TEXT_HTML_POINT);
	assert_int_equal(h.nodes[0].open_len, strlen("<code>ls <b>-l</b></code>"));
	/* comments, CDATA, a stray end tag, an unclosed element: points */
	parse("a <!-- x --> b <![CDATA[<c>]]> </i> <b>d");
	assert_string_equal(h.text, "a  b   d");
	for (int i = 0; i < h.n_nodes; i++)
		assert_int_equal(h.nodes[i].kind, TEXT_HTML_POINT);
}

static void test_tags_follow_the_alignment(void **state)
{
	(void)state;
	/* "The red car" -> "Das rote Auto": b around "rote" */
	int same[] = { 0, 1, 2 };
	assert_string_equal(render("The <b>red</b> car", "Das rote Auto", same, 3), "Das <b>rote</b> Auto");
	/* reordered words: an element keeps its place after its earlier
	 * siblings, so the tags stay in the input's order */
	int swapped[] = { 1, 0 };
	assert_string_equal(render("<i>red</i> <b>car</b>", "Auto rot", swapped, 2), "Auto <i>rot</i> <b></b>");
	/* escaped text, attributes byte for byte, a void element in place */
	int three[] = { 0, 1, 2 };
	assert_string_equal(render("<a href=\"?a=1&amp;b\">A</a> <br> b c", "x<y & z", three, 3),
			    "<a href=\"?a=1&amp;b\">x&lt;y</a> <br> &amp; z");
	/* a word aligned to nothing: its element after the word before */
	int none[] = { 0, -1 };
	assert_string_equal(render("A <b>dog</b>", "Ein Hund", none, 2), "Ein <b></b>Hund");
}

static void test_well_formed_on_hostile_markup(void **state)
{
	(void)state;
	static char deep[10000 * 7 + 64];
	size_t n = 0;
	for (int i = 0; i < 10000; i++)
		n += (size_t)(memcpy(deep + n, "<b>", 3), 3);
	memcpy(deep + n, "a b c", 5);
	n += 5;
	for (int i = 0; i < 10000; i++)
		n += (size_t)(memcpy(deep + n, "</b>", 4), 4);
	deep[n] = '\0';
	const char *cases[] = { deep, "<b>a <i>b</b> c</i>", "<p>a <b>b", "a</p> b", "<a title='>'>a</a> <", "<", "&", "<!-- a",
				"<b><i><u>a b c</u></i></b> d e" };
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		parse(cases[c]);
		text_html in = h;  /* (h is reused: take this parse out of it) */
		memset(&h, 0, sizeof h);
		int words = 0, src[64];
		for (size_t i = 0; i < in.text_len; i++)
			words += in.text[i] != ' ' && (i == 0 || in.text[i - 1] == ' ');
		for (int w = 0; w < words && w < 64; w++)
			src[w] = words - 1 - w;   /* reversed */
		assert_int_equal(text_html_render(&in, cases[c], strlen(cases[c]), in.text, in.text_len, src,
						 words < 64 ? words : 64, NULL, 0, &b), 0);
		assert_true(html_tags_in_order(&in, cases[c], b.out, b.len));
		text_html_free(&in);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text_and_nodes),
		cmocka_unit_test(test_tags_follow_the_alignment),
		cmocka_unit_test(test_well_formed_on_hostile_markup),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
