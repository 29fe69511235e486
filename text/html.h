/* HTML fragments: a line of markup parsed into the plain text a model
 * translates and the nodes that go back around the translation
 * (html_render.h). Small and strict about what it cannot vouch for:
 *
 *  - an element whose start and end tags match (case-insensitively, at the
 *    top of the open elements) is an element: its tags go back around the
 *    words aligned to its text;
 *  - everything else is a point that keeps its place among its siblings: a
 *    void element (<br>, <img>), a self-closing tag, a comment, CDATA,
 *    <!DOCTYPE>, <?...?>, a stray end tag, a start tag never closed, a start
 *    tag past TEXT_HTML_MAX_DEPTH open ones, and, whole and untranslated, an
 *    element whose content must not be translated (<code>, <pre>,
 *    <script>, <style>, <textarea>, translate="no");
 *  - a '<' that starts no tag, and a tag without its '>', are text;
 *  - character references (&amp; &lt; &gt; &quot; &apos; &nbsp; &#N; &#xN;)
 *    are decoded in the plain text; attributes are kept byte for byte (the
 *    tags are copied from the input as they are).
 * Block elements and <br> separate the words on either side. Time and
 * memory are linear in the line. */
#ifndef TEXT_HTML_H
#define TEXT_HTML_H
#include <stddef.h>

#define TEXT_HTML_MAX_DEPTH 256

enum { TEXT_HTML_ELEMENT, TEXT_HTML_POINT };

typedef struct {
	int kind;              /* TEXT_HTML_ELEMENT or TEXT_HTML_POINT */
	int parent;            /* the element it is in (an index), -1 at the top */
	size_t open, open_len; /* its start tag (a point: all of it) in the input */
	size_t close, close_len;   /* an element's end tag in the input */
	size_t text_start, text_end;   /* its place in the plain text (a point: where it stands) */
} text_html_node;

typedef struct {
	text_html_node *nodes; /* in input order */
	int n_nodes;
	size_t cap_nodes;
	char *text;            /* the plain text */
	size_t text_len, text_cap;
	int *text_node;        /* [text_len] the innermost element of each byte, -1 for none */
	size_t text_node_cap;
	int *stack;            /* scratch: open elements */
	size_t cap_stack;
} text_html;

/* Parse html[0..len) into h (reused from call to call, grown as needed;
 * zero-initialise it first). 0, or -1 when memory runs out. */
int text_html_parse(text_html *h, const char *html, size_t len);

void text_html_free(text_html *h);

#endif
