/* What test_html and fuzz_html check of a rendered fragment: parsed again,
 * it has the input's nodes, kind for kind and byte for byte, in order. */
#ifndef NMT_TESTS_HTML_CHECK_H
#define NMT_TESTS_HTML_CHECK_H
#include <string.h>

#include "../text/html.h"

/* 1 if a (parsed from a_src) and b (from b_src) have the same nodes. */
static inline int html_same_nodes(const nmt_html *a, const char *a_src, const nmt_html *b, const char *b_src)
{
	if (a->n_nodes != b->n_nodes)
		return 0;
	for (int i = 0; i < a->n_nodes; i++) {
		const nmt_html_node *x = &a->nodes[i], *y = &b->nodes[i];
		if (x->kind != y->kind || x->parent != y->parent || x->open_len != y->open_len ||
		    memcmp(a_src + x->open, b_src + y->open, x->open_len) != 0)
			return 0;
		if (x->kind == NMT_HTML_ELEMENT &&
		    (x->close_len != y->close_len || memcmp(a_src + x->close, b_src + y->close, x->close_len) != 0))
			return 0;
	}
	return 1;
}

#endif
