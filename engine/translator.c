#include "translator_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "../format/grow.h"
#include "../text/segment.h"
#include "../text/align.h"

engine_translator *engine_translator_new(const nmt_model *m)
{
	engine_translator *t = calloc(1, sizeof *t);
	char lang[16];

	if (!t)
		return NULL;
	t->m = m;
	t->lang = text_split_lang_for(engine_meta_of(m, "src_lang", lang, sizeof lang) == 0 ? lang : NULL);
	if (engine_meta_of(m, "tgt_lang", lang, sizeof lang) == 0) {
		const text_split_lang *tgt = text_split_lang_for(lang);
		t->tgt_placeholder = tgt->code[0] != '\0' ? tgt->placeholder : NULL;
	}
	t->src_scratch = spm_scratch_new();
	t->tgt_scratch = spm_scratch_new();
	t->word_scratch = spm_scratch_new();
	if (!t->src_scratch || !t->tgt_scratch || !t->word_scratch || engine_state_init(&t->state, m) != 0) {
		engine_translator_free(t);
		return NULL;
	}
	return t;
}

int engine_translator_new_on(const nmt_model *m, int device, engine_translator **out, char *err, size_t errlen)
{
	engine_translator *t = engine_translator_new(m);

	*out = NULL;
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	if (device == NMT_DEVICE_CUDA) {
		int rc = engine_device_open(m, &t->state.dev_ops, &t->state.dev, err, errlen);
		if (rc != 0) {
			engine_translator_free(t);
			return rc;
		}
	}
	*out = t;
	return 0;
}

void engine_translator_free(engine_translator *t)
{
	if (!t)
		return;
	if (t->state.dev)
		t->state.dev_ops->close(t->state.dev);
	if (t->state.m)
		engine_state_free(&t->state);
	spm_scratch_free(t->src_scratch);
	spm_scratch_free(t->tgt_scratch);
	spm_scratch_free(t->word_scratch);
	free(t->ids);
	free(t->src_word);
	free(t->piece_word);
	free(t->word_lp);
	free(t->word_src);
	free(t->sums);
	free(t->pairs);
	text_markup_free(t->markup);
	free(t->rev);
	for (int k = 0; k < NMT_MAX_BEAM; k++)
		free(t->line_rev[k]);
	free(t->spans);
	free(t->subst);
	free(t->sent_spans);
	free(t->placed);
	free(t->cased);
	free(t->upper);
	free(t->units);
	free(t->order);
	free(t->line_first);
	free(t->src);
	free(t->batch_len);
	free(t->hyps);
	free(t->n_hyps);
	free(t->retry);
	free(t->texts);
	for (int i = 0; i < NMT_MAX_BEAM; i++) {
		free(t->joined[i]);
		free(t->line_lp[i]);
		free(t->line_align[i]);
	}
	free(t);
}

/* Room for n lines and passes of pass units. */
static int reserve_lines(engine_translator *t, int n, int pass)
{
	if (n + 1 > t->lines_cap) {
		if (format_grow(&t->line_first, (size_t)n + 1, sizeof *t->line_first) != 0)
			return -1;
		t->lines_cap = n + 1;
	}
	if (pass > t->pass_cap) {
		size_t P = (size_t)pass;
		if (format_grow(&t->src, P, sizeof *t->src) | format_grow(&t->batch_len, P, sizeof *t->batch_len) |
		    format_grow(&t->hyps, P * NMT_MAX_BEAM, sizeof *t->hyps) | format_grow(&t->n_hyps, P, sizeof *t->n_hyps) |
		    format_grow(&t->retry, P, sizeof *t->retry))
			return -1;
		t->pass_cap = pass;
	}
	return 0;
}

/* A unit of ids[0..n) (n may be 0), appended with the source EOS at *used;
 * words[0..n) their words in the sentence (NULL without alignments or
 * spans), whose first word is word0 of the line; spans[0..n_spans) the
 * sentence's protected spans, of which the unit takes those in its
 * words. */
