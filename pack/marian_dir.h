/* A Marian model's folder as Firefox Translations publishes one
 * (`model-pack --marian DIR`, `nmt install DIR`): which file is the model,
 * which the vocabularies, the shortlist and metadata.json, found by their
 * names (each may end in .gz), and the languages, from the pair in those
 * names (`enfr`: en, fr) or from metadata.json. docs/MARIAN.md has the
 * rules; the names and metadata.json are parsed here, nothing else is read.
 *
 * Precedence among models: `model[.PAIR].intgemm.alphas.bin` (Firefox's),
 * else `model[.PAIR].intgemm8.bin`, else the one other `*.bin` or `*.npz`
 * (shortlists `lex.*` and `qualityModel.*` files are never models); two of
 * the first kind that is there are an error. */
#ifndef PACK_MARIAN_DIR_H
#define PACK_MARIAN_DIR_H
#include <stddef.h>
#include <stdio.h>

#define MARIAN_DIR_PAIR_MAX 8    /* a pair of two 2- or 3-letter codes, and the NUL */
#define MARIAN_DIR_LANG_MAX 16   /* a language code nmt records, and the NUL (cli/catalog.h) */

typedef enum {
	MARIAN_DIR_OTHER,           /* none of the model's files (README, qualityModel.*, lex.*.t2s.bin, ...) */
	MARIAN_DIR_MODEL_ALPHAS,    /* model[.PAIR].intgemm.alphas.bin */
	MARIAN_DIR_MODEL_INTGEMM8,  /* model[.PAIR].intgemm8.bin */
	MARIAN_DIR_MODEL_OTHER,     /* any other *.bin or *.npz (model.PAIR.* gives the pair) */
	MARIAN_DIR_SHORTLIST,       /* lex[.*][.PAIR].s2t.bin */
	MARIAN_DIR_VOCAB,           /* vocab[.PAIR].spm */
	MARIAN_DIR_SRCVOCAB,        /* srcvocab[.PAIR].spm */
	MARIAN_DIR_TRGVOCAB,        /* trgvocab[.PAIR].spm */
	MARIAN_DIR_METADATA,        /* metadata.json */
} marian_dir_role;

/* A file name's role, and in pair the language pair it names (4 to 6
 * lowercase letters; "" if none). A trailing .gz is ignored. */
marian_dir_role marian_dir_classify(const char *name, char pair[MARIAN_DIR_PAIR_MAX]);

/* The files chosen among a folder's names (pointers into them; NULL: none). */
typedef struct {
	const char *model, *vocab[2], *shortlist, *metadata;
	int n_vocabs;                    /* 1: shared; 2: source and target */
	const char *passed_over;         /* a model candidate of lower precedence, not used (the first) */
	char pair[MARIAN_DIR_PAIR_MAX];  /* the pair their names give, "" if none */
} marian_dir_choice;

/* Choose from names[0..n): one model, one vocabulary or a source and a
 * target one, at most one shortlist and one metadata.json, all naming the
 * same pair. 0, or -1 with a one-line message (no model, two models, no
 * vocabulary, two pairs, ...). */
int marian_dir_choose(const char *const *names, size_t n, marian_dir_choice *c, char *err, size_t errlen);

/* The languages: from metadata.json's sourceLanguage and targetLanguage
 * (BCP 47 tags, '-' recorded as '_': zh-Hans is zh_Hans) when meta (its
 * text, meta_name its name for messages) has them, which must then agree
 * with pair; else split from pair (4 letters 2 + 2, 6 letters 3 + 3, 5
 * letters only where one side is en); else "" and "". *from says which.
 * 0, or -1 with a one-line message (bad JSON, a tag that is not a code,
 * a disagreement, a pair that splits more than one way). */
int marian_dir_languages(const char *pair, const char *meta, size_t meta_len, const char *meta_name,
			 char src[MARIAN_DIR_LANG_MAX], char tgt[MARIAN_DIR_LANG_MAX], const char **from, char *err,
			 size_t errlen);

/* A folder found: its files' paths and the languages. */
typedef struct {
	char *dir;
	char *model, *vocab[2], *shortlist, *metadata;   /* full paths, malloc'd; NULL: none */
	int n_vocabs;
	char *passed_over;
	int metadata_read;   /* 0 when the languages were given */
	char src[MARIAN_DIR_LANG_MAX], tgt[MARIAN_DIR_LANG_MAX];   /* "" if nothing says (recorded as und) */
	char langs_from[96];   /* where they come from, for the user */
} marian_dir;

/* List dir's files, choose (marian_dir_choose), read metadata.json (gzipped
 * or not) and find the languages (marian_dir_languages). src_lang and
 * tgt_lang (NULL: not given) override them, each its side; with both given
 * metadata.json is not read. 0, or -1 with a one-line message. */
int marian_dir_find(const char *dir, const char *src_lang, const char *tgt_lang, marian_dir *d, char *err,
		    size_t errlen);
/* What was found, one line per role and one for the languages, to f. */
void marian_dir_print(const marian_dir *d, FILE *f);
void marian_dir_free(marian_dir *d);

#endif
