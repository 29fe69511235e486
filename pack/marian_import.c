/* model-pack --marian's import (see marian_import.h). */
#include "marian_import.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../engine/vmap.h"
#include "../vocab/spm.h"
#include "file.h"
#include "marian_lex.h"
#include "marian_pack.h"
#include "vmap_pack.h"
#include "vocab.h"

/* A vocabulary opened with its encoding tables (for looking pieces up),
 * and the packed bytes it lives in (*blob, freed after spm_close). */
static spm_model *open_full_vocab(const char *path, uint8_t **blob, char *err, size_t errlen)
{
	size_t len, blob_len;
	uint8_t *proto;
	spm_model *sp = NULL;
	char why[256];
	*blob = NULL;
	if (pack_read_file(path, &proto, &len, err, errlen) != 0)
		return NULL;
	if (spm_pack(proto, len, blob, &blob_len, why, sizeof why) != 0 ||
	    spm_open(*blob, blob_len, &sp, why, sizeof why) != 0) {
		free(*blob);
		*blob = NULL;
		sp = NULL;
		error_set(err, errlen, "%s: %s", path, why);
	}
	free(proto);
	return sp;
}

/* The shortlist's lists turned into the map's: the 0-grams zero[*n_zero]
 * (the first ids, the end-of-sentence piece's candidates, with one shared
 * vocabulary that piece itself) and each source piece's targets
 * ids[offsets[s] .. offsets[s + 1]) (with one shared vocabulary the source
 * piece too, as marian-decoder allows). */
static void shortlist_lists(const marian_lex *lex, int Vs, int Vt, int eos, int shared, uint8_t *in_zero,
			    uint32_t *zero, size_t *n_zero, uint64_t *offsets, uint32_t *ids)
{
	size_t nz = 0, k = 0;
#define ZERO(id) (in_zero[id] ? 0 : (in_zero[id] = 1, zero[nz++] = (uint32_t)(id)))
	for (int i = 0; i < lex->first; i++)
		ZERO(i);
	for (uint64_t i = lex->offsets[eos]; i < lex->offsets[eos + 1]; i++)
		ZERO(lex->ids[i]);
	if (shared)
		ZERO(eos);
#undef ZERO
	for (int s = 0; s < Vs; s++) {
		offsets[s] = k;
		int has_self = 0;
		for (uint64_t i = lex->offsets[s]; i < lex->offsets[s + 1]; i++) {
			has_self |= lex->ids[i] == (uint32_t)s;
			if (i == lex->offsets[s] || lex->ids[i] != lex->ids[i - 1])
				ids[k++] = lex->ids[i];
		}
		if (shared && s < Vt && !has_self)
			ids[k++] = (uint32_t)s;
	}
	offsets[Vs] = k;
	*n_zero = nz;
}

/* Marian's lexical shortlist as the vocabulary map, so that each sentence's
 * output vocabulary is the one marian-decoder uses. *first receives the
 * shortlist's first-ids count: marian-decoder pads each shortlist with ids
 * from there to a multiple of 8. */
static int add_shortlist(const char *path, const char *const vocabs[2], int n_vocabs, pack_file *out, int *first,
			 char *err, size_t errlen)
{
	uint8_t *src_blob = NULL, *tgt_blob = NULL, *in_zero = NULL, *blob;
	spm_model *src = open_full_vocab(vocabs[0], &src_blob, err, errlen), *tgt = NULL;
	uint32_t *zero = NULL, *ids = NULL;
	uint64_t *offsets = NULL;
	marian_lex lex = { 0 };
	size_t blob_len, n_zero;
	char why[512];
	int rc = -1;
	if (!src)
		return -1;
	tgt = n_vocabs == 2 ? open_full_vocab(vocabs[1], &tgt_blob, err, errlen) : src;
	if (!tgt)
		goto done;
	int Vs = spm_vocab_size(src), Vt = spm_vocab_size(tgt);
	if (marian_lex_read(path, src, tgt, &lex, err, errlen) != 0)
		goto done;
	size_t n_ids = (size_t)lex.offsets[Vs];
	zero = malloc(((size_t)lex.first + n_ids + 2) * sizeof *zero);
	offsets = malloc(((size_t)Vs + 1) * sizeof *offsets);
	ids = malloc((n_ids + (size_t)Vs + 1) * sizeof *ids);
	in_zero = calloc((size_t)Vt, 1);
	if (!zero || !offsets || !ids || !in_zero) {
		error_set(err, errlen, "out of memory");
		goto done;
	}
	shortlist_lists(&lex, Vs, Vt, spm_eos_id(src), n_vocabs == 1, in_zero, zero, &n_zero, offsets, ids);
	if (pack_vmap_unigrams(zero, n_zero, offsets, ids, Vs, Vt, &blob, &blob_len, why, sizeof why) != 0) {
		error_set(err, errlen, "%s: %s", path, why);
		goto done;
	}
	if (pack_add_section(out, ENGINE_TAG_VMAP, blob, blob_len, 0) != 0) {
		error_set(err, errlen, "too many sections");
		goto done;
	}
	*first = lex.first;
	rc = 0;
done:
	marian_lex_free(&lex);
	free(zero);
	free(offsets);
	free(ids);
	free(in_zero);
	if (tgt && tgt != src)
		spm_close(tgt);
	spm_close(src);
	free(src_blob);
	free(tgt_blob);
	return rc;
}

int marian_import(const marian_import_files *f, pack_file *out, char *err, size_t errlen)
{
	marian_dims d;
	int bos, eos;
	char extra[96] = "";

	if (f->vmap && f->shortlist)
		return error_set(err, errlen, "--vmap and --shortlist both give the vocabulary map: one of them");
	if (marian_pack(f->model, f->quant, out, &d, err, errlen) != 0 ||
	    pack_vocab(f->vocabs[0], FORMAT_TAG_SRC_VOCAB, d.src_vocab, -1, -1, 0, out, NULL, NULL, err, errlen) != 0 ||
	    pack_vocab(f->vocabs[f->n_vocabs - 1], FORMAT_TAG_TGT_VOCAB, d.tgt_vocab, -1, -1, 1, out, &bos, &eos, err,
		       errlen) != 0)
		return -1;
	if (f->shortlist) {
		int first;
		if (add_shortlist(f->shortlist, f->vocabs, f->n_vocabs, out, &first, err, errlen) != 0)
			return -1;
		snprintf(extra, sizeof extra, "shortlist_pad=8\nshortlist_pad_from=%d\n", first);
	}
	if (f->vmap) {
		uint8_t *blob;
		size_t blob_len;
		if (pack_vmap(f->vmap, d.src_vocab, d.tgt_vocab, &blob, &blob_len, err, errlen) != 0)
			return -1;
		if (pack_add_section(out, ENGINE_TAG_VMAP, blob, blob_len, 0) != 0)
			return error_set(err, errlen, "too many sections");
	}
	if (f->has_alpha)
		snprintf(extra + strlen(extra), sizeof extra - strlen(extra), "alpha=%.9g\n", f->alpha);
	return marian_add_meta(out, &d, f->quant, f->src_lang, f->tgt_lang, bos, eos, extra, err, errlen);
}
