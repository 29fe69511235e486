/* Beam search with a shrinking beam, the specification being train/search.py:
 *  - each step, k = beam - finished; the k best (hypothesis, token) candidates
 *    over all live hypotheses are picked, best first, equal scores by lower
 *    (row * V + token);
 *  - a pick ending in EOS is finished (its length counts the EOS), the others
 *    are the next step's live rows, in pick order;
 *  - at max_len, hypotheses still live are finished as they are;
 *  - finished hypotheses are ranked by logP / len^alpha, stable.
 * Greedy decoding is beam 1. A sentence whose n best can no longer change
 * stops early (decided() below): its output is exactly the spec's. */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "engine.h"
#include "family.h"
#include "../quant/ew.h"

typedef engine_candidate candidate;
typedef struct engine_finished finished_hyp;

int engine_default_max_len(int src_len)
{
	return src_len + (src_len + 1) / 2 + 10;   /* ceil(1.5 S) + 10, in integers */
}

/* The size of a sentence's output layer: its shortlist, if any. */
static int output_size(const engine_state *s, const engine_sentence *st)
{
	return st->shortlist_len > 0 ? st->shortlist_len : s->m->d.tgt_vocab;
}

/* Target id of output position k. A shortlist is in increasing id order, so
 * the "lower index wins" tie rule still means "lower id wins". */
static int32_t output_id(const engine_sentence *st, int k)
{
	assert(k >= 0 && (st->shortlist_len == 0 || k < st->shortlist_len));
	return st->shortlist_len > 0 ? st->shortlist[k] : k;
}

/* Whether the repetition guard keeps id from following row g. */
static int blocked(const engine_state *s, const text_guard_row *g, int32_t id)
{
	text_piece_head h;
	if (g->n_ids == 0 && g->n_units == 0)
		return 0;
	text_guard_head(s->m->tgt_vocab, id, &h);
	return text_guard_blocks(g, id, &h);
}

/* A row's continuations at output positions [v0, v1), whose ids increase
 * with the position, offered to the k-best list: the output layer's bias
 * is already in the logits x, and the log-softmax and the k-best selection
 * are one pass (Amun 2018 Alg. 4): a continuation's value live + ((x - max)
 * - L) is offered only where it can still enter the k best. Once the list
 * is full, the scan (ew.h's first_reaching) passes over the values below
 * its last one, which the offer would turn away; the bar only rises, so
 * the result is exactly that of offering every value of the full
 * log-softmax. (A NaN value ranks as -inf: with the bar at -inf every
 * value is offered.) A candidate's flat index is flat0 + its id. */
static void offer_range(const engine_state *s, const engine_sentence *st, const text_guard_row *g, const float *x,
			int v0, int v1, float max, float log_sum, float live, int flat0, int k, candidate *best,
			int *count)
{
	const quant_ew *ew = s->ew;
	for (int v = v0; v < v1; v++) {
		if (*count == k && best[k - 1].value > -INFINITY) {
			v += ew->first_reaching(x + v, v1 - v, max, log_sum, live, best[k - 1].value);
			if (v == v1)
				break;
		}
		if (g && blocked(s, g, output_id(st, v)))
			continue;
		engine_topk_offer(best, count, k, live + ((x[v] - max) - log_sum), flat0 + output_id(st, v));
	}
}

/* Greedy: the output position of a row's best continuation, the lowest id
 * among equal values (topk.h), or -1 when there is no number to rank. */
static int pick_greedy(const engine_sentence *st, int Z, const float *x, int V, float max, float log_sum,
		       float live)
{
	int a = engine_topk_greedy(x, Z, max, log_sum, live);
	int b = engine_topk_greedy(x + Z, V - Z, max, log_sum, live);
	if (b >= 0)
		b += Z;
	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	return output_id(st, a) < output_id(st, b) ? a : b;
}

/* Whether no continuation of a row whose values are at most `top` can
 * enter the full k-best list: values below its last one cannot, and an
 * equal one loses the tie, the list holding only earlier rows' candidates,
 * whose flat indices are lower. A row's best value, live + ((max - max) -
 * L), is at most its live score, since L, the log of a sum holding
 * e^0 = 1, is at least 0: rows come best live score first, and a later
 * one, when the list is full of better candidates, needs neither its
 * log-softmax nor its scan. */
