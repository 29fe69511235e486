/* Text in, translations out: tokenizer + encoder + search + detokenizer.
 * A translator is one thread's worker over a shared, immutable model. */
#ifndef NMT_TRANSLATOR_H
#define NMT_TRANSLATOR_H
#include <stddef.h>

#include "engine.h"

typedef struct {
	const char *text;   /* NUL-terminated, owned by the translator, valid until its next call */
	size_t len;
	float logprob, score;
} nmt_translation;

typedef struct nmt_translator nmt_translator;

/* NULL if memory runs out. */
nmt_translator *nmt_translator_new(const nmt_model *m);
void nmt_translator_free(nmt_translator *t);

/* Translate one line (no newline). out must hold o->nbest entries; *n_out
 * receives how many were filled (>= 1). A line with no source tokens
 * translates to the empty string without running the model. Returns -1 with
 * a message in err when memory runs out or the options are invalid. */
int nmt_translate(nmt_translator *t, const nmt_search_options *o, const char *line, size_t len,
		  nmt_translation *out, int *n_out, char *err, size_t errlen);

#endif
