/* Marian's lexical shortlist (`lex.*.s2t.bin`, or the text form with
 * "target source probability" lines), read as: the first `first` target
 * ids, always allowed, and each source id's candidate targets, which
 * model-pack --marian turns into the vocabulary map (the "vmap" section). */
#ifndef PACK_MARIAN_LEX_H
#define PACK_MARIAN_LEX_H
#include <stddef.h>
#include <stdint.h>

#include "../vocab/spm.h"

typedef struct {
	int first;           /* target ids 0 .. first - 1 are in every shortlist */
	int src_vocab;
	uint64_t *offsets;   /* [src_vocab + 1]: source s's candidates are ids[offsets[s] .. offsets[s + 1]) */
	uint32_t *ids;       /* sorted per source */
} marian_lex;

/* The vocabularies give the sizes and, for the text form, the pieces' ids
 * (both opened with encoding tables). 0, or -1 with a one-line message
 * naming the file. */
int marian_lex_read(const char *path, const spm_model *src_sp, const spm_model *tgt_sp, marian_lex *lex,
		    char *err, size_t errlen);
/* The same from the file's bytes. */
int marian_lex_parse(const uint8_t *buf, size_t len, const spm_model *src_sp, const spm_model *tgt_sp,
		     marian_lex *lex, char *err, size_t errlen);
void marian_lex_free(marian_lex *lex);

#endif
