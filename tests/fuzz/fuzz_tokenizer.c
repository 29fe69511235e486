/* The tokenizer: encoding any bytes with each fixture model (unigram and
 * BPE, nmt_nfkc and identity normalization, byte fallback), decoding the
 * result and arbitrary ids, and opening arbitrary bytes as a packed blob.
 * The first input byte picks the model; the fixture models are read from
 * tests/fixtures/spm/ (run from the repository root). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../vocab/spm.h"
#include "fuzz.h"

static const char *const model_names[] = { "uni_nfkc", "uni_ident", "uni_bytes", "bpe_bytes" };
enum { N_MODELS = sizeof model_names / sizeof *model_names };
static spm_model *models[N_MODELS];
static spm_scratch *scratch;

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char err[256], path[256];
	for (int i = 0; i < N_MODELS; i++) {
		size_t len, blob_len;
		uint8_t *blob;
		snprintf(path, sizeof path, "tests/fixtures/spm/%s.model", model_names[i]);
		uint8_t *proto = read_file(path, &len);
		if (!proto || spm_pack(proto, len, &blob, &blob_len, err, sizeof err) != 0 ||
		    spm_open(blob, blob_len, &models[i], err, sizeof err) != 0) {
			fprintf(stderr, "fuzz_tokenizer: %s: cannot load (run from the repository root)\n", path);
			exit(1);
		}
		free(proto);   /* the blob stays: the model lives in it */
	}
	scratch = spm_scratch_new();
	return scratch ? 0 : 1;
}

/* Encode, then decode what came out. */
static void round_trip(const spm_model *m, const char *text, size_t len)
{
	const int32_t *ids;
	size_t n, out_len;
	const char *out;
	if (spm_encode(m, scratch, text, len, &ids, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(ids[i] >= 0 && ids[i] < spm_vocab_size(m));
	int32_t *copy = malloc((n ? n : 1) * sizeof *copy);   /* ids live in the scratch decode reuses */
	if (!copy)
		return;
	memcpy(copy, ids, n * sizeof *copy);
	FUZZ_ASSERT(spm_decode(m, scratch, copy, n, &out, &out_len) == 0);
	FUZZ_ASSERT(out[out_len] == '\0');
	free(copy);
}

/* The input read as ids (2 bytes each, some out of range): decoding either
 * works or says the id is out of range. */
static void decode_raw(const spm_model *m, const uint8_t *data, size_t size)
{
	size_t n = size / 2;
	int32_t *ids = calloc(n ? n : 1, sizeof *ids);
	const char *out;
	size_t out_len;
	if (!ids)
		return;
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		ids[i] = (int32_t)(data[2 * i] | data[2 * i + 1] << 8) - 8;
		bad |= ids[i] < 0 || ids[i] >= spm_vocab_size(m);
	}
	int rc = spm_decode(m, scratch, ids, n, &out, &out_len);
	FUZZ_ASSERT(bad ? rc == -1 : rc == 0);
	free(ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	unsigned mode = data[0] % (2 * N_MODELS + 1);
	data++;
	size--;
	if (mode < N_MODELS) {
		round_trip(models[mode], (const char *)data, size);
	} else if (mode < 2 * N_MODELS) {
		decode_raw(models[mode - N_MODELS], data, size);
	} else {   /* arbitrary bytes as a packed blob */
		spm_model *m;
		char err[256];
		uint8_t *blob = malloc(size ? size : 1);
		if (!blob)
			return 0;
		memcpy(blob, data, size);
		if (spm_open(blob, size, &m, err, sizeof err) == 0) {
			static const char text[] = "A man rides a bike, \xe2\x80\x9c" "fast\xe2\x80\x9d.";
			round_trip(m, text, sizeof text - 1);
			spm_close(m);
		}
		free(blob);
	}
	return 0;
}