static int cannot_enter(const candidate *best, int count, int k, float top)
{
	return count == k && top <= best[k - 1].value;
}

/* The k best continuations of a sentence's live rows, whose logits start at
 * row `row0`, as (value, row * Vt + id). A shortlist's shared part and its
 * own are each in id order, so each is a range of its own. */
ENGINE_PROF_NOINLINE static int pick_candidates(engine_state *s, const engine_sentence *st, int row0, int k,
						candidate *best)
{
	int V = output_size(s, st), Vt = s->m->d.tgt_vocab, count = 0;
	int Z = st->shortlist_len > 0 ? s->sl.n_shared : 0;
	const quant_ew *ew = s->ew;

	for (int i = 0; i < st->n_live; i++) {
		const float *x = s->logits + (size_t)(row0 + i) * s->logit_stride;
		const text_guard_row *g = s->guard_on ? &s->guard[row0 + i] : NULL;
		float live = st->live_score[i];
		if (cannot_enter(best, count, k, live))
			continue;
		float max, log_sum = ew->log_normalizer(x, V, &max);
		if (cannot_enter(best, count, k, live + ((max - max) - log_sum)))
			continue;
		if (k == 1 && st->n_live == 1) {
			int v = pick_greedy(st, Z, x, V, max, log_sum, live);
			if (v >= 0 && !(g && blocked(s, g, output_id(st, v)))) {
				best[0].value = live + ((x[v] - max) - log_sum);
				best[0].flat = output_id(st, v);
				return 1;
			}
		}
		offer_range(s, st, g, x, 0, Z, max, log_sum, live, i * Vt, k, best, &count);
		offer_range(s, st, g, x, Z, V, max, log_sum, live, i * Vt, k, best, &count);
	}
	return count;
}

/* Stable insertion sort by score, descending. */
static void rank_finished(finished_hyp *fin, int n)
{
	for (int i = 1; i < n; i++) {
		finished_hyp x = fin[i];
		int j = i;
		while (j > 0 && fin[j - 1].score < x.score) {
			fin[j] = fin[j - 1];
			j--;
		}
		fin[j] = x;
	}
}

static size_t history_at(const engine_state *s, int sent, int step)
{
	assert(sent >= 0 && sent < s->hist.cap_sents && step >= 0 && step < s->hist.cap_steps);
	return ((size_t)sent * s->hist.cap_steps + (size_t)step) * NMT_MAX_BEAM;
}

static int32_t *history(const engine_state *s, int32_t *base, int sent, int step)
{
	return base + history_at(s, sent, step);
}

static float *pick_attention(const engine_state *s, int sent, int step, int slot)
{
	assert(sent < s->n_sents && step < s->hist.att_steps && slot >= 0 && slot < s->beam);
	return s->hist.att + (((size_t)sent * s->hist.att_steps + (size_t)step) * s->beam + (size_t)slot) * s->hist.att_stride;
}

const float *engine_search_attention(const engine_state *s, int sent, int step, int slot)
{
	return s->hist.keep_att ? pick_attention(s, sent, step, slot) : NULL;
}

/* Follow the parent links back from (step, slot): the tokens, their slots
 * and their log-probabilities; drop a final EOS. */
static int backtrack(const engine_state *s, int sent, const finished_hyp *f, int32_t *ids, int32_t *slots, float *lp)
{
	int slot = f->slot;
	for (int t = f->step; t >= 0; t--) {
		ids[t] = history(s, s->hist.tok, sent, t)[slot];
		slots[t] = slot;
		lp[t] = s->hist.lp[history_at(s, sent, t) + (size_t)slot];
		slot = history(s, s->hist.parent, sent, t)[slot];
	}
	for (int t = f->step; t > 0; t--)   /* the hypothesis's so far, less its parent's */
		lp[t] -= lp[t - 1];
	int len = f->step + 1;
	return len > 0 && ids[len - 1] == s->m->d.eos_id ? len - 1 : len;
}

static finished_hyp make_finished(int step, int slot, int len, float logprob, double alpha)
{
	return (finished_hyp){ .step = step, .slot = slot, .len = len, .logprob = logprob,
			       .score = logprob / pow(len > 0 ? len : 1, alpha) };
}

