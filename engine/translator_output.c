#include "translator_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../text/align.h"
#include "../format/grow.h"

/* Room for need words in the word pools (log-probabilities and source
 * words grow together). */
static int reserve_words(engine_translator *t, size_t need)
{
	if (need <= t->words_cap)
		return 0;
	size_t cap = need > 2 * t->words_cap ? need : 2 * t->words_cap;
	if (format_grow(&t->word_lp, cap, sizeof *t->word_lp) != 0 || format_grow(&t->word_src, cap, sizeof *t->word_src) != 0)
		return -1;
	t->words_cap = cap;
	return 0;
}

typedef struct {
	const engine_state *s;
	const engine_hypothesis *h;
	int sent;
} attention_of;

/* Target piece i's attention over the source (align.h's callback). */
static const float *piece_attention(const void *ctx, int i)
{
	const attention_of *a = ctx;
	return engine_search_attention(a->s, a->sent, i, a->h->slots[i]);
}

/* The words of hypothesis h of unit u (sentence `sent` of the batch just
 * searched): their log-probabilities and, with alignments, their source
 * words, appended to t->word_lp / t->word_src for rank k. */
static int keep_words(engine_translator *t, const engine_search_options *o, engine_unit *u, int sent, const engine_hypothesis *h,
		      int k)
{
	if (format_reserve(&t->piece_word, &t->piece_word_cap, (size_t)h->len + 1, sizeof *t->piece_word) != 0)
		return -1;
	int n = text_piece_words(t->m->tgt_vocab, t->word_scratch, h->ids, h->len, 0, t->piece_word);
	size_t at = t->words_len, need = at + (size_t)(n > 0 ? n : 0);
	if (n < 0)
		return -1;
	if (reserve_words(t, need) != 0)
		return -1;
	for (int w = 0; w < n; w++)
		t->word_lp[at + (size_t)w] = 0;
	for (int i = 0; i < h->len && n > 0; i++)   /* (no words: pieces of whitespace only) */
		t->word_lp[at + (size_t)t->piece_word[i]] += h->token_lp[i];
	if ((o->attention || u->n_spans > 0) && n > 0) {
		int src_words = u->n_src_words > 0 ? u->n_src_words : 1;
		size_t cells = (size_t)n * (size_t)src_words;
		if (format_reserve(&t->sums, &t->sums_cap, cells, sizeof *t->sums) != 0)
			return -1;
		attention_of a = { &t->state, h, sent };
		u->has_rev[k] = u->n_spans == 0;   /* (spans move target words) */
		u->rev_off[k] = t->rev_len;
		if (u->has_rev[k] &&
		    format_reserve(&t->rev, &t->rev_cap, t->rev_len + (size_t)src_words, sizeof *t->rev) != 0)
			return -1;
		text_align_words(piece_attention, &a, h->len, t->piece_word, n, u->n_ids - 1, t->src_word + u->ids_off,
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
static const char *place_spans(engine_translator *t, engine_unit *u, int k, const char *text, size_t *len)
{
	const text_protected *spans = t->spans + u->span_first;
	size_t span_bytes = 0, span_words = 0;
	for (int i = 0; i < u->n_spans; i++) {
		span_bytes += spans[i].len;
		span_words += 1 + (size_t)(spans[i].extra_words > 0 ? spans[i].extra_words : 0);
	}
	size_t from = u->word_off[k], need = t->words_len + (size_t)u->n_words[k] + span_words;
	if (format_reserve(&t->placed, &t->placed_cap, *len + span_bytes + 4 * (size_t)u->n_spans + 1, 1) != 0)
		return NULL;
	if (reserve_words(t, need) != 0)
		return NULL;
	int n;
	text_align_placeholders(text, *len, t->word_src + from, u->n_words[k], spans, u->n_spans, t->tgt_placeholder);
	*len = text_place_spans(text, *len, t->word_lp + from, t->word_src + from, u->n_words[k], spans, u->n_spans,
			       t->placed, t->word_lp + t->words_len, t->word_src + t->words_len, &n);
	u->word_off[k] = t->words_len;
	u->n_words[k] = n;
	t->words_len += (size_t)n;
	return t->placed;
}

/* Keep a decoded unit's hypotheses (at least one), detokenized, with
 * their words and its protected spans put back. */
int engine_tr_keep_outputs(engine_translator *t, const engine_search_options *o, engine_unit *u, int sent, const engine_hypothesis *hyps,
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
		if (u->capitals) {   /* (before the spans go back: they stay as written) */
			if (format_reserve(&t->upper, &t->upper_cap, len + 1, 1) != 0)
				return -1;
			text_case_to_upper(text, len, t->upper);
			text = t->upper;
		}
		if (u->n_spans > 0 && !(text = place_spans(t, u, k, text, &len)))
			return -1;
		if (format_reserve(&t->texts, &t->texts_cap, t->texts_len + len, 1) != 0)
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

/* Append gap and text to joined output k; the gap only between two
 * non-empty translations. */
static int join(engine_translator *t, int k, const char *gap, size_t gap_len, const char *text, size_t len)
{
	size_t sep = t->joined_len[k] > 0 && len > 0 ? gap_len : 0;
	if (format_reserve(&t->joined[k], &t->joined_cap[k], t->joined_len[k] + sep + len + 1, 1) != 0)
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
static int line_reverse(engine_translator *t, int first, int last, const int *r, int k)
{
	int n_src = 0, w = 0;
	for (int v = first; v < last; v++)
		if (t->units[v].src_word_off + t->units[v].n_src_words > n_src)
			n_src = t->units[v].src_word_off + t->units[v].n_src_words;
	if (format_reserve(&t->line_rev[k], &t->line_rev_cap[k], (size_t)n_src + 1, sizeof(int)) != 0)
		return -1;
	for (int j = 0; j < n_src; j++)
		t->line_rev[k][j] = -1;
	for (int v = first; v < last; v++) {
		const engine_unit *u = &t->units[v];
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

int engine_translator_source_targets(const engine_translator *t, int k, const int **tgt_of)
{
	*tgt_of = t->line_rev[k];
	return t->line_rev_len[k];
}

/* Line i's rank-k words, from its units' ranks r[]: their
 * log-probabilities into t->line_lp[k] and, with alignments, the pairs
 * "S-T ..." (line words) into t->line_align[k]. *n_words gets how many. */
static int line_words(engine_translator *t, const engine_search_options *o, int first, int last, const int *r, int k,
		      int *n_words)
{
	int n = 0;
	for (int v = first; v < last; v++)
		n += t->units[v].n_out > 0 ? t->units[v].n_words[r[v - first]] : 0;
	*n_words = n;
	if (format_reserve(&t->line_lp[k], &t->line_lp_cap[k], (size_t)n + 1, sizeof(float)) != 0 ||
	    format_reserve(&t->pairs, &t->pairs_cap, 2 * (size_t)n + 2, sizeof *t->pairs) != 0)
		return -1;
	int w = 0;
	for (int v = first; v < last; v++) {
		const engine_unit *u = &t->units[v];
		if (u->n_out == 0)
			continue;
		int rank = r[v - first];
		for (int j = 0; j < u->n_words[rank]; j++, w++) {
			t->line_lp[k][w] = t->word_lp[u->word_off[rank] + (size_t)j];
			if (o->attention)
				t->pairs[2 * w] = u->src_word_off +
						  text_protected_word(u->n_spans ? t->spans + u->span_first : NULL, u->n_spans,
								     t->word_src[u->word_off[rank] + (size_t)j]);
			t->pairs[2 * w + 1] = w;
		}
	}
	if (!o->attention)
		return 0;
	if (line_reverse(t, first, last, r, k) != 0)
		return -1;
	if (n > 1)
		qsort(t->pairs, (size_t)n, 2 * sizeof *t->pairs, by_source_word);
	/* at most 2 x 11 digits, '-' and ' ' a pair */
	if (format_reserve(&t->line_align[k], &t->line_align_cap[k], (size_t)n * 24 + 1, 1) != 0)
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
int engine_tr_emit_line(engine_translator *t, const engine_search_options *o, int i, engine_emit_fn emit, void *ctx,
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
	if (format_reserve(&t->piece_word, &t->piece_word_cap, (size_t)(last - first) + 1, sizeof *t->piece_word) != 0)
		goto oom;
	for (int k = 0; k < n_out; k++) {
		float logprob = 0, score = 0;
		int *rank = t->piece_word, n_words;   /* (free scratch by now) each unit's rank */
		t->joined_len[k] = 0;
		if (join(t, k, "", 0, "", 0) != 0)
			goto oom;
		for (int v = first; v < last; v++) {
			const engine_unit *u = &t->units[v];
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