static int add_unit(engine_translator *t, const int32_t *ids, const int *words, int n, int word0,
		    const text_protected *spans, int n_spans, const char *gap, size_t gap_len, size_t *used)
{
	if (t->n_units == t->units_cap) {
		int cap = t->units_cap ? 2 * t->units_cap : 64;
		if (format_grow(&t->units, (size_t)cap, sizeof *t->units) | format_grow(&t->order, (size_t)cap, sizeof *t->order))
			return -1;
		t->units_cap = cap;
	}
	size_t need = *used + (size_t)n + 1;
	if (need > t->ids_cap) {
		size_t cap = need > 2 * t->ids_cap ? need : 2 * t->ids_cap;
		if (format_grow(&t->ids, cap, sizeof *t->ids) != 0 || format_grow(&t->src_word, cap, sizeof *t->src_word) != 0)
			return -1;
		t->ids_cap = cap;
	}
	if (n > 0)
		memcpy(t->ids + *used, ids, (size_t)n * sizeof *ids);
	t->ids[*used + (size_t)n] = t->m->d.src_eos_id;
	int n_words = 0, first_word = words && n > 0 ? words[0] : 0;
	for (int i = 0; words && i < n; i++) {   /* its words, from 0 */
		t->src_word[*used + (size_t)i] = words[i] - first_word;
		n_words = words[i] - first_word + 1;
	}
	engine_unit u = { .ids_off = *used, .n_ids = n + 1, .gap = gap, .gap_len = gap_len,
		   .src_word_off = word0 + text_protected_word(spans, n_spans, first_word), .n_src_words = n_words,
		   .span_first = (int)t->n_spans };
	for (int k = 0; k < n_spans; k++)   /* its spans, their words counted from its first */
		if (spans[k].src_word >= first_word && spans[k].src_word < first_word + n_words) {
			if (format_reserve(&t->spans, &t->spans_cap, t->n_spans + 1, sizeof *t->spans) != 0)
				return -1;
			t->spans[t->n_spans] = spans[k];
			t->spans[t->n_spans++].src_word -= first_word;
			u.n_spans++;
		}
	t->units[t->n_units++] = u;
	*used = need;
	return 0;
}

/* add_sentence's work, its spans (if any) replaced in text. */
static int add_sentence_text(engine_translator *t, const engine_search_options *o, const char *text, size_t len, int word0,
			     const text_protected *spans, int n_spans, const char *gap, size_t gap_len, size_t *used)
{
	const int32_t *ids;
	const int *words = NULL;
	size_t n;

	if (spm_encode(t->m->src_vocab, t->src_scratch, text, len, &ids, &n) != 0 || n >= (size_t)1 << 24)
		return -1;
	if ((o->attention || n_spans > 0) && n > 0) {
		if (format_reserve(&t->piece_word, &t->piece_word_cap, n, sizeof *t->piece_word) != 0)
			return -1;
		words = t->piece_word;
	}
	if (n == 0)
		return add_unit(t, ids, NULL, 0, word0, NULL, 0, gap, gap_len, used);
	int words_before = 0;   /* in the chunks before pos */
	for (int pos = 0; pos < (int)n;) {
		int k = text_segment_length(t->m->src_vocab, ids + pos, (int)n - pos);
		/* a chunk's piece words found in it alone (finding them decodes each
		 * prefix: quadratic in the pieces) and numbered from the sentence's
		 * first; chunks end before a word, so no word is split between two */
		if (words) {
			int w = text_piece_words(t->m->src_vocab, t->word_scratch, ids + pos, k, 1, t->piece_word + pos);
			if (w < 0)
				return -1;
			for (int i = pos; i < pos + k; i++)
				t->piece_word[i] += words_before;
			words_before += w;
		}
		if (add_unit(t, ids + pos, words ? words + pos : NULL, k, word0, spans, n_spans, pos == 0 ? gap : " ",
			     pos == 0 ? gap_len : 1, used) != 0)
			return -1;
		pos += k;
	}
	return 0;
}

/* text[0..len) with its protected spans replaced by the language's
 * placeholder (protect.h), into t->subst; the spans into t->sent_spans[0..
 * *n_spans). Returns the substituted length, or (size_t)-1. */
static size_t protect(engine_translator *t, const char *text, size_t len, int *n_spans)
{
	size_t p = strlen(t->lang->placeholder);
	if (format_reserve(&t->subst, &t->subst_cap, len * (p + 2) + 1, 1) != 0 ||
	    format_reserve(&t->sent_spans, &t->sent_spans_cap, len, sizeof *t->sent_spans) != 0)
		return (size_t)-1;
	return text_protect_source(t->lang, text, len, t->subst, t->sent_spans, (int)len, n_spans);
}

/* One sentence's units: its pieces, in chunks of at most
 * TEXT_SEGMENT_PIECES (segment.h), the first joined by gap, the others by
 * a space; with alignments, the source words of its pieces, the first
 * being word0 of the line; with o->protect, translated with its protected
 * spans replaced by the language's placeholder (protect.h); with
 * o->case_fold and the sentence in capitals, in sentence case (text/case.h)
 * but for the spans found as written, its spans found again in that
 * ("WWW.A.COM" is a URL only as "www.a.com") and put back as written. */
