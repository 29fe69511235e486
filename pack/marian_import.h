/* model-pack --marian's whole import: a Marian model (marian_pack.h), its
 * vocabularies, and the vocabulary map (Marian's lexical shortlist, or an
 * n-gram map), as the sections of one packed file. model-pack and
 * `nmt install` both run it. */
#ifndef PACK_MARIAN_IMPORT_H
#define PACK_MARIAN_IMPORT_H
#include <stddef.h>

#include "../format/weights.h"
#include "writer.h"

typedef struct {
	const char *model;         /* .npz or .bin, gzipped or not */
	const char *vocabs[2];     /* one shared, or source then target */
	int n_vocabs;
	const char *shortlist;     /* lex.*.s2t.bin or its text form; NULL: none */
	const char *vmap;          /* an n-gram map instead (train/vmap.py); NULL: none */
	const char *src_lang, *tgt_lang;   /* NULL: "und" */
	format_encoding quant;
	int has_alpha;             /* 1: record alpha, the search's length normalization */
	double alpha;
} marian_import_files;

/* Read every file and add the packed file's sections to *out (pack_write
 * writes it). 0, or -1 with a one-line message naming the file at fault. */
int marian_import(const marian_import_files *f, pack_file *out, char *err, size_t errlen);

#endif
