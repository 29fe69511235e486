/* Beam search with a shrinking beam, the specification being train/search.py:
 *  - each step, k = beam - finished; the k best (hypothesis, token) candidates
 *    over all live hypotheses are picked, best first, equal scores by lower
 *    (row * V + token);
 *  - a pick ending in EOS is finished (its length counts the EOS), the others
 *    are the next step's live rows, in pick order;
 *  - at max_len, hypotheses still live are finished as they are;
 *  - finished hypotheses are ranked by logP / len^alpha, stable.
 * Greedy decoding is beam 1. */
#include <math.h>
#include <string.h>

#include "../quant/vecmath.h"
#include "engine.h"

typedef struct {
	float value;
	int flat;       /* row * V + token */
} candidate;

typedef struct {
	int step, slot; /* where its last token sits in the history */
	int len;        /* tokens, EOS included if it ended with one */
	float logprob;
	double score;
} finished_hyp;

int nmt_default_max_len(int src_len)
{
	return src_len + (src_len + 1) / 2 + 10;   /* ceil(1.5 S) + 10, in integers */
}

/* Keep best[0..*count) sorted by value, descending; a newcomer equal to an
 * entry ranks after it, which with flat indices visited in increasing order
 * gives the "lower index wins" tie rule. NaN ranks as -inf. */
static void offer(candidate *best, int *count, int k, float value, int flat)
{
	if (isnan(value))
		value = -INFINITY;
	if (*count == k && !(value > best[k - 1].value))
		return;
	int p = *count < k ? (*count)++ : k - 1;
	while (p > 0 && best[p - 1].value < value) {
		best[p] = best[p - 1];
		p--;
	}
	best[p] = (candidate){ value, flat };
}

/* The size of the output layer for this sentence: its shortlist, if any. */
static int output_size(const nmt_state *s)
{
	return s->shortlist_len > 0 ? s->shortlist_len : s->m->d.tgt_vocab;
}

/* Target id of output position k. A shortlist is in increasing id order, so
 * the "lower index wins" tie rule still means "lower id wins". */
static int32_t output_id(const nmt_state *s, int k)
{
	return s->shortlist_len > 0 ? s->shortlist[k] : k;
}

static int pick_candidates(nmt_state *s, int n_live, const float *live_score, int k, candidate *best)
{
	int V = output_size(s), count = 0;

	for (int i = 0; i < n_live; i++) {
		float *row = s->logits + (size_t)i * V;
		nmt_vec_log_softmax(row, V);
		for (int v = 0; v < V; v++)
			offer(best, &count, k, live_score[i] + row[v], i * V + v);
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

/* Follow the parent links back from (step, slot); drop a final EOS. */
static int backtrack(const nmt_state *s, const finished_hyp *f, int32_t *ids)
{
	int slot = f->slot;
	for (int t = f->step; t >= 0; t--) {
		ids[t] = s->hist_tok[(size_t)t * NMT_MAX_BEAM + slot];
		slot = s->hist_parent[(size_t)t * NMT_MAX_BEAM + slot];
	}
	int len = f->step + 1;
	return len > 0 && ids[len - 1] == s->m->d.eos_id ? len - 1 : len;
}

static finished_hyp make_finished(int step, int slot, int len, float logprob, double alpha)
{
	return (finished_hyp){ .step = step, .slot = slot, .len = len, .logprob = logprob,
			       .score = logprob / pow(len > 0 ? len : 1, alpha) };
}

int nmt_search(nmt_state *s, const nmt_search_options *o, nmt_hypothesis *out, int *n_out)
{
	const nmt_dims *d = &s->m->d;
	int beam = o->beam, V = output_size(s), r = d->dec_hidden;
	int max_len = o->max_len > 0 ? o->max_len : nmt_default_max_len(s->src_len);
	int32_t prev[NMT_MAX_BEAM] = { d->bos_id };
	int live_slot[NMT_MAX_BEAM] = { -1 };
	float live_score[NMT_MAX_BEAM] = { 0.0f };
	finished_hyp fin[NMT_MAX_BEAM];
	int n_live = 1, n_fin = 0, step;

	if (nmt_state_reserve(s, s->src_len, max_len) != 0)
		return -1;
	for (step = 0; step < max_len && n_live > 0; step++) {
		candidate best[NMT_MAX_BEAM];
		int parent_slot[NMT_MAX_BEAM];   /* live_slot is rewritten below while still needed */
		memcpy(parent_slot, live_slot, sizeof parent_slot);
		nmt_decode_step(s, n_live, prev);
		int count = pick_candidates(s, n_live, live_score, beam - n_fin, best);
		int n_next = 0;
		for (int p = 0; p < count; p++) {
			int row = best[p].flat / V, tok = output_id(s, best[p].flat % V);
			s->hist_tok[(size_t)step * NMT_MAX_BEAM + p] = tok;
			s->hist_parent[(size_t)step * NMT_MAX_BEAM + p] = parent_slot[row];
			if (tok == d->eos_id) {
				fin[n_fin++] = make_finished(step, p, step + 1, best[p].value, o->alpha);
				continue;
			}
			prev[n_next] = tok;
			live_slot[n_next] = p;
			live_score[n_next] = best[p].value;
			memcpy(s->h + (size_t)n_next * r, s->h_next + (size_t)row * r, (size_t)r * sizeof(float));
			n_next++;
		}
		n_live = n_next;
	}
	for (int i = 0; i < n_live; i++)   /* max_len reached */
		fin[n_fin++] = make_finished(step - 1, live_slot[i], step, live_score[i], o->alpha);
	rank_finished(fin, n_fin);
	*n_out = n_fin < o->nbest ? n_fin : o->nbest;
	for (int i = 0; i < *n_out; i++) {
		int32_t *ids = s->out_ids + (size_t)i * s->cap_steps;
		out[i] = (nmt_hypothesis){ .ids = ids, .len = backtrack(s, &fin[i], ids),
					   .logprob = fin[i].logprob, .score = (float)fin[i].score };
	}
	return 0;
}
