#include "markup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "html.h"
#include "html_render.h"
#include "../format/grow.h"

struct text_markup {
	text_html *lines;                     /* [cap] each line parsed */
	int cap;
	const char **plain;                   /* [cap] their plain texts */
	size_t *plain_len;
	text_html_render_buf out[NMT_MAX_BEAM];  /* a line's translations, rendered */
	int *src_of;                          /* scratch: each target word's source word */
	size_t cap_src_of;
	/* the call being run */
	const engine_translator *t;
	const char *const *html;
	const size_t *html_len;
	engine_emit_fn emit;
	void *ctx;
	int keep_alignment;                   /* the caller asked for alignments */
};

void text_markup_free(text_markup *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->cap; i++)
		text_html_free(&m->lines[i]);
	for (int k = 0; k < NMT_MAX_BEAM; k++)
		text_html_render_free(&m->out[k]);
	free(m->lines);
	free(m->plain);
	free(m->plain_len);
	free(m->src_of);
	free(m);
}

static int reserve(text_markup *m, int n)
{
	if (n <= m->cap)
		return 0;
	if (format_grow(&m->lines, (size_t)n, sizeof *m->lines) | format_grow(&m->plain, (size_t)n, sizeof *m->plain) |
	    format_grow(&m->plain_len, (size_t)n, sizeof *m->plain_len))
		return -1;
	memset(m->lines + m->cap, 0, (size_t)(n - m->cap) * sizeof *m->lines);
	m->cap = n;
	return 0;
}

/* A translation's alignment, "S-T ...", as each target word's source word
 * (-1 for a word without one). */
static int target_sources(text_markup *m, const nmt_translation *tr)
{
	size_t n = (size_t)tr->n_words + 1;
	if (n > m->cap_src_of) {
		if (format_grow(&m->src_of, n, sizeof *m->src_of) != 0)
			return -1;
		m->cap_src_of = n;
	}
	for (int w = 0; w < tr->n_words; w++)
		m->src_of[w] = -1;
	const char *p = tr->alignment;
	long s, t;
	while (p && text_align_pair(p, &s, &t, &p) == 0) {
		if (t < tr->n_words)
			m->src_of[t] = (int)s;
		if (*p++ != ' ')
			break;
	}
	return 0;
}

/* The translator's emit for line i: its translations rendered as markup. */
static int emit_markup(void *ctx, int i, const nmt_translation *tr, int n)
{
	text_markup *m = ctx;
	nmt_translation out[NMT_MAX_BEAM];
	for (int k = 0; k < n; k++) {
		const int *tgt_of;
		int n_src = engine_translator_source_targets(m->t, k, &tgt_of);
		if (target_sources(m, &tr[k]) != 0 || text_html_render(&m->lines[i], m->html[i], m->html_len[i], tr[k].text, tr[k].len,
								       m->src_of, tr[k].n_words, tgt_of, n_src, &m->out[k]) != 0)
			return -1;
		out[k] = tr[k];
		out[k].text = m->out[k].out;
		out[k].len = m->out[k].len;
		out[k].n_words = 0;   /* the markup's words are not the translation's */
		out[k].word_logprob = NULL;
		if (!m->keep_alignment)
			out[k].alignment = NULL;
	}
	return m->emit(m->ctx, i, out, n);
}

int text_markup_batch(engine_translator *t, text_markup **mp, const engine_search_options *o, const char *const *lines,
		     const size_t *lens, int n, engine_emit_fn emit, void *ctx, char *err, size_t errlen)
{
	if (!*mp && !(*mp = calloc(1, sizeof **mp)))
		goto oom;
	text_markup *m = *mp;
	if (reserve(m, n) != 0)
		goto oom;
	for (int i = 0; i < n; i++) {
		if (text_html_parse(&m->lines[i], lines[i], lens[i]) != 0)
			goto oom;
		m->plain[i] = m->lines[i].text;
		m->plain_len[i] = m->lines[i].text_len;
	}
	engine_search_options plain = *o;
	plain.html = 0;
	plain.attention = 1;   /* the tags follow the alignment */
	m->t = t;
	m->html = lines;
	m->html_len = lens;
	m->emit = emit;
	m->ctx = ctx;
	m->keep_alignment = o->attention;
	int rc = engine_translator_batch(t, &plain, m->plain, m->plain_len, n, emit_markup, m, err, errlen);
	if (rc == -1 && err[0] == '\0')
		snprintf(err, errlen, "out of memory");
	return rc;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}
