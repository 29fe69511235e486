#include "translator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "grow.h"
#include "segment.h"
#include "../text/split.h"
#include "align.h"
#include "markup.h"
#include "protect.h"

/* Sentences decoded together at least, per pass (more when the batch has
 * more lines): with the pieces per chunk (segment.h), this bounds the
 * memory a line of any length needs. */
#define MIN_PASS 8

/* What the model translates: one sentence of a line, or a chunk of an
 * over-long one. A line's units are consecutive. */
typedef struct {
	size_t ids_off;                      /* its source ids in t->ids, EOS after them */
	int n_ids;                           /* EOS included; 1: nothing to translate */
	const char *gap;                     /* what joins its translation to the one before */
	size_t gap_len;
	int src_word_off, n_src_words;       /* its source words: from this word of its line on */
	int span_first, n_spans;             /* its protected spans, in t->spans */
	int n_out;                           /* translations, best first (0: no model output) */
	size_t text_off[NMT_MAX_BEAM], text_len[NMT_MAX_BEAM];   /* in t->texts */
	float logprob[NMT_MAX_BEAM], score[NMT_MAX_BEAM];
	size_t word_off[NMT_MAX_BEAM];       /* its words' log-probabilities (and source words) in t->word_lp */
	int n_words[NMT_MAX_BEAM];
	size_t rev_off[NMT_MAX_BEAM];        /* with alignments, each source word's target word in t->rev */
	int has_rev[NMT_MAX_BEAM];
} unit;

/* A unit to decode, and the length it is sorted by. */
typedef struct {
	int n_ids, unit;
} unit_key;

struct nmt_translator {
	const nmt_model *m;
	const nmt_split_lang *lang;          /* the source language's sentence rules */
	nmt_state state;
	spm_scratch *src_scratch, *tgt_scratch, *word_scratch;
	int32_t *ids;                        /* every unit's source ids + EOS, one after the other */
	int *src_word;                       /* with alignments: the word (in its unit) of each of them */
	size_t ids_cap;
	int *piece_word;                     /* [piece_word_cap] scratch: a sentence's pieces' words */
	size_t piece_word_cap;
	float *word_lp;                      /* the units' translations' words' log-probabilities */
	int *word_src;                       /* and, with alignments, the source word of each */
	size_t words_len, words_cap;
	float *sums;                         /* scratch: target x source word attention */
	size_t sums_cap;
	nmt_protected *spans;                /* the units' protected spans */
	size_t n_spans, spans_cap;
	char *subst;                         /* scratch: a sentence with its spans replaced */
	nmt_protected *sent_spans;           /* scratch: and its spans */
	size_t sent_spans_cap;
	size_t subst_cap;
	char *placed;                        /* scratch: a translation with its spans put back */
	size_t placed_cap;
	unit *units;
	int n_units, units_cap;
	unit_key *order;                     /* [units_cap] the units to decode, shortest first */
	int *line_first;                     /* [lines_cap + 1] each line's first unit */
	int lines_cap;
	const int32_t **src;                 /* [pass_cap] one pass's sources */
	int *batch_len;                      /* [pass_cap] and their lengths */
	nmt_hypothesis *hyps;                /* [pass_cap * NMT_MAX_BEAM] */
	int *n_hyps;                         /* [pass_cap] */
	unit_key *retry;                     /* [pass_cap] a pass's units searched again with the guard */
	int pass_cap;
	char *texts;                         /* the units' translations, detokenized */
	size_t texts_len, texts_cap;
	char *joined[NMT_MAX_BEAM];          /* a line's k-th best: its units' joined */
	size_t joined_len[NMT_MAX_BEAM], joined_cap[NMT_MAX_BEAM];
	float *line_lp[NMT_MAX_BEAM];        /* and its words' log-probabilities */
	size_t line_lp_cap[NMT_MAX_BEAM];
	char *line_align[NMT_MAX_BEAM];      /* and alignment */
	size_t line_align_cap[NMT_MAX_BEAM];
	int *pairs;                          /* scratch: a line's (source, target) word pairs */
	size_t pairs_cap;
	nmt_markup *markup;                  /* HTML lines' scratch, made when first needed */
	int *rev;                            /* the units' source words' target words */
	size_t rev_len, rev_cap;
	int *line_rev[NMT_MAX_BEAM];         /* a line's, during emit */
	size_t line_rev_cap[NMT_MAX_BEAM];
	int line_rev_len[NMT_MAX_BEAM];
};

