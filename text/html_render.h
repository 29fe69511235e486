/* A translated HTML fragment: the tags of the parsed source (html.h) put
 * back around the words of its translation that are aligned to the words
 * they enclosed. Each element encloses the whole words from the first to
 * the last aligned to a word inside it (tags never split a word); an
 * element nothing is aligned to, and a point, goes after the word aligned
 * to the nearest source word before it; then every element is fitted
 * inside its parent and after its earlier siblings, so the output has
 * exactly the input's tags, in the input's order of nesting, well-formed
 * whenever the input is. Translated text is escaped (& < >); tags,
 * attributes and untranslated elements are copied byte for byte. */
#ifndef TEXT_HTML_RENDER_H
#define TEXT_HTML_RENDER_H
#include <stddef.h>

#include "html.h"

typedef struct {
	int *ints;           /* scratch, grown as needed */
	size_t cap_ints;
	const char **word;   /* scratch: the translation's words */
	size_t *word_len;
	size_t cap_words, cap_word_len;
	char *out;           /* the rendered markup, NUL-terminated */
	size_t len, cap;
} text_html_render_buf;

/* Render h (parsed from html[0..html_len)) around the translation tr[0..tr_len), whose
 * n_words words (split on whitespace) are aligned to source words src_of[]
 * (words of h->text split on whitespace; -1: none), and whose source words
 * 0..n_src-1 are, the other way, aligned to target words tgt_of[] (-1:
 * none; tgt_of may be NULL): an element encloses the target words either
 * direction aligns with its words. Into b->out[0..b->len). 0, or -1 when
 * memory runs out. */
int text_html_render(const text_html *h, const char *html, size_t html_len, const char *tr, size_t tr_len,
		    const int *src_of, int n_words, const int *tgt_of, int n_src, text_html_render_buf *b);

void text_html_render_free(text_html_render_buf *b);

#endif
