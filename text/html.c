#include "html.h"

#include "../format/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/utf8.h"

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether the tag name s[0..n) is one of the '\n'-separated names. */
static int name_in(const char *s, size_t n, const char *names)
{
	for (const char *p = names; *p;) {
		const char *e = strchr(p, '\n');
		size_t k = (size_t)(e - p);
		if (k == n) {
			size_t i = 0;
			while (i < n && lower((unsigned char)s[i]) == p[i])
				i++;
			if (i == n)
				return 1;
		}
		p = e + 1;
	}
	return 0;
}

static const char VOID_ELEMENTS[] = "area\nbase\nbr\ncol\nembed\nhr\nimg\ninput\nlink\nmeta\nparam\nsource\ntrack\nwbr\n";
static const char VERBATIM_ELEMENTS[] = "code\npre\nscript\nstyle\ntextarea\nkbd\nsamp\nvar\n";
static const char BREAKING_ELEMENTS[] =
	"br\np\ndiv\nli\nul\nol\ndl\ndt\ndd\ntr\ntd\nth\ntable\nh1\nh2\nh3\nh4\nh5\nh6\nhr\nsection\narticle\nheader\n"
	"footer\nnav\naside\nblockquote\nfigure\nfigcaption\nmain\naddress\n";

/* The end of the markup construct starting with '<' at html[i]: just past
 * its '>' (quotes in a tag respected), or 0 if it has none (then '<' is
 * text). */
static size_t construct_end(const char *html, size_t len, size_t i)
{
	if (i + 3 < len && memcmp(html + i, "<!--", 4) == 0) {
		for (size_t j = i + 4; j + 2 < len; j++)
			if (memcmp(html + j, "-->", 3) == 0)
				return j + 3;
		return 0;
	}
	if (i + 8 < len && memcmp(html + i, "<![CDATA[", 9) == 0) {
		for (size_t j = i + 9; j + 2 < len; j++)
			if (memcmp(html + j, "]]>", 3) == 0)
				return j + 3;
		return 0;
	}
	char quote = 0;
	for (size_t j = i + 1; j < len; j++) {
		if (quote) {
			if (html[j] == quote)
				quote = 0;
		} else if (html[j] == '"' || html[j] == '\'') {
			quote = html[j];
		} else if (html[j] == '>')
			return j + 1;
	}
	return 0;
}

/* Whether a start tag html[i..e) says translate="no". */
static int says_no_translate(const char *html, size_t i, size_t e)
{
	static const char key[] = "translate";
	for (size_t j = i; j + sizeof key + 1 < e; j++) {
		size_t k = 0;
		while (k < sizeof key - 1 && lower((unsigned char)html[j + k]) == key[k])
			k++;
		if (k < sizeof key - 1 || !is_space(html[j - 1]))
			continue;
		size_t v = j + k;
		while (v < e && is_space(html[v]))
			v++;
		if (v >= e || html[v] != '=')
			continue;
		v++;
		while (v < e && is_space(html[v]))
			v++;
		if (v < e && (html[v] == '"' || html[v] == '\''))
			v++;
		return v + 1 < e && lower((unsigned char)html[v]) == 'n' && lower((unsigned char)html[v + 1]) == 'o';
	}
	return 0;
}

/* Whether html[j..) (at a '<') is a start or, with end, an end tag of
 * `name`: "<name" or "</name" then a space, '/' or '>'. */
static int tag_of(const char *html, size_t len, size_t j, const char *name, size_t n, int end)
{
	size_t s = j + 1 + (size_t)end, k = 0;
	if (end && (j + 1 >= len || html[j + 1] != '/'))
		return 0;
	while (k < n && s + k < len && lower((unsigned char)html[s + k]) == lower((unsigned char)name[k]))
		k++;
	return k == n && s + k < len && (is_space(html[s + k]) || html[s + k] == '/' || html[s + k] == '>');
}

/* The end of element `name`'s content from html[i] on, its raw text
 * scanned for nothing but its own tags (as a browser reads <script>): just
 * past its matching end tag, or 0 if it is never closed. Nested elements
 * of the same name count. */
