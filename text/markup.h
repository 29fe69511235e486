/* Translating HTML fragments (the html option): each line parsed
 * (text/html.h), its plain text translated with alignments, and its tags
 * put back around the aligned words (text/html_render.h). */
#ifndef NMT_ENGINE_MARKUP_H
#define NMT_ENGINE_MARKUP_H
#include <stddef.h>

#include "../engine/translator.h"

typedef struct nmt_markup nmt_markup;

/* nmt_translator_batch for lines of HTML: the same contract, each
 * translation being markup. *m is the translator's markup scratch, made
 * when first needed. */
int nmt_markup_batch(nmt_translator *t, nmt_markup **m, const nmt_search_options *o, const char *const *lines,
		     const size_t *lens, int n, nmt_emit_fn emit, void *ctx, char *err, size_t errlen);

void nmt_markup_free(nmt_markup *m);

#endif
