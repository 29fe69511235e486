#include "html_render.h"

#include "../format/grow.h"

#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int put(text_html_render_buf *b, const char *s, size_t n)
{
	if (format_reserve(&b->out, &b->cap, b->len + n + 1, 1) != 0)
		return -1;
	memcpy(b->out + b->len, s, n);
	b->len += n;
	b->out[b->len] = '\0';
	return 0;
}

/* A translated word, escaped. */
static int put_text(text_html_render_buf *b, const char *s, size_t n)
{
	for (size_t i = 0, start = 0; i <= n; i++) {
		const char *esc = i == n ? NULL : s[i] == '&' ? "&amp;" : s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;" : NULL;
		if (i < n && !esc)
			continue;
		if (put(b, s + start, i - start) != 0 || (esc && put(b, esc, strlen(esc)) != 0))
			return -1;
		start = i + 1;
	}
	return 0;
}

typedef struct {
	const text_html *h;
	const char *html;
	size_t html_len;
	text_html_render_buf *b;
	const char *const *word;   /* the translation's words */
	const size_t *word_len;
	int n_words;
	int *start, *end;          /* each node's words [start, end) */
	int *first_child, *next_sibling;
	int written;               /* words written so far */
	int spaced;                /* the space before word `written` is written */
} render;

/* Before anything at the boundary before word r->written: its space. */
static int boundary(render *r)
{
	if (r->written > 0 && !r->spaced) {
		r->spaced = 1;
		return put(r->b, " ", 1);
	}
	return 0;
}

static int words_until(render *r, int until)
{
	while (r->written < until) {
		if (boundary(r) != 0 || put_text(r->b, r->word[r->written], r->word_len[r->written]) != 0)
			return -1;
		r->written++;
		r->spaced = 0;
	}
	return 0;
}

/* The children of node (-1: the top) and the words up to `until`. */
static int children(render *r, int node, int until)
{
	int c = node < 0 ? r->first_child[r->h->n_nodes] : r->first_child[node];
	for (; c >= 0; c = r->next_sibling[c]) {
		const text_html_node *n = &r->h->nodes[c];
		if (words_until(r, r->start[c]) != 0)
			return -1;
		if (n->kind == TEXT_HTML_POINT) {  /* spaced on either side as in the source */
			int before = n->open > 0 && is_space(r->html[n->open - 1]);
			size_t next = n->open + n->open_len;
			int after = next < r->html_len && is_space(r->html[next]);
			if ((before && boundary(r) != 0) || put(r->b, r->html + n->open, n->open_len) != 0)
				return -1;
			if (after && r->spaced)
				r->spaced = 0;
			continue;
		}
		if (boundary(r) != 0 || put(r->b, r->html + n->open, n->open_len) != 0)
			return -1;
		if (children(r, c, r->end[c]) != 0 || put(r->b, r->html + n->close, n->close_len) != 0)
			return -1;
	}
	return words_until(r, until);
}


/* Word t (of n) in the hulls of the element of source word s and its
 * ancestors. */
static void widen(const text_html *h, const int *word_at, int s, int t, int *start, int *end)
{
	for (int n = h->text_node[word_at[s]]; n >= 0; n = h->nodes[n].parent) {
		if (t < start[n])
			start[n] = t;
		if (t + 1 > end[n])
			end[n] = t + 1;
	}
}

