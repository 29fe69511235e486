/* Text in, translations out: tokenizer + encoder + search + detokenizer.
 * A translator is one thread's worker over a shared, immutable model. */
#ifndef ENGINE_TRANSLATOR_H
#define ENGINE_TRANSLATOR_H
#include <stddef.h>

#include "../nmt.h"   /* nmt_translation */
#include "engine.h"

typedef struct engine_translator engine_translator;

/* NULL if memory runs out. */
engine_translator *engine_translator_new(const nmt_model *m);

/* A translator running the model on `device` (NMT_DEVICE_CPU, or
 * NMT_DEVICE_CUDA in a CUDA build with a GPU): 0, or an nmt_status and a
 * message (NMT_ERR_UNSUPPORTED: no CUDA in this build, or no GPU). */
int engine_translator_new_on(const nmt_model *m, int device, engine_translator **out, char *err, size_t errlen);
void engine_translator_free(engine_translator *t);

/* Receives line i's o->nbest best translations (n >= 1 of them), best
 * first, valid until it returns; nonzero stops the batch. */
typedef int (*engine_emit_fn)(void *ctx, int i, const nmt_translation *tr, int n);

/* Translate lines[0..n) (no newlines), calling emit for line 0, 1, ...
 * n-1 in order. With o->split each line is cut into its sentences
 * (text/split.h); a sentence of more than TEXT_SEGMENT_PIECES source pieces
 * into chunks (segment.h). Every sentence of every line is decoded in
 * passes of at least n of them, of similar lengths, and a line's
 * translation joins its sentences' with the whitespace that stood between
 * them (docs/INPUT.md). The result of a line does not depend on the other
 * lines of its batch. A sentence with no source tokens translates to the
 * empty string without running the model. Returns 0; -1 with a message in
 * err when the options are invalid or memory runs out (no line emitted);
 * or emit's nonzero value. */
int engine_translator_batch(engine_translator *t, const engine_search_options *o, const char *const *lines,
			const size_t *lens, int n, engine_emit_fn emit, void *ctx, char *err, size_t errlen);

/* While emit runs for a line translated with o->attention: for its k-th
 * translation, each source word's target word by the other direction of
 * the alignment (the target word with the most of its attention; -1 where
 * unknown), into *tgt_of; returns how many source words. */
int engine_translator_source_targets(const engine_translator *t, int k, const int **tgt_of);

/* One line: out must hold o->nbest entries; *n_out receives how many were
 * filled (>= 1). */
int engine_translator_line(engine_translator *t, const engine_search_options *o, const char *line, size_t len,
		  nmt_translation *out, int *n_out, char *err, size_t errlen);

#ifdef ENGINE_PROFILE
/* A profile build's: the translator's time and multiply-adds per stage
 * (profile.h), summed over every call so far. */
const engine_profile *engine_translator_profile(const engine_translator *t);
#endif

#endif
