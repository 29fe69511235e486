/* The search history's buffers (engine.h's engine_history): reserved when a
 * batch is prepared, never inside the decode loop. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "../format/grow.h"

/* Grow array p to n elements; a failure sets the caller's `failed`. */
#define GROW(p, n) (failed |= format_grow(&(p), (n), sizeof *(p)))

int engine_history_reserve(engine_history *h, int n_sents, int steps)
{
	int failed = 0;
	if (n_sents <= h->cap_sents && steps <= h->cap_steps)
		return 0;
	/* a sentence's picks sit cap_steps apart: growing either regrows all */
	int sents = n_sents > h->cap_sents ? n_sents : h->cap_sents;
	int cap_steps = steps > h->cap_steps ? steps : h->cap_steps;
	size_t n = (size_t)sents * (size_t)cap_steps * NMT_MAX_BEAM;
	GROW(h->tok, n);
	GROW(h->parent, n);
	GROW(h->lp, n);
	GROW(h->out_ids, n);
	GROW(h->out_slot, n);
	GROW(h->out_lp, n);
	if (failed)
		return -1;
	h->cap_sents = sents;
	h->cap_steps = cap_steps;
	return 0;
}

int engine_history_reserve_attention(engine_history *h, int n_sents, int beam, int steps, int stride)
{
	int failed = 0;
	size_t hist = (size_t)n_sents * (size_t)steps * (size_t)beam * (size_t)stride;
	size_t step = (size_t)n_sents * (size_t)beam * (size_t)stride;
	if (hist > h->cap_att) {
		GROW(h->att, hist);
		if (!failed)
			h->cap_att = hist;
	}
	if (step > h->cap_step_att) {
		GROW(h->step_att, step);
		if (!failed)
			h->cap_step_att = step;
	}
	h->att_steps = steps;
	h->att_stride = stride;
	return failed ? -1 : 0;
}

void engine_history_free(engine_history *h)
{
	void *p[] = { h->tok, h->parent, h->lp, h->out_ids, h->out_slot, h->out_lp, h->att, h->step_att };
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		free(p[i]);
	memset(h, 0, sizeof *h);
}
