/* The HTML walker on any bytes (text/html.h, text/html_render.h): parsing
 * never fails but for memory, and rendering the plain text itself as the
 * "translation", each word aligned to itself (or, by the first byte,
 * shifted or reversed), gives markup with the input's tags, attributes
 * byte for byte, in document order, and nothing but escaped text between
 * them (tests/html_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../text/html.h"
#include "../../text/html_render.h"
#include "../html_check.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	int how = data[0] % 3;
	const char *html = (const char *)data + 1;
	size_t len = size - 1;
	text_html h = { 0 };
	text_html_render_buf b = { 0 };
	FUZZ_ASSERT(text_html_parse(&h, html, len) == 0);
	int words = 0;
	for (size_t i = 0; i < h.text_len; i++)
		words += !is_space(h.text[i]) && (i == 0 || is_space(h.text[i - 1]));
	int *src_of = malloc(((size_t)words + 1) * sizeof *src_of);
	for (int w = 0; w < words; w++)   /* identity, shifted by one, or reversed */
		src_of[w] = how == 0 ? w : how == 1 ? (w + 1) % words : words - 1 - w;
	FUZZ_ASSERT(text_html_render(&h, html, len, h.text, h.text_len, src_of, words, NULL, 0, &b) == 0);
	FUZZ_ASSERT(html_tags_in_order(&h, html, b.out, b.len));
	free(src_of);
	text_html_free(&h);
	text_html_render_free(&b);
	return 0;
}
