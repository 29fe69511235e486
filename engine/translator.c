#include "translator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nmt_translator {
	const nmt_model *m;
	nmt_state state;
	spm_scratch *src_scratch, *tgt_scratch;
	int32_t *src;                      /* source ids + EOS */
	size_t src_cap;
	char *text[NMT_MAX_BEAM];          /* detokenized n-best outputs */
	size_t text_cap[NMT_MAX_BEAM];
};

nmt_translator *nmt_translator_new(const nmt_model *m)
{
	nmt_translator *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->m = m;
	t->src_scratch = spm_scratch_new();
	t->tgt_scratch = spm_scratch_new();
	if (!t->src_scratch || !t->tgt_scratch || nmt_state_init(&t->state, m) != 0) {
		nmt_translator_free(t);
		return NULL;
	}
	return t;
}

void nmt_translator_free(nmt_translator *t)
{
	if (!t)
		return;
	if (t->state.m)
		nmt_state_free(&t->state);
	spm_scratch_free(t->src_scratch);
	spm_scratch_free(t->tgt_scratch);
	free(t->src);
	for (int i = 0; i < NMT_MAX_BEAM; i++)
		free(t->text[i]);
	free(t);
}

static int set_text(nmt_translator *t, int rank, const char *text, size_t len)
{
	if (len + 1 > t->text_cap[rank]) {
		char *p = realloc(t->text[rank], len + 1);
		if (!p)
			return -1;
		t->text[rank] = p;
		t->text_cap[rank] = len + 1;
	}
	memcpy(t->text[rank], text, len);
	t->text[rank][len] = '\0';
	return 0;
}

/* Tokenize into t->src and append the source EOS. Returns the length. */
static int source_ids(nmt_translator *t, const char *line, size_t len)
{
	const int32_t *ids;
	size_t n;

	if (spm_encode(t->m->src_vocab, t->src_scratch, line, len, &ids, &n) != 0 ||
	    n >= (size_t)1 << 24)
		return -1;
	if (n + 1 > t->src_cap) {
		int32_t *p = realloc(t->src, (n + 1) * sizeof *p);
		if (!p)
			return -1;
		t->src = p;
		t->src_cap = n + 1;
	}
	memcpy(t->src, ids, n * sizeof *ids);
	t->src[n] = t->m->d.src_eos_id;
	return (int)n + 1;
}

int nmt_translate(nmt_translator *t, const nmt_search_options *o, const char *line, size_t len,
		  nmt_translation *out, int *n_out, char *err, size_t errlen)
{
	nmt_hypothesis hyps[NMT_MAX_BEAM];
	int n_hyps;

	*n_out = 0;
	if (o->beam < 1 || o->beam > NMT_MAX_BEAM || o->nbest < 1 || o->nbest > o->beam) {
		snprintf(err, errlen, "beam must be 1..%d and nbest 1..beam", NMT_MAX_BEAM);
		return -1;
	}
	int S = source_ids(t, line, len);
	if (S < 0)
		goto oom;
	if (S == 1) {   /* nothing but EOS: the empty line translates to the empty line */
		if (set_text(t, 0, "", 0) != 0)
			goto oom;
		out[0] = (nmt_translation){ .text = t->text[0], .len = 0, .logprob = 0, .score = 0 };
		*n_out = 1;
		return 0;
	}
	if (nmt_state_reserve(&t->state, S, 0) != 0)
		goto oom;
	t->state.shortlist_len = 0;
	if (o->use_shortlist && t->m->has_vmap)
		t->state.shortlist_len = nmt_vmap_shortlist(&t->m->vmap, t->src, S - 1, t->m->d.eos_id,
							    t->m->d.tgt_vocab, t->state.shortlist_marks,
							    t->state.shortlist);
	nmt_encode(&t->state, t->src, S);
	if (nmt_search(&t->state, o, hyps, &n_hyps) != 0)
		goto oom;
	for (int i = 0; i < n_hyps; i++) {
		const char *text;
		size_t text_len;
		if (spm_decode(t->m->tgt_vocab, t->tgt_scratch, hyps[i].ids, (size_t)hyps[i].len,
			       &text, &text_len) != 0 || set_text(t, i, text, text_len) != 0)
			goto oom;
		out[i] = (nmt_translation){ .text = t->text[i], .len = text_len,
					    .logprob = hyps[i].logprob, .score = hyps[i].score };
	}
	*n_out = n_hyps;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}