static int add_sentence(engine_translator *t, const engine_search_options *o, const char *text, size_t len, int word0,
			const char *gap, size_t gap_len, size_t *used)
{
	const char *written = text;
	size_t written_len = len;
	int n_spans = 0, first_unit = t->n_units, capitals = 0;

	if (o->protect && len > 0) {
		if ((len = protect(t, written, written_len, &n_spans)) == (size_t)-1)
			return -1;
		text = t->subst;
	}
	if (o->case_fold && text_case_in_capitals(written, written_len, t->sent_spans, n_spans)) {
		if (format_reserve(&t->cased, &t->cased_cap, written_len + 1, 1) != 0)
			return -1;
		text_case_to_sentence(written, written_len, t->cased);  /* (the same length) */
		/* what is protected as written stays so: a quoted name in capitals
		 * ("EL CORAZON") is one only in capitals */
		for (int k = 0; k < n_spans; k++)
			memcpy(t->cased + (t->sent_spans[k].text - written), t->sent_spans[k].text, t->sent_spans[k].len);
		text = t->cased;
		len = written_len;
		capitals = 1;
		if (o->protect) {
			if ((len = protect(t, t->cased, written_len, &n_spans)) == (size_t)-1)
				return -1;
			text = t->subst;
		}
		for (int k = 0; k < n_spans; k++)
			t->sent_spans[k].text = written + (t->sent_spans[k].text - t->cased);
	}
	if (add_sentence_text(t, o, text, len, word0, t->sent_spans, n_spans, gap, gap_len, used) != 0)
		return -1;
	for (int u = first_unit; u < t->n_units; u++)
		t->units[u].capitals = capitals;
	return 0;
}

/* Line i's units: its sentences (text/split.h), each joined to the one
 * before by the whitespace between them in the line; or, with splitting
 * off, the whole line as one sentence. */
static int add_line(engine_translator *t, const engine_search_options *o, int i, const char *line, size_t len,
		    size_t *used)
{
	size_t pos = 0, start, end, prev_end = 0;
	int first = 1;

	int word0 = 0;   /* the line's words before the sentence */

	t->line_first[i] = t->n_units;
	if (!o->split)
		return add_sentence(t, o, line, len, 0, "", 0, used);
	while (text_split_next(t->lang, line, len, &pos, &start, &end)) {
		const char *gap = first ? "" : line + prev_end;
		if (add_sentence(t, o, line + start, end - start, word0, gap, first ? 0 : start - prev_end, used) != 0)
			return -1;
		word0 += text_split_count_words(line + start, end - start);
		prev_end = end;
		first = 0;
	}
	return 0;
}

/* Encode the prepared batch t->src and search it, here or on the device. */
static int run_model(engine_translator *t, const engine_search_options *o, char *err, size_t errlen)
{
	engine_state *s = &t->state;
	if (!s->dev_ops) {
		engine_encode(s, t->src);
		return engine_search(s, o, t->hyps, t->n_hyps);
	}
	if (s->dev_ops->encode(s->dev, s, t->src) != 0 || engine_search(s, o, t->hyps, t->n_hyps) != 0) {
		snprintf(err, errlen, "%s: %s", s->dev_ops->name, s->dev_ops->error(s->dev));
		return -1;
	}
	return 0;
}

/* Whether one of the n hypotheses of unit u loops (guard.h). */
static int loops(const engine_translator *t, const engine_unit *u, const engine_hypothesis *hyps, int n)
{
	text_guard_limits lim;
	text_guard_limits_of(t->m->src_vocab, t->m->src_cases, t->ids + u->ids_off, u->n_ids - 1, &lim);
	for (int k = 0; k < n; k++)
		if (text_guard_violated(t->m->tgt_vocab, t->m->tgt_cases, &lim, hyps[k].ids, hyps[k].len))
			return 1;
	return 0;
}

/* The units keys[0..n) decoded as one batch with options o; their outputs
 * kept, except, where `retry` is given, those of units with a looping
 * translation, which go to retry[0..*n_retry) instead. */
