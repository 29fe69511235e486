/* Results: each text's translations collected while a call runs (by
 * whichever thread translated it), then copied into one block the caller
 * owns. */
#ifndef API_RESULT_H
#define API_RESULT_H
#include "../nmt.h"

/* One text's translations during a call. Reused from call to call, so a
 * session that has seen its longest outputs allocates nothing more here. */
typedef struct {
	char *buf;                       /* the texts, each NUL-terminated, one after the other,
					  * each followed by its alignment (if any), NUL-terminated */
	size_t len, cap;
	float *lp;                       /* the translations' words' log-probabilities */
	size_t lp_len, lp_cap;
	int n;                           /* translations */
	nmt_translation tr[NMT_MAX_BEAM];   /* scores and lengths (text set when built) */
} api_text_out;

/* Copy n translations into o; 0, or -1 if memory runs out. */
int api_text_out_set(api_text_out *o, const nmt_translation *tr, int n);

void api_text_out_free(api_text_out *o);

/* The result of outs[0..count), all translated, in one allocation; NULL if
 * memory runs out. */
nmt_result *api_result_build(const api_text_out *outs, int count);

#endif