static size_t matching_end(const char *html, size_t len, size_t i, const char *name, size_t n)
{
	int depth = 1;
	for (; i < len; i++) {
		if (html[i] != '<')
			continue;
		/* a tag only where the parser would see one (text '<' comes out
		 * escaped, so markup parsed again counts the same tags) */
		size_t e;
		if (tag_of(html, len, i, name, n, 0) && (e = construct_end(html, len, i)) > 0 && html[e - 2] != '/')
			depth++;
		else if (tag_of(html, len, i, name, n, 1) && (e = construct_end(html, len, i)) > 0 && --depth == 0)
			return e;
	}
	return 0;
}

static int add_node(text_html *h, int kind, int parent, size_t open, size_t open_len)
{
	if (format_reserve(&h->nodes, &h->cap_nodes, (size_t)h->n_nodes + 1, sizeof *h->nodes) != 0)
		return -1;
	h->nodes[h->n_nodes] = (text_html_node){ .kind = kind, .parent = parent, .open = open, .open_len = open_len,
						.text_start = h->text_len, .text_end = h->text_len };
	return h->n_nodes++;
}

static int add_text(text_html *h, const char *s, size_t n, int node)
{
	if (format_reserve(&h->text, &h->text_cap, h->text_len + n + 1, 1) != 0 ||
	    format_reserve(&h->text_node, &h->text_node_cap, h->text_len + n + 1, sizeof *h->text_node) != 0)
		return -1;
	memcpy(h->text + h->text_len, s, n);
	for (size_t i = 0; i < n; i++)
		h->text_node[h->text_len + i] = node;
	h->text_len += n;
	h->text[h->text_len] = '\0';
	return 0;
}

/* A character reference at html[i] ('&'): its UTF-8 into out (returns its
 * length) and the bytes it took in *used; 0 if it is none we decode. */
