/* Marian's model files as model-pack reads them (pack/marian_file.h,
 * pack/marian_yml.h) on any bytes; the first byte picks the reader: the
 * .npz archive, the .bin file, the model's YAML, or a lexical shortlist
 * (binary or text, over the tiny fixture's vocabulary). Whatever is accepted holds together:
 * every item's bytes lie inside the input and are exactly what its shape
 * and type say; every YAML entry has a key and at most the items it may. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../pack/marian_file.h"
#include "../../pack/marian_lex.h"
#include "../../pack/marian_pack.h"
#include "../../pack/marian_yml.h"
#include "fuzz.h"

static spm_model *vocab;   /* the fixture's target vocabulary, read once */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FILE *f = fopen("tests/fixtures/tiny/tgt.model", "rb");
	static uint8_t proto[1 << 16];
	size_t n = f ? fread(proto, 1, sizeof proto, f) : 0;
	uint8_t *blob;
	size_t blob_len;
	char err[256];
	if (f)
		fclose(f);
	if (n == 0 || spm_pack(proto, n, &blob, &blob_len, err, sizeof err) != 0 ||
	    spm_open(blob, blob_len, &vocab, err, sizeof err) != 0) {
		fprintf(stderr, "fuzz_marian: run from the repository root (tests/fixtures/tiny/tgt.model)\n");
		abort();
	}
	return 0;
}

static void check_lex(const uint8_t *data, size_t size)
{
	marian_lex lex;
	char err[256];
	if (marian_lex_parse(data, size, vocab, vocab, &lex, err, sizeof err) != 0) {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\n', strlen(err)) == NULL);
		return;
	}
	int V = spm_vocab_size(vocab);
	FUZZ_ASSERT(lex.src_vocab == V && lex.first >= 0 && lex.first <= V && lex.offsets[0] == 0);
	for (int s = 0; s < V; s++) {
		FUZZ_ASSERT(lex.offsets[s] <= lex.offsets[s + 1]);
		for (uint64_t i = lex.offsets[s]; i < lex.offsets[s + 1]; i++)
			FUZZ_ASSERT(lex.ids[i] < (uint32_t)V);
	}
	marian_lex_free(&lex);
}

static size_t item_bytes(const mf_item *it, int64_t n)
{
	return it->type == MF_F32 ? (size_t)n * 4 : it->type == MF_INTGEMM8 ? (size_t)n + 4 : (size_t)n;
}

static void check_items(const uint8_t *data, size_t size, int bin)
{
	mf_file f;
	char err[256];
	if ((bin ? mf_open_bin : mf_open_npz)(data, size, &f, err, sizeof err) != 0) {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\n', strlen(err)) == NULL);
		return;
	}
	for (size_t i = 0; i < f.n; i++) {
		const mf_item *it = &f.items[i];
		FUZZ_ASSERT(memchr(it->name, '\0', MF_NAME_MAX) != NULL);
		FUZZ_ASSERT(it->data >= data && it->nbytes <= size && (size_t)(it->data - data) <= size - it->nbytes);
		int64_t n = mf_numel(it);
		FUZZ_ASSERT(n >= 0 && item_bytes(it, n) == it->nbytes);
		FUZZ_ASSERT(mf_find(&f, it->name) != NULL);
	}
	mf_close(&f);
}

static void check_yml(const uint8_t *data, size_t size)
{
	yml_doc d;
	char err[256];
	if (yml_parse((const char *)data, size, &d, err, sizeof err) != 0) {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\n', strlen(err)) == NULL);
		return;
	}
	for (int i = 0; i < d.n; i++) {
		const yml_entry *e = &d.entries[i];
		FUZZ_ASSERT(e->key[0] != '\0' && e->n_items <= YML_MAX_ITEMS && (e->is_list || e->n_items == 0));
		FUZZ_ASSERT(yml_find(&d, e->key) != NULL);
	}
	marian_dims dims;
	if (marian_config(&d, &dims, err, sizeof err) != 0) {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\n', strlen(err)) == NULL);
	} else {
		FUZZ_ASSERT(dims.emb % dims.heads == 0 && dims.dec_layers >= 1 && dims.dec_layers <= MARIAN_MAX_LAYERS);
		for (int i = 0; i < dims.dec_layers; i++)
			FUZZ_ASSERT(dims.dec_tied[i] >= 1 && dims.dec_tied[i] <= dims.dec_layers);
	}
	yml_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	switch (data[0] % 4) {
	case 0: check_items(data + 1, size - 1, 0); break;
	case 1: check_items(data + 1, size - 1, 1); break;
	case 2: check_yml(data + 1, size - 1); break;
	default: check_lex(data + 1, size - 1); break;
	}
	return 0;
}
