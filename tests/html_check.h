/* What test_html and fuzz_html check of a rendered fragment: it holds the
 * input's tags (every node's bytes: start tags with their attributes, end
 * tags, points) in document order, each parent's end tag after its
 * children, and between them only text with no '<' (escaped). */
#ifndef TESTS_HTML_CHECK_H
#define TESTS_HTML_CHECK_H
#include <string.h>

#include "../text/html.h"

/* Find src[0..n) in out from *at on, with no '<' in what comes before it. */
static inline int html_next_piece(const char *out, size_t len, size_t *at, const char *src, size_t n)
{
	for (size_t i = *at; i + n <= len; i++) {
		if (memcmp(out + i, src, n) == 0) {
			*at = i + n;
			return 1;
		}
		if (out[i] == '<')
			return 0;
	}
	return 0;
}

/* Node c's bytes and its descendants', in order, from *at on. */
static inline int html_node_in_order(const text_html *h, const char *src, int c, const char *out, size_t len, size_t *at)
{
	const text_html_node *n = &h->nodes[c];
	if (!html_next_piece(out, len, at, src + n->open, n->open_len))
		return 0;
	if (n->kind != TEXT_HTML_ELEMENT)
		return 1;
	for (int k = c + 1; k < h->n_nodes; k++)
		if (h->nodes[k].parent == c && !html_node_in_order(h, src, k, out, len, at))
			return 0;
	return html_next_piece(out, len, at, src + n->close, n->close_len);
}

/* 1 if out[0..len) has h's nodes (parsed from src) in order, text between. */
static inline int html_tags_in_order(const text_html *h, const char *src, const char *out, size_t len)
{
	size_t at = 0;
	for (int c = 0; c < h->n_nodes; c++)
		if (h->nodes[c].parent < 0 && !html_node_in_order(h, src, c, out, len, &at))
			return 0;
	for (; at < len; at++)
		if (out[at] == '<')
			return 0;
	return 1;
}

#endif