nmt_translator *nmt_translator_new(const nmt_model *m)
{
	nmt_translator *t = calloc(1, sizeof *t);
	char lang[16];

	if (!t)
		return NULL;
	t->m = m;
	t->lang = nmt_split_lang_for(nmt_model_meta(m, "src_lang", lang, sizeof lang) == 0 ? lang : NULL);
	t->src_scratch = spm_scratch_new();
	t->tgt_scratch = spm_scratch_new();
	t->word_scratch = spm_scratch_new();
	if (!t->src_scratch || !t->tgt_scratch || !t->word_scratch || nmt_state_init(&t->state, m) != 0) {
		nmt_translator_free(t);
		return NULL;
	}
	return t;
}

int nmt_translator_new_on(const nmt_model *m, int device, nmt_translator **out, char *err, size_t errlen)
{
	nmt_translator *t = nmt_translator_new(m);

	*out = NULL;
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	if (device == NMT_DEVICE_CUDA) {
		int rc = nmt_cuda_open(m, &t->state.dev_ops, &t->state.dev, err, errlen);
		if (rc != 0) {
			nmt_translator_free(t);
			return rc;
		}
	}
	*out = t;
	return 0;
}

void nmt_translator_free(nmt_translator *t)
{
	if (!t)
		return;
	if (t->state.dev)
		nmt_cuda_close(t->state.dev);
	if (t->state.m)
		nmt_state_free(&t->state);
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
	nmt_markup_free(t->markup);
	free(t->rev);
	for (int k = 0; k < NMT_MAX_BEAM; k++)
		free(t->line_rev[k]);
	free(t->spans);
	free(t->subst);
	free(t->sent_spans);
	free(t->placed);
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
static int reserve_lines(nmt_translator *t, int n, int pass)
{
	if (n + 1 > t->lines_cap) {
		if (nmt_grow(&t->line_first, (size_t)n + 1, sizeof *t->line_first) != 0)
			return -1;
		t->lines_cap = n + 1;
	}
	if (pass > t->pass_cap) {
		size_t P = (size_t)pass;
		if (nmt_grow(&t->src, P, sizeof *t->src) | nmt_grow(&t->batch_len, P, sizeof *t->batch_len) |
		    nmt_grow(&t->hyps, P * NMT_MAX_BEAM, sizeof *t->hyps) | nmt_grow(&t->n_hyps, P, sizeof *t->n_hyps) |
		    nmt_grow(&t->retry, P, sizeof *t->retry))
			return -1;
		t->pass_cap = pass;
	}
	return 0;
}

/* Grow buf (of capacity *cap bytes) to hold need bytes, doubling. */
static int reserve_bytes(char **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t c = need > 2 * *cap ? need : 2 * *cap;
	char *p = realloc(*buf, c);
	if (!p)
		return -1;
	*buf = p;
	*cap = c;
	return 0;
}

/* Grow *p (of *cap elements of size bytes) to hold need, doubling. */
static int reserve_elems(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = need > 2 * *cap ? need : 2 * *cap;
	if (nmt_grow(p, c, size) != 0)
		return -1;
	*cap = c;
	return 0;
}

/* A unit of ids[0..n) (n may be 0), appended with the source EOS at *used;
 * words[0..n) their words in the sentence (NULL without alignments or
 * spans), whose first word is word0 of the line; spans[0..n_spans) the
 * sentence's protected spans, of which the unit takes those in its
 * words. */
static int add_unit(nmt_translator *t, const int32_t *ids, const int *words, int n, int word0,
		    const nmt_protected *spans, int n_spans, const char *gap, size_t gap_len, size_t *used)
{
	if (t->n_units == t->units_cap) {
		int cap = t->units_cap ? 2 * t->units_cap : 64;
		if (nmt_grow(&t->units, (size_t)cap, sizeof *t->units) | nmt_grow(&t->order, (size_t)cap, sizeof *t->order))
			return -1;
		t->units_cap = cap;
	}
	size_t need = *used + (size_t)n + 1;
	if (need > t->ids_cap) {
		size_t cap = need > 2 * t->ids_cap ? need : 2 * t->ids_cap;
		if (nmt_grow(&t->ids, cap, sizeof *t->ids) != 0 || nmt_grow(&t->src_word, cap, sizeof *t->src_word) != 0)
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
	unit u = { .ids_off = *used, .n_ids = n + 1, .gap = gap, .gap_len = gap_len,
		   .src_word_off = word0 + nmt_protected_word(spans, n_spans, first_word), .n_src_words = n_words,
		   .span_first = (int)t->n_spans };
	for (int k = 0; k < n_spans; k++)   /* its spans, their words counted from its first */
		if (spans[k].src_word >= first_word && spans[k].src_word < first_word + n_words) {
			if (reserve_elems(&t->spans, &t->spans_cap, t->n_spans + 1, sizeof *t->spans) != 0)
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
static int add_sentence_text(nmt_translator *t, const nmt_search_options *o, const char *text, size_t len, int word0,
			     const nmt_protected *spans, int n_spans, const char *gap, size_t gap_len, size_t *used)
{
	const int32_t *ids;
	const int *words = NULL;
	size_t n;

	if (spm_encode(t->m->src_vocab, t->src_scratch, text, len, &ids, &n) != 0 || n >= (size_t)1 << 24)
		return -1;
	if ((o->attention || n_spans > 0) && n > 0) {
		if (reserve_elems(&t->piece_word, &t->piece_word_cap, n, sizeof *t->piece_word) != 0 ||
		    nmt_piece_words(t->m->src_vocab, t->word_scratch, ids, (int)n, t->piece_word) < 0)
			return -1;
		words = t->piece_word;
	}
	if (n == 0)
		return add_unit(t, ids, NULL, 0, word0, NULL, 0, gap, gap_len, used);
	for (int pos = 0; pos < (int)n;) {
		int k = nmt_segment_length(t->m->src_vocab, ids + pos, (int)n - pos);
		if (add_unit(t, ids + pos, words ? words + pos : NULL, k, word0, spans, n_spans, pos == 0 ? gap : " ",
			     pos == 0 ? gap_len : 1, used) != 0)
			return -1;
		pos += k;
	}
	return 0;
}

/* One sentence's units: its pieces, in chunks of at most
 * NMT_SEGMENT_PIECES (segment.h), the first joined by gap, the others by
 * a space; with alignments, the source words of its pieces, the first
 * being word0 of the line; with o->protect, translated with its protected
 * spans replaced by the language's placeholder (protect.h). */
static int add_sentence(nmt_translator *t, const nmt_search_options *o, const char *text, size_t len, int word0,
			const char *gap, size_t gap_len, size_t *used)
{
	int n_spans = 0;

	if (o->protect && len > 0) {
		size_t p = strlen(t->lang->placeholder);
		if (reserve_bytes(&t->subst, &t->subst_cap, len * (p + 2) + 1) != 0 ||
		    reserve_elems(&t->sent_spans, &t->sent_spans_cap, len, sizeof *t->sent_spans) != 0)
			return -1;
		len = nmt_protect_source(text, len, t->lang->placeholder, t->subst, t->sent_spans, (int)len, &n_spans);
		text = t->subst;
	}
	return add_sentence_text(t, o, text, len, word0, t->sent_spans, n_spans, gap, gap_len, used);
}

/* Whitespace-separated words in text[0..len). */
static int count_words(const char *text, size_t len)
{
	int words = 0;
	for (size_t i = 0; i < len; i++)
		words += !nmt_split_is_space((unsigned char)text[i]) && (i == 0 || nmt_split_is_space((unsigned char)text[i - 1]));
	return words;
}

/* Line i's units: its sentences (text/split.h), each joined to the one
 * before by the whitespace between them in the line; or, with splitting
 * off, the whole line as one sentence. */
static int add_line(nmt_translator *t, const nmt_search_options *o, int i, const char *line, size_t len,
		    size_t *used)
{
	size_t pos = 0, start, end, prev_end = 0;
	int first = 1;

	int word0 = 0;   /* the line's words before the sentence */

	t->line_first[i] = t->n_units;
	if (!o->split)
		return add_sentence(t, o, line, len, 0, "", 0, used);
	while (nmt_split_next(t->lang, line, len, &pos, &start, &end)) {
		const char *gap = first ? "" : line + prev_end;
		if (add_sentence(t, o, line + start, end - start, word0, gap, first ? 0 : start - prev_end, used) != 0)
			return -1;
		word0 += count_words(line + start, end - start);
		prev_end = end;
		first = 0;
	}
	return 0;
}

typedef struct {
	const nmt_state *s;
	const nmt_hypothesis *h;
	int sent;
} attention_of;

/* Target piece i's attention over the source (align.h's callback). */
static const float *piece_attention(const void *ctx, int i)
{
	const attention_of *a = ctx;
	return nmt_search_attention(a->s, a->sent, i, a->h->slots[i]);
}

/* The words of hypothesis h of unit u (sentence `sent` of the batch just
 * searched): their log-probabilities and, with alignments, their source
 * words, appended to t->word_lp / t->word_src for rank k. */
static int keep_words(nmt_translator *t, const nmt_search_options *o, unit *u, int sent, const nmt_hypothesis *h,
		      int k)
{
	if (reserve_elems(&t->piece_word, &t->piece_word_cap, (size_t)h->len + 1, sizeof *t->piece_word) != 0)
		return -1;
	int n = nmt_piece_words(t->m->tgt_vocab, t->word_scratch, h->ids, h->len, t->piece_word);
	size_t at = t->words_len, need = at + (size_t)(n > 0 ? n : 0);
	if (n < 0)
		return -1;
	if (need > t->words_cap) {
		size_t cap = need > 2 * t->words_cap ? need : 2 * t->words_cap;
		if (nmt_grow(&t->word_lp, cap, sizeof *t->word_lp) != 0 || nmt_grow(&t->word_src, cap, sizeof *t->word_src) != 0)
			return -1;
		t->words_cap = cap;
	}
	for (int w = 0; w < n; w++)
		t->word_lp[at + (size_t)w] = 0;
	for (int i = 0; i < h->len; i++)
		t->word_lp[at + (size_t)t->piece_word[i]] += h->token_lp[i];
	if ((o->attention || u->n_spans > 0) && n > 0) {
		int src_words = u->n_src_words > 0 ? u->n_src_words : 1;
		size_t cells = (size_t)n * (size_t)src_words;
		if (reserve_elems(&t->sums, &t->sums_cap, cells, sizeof *t->sums) != 0)
			return -1;
		attention_of a = { &t->state, h, sent };
		u->has_rev[k] = u->n_spans == 0;   /* (spans move target words) */
		u->rev_off[k] = t->rev_len;
		if (u->has_rev[k] &&
		    reserve_elems(&t->rev, &t->rev_cap, t->rev_len + (size_t)src_words, sizeof *t->rev) != 0)
			return -1;
		nmt_align_words(piece_attention, &a, h->len, t->piece_word, n, u->n_ids - 1, t->src_word + u->ids_off,
				src_words, t->sums, t->word_src + at, u->has_rev[k] ? t->rev + t->rev_len : NULL);
		if (u->has_rev[k])
			t->rev_len += (size_t)src_words;
	} else
		u->has_rev[k] = 0;
	u->word_off[k] = at;
	u->n_words[k] = n;
	t->words_len = need;
	return 0;
}

/* Unit u's protected spans put back into its rank-k translation
 * text[0..len), whose words keep_words has just kept: the new text and
 * words replace them. Returns the text to keep, in *len. */
static const char *place_spans(nmt_translator *t, unit *u, int k, const char *text, size_t *len)
{
	const nmt_protected *spans = t->spans + u->span_first;
	size_t span_bytes = 0, span_words = 0;
	for (int i = 0; i < u->n_spans; i++) {
		span_bytes += spans[i].len;
		span_words += 1 + (size_t)(spans[i].extra_words > 0 ? spans[i].extra_words : 0);
	}
	size_t from = u->word_off[k], need = t->words_len + (size_t)u->n_words[k] + span_words;
	if (reserve_bytes(&t->placed, &t->placed_cap, *len + span_bytes + 4 * (size_t)u->n_spans + 1) != 0)
		return NULL;
	if (need > t->words_cap) {
		size_t cap = need > 2 * t->words_cap ? need : 2 * t->words_cap;
		if (nmt_grow(&t->word_lp, cap, sizeof *t->word_lp) != 0 || nmt_grow(&t->word_src, cap, sizeof *t->word_src) != 0)
			return NULL;
		t->words_cap = cap;
	}
	int n;
	*len = nmt_place_spans(text, *len, t->word_lp + from, t->word_src + from, u->n_words[k], spans, u->n_spans,
			       t->placed, t->word_lp + t->words_len, t->word_src + t->words_len, &n);
	u->word_off[k] = t->words_len;
	u->n_words[k] = n;
	t->words_len += (size_t)n;
	return t->placed;
}

/* Keep a decoded unit's hypotheses (at least one), detokenized, with
 * their words and its protected spans put back. */
static int keep_outputs(nmt_translator *t, const nmt_search_options *o, unit *u, int sent, const nmt_hypothesis *hyps,
			int n)
{
	u->n_out = n;
	for (int k = 0; k < n; k++) {
		if (keep_words(t, o, u, sent, &hyps[k], k) != 0)
			return -1;
		const char *text;
		size_t len;
		if (spm_decode(t->m->tgt_vocab, t->tgt_scratch, hyps[k].ids, (size_t)hyps[k].len, &text, &len) != 0)
			return -1;
		if (u->n_spans > 0 && !(text = place_spans(t, u, k, text, &len)))
			return -1;
		if (reserve_bytes(&t->texts, &t->texts_cap, t->texts_len + len) != 0)
			return -1;
		memcpy(t->texts + t->texts_len, text, len);
		u->text_off[k] = t->texts_len;
		u->text_len[k] = len;
		u->logprob[k] = hyps[k].logprob;
		u->score[k] = hyps[k].score;
		t->texts_len += len;
	}
	return 0;
}

/* Encode the prepared batch t->src and search it, here or on the device. */
static int run_model(nmt_translator *t, const nmt_search_options *o, char *err, size_t errlen)
{
	nmt_state *s = &t->state;
	if (!s->dev_ops) {
		nmt_encode(s, t->src);
		return nmt_search(s, o, t->hyps, t->n_hyps);
	}
	if (s->dev_ops->encode(s->dev, s, t->src) != 0 || nmt_search(s, o, t->hyps, t->n_hyps) != 0) {
		snprintf(err, errlen, "%s: %s", s->dev_ops->name, nmt_cuda_error(s->dev));
		return -1;
	}
	return 0;
}

/* Whether one of the n hypotheses of unit u loops (guard.h). */
static int loops(const nmt_translator *t, const unit *u, const nmt_hypothesis *hyps, int n)
{
	nmt_guard_limits lim;
	nmt_guard_limits_of(t->m->src_vocab, t->ids + u->ids_off, u->n_ids - 1, &lim);
	for (int k = 0; k < n; k++)
		if (nmt_guard_violated(t->m->tgt_vocab, &lim, hyps[k].ids, hyps[k].len))
			return 1;
	return 0;
}

/* The units keys[0..n) decoded as one batch with options o; their outputs
 * kept, except, where `retry` is given, those of units with a looping
 * translation, which go to retry[0..*n_retry) instead. */
static int decode_batch(nmt_translator *t, const nmt_search_options *given, const unit_key *keys, int n,
			unit_key *retry, int *n_retry, char *err, size_t errlen)
{
	nmt_search_options with = *given;
	const nmt_search_options *o = &with;
	for (int b = 0; b < n; b++) {
		const unit *u = &t->units[keys[b].unit];
		t->src[b] = t->ids + u->ids_off;
		t->batch_len[b] = u->n_ids;
		with.attention |= u->n_spans > 0;   /* spans are placed by the alignment */
	}
	if (nmt_batch_prepare(&t->state, n, t->src, t->batch_len, o) != 0)
		goto oom;
	if (run_model(t, o, err, errlen) != 0)
		return -1;
	for (int b = 0; b < n; b++) {
		unit *u = &t->units[keys[b].unit];
		const nmt_hypothesis *hyps = t->hyps + (size_t)b * o->nbest;
		int n_out = t->n_hyps[b] < 1 ? 1 : t->n_hyps[b];   /* (search always finishes one) */
		if (retry && loops(t, u, hyps, t->n_hyps[b]))
			retry[(*n_retry)++] = keys[b];
		else if (keep_outputs(t, given, u, b, hyps, n_out) != 0)   /* (alignments where asked for, or spans need them) */
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
static int decode_pass(nmt_translator *t, const nmt_search_options *o, const unit_key *keys, int n, char *err,
		       size_t errlen)
{
	nmt_search_options plain = *o;
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
	const unit_key *x = a, *y = b;
	if (x->n_ids != y->n_ids)
		return x->n_ids < y->n_ids ? -1 : 1;
	return (x->unit > y->unit) - (x->unit < y->unit);
}

/* Every unit with something to translate, in passes of similar lengths. */
static int decode_units(nmt_translator *t, const nmt_search_options *o, int pass, char *err, size_t errlen)
{
	int n = 0;
	t->texts_len = 0;
	t->words_len = 0;
	t->rev_len = 0;
	if (reserve_bytes(&t->texts, &t->texts_cap, 1) != 0) {   /* (never a NULL base) */
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int u = 0; u < t->n_units; u++) {
		t->units[u].n_out = 0;
		if (t->units[u].n_ids > 1)
			t->order[n++] = (unit_key){ t->units[u].n_ids, u };
	}
	qsort(t->order, (size_t)n, sizeof *t->order, by_length);
	for (int p = 0; p < n; p += pass)
		if (decode_pass(t, o, t->order + p, n - p < pass ? n - p : pass, err, errlen) != 0)
			return -1;
	return 0;
}

/* Append gap and text to joined output k; the gap only between two
 * non-empty translations. */
static int join(nmt_translator *t, int k, const char *gap, size_t gap_len, const char *text, size_t len)
{
	size_t sep = t->joined_len[k] > 0 && len > 0 ? gap_len : 0;
	if (reserve_bytes(&t->joined[k], &t->joined_cap[k], t->joined_len[k] + sep + len + 1) != 0)
		return -1;
	memcpy(t->joined[k] + t->joined_len[k], gap, sep);
	memcpy(t->joined[k] + t->joined_len[k] + sep, text, len);
	t->joined_len[k] += sep + len;
	t->joined[k][t->joined_len[k]] = '\0';
	return 0;
}

/* Source word first, then target word. */
static int by_source_word(const void *a, const void *b)
{
	const int *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Line i's rank-k source words' target words (line words; -1: none
 * known), from its units' ranks r[], into t->line_rev[k]. */
static int line_reverse(nmt_translator *t, int first, int last, const int *r, int k)
{
	int n_src = 0, w = 0;
	for (int v = first; v < last; v++)
		if (t->units[v].src_word_off + t->units[v].n_src_words > n_src)
			n_src = t->units[v].src_word_off + t->units[v].n_src_words;
	if (reserve_elems(&t->line_rev[k], &t->line_rev_cap[k], (size_t)n_src + 1, sizeof(int)) != 0)
		return -1;
	for (int j = 0; j < n_src; j++)
		t->line_rev[k][j] = -1;
	for (int v = first; v < last; v++) {
		const unit *u = &t->units[v];
		if (u->n_out == 0)
			continue;
		int rank = r[v - first];
		for (int j = 0; u->has_rev[rank] && j < u->n_src_words; j++)
			if (t->rev[u->rev_off[rank] + (size_t)j] >= 0)
				t->line_rev[k][u->src_word_off + j] = w + t->rev[u->rev_off[rank] + (size_t)j];
		w += u->n_words[rank];
	}
	t->line_rev_len[k] = n_src;
	return 0;
}

int nmt_translator_source_targets(const nmt_translator *t, int k, const int **tgt_of)
{
	*tgt_of = t->line_rev[k];
	return t->line_rev_len[k];
}

/* Line i's rank-k words, from its units' ranks r[]: their
 * log-probabilities into t->line_lp[k] and, with alignments, the pairs
 * "S-T ..." (line words) into t->line_align[k]. *n_words gets how many. */
static int line_words(nmt_translator *t, const nmt_search_options *o, int first, int last, const int *r, int k,
		      int *n_words)
{
	int n = 0;
	for (int v = first; v < last; v++)
		n += t->units[v].n_out > 0 ? t->units[v].n_words[r[v - first]] : 0;
	*n_words = n;
	if (reserve_elems(&t->line_lp[k], &t->line_lp_cap[k], (size_t)n + 1, sizeof(float)) != 0 ||
	    reserve_elems(&t->pairs, &t->pairs_cap, 2 * (size_t)n + 2, sizeof *t->pairs) != 0)
		return -1;
	int w = 0;
	for (int v = first; v < last; v++) {
		const unit *u = &t->units[v];
		if (u->n_out == 0)
			continue;
		int rank = r[v - first];
		for (int j = 0; j < u->n_words[rank]; j++, w++) {
			t->line_lp[k][w] = t->word_lp[u->word_off[rank] + (size_t)j];
			if (o->attention)
				t->pairs[2 * w] = u->src_word_off +
						  nmt_protected_word(u->n_spans ? t->spans + u->span_first : NULL, u->n_spans,
								     t->word_src[u->word_off[rank] + (size_t)j]);
			t->pairs[2 * w + 1] = w;
		}
	}
	if (!o->attention)
		return 0;
	if (line_reverse(t, first, last, r, k) != 0)
		return -1;
	qsort(t->pairs, (size_t)n, 2 * sizeof *t->pairs, by_source_word);
	/* at most 2 x 11 digits, '-' and ' ' a pair */
	if (reserve_bytes(&t->line_align[k], &t->line_align_cap[k], (size_t)n * 24 + 1) != 0)
		return -1;
	size_t len = 0;
	t->line_align[k][0] = '\0';
	for (int p = 0; p < n; p++)
		len += (size_t)snprintf(t->line_align[k] + len, t->line_align_cap[k] - len, "%s%d-%d", p ? " " : "",
					t->pairs[2 * p], t->pairs[2 * p + 1]);
	return 0;
}

/* Line i's translations: rank k joins each of its units' k-th best (or
 * its last, if it has fewer), with their log-probabilities and scores
 * added, and their words and alignments; the line has as many as its unit
 * with the fewest. A line with nothing to translate has one, empty. */
static int emit_line(nmt_translator *t, const nmt_search_options *o, int i, nmt_emit_fn emit, void *ctx,
		     char *err, size_t errlen)
{
	int first = t->line_first[i], last = t->line_first[i + 1], n_out = o->nbest, decoded = 0;
	nmt_translation out[NMT_MAX_BEAM];

	for (int u = first; u < last; u++)
		if (t->units[u].n_out > 0) {
			decoded = 1;
			if (t->units[u].n_out < n_out)
				n_out = t->units[u].n_out;
		}
	if (!decoded)
		n_out = 1;
	if (reserve_elems(&t->piece_word, &t->piece_word_cap, (size_t)(last - first) + 1, sizeof *t->piece_word) != 0)
		goto oom;
	for (int k = 0; k < n_out; k++) {
		float logprob = 0, score = 0;
		int *rank = t->piece_word, n_words;   /* (free scratch by now) each unit's rank */
		t->joined_len[k] = 0;
		if (join(t, k, "", 0, "", 0) != 0)
			goto oom;
		for (int v = first; v < last; v++) {
			const unit *u = &t->units[v];
			if (u->n_out == 0)
				continue;
			int r = k < u->n_out ? k : u->n_out - 1;
			rank[v - first] = r;
			if (join(t, k, u->gap, u->gap_len, t->texts + u->text_off[r], u->text_len[r]) != 0)
				goto oom;
			logprob += u->logprob[r];
			score += u->score[r];
		}
		if (line_words(t, o, first, last, rank, k, &n_words) != 0)
			goto oom;
		out[k] = (nmt_translation){ .text = t->joined[k], .len = t->joined_len[k], .logprob = logprob,
					    .score = score, .n_words = n_words, .word_logprob = t->line_lp[k],
					    .alignment = o->attention ? t->line_align[k] : NULL };
	}
	return emit(ctx, i, out, n_out);
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int nmt_translator_batch(nmt_translator *t, const nmt_search_options *o, const char *const *lines,
			const size_t *lens, int n, nmt_emit_fn emit, void *ctx, char *err, size_t errlen)
{
	size_t used = 0;
	int pass = n > MIN_PASS ? n : MIN_PASS;

	if (o->beam < 1 || o->beam > NMT_MAX_BEAM || o->nbest < 1 || o->nbest > o->beam) {
		snprintf(err, errlen, "beam must be 1..%d and nbest 1..beam", NMT_MAX_BEAM);
		return -1;
	}
	if (o->html)
		return nmt_markup_batch(t, &t->markup, o, lines, lens, n, emit, ctx, err, errlen);
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
		int rc = emit_line(t, o, i, emit, ctx, err, errlen);
		if (rc != 0)
			return rc;
	}
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

int nmt_translator_line(nmt_translator *t, const nmt_search_options *o, const char *line, size_t len,
		  nmt_translation *out, int *n_out, char *err, size_t errlen)
{
	single_line s = { out, n_out };
	*n_out = 0;
	return nmt_translator_batch(t, o, &line, &len, 1, copy_single, &s, err, errlen);
}
