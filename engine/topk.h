/* The k best candidates of a search step, kept by insertion: shared by the
 * CPU search (search.c) and the CUDA one (cuda.cu), so both rank alike. */
#ifndef ENGINE_TOPK_H
#define ENGINE_TOPK_H
#include <math.h>

#include "../quant/ew_body.h"
#include "../quant/hd.h"

/* A continuation: its total log-probability and which (row, token) it is,
 * as row * V + output position. */
typedef struct {
	float value;
	int flat;
} engine_candidate;

/* a ranks before b: the higher value, equal values by the lower flat index
 * (train/search.py's rule). NaN ranks as -inf (offer converts it). */
static inline QUANT_HD int engine_topk_before(float av, int af, float bv, int bf)
{
	return av > bv || (av == bv && af < bf);
}

/* Keep best[0..*count) (at most k) sorted best first; returns whether the
 * newcomer was kept. Offered in any order, the same candidates give the
 * same list. */
static inline QUANT_HD int engine_topk_offer(engine_candidate *best, int *count, int k, float value, int flat)
{
	if (isnan(value))
		value = -INFINITY;
	if (*count == k && !engine_topk_before(value, flat, best[k - 1].value, best[k - 1].flat))
		return 0;
	int p = *count < k ? (*count)++ : k - 1;
	while (p > 0 && engine_topk_before(value, flat, best[p - 1].value, best[p - 1].flat)) {
		best[p] = best[p - 1];
		p--;
	}
	best[p].value = value;
	best[p].flat = flat;
	return 1;
}

/* Greedy: the position of a row's one best continuation, whose value is
 * live + ((x - max) - log_sum) with max the largest logit; -1 when the
 * logits hold no finite largest value (max NaN or infinite). It is the lowest
 * position whose value reaches that of the largest logit: a value never
 * decreases with its logit, so none exceeds that one, and on a tie the
 * lower position wins, as engine_topk_offer ranks them; no list to keep. The
 * scan is the search's own (ew_body.h's quant_ew_first_reaching). */
static inline QUANT_HD int engine_topk_greedy(const float *x, int V, float max, float log_sum, float live)
{
	float top = live + ((max - max) - log_sum);
	int v = quant_ew_first_reaching(x, V, max, log_sum, live, top);
	return v < V ? v : -1;
}

#endif