static size_t char_ref(const char *html, size_t len, size_t i, char out[4], size_t *used)
{
	static const struct { const char *name; const char *utf8; } named[] = {
		{ "amp;", "&" }, { "lt;", "<" }, { "gt;", ">" }, { "quot;", "\"" }, { "apos;", "'" },
		{ "nbsp;", "\xc2\xa0" },
	};
	for (size_t k = 0; k < sizeof named / sizeof *named; k++) {
		size_t n = strlen(named[k].name);
		if (i + 1 + n <= len && memcmp(html + i + 1, named[k].name, n) == 0) {
			*used = 1 + n;
			memcpy(out, named[k].utf8, strlen(named[k].utf8));
			return strlen(named[k].utf8);
		}
	}
	if (i + 2 >= len || html[i + 1] != '#')
		return 0;
	int hex = html[i + 2] == 'x' || html[i + 2] == 'X';
	size_t j = i + 2 + (size_t)hex;
	uint32_t c = 0;
	int digits = 0;
	for (; j < len && digits < 8; j++, digits++) {
		char d = html[j];
		int v = d >= '0' && d <= '9' ? d - '0' : hex && lower(d) >= 'a' && lower(d) <= 'f' ? lower(d) - 'a' + 10 : -1;
		if (v < 0)
			break;
		c = c * (hex ? 16 : 10) + (uint32_t)v;
	}
	if (digits == 0 || j >= len || html[j] != ';' || c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*used = j + 1 - i;
	return utf8_encode(c, out);
}

/* A tag html[i..e): handled; *next is where parsing goes on. */
static int tag(text_html *h, const char *html, size_t len, size_t i, size_t e, int *depth, size_t *next)
{
	int top = *depth > 0 ? h->stack[*depth - 1] : -1;
	int end_tag = html[i + 1] == '/';
	size_t name = i + 1 + (size_t)end_tag, n = 0;
	while (name + n < e && (is_alpha(html[name + n]) || (html[name + n] >= '0' && html[name + n] <= '9')))
		n++;
	*next = e;
	if (name_in(html + name, n, BREAKING_ELEMENTS) && h->text_len > 0 && !is_space(h->text[h->text_len - 1]) &&
	    add_text(h, " ", 1, top) != 0)
		return -1;
	if (n == 0 || (!end_tag && !is_alpha(html[name])))   /* comment, CDATA, <!DOCTYPE>, <?...?> */
		return add_node(h, TEXT_HTML_POINT, top, i, e - i) < 0 ? -1 : 0;
	if (end_tag) {
		if (top >= 0) {
			const text_html_node *t = &h->nodes[top];
			size_t tn = 0;
			while (tn < t->open_len - 1 && (is_alpha(html[t->open + 1 + tn]) ||
							(html[t->open + 1 + tn] >= '0' && html[t->open + 1 + tn] <= '9')))
				tn++;
			if (tn == n) {
				size_t k = 0;
				while (k < n && lower((unsigned char)html[name + k]) == lower((unsigned char)html[t->open + 1 + k]))
					k++;
				if (k == n) {   /* closes the open element */
					h->nodes[top].close = i;
					h->nodes[top].close_len = e - i;
					h->nodes[top].text_end = h->text_len;
					(*depth)--;
					return 0;
				}
			}
		}
		return add_node(h, TEXT_HTML_POINT, top, i, e - i) < 0 ? -1 : 0;  /* a stray end tag */
	}
	if (name_in(html + name, n, VERBATIM_ELEMENTS) || says_no_translate(html, i, e)) {
		size_t end = html[e - 2] == '/' ? 0 : matching_end(html, len, e, html + name, n);
		if (end > 0) {   /* the whole element, untranslated */
			*next = end;
			return add_node(h, TEXT_HTML_POINT, top, i, end - i) < 0 ? -1 : 0;
		}
	}
	if (html[e - 2] == '/' || name_in(html + name, n, VOID_ELEMENTS) || *depth >= TEXT_HTML_MAX_DEPTH)
		return add_node(h, TEXT_HTML_POINT, top, i, e - i) < 0 ? -1 : 0;
	int node = add_node(h, TEXT_HTML_ELEMENT, top, i, e - i);
	if (node < 0 || format_reserve(&h->stack, &h->cap_stack, (size_t)*depth + 1, sizeof *h->stack) != 0)
		return -1;
	h->stack[(*depth)++] = node;
	return 0;
}

int text_html_parse(text_html *h, const char *html, size_t len)
{
	int depth = 0;
	h->n_nodes = 0;
	h->text_len = 0;
	if (add_text(h, "", 0, -1) != 0)
		return -1;
	for (size_t i = 0; i < len;) {
		int top = depth > 0 ? h->stack[depth - 1] : -1;
		if (html[i] == '<') {
			size_t e = construct_end(html, len, i), next;
			int starts_tag = i + 1 < len && (is_alpha(html[i + 1]) || html[i + 1] == '!' || html[i + 1] == '?' ||
							 (html[i + 1] == '/' && i + 2 < len && is_alpha(html[i + 2])));
			if (e > 0 && starts_tag) {
				if (tag(h, html, len, i, e, &depth, &next) != 0)
					return -1;
				i = next;
				continue;
			}
		}
		char ref[4];
		size_t used, n = html[i] == '&' ? char_ref(html, len, i, ref, &used) : 0;
		if (n > 0) {
			if (add_text(h, ref, n, top) != 0)
				return -1;
			i += used;
			continue;
		}
		size_t j = i + 1;   /* a run of plain text */
		while (j < len && html[j] != '<' && html[j] != '&')
			j++;
		if (add_text(h, html + i, j - i, top) != 0)
			return -1;
		i = j;
	}
	/* elements never closed: their start tags are points, their content
	 * their parent's */
	while (depth > 0) {
		int node = h->stack[--depth];
		h->nodes[node].kind = TEXT_HTML_POINT;
		for (size_t b = h->nodes[node].text_start; b < h->text_len; b++)
			if (h->text_node[b] == node)
				h->text_node[b] = h->nodes[node].parent;
		for (int k = node + 1; k < h->n_nodes; k++)
			if (h->nodes[k].parent == node)
				h->nodes[k].parent = h->nodes[node].parent;
		h->nodes[node].text_end = h->nodes[node].text_start;
	}
	return 0;
}

void text_html_free(text_html *h)
{
	free(h->nodes);
	free(h->text);
	free(h->text_node);
	free(h->stack);
	memset(h, 0, sizeof *h);
}