/* Every sentence starts from BOS with one live hypothesis, in row i. */
static void start(engine_state *s)
{
	for (int i = 0; i < s->n_sents; i++) {
		engine_sentence *st = &s->sent[i];
		st->n_live = 1;
		st->n_fin = 0;
		st->prev[0] = s->m->d.bos_id;
		st->live_slot[0] = -1;
		st->live_score[0] = 0.0f;
	}
	if (!s->dev_ops)   /* a device's encode left its first states itself */
		s->m->family->start(s);
}

/* The repetition guard's rules for the live hypothesis of sentence sent
 * whose last token sits at (step - 1, slot): from its last pieces. */
static void guard_row(engine_state *s, int sent, int step, int slot, text_guard_row *g)
{
	const engine_sentence *st = &s->sent[sent];
	int32_t hist[TEXT_GUARD_WINDOW];
	int want = text_guard_window(&st->guard), n = step < want ? step : want;
	for (int t = step - 1, k = n - 1; k >= 0; t--, k--) {
		hist[k] = history(s, s->hist.tok, sent, t)[slot];
		slot = history(s, s->hist.parent, sent, t)[slot];
	}
	text_guard_row_build(s->m->tgt_vocab, s->m->tgt_cases, &st->guard, hist, n, g);
}

/* The rows of this step: every live hypothesis of every sentence still
 * being decoded, grouped by sentence, and what the guard keeps each from.
 * Returns how many. */
static int gather_rows(engine_state *s, int step)
{
	int n = 0;
	for (int i = 0; i < s->n_sents; i++)
		for (int k = 0; k < s->sent[i].n_live; k++) {
			if (s->guard_on)
				guard_row(s, i, step, s->sent[i].live_slot[k], &s->guard[n]);
			s->row_sent[n] = i;
			s->row_prev[n++] = s->sent[i].prev[k];
		}
	return n;
}

/* Sentence `sent`'s k best continuations, whose rows start at row0: from
 * this step's logits (the output layer's log-softmax, a stage of its own
 * in a profile build), or as the device picked them. */
static int candidates(engine_state *s, int sent, int row0, int k, candidate *best)
{
	if (!s->dev_ops) {
		ENGINE_PROF_LAP(s, SEARCH, 0);
		int n = pick_candidates(s, &s->sent[sent], row0, k, best);
		ENGINE_PROF_LAP(s, OUT_SOFTMAX, 0);
		return n;
	}
	memcpy(best, s->cand + (size_t)sent * NMT_MAX_BEAM, (size_t)s->n_cand[sent] * sizeof *best);
	return s->n_cand[sent];
}

/* Whether sentence st's n best are decided after `step`: it has n finished
 * hypotheses and none of its live ones can end above the n-th best of
 * them. A continuation adds (x - max) - L <= 0 to a score (L >= 0, its
 * sum holding e^0 = 1), so a live hypothesis's descendants finish with a
 * log-probability at most its own, lp, and a length from step + 2 to
 * max_len: their scores are at most lp / len^alpha at one end or the other.
 * A later finished hypothesis that only ties ranks after the earlier ones
 * (the ranking is stable), so the n best cannot change and the search can
 * stop this sentence: its output is exactly that of searching on. */
static int decided(const engine_sentence *st, int step, const engine_search_options *o)
{
	if (st->n_live == 0 || st->n_fin < o->nbest)
		return 0;
	double top[NMT_MAX_BEAM];   /* the finished scores, best first */
	for (int i = 0; i < st->n_fin; i++) {
		int j = i;
		for (; j > 0 && top[j - 1] < st->fin[i].score; j--)
			top[j] = top[j - 1];
		top[j] = st->fin[i].score;
	}
	double bar = top[o->nbest - 1];
	for (int i = 0; i < st->n_live; i++) {
		double lp = st->live_score[i];
		if (!(lp / pow(step + 2, o->alpha) <= bar && lp / pow(st->max_len, o->alpha) <= bar))
			return 0;
	}
	return 1;
}

/* Advance sentence `sent`, whose rows start at row0, by one step: its k best
 * continuations become finished hypotheses (EOS) or its next live rows,
 * numbered from *next_row on, each continuing from the state of the row
 * s->carry_from names. */