static int decode_batch(engine_translator *t, const engine_search_options *given, const engine_unit_key *keys, int n,
			engine_unit_key *retry, int *n_retry, char *err, size_t errlen)
{
	engine_search_options with = *given;
	const engine_search_options *o = &with;
	for (int b = 0; b < n; b++) {
		const engine_unit *u = &t->units[keys[b].unit];
		t->src[b] = t->ids + u->ids_off;
		t->batch_len[b] = u->n_ids;
		with.attention |= u->n_spans > 0;   /* spans are placed by the alignment */
	}
	if (engine_batch_prepare(&t->state, n, t->src, t->batch_len, o) != 0)
		goto oom;
	if (run_model(t, o, err, errlen) != 0)
		return -1;
	for (int b = 0; b < n; b++) {
		engine_unit *u = &t->units[keys[b].unit];
		const engine_hypothesis *hyps = t->hyps + (size_t)b * o->nbest;
		int n_out = t->n_hyps[b] < 1 ? 1 : t->n_hyps[b];   /* (search always finishes one) */
		if (retry && loops(t, u, hyps, t->n_hyps[b]))
			retry[(*n_retry)++] = keys[b];
		else if (engine_tr_keep_outputs(t, given, u, b, hyps, n_out) != 0) /* (alignments where asked for, or spans need them) */
			goto oom;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* The units keys[0..n): searched as the model scores them, and those
 * whose translations loop searched again with the repetition guard
 * (guard.h), so that it changes no translation that does not loop. A
 * greedy search needs no second pass: its one hypothesis meets a blocked
 * continuation only if the plain search's translation takes it, so the
 * guarded search is the plain one wherever that does not loop. */
static int decode_pass(engine_translator *t, const engine_search_options *o, const engine_unit_key *keys, int n, char *err,
		       size_t errlen)
{
	engine_search_options plain = *o;
	int n_retry = 0;

	if (o->beam == 1)
		return decode_batch(t, o, keys, n, NULL, NULL, err, errlen);
	plain.guard = 0;
	if (decode_batch(t, &plain, keys, n, o->guard ? t->retry : NULL, &n_retry, err, errlen) != 0)
		return -1;
	return n_retry == 0 ? 0 : decode_batch(t, o, t->retry, n_retry, NULL, NULL, err, errlen);
}

/* Shorter first, then in order: a pass's sentences finish at about the
 * same step. */
static int by_length(const void *a, const void *b)
{
	const engine_unit_key *x = a, *y = b;
	if (x->n_ids != y->n_ids)
		return x->n_ids < y->n_ids ? -1 : 1;
	return (x->unit > y->unit) - (x->unit < y->unit);
}

/* Every unit with something to translate, in passes of similar lengths. */
static int decode_units(engine_translator *t, const engine_search_options *o, int pass, char *err, size_t errlen)
{
	int n = 0;
	t->texts_len = 0;
	t->words_len = 0;
	t->rev_len = 0;
	if (format_reserve(&t->texts, &t->texts_cap, 1, 1) != 0) { /* (never a NULL base) */
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int u = 0; u < t->n_units; u++) {
		t->units[u].n_out = 0;
		if (t->units[u].n_ids > 1)
			t->order[n++] = (engine_unit_key){ t->units[u].n_ids, u };
	}
	if (n > 1)   /* (order is NULL until a unit has needed it) */
		qsort(t->order, (size_t)n, sizeof *t->order, by_length);
	for (int p = 0; p < n; p += pass)
		if (decode_pass(t, o, t->order + p, n - p < pass ? n - p : pass, err, errlen) != 0)
			return -1;
	return 0;
}

int engine_translator_batch(engine_translator *t, const engine_search_options *o, const char *const *lines,
			const size_t *lens, int n, engine_emit_fn emit, void *ctx, char *err, size_t errlen)
{
	size_t used = 0;
	int pass = n > MIN_PASS ? n : MIN_PASS;

	if (o->beam < 1 || o->beam > NMT_MAX_BEAM || o->nbest < 1 || o->nbest > o->beam) {
		snprintf(err, errlen, "beam must be 1..%d and nbest 1..beam", NMT_MAX_BEAM);
		return -1;
	}
	if (o->html)
		return text_markup_batch(t, &t->markup, o, lines, lens, n, emit, ctx, err, errlen);
	ENGINE_PROF_BEGIN(&t->state);
	if (reserve_lines(t, n, pass) != 0)
		goto oom;
	t->n_units = 0;
	t->n_spans = 0;
	for (int i = 0; i < n; i++)
		if (add_line(t, o, i, lines[i], lens[i], &used) != 0)
			goto oom;
	t->line_first[n] = t->n_units;
	if (decode_units(t, o, pass, err, errlen) != 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int rc = engine_tr_emit_line(t, o, i, emit, ctx, err, errlen);
		if (rc != 0)
			return rc;
	}
	ENGINE_PROF_LAP(&t->state, OTHER, 0);
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

typedef struct {
	nmt_translation *out;
	int *n_out;
} single_line;

static int copy_single(void *ctx, int i, const nmt_translation *tr, int n)
{
	single_line *s = ctx;
	(void)i;
	memcpy(s->out, tr, (size_t)n * sizeof *tr);
	*s->n_out = n;
	return 0;
}

int engine_translator_line(engine_translator *t, const engine_search_options *o, const char *line, size_t len,
		  nmt_translation *out, int *n_out, char *err, size_t errlen)
{
	single_line s = { out, n_out };
	*n_out = 0;
	return engine_translator_batch(t, o, &line, &len, 1, copy_single, &s, err, errlen);
}

#ifdef ENGINE_PROFILE
const engine_profile *engine_translator_profile(const engine_translator *t)
{
	return &t->state.prof;
}
#endif
