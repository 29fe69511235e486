/* Translating HTML fragments (the html option): each line parsed
 * (text/html.h), its plain text translated with alignments, and its tags
 * put back around the aligned words (text/html_render.h). */
#ifndef TEXT_MARKUP_H
#define TEXT_MARKUP_H
#include <stddef.h>

#include "../engine/translator.h"

typedef struct text_markup text_markup;

/* engine_translator_batch for lines of HTML: the same contract, each
 * translation being markup. *m is the translator's markup scratch, made
 * when first needed. */
int text_markup_batch(engine_translator *t, text_markup **m, const engine_search_options *o, const char *const *lines,
		     const size_t *lens, int n, engine_emit_fn emit, void *ctx, char *err, size_t errlen);

void text_markup_free(text_markup *m);

#endif