static void advance(engine_state *s, int sent, int row0, int step, const engine_search_options *o, int *next_row)
{
	engine_sentence *st = &s->sent[sent];
	int Vt = s->m->d.tgt_vocab;
	candidate best[NMT_MAX_BEAM];
	int parent_slot[NMT_MAX_BEAM];   /* live_slot is rewritten below while still needed */

	memcpy(parent_slot, st->live_slot, sizeof parent_slot);
	int count = candidates(s, sent, row0, s->beam - st->n_fin, best);
	int n_next = 0;
	for (int p = 0; p < count; p++) {
		int row = best[p].flat / Vt, tok = best[p].flat % Vt;
		history(s, s->hist.tok, sent, step)[p] = tok;
		history(s, s->hist.parent, sent, step)[p] = parent_slot[row];
		s->hist.lp[history_at(s, sent, step) + (size_t)p] = best[p].value;
		if (s->hist.keep_att)
			memcpy(pick_attention(s, sent, step, p), s->hist.step_att + (size_t)(row0 + row) * s->hist.att_stride,
			       (size_t)st->src_len * sizeof(float));
		if (tok == s->m->d.eos_id) {
			st->fin[st->n_fin++] = make_finished(step, p, step + 1, best[p].value, o->alpha);
			continue;
		}
		st->prev[n_next] = tok;
		st->live_slot[n_next] = p;
		st->live_score[n_next] = best[p].value;
		s->carry_from[*next_row + n_next] = row0 + row;
		n_next++;
	}
	st->n_live = n_next;
	if (step + 1 == st->max_len) {   /* out of steps: the live ones finish as they are */
		for (int i = 0; i < st->n_live; i++)
			st->fin[st->n_fin++] = make_finished(step, st->live_slot[i], step + 1, st->live_score[i],
							     o->alpha);
		st->n_live = 0;
	}
	if (decided(st, step, o))
		st->n_live = 0;
	*next_row += st->n_live;
}

/* Decode this step's n rows: here, or on the device, which also picks the
 * candidates. */
static int decode(engine_state *s, int n)
{
	if (!s->dev_ops) {
		engine_decode_step(s, n);
		return 0;
	}
	return s->dev_ops->step(s->dev, s, n);
}

/* The surviving rows' states carried over to the next step (the family's,
 * or the device's), dropping finished hypotheses and sentences. */
static int carry(engine_state *s, int n)
{
	if (s->dev_ops)
		return s->dev_ops->carry(s->dev, s, n);
	s->m->family->carry(s, n);
	return 0;
}

int engine_search(engine_state *s, const engine_search_options *o, engine_hypothesis *out, int *n_out)
{
	start(s);
	for (int step = 0;; step++) {
		int n = gather_rows(s, step);
		if (n == 0)
			break;
		if (decode(s, n) != 0)
			return -1;
		s->rows_decoded += n;
		int next_row = 0;
		for (int row0 = 0; row0 < n;) {
			int sent = s->row_sent[row0], n_rows = s->sent[sent].n_live;
			advance(s, sent, row0, step, o, &next_row);
			row0 += n_rows;
		}
		if (carry(s, next_row) != 0)
			return -1;
	}
	for (int i = 0; i < s->n_sents; i++) {
		engine_sentence *st = &s->sent[i];
		rank_finished(st->fin, st->n_fin);
		n_out[i] = st->n_fin < o->nbest ? st->n_fin : o->nbest;
		for (int k = 0; k < n_out[i]; k++) {
			size_t at = ((size_t)i * NMT_MAX_BEAM + (size_t)k) * s->hist.cap_steps;
			int32_t *ids = s->hist.out_ids + at, *slots = s->hist.out_slot + at;
			float *lp = s->hist.out_lp + at;
			out[i * o->nbest + k] = (engine_hypothesis){ .ids = ids, .slots = slots, .token_lp = lp,
								 .len = backtrack(s, i, &st->fin[k], ids, slots, lp),
								 .logprob = st->fin[k].logprob,
								 .score = (float)st->fin[k].score };
		}
	}
	ENGINE_PROF_LAP(s, SEARCH, 0);
	return 0;
}
