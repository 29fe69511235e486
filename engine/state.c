/* Per-thread engine state: its parts set up, a batch prepared (every
 * buffer grown to fit it, shortlists built), everything freed. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "family.h"
#include "../format/grow.h"
#include "../quant/qdot.h"

/* Grow array p to n elements; a failure sets the caller's `failed`. */
#define GROW(p, n) (failed |= format_grow(&(p), (n), sizeof *(p)))

int engine_state_init(engine_state *s, const nmt_model *m)
{
	memset(s, 0, sizeof *s);
	s->m = m;
	s->ew = m->qdot->ew;
	if (quant_kscratch_init(&s->kq, m->max_input, m->qdot) != 0 || engine_shortlist_init(&s->sl, m) != 0) {
		engine_state_free(s);
		return -1;
	}
	ENGINE_PROF_START(s);
	return 0;
}

/* What the search keeps per sentence. */
static int reserve_sentences(engine_state *s, int n_sents)
{
	int failed = 0;
	size_t n = (size_t)n_sents;

	if (n_sents > s->cap_sents) {
		GROW(s->sent, n);
		GROW(s->cand, n * NMT_MAX_BEAM);
		GROW(s->n_cand, n);
		if (failed)
			return -1;
		s->cap_sents = n_sents;
	}
	return 0;
}

/* The rows the search and the decoder exchange; the logits also grow with
 * s->logit_stride. */
static int reserve_rows(engine_state *s, int rows)
{
	int failed = 0;
	size_t R = (size_t)rows;

	if (rows > s->cap_rows) {
		GROW(s->row_sent, R);
		GROW(s->row_prev, R);
		GROW(s->carry_from, R);
		GROW(s->guard, R);
		if (failed)
			return -1;
		s->cap_rows = rows;
		s->cap_logit_stride = 0;   /* logits are per row: regrow them */
	}
	if (s->logit_stride > s->cap_logit_stride) {
		GROW(s->logits, (size_t)s->cap_rows * (size_t)s->logit_stride);
		if (failed)
			return -1;
		s->cap_logit_stride = s->logit_stride;
	}
	return 0;
}

int engine_batch_prepare(engine_state *s, int n, const int32_t *const *src, const int *src_len,
		      const engine_search_options *o)
{
	const nmt_model *m = s->m;
	int total = 0, longest = 0, steps = 0;

	assert(n >= 1 && o->beam >= 1 && o->beam <= NMT_MAX_BEAM && o->nbest >= 1 && o->nbest <= o->beam);
	for (int i = 0; i < n; i++) {
		assert(src_len[i] >= 1 && src[i][src_len[i] - 1] == m->d.src_eos_id);
		for (int j = 0; j < src_len[i]; j++)
			assert(src[i][j] >= 0 && src[i][j] < m->d.src_vocab);
	}
	if (reserve_sentences(s, n) != 0)
		return -1;
	s->n_sents = n;
	s->beam = o->beam;
	s->guard_on = o->guard;
	for (int i = 0; i < n; i++) {
		engine_sentence *st = &s->sent[i];
		memset(st, 0, sizeof *st);
		st->src_off = total;
		st->src_len = src_len[i];
		st->max_len = o->max_len > 0 ? o->max_len : m->family->max_len(src_len[i]);
		st->out_bias = m->out_bias;
		if (o->guard)
			text_guard_limits_of(m->src_vocab, m->src_cases, src[i], src_len[i] - 1, &st->guard);
		total += src_len[i];
		longest = src_len[i] > longest ? src_len[i] : longest;
		steps = st->max_len > steps ? st->max_len : steps;
	}
	s->total_src = total;
	s->max_src = longest;
	s->logit_stride = m->d.tgt_vocab;
	s->sl.n_shared = o->use_shortlist ? m->n_shared : 0;
	ENGINE_PROF_LAP(s, OTHER, 0);
	if (o->use_shortlist && m->has_vmap && engine_shortlists_build(s, src) != 0)
		return -1;
	ENGINE_PROF_LAP(s, OUT_SHORTLIST, 0);
	s->hist.keep_att = o->attention;
	return reserve_rows(s, n * o->beam) | m->family->reserve(s, src) | engine_history_reserve(&s->hist, n, steps) |
	       (o->attention ? engine_history_reserve_attention(&s->hist, n, o->beam, steps, longest) : 0);
}

void engine_state_free(engine_state *s)
{
	void *p[] = { s->sent, s->cand, s->n_cand, s->row_sent, s->row_prev, s->logits, s->carry_from, s->guard };
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		free(p[i]);
	if (s->m)
		s->m->family->free_state(s);
	engine_shortlist_free(&s->sl);
	engine_history_free(&s->hist);
	quant_kscratch_free(&s->kq);
	memset(s, 0, sizeof *s);
}

void engine_encode(engine_state *s, const int32_t *const *src)
{
	ENGINE_PROF_LAP(s, OTHER, 0);
	ENGINE_PROF_SIDE(s, 0);
	s->m->family->encode(s, src);
	ENGINE_PROF_LAP(s, ENCODER, 0);
}

void engine_decode_step(engine_state *s, int n)
{
	assert(n >= 1 && n <= s->cap_rows && n <= s->n_sents * s->beam);
	for (int i = 0; i < n; i++) {
		/* a sentence's rows adjacent, in sentence order */
		assert(s->row_sent[i] >= 0 && s->row_sent[i] < s->n_sents && (i == 0 || s->row_sent[i] >= s->row_sent[i - 1]));
		/* a target id, or the start (bos_id, -1 for Marian's models: no previous word) */
		assert(s->row_prev[i] >= -1 && s->row_prev[i] < s->m->d.tgt_vocab);
	}
	ENGINE_PROF_LAP(s, SEARCH, 0);
	ENGINE_PROF_SIDE(s, 1);
	s->m->family->step(s, n);
	ENGINE_PROF_LAP(s, DECODER, 0);
}