int text_html_render(const text_html *h, const char *html, size_t html_len, const char *tr, size_t tr_len,
		    const int *src_of, int n_words, const int *tgt_of, int n_src, text_html_render_buf *b)
{
	size_t N = (size_t)h->n_nodes, W = (size_t)n_words, T = h->text_len;
	/* the source words: where each starts, and (filled below) how far
	 * the translation has got by the word before */
	size_t S = 0;
	for (size_t i = 0; i < T; i++)
		S += !is_space(h->text[i]) && (i == 0 || is_space(h->text[i - 1]));
	if (format_reserve(&b->ints, &b->cap_ints, 4 * N + 3 + 2 * S + 2, sizeof *b->ints) != 0 ||
	    format_reserve(&b->word, &b->cap_words, W + 1, sizeof *b->word) != 0 ||
	    format_reserve(&b->word_len, &b->cap_word_len, W + 1, sizeof *b->word_len) != 0)
		return -1;
	int *mem = b->ints;
	int *start = mem, *end = start + N, *first_child = end + N, *next_sibling = first_child + N + 1;
	int *word_at = next_sibling + N + 2, *reach = word_at + S + 1;
	const char **word = b->word;
	size_t *word_len = b->word_len;
	int w = 0;
	for (size_t i = 0; i < tr_len && w < n_words;) {   /* the translation's words */
		while (i < tr_len && is_space(tr[i]))
			i++;
		size_t s0 = i;
		while (i < tr_len && !is_space(tr[i]))
			i++;
		if (i > s0) {
			word[w] = tr + s0;
			word_len[w++] = i - s0;
		}
	}
	n_words = w;
	int s = 0;
	for (size_t i = 0; i < T; i++)
		if (!is_space(h->text[i]) && (i == 0 || is_space(h->text[i - 1])))
			word_at[s++] = (int)i;
	/* reach[k]: one past the last target word aligned to a source word
	 * before k */
	for (size_t k = 0; k <= S; k++)
		reach[k] = 0;
	for (int t = 0; t < n_words; t++)
		if (src_of[t] >= 0 && (size_t)src_of[t] < S && reach[src_of[t] + 1] < t + 1)
			reach[src_of[t] + 1] = t + 1;
	for (size_t k = 1; k <= S; k++)
		if (reach[k] < reach[k - 1])
			reach[k] = reach[k - 1];
	/* each element's hull of aligned words */
	for (size_t n = 0; n < N; n++) {
		start[n] = n_words;
		end[n] = 0;
	}
	for (int t = 0; t < n_words; t++)
		if (src_of[t] >= 0 && (size_t)src_of[t] < S)
			widen(h, word_at, src_of[t], t, start, end);
	for (int j = 0; tgt_of && j < n_src && (size_t)j < S; j++)
		if (tgt_of[j] >= 0 && tgt_of[j] < n_words)
			widen(h, word_at, j, tgt_of[j], start, end);
	/* nothing aligned: after the words of the source words before it */
	for (size_t n = 0; n < N; n++)
		if (start[n] >= end[n]) {
			size_t k = 0, lo = 0, hi = S;   /* source words starting before it */
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if ((size_t)word_at[mid] < h->nodes[n].text_start)
					lo = mid + 1;
				else
					hi = mid;
			}
			k = lo;
			start[n] = end[n] = reach[k];
		}
	/* the tree, and each node fitted into its parent after its siblings */
	for (size_t n = 0; n <= N; n++)
		first_child[n] = -1;
	for (int n = (int)N - 1; n >= 0; n--) {
		int p = h->nodes[n].parent < 0 ? (int)N : h->nodes[n].parent;
		next_sibling[n] = first_child[p];
		first_child[p] = n;
	}
	for (int p = -1; p < (int)N; p++) {
		if (p >= 0 && h->nodes[p].kind != TEXT_HTML_ELEMENT)
			continue;
		int lo = p < 0 ? 0 : start[p], hi = p < 0 ? n_words : end[p], at = lo;
		for (int c = first_child[p < 0 ? (int)N : p]; c >= 0; c = next_sibling[c]) {
			int a = start[c] < at ? at : start[c] > hi ? hi : start[c];
			int e = end[c] < a ? a : end[c] > hi ? hi : end[c];
			start[c] = a;
			end[c] = h->nodes[c].kind == TEXT_HTML_POINT ? a : e;
			at = end[c];
		}
	}
	render r = { h, html, html_len, b, word, word_len, n_words, start, end, first_child, next_sibling, 0, 0 };
	b->len = 0;
	return put(b, "", 0) | children(&r, -1, n_words);
}

void text_html_render_free(text_html_render_buf *b)
{
	free(b->ints);
	free(b->out);
	free(b->word);
	free(b->word_len);
	memset(b, 0, sizeof *b);
}
