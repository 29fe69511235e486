/* tests/test_spm.c - the SentencePiece-compatible tokenizer (vocab/spm*).
 *
 * Run from the repo root. Expected outputs in tests/fixtures/spm/ were produced by
 * spm_encode/spm_decode (tests/fixtures/spm/make_fixtures.sh); nothing here needs
 * SentencePiece, Python or the Multi30k data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../vocab/spm.h"

#define FIX "tests/fixtures/spm/"

static const char *const kModels[] = { "uni_nfkc", "uni_ident", "uni_bytes", "bpe_bytes" };
static const char *const kTexts[] = { "torture", "sentences" };

/* ---- helpers ---- */

typedef struct {
	uint8_t *data;
	size_t len;
} buffer;

static buffer read_file(const char *path)
{
	buffer b = { NULL, 0 };
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s (run the tests from the repo root)", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.data = malloc((size_t)n + 1);
	assert_non_null(b.data);
	b.len = fread(b.data, 1, (size_t)n, f);
	assert_int_equal(b.len, (size_t)n);
	b.data[b.len] = 0;
	fclose(f);
	return b;
}

static buffer read_fixture(const char *name, const char *ext)
{
	char path[256];
	snprintf(path, sizeof path, FIX "%s%s", name, ext);
	return read_file(path);
}

/* Lines of a file that may contain NUL bytes: starts and lengths, without the '\n'. */
typedef struct {
	const char **start;
	size_t *len;
	size_t n;
} lines;

static lines split_lines(const buffer *b)
{
	lines l = { NULL, NULL, 0 };
	size_t cap = 0;
	for (size_t at = 0; at < b->len;) {
		const char *p = (const char *)b->data + at;
		const char *nl = memchr(p, '\n', b->len - at);
		size_t len = nl ? (size_t)(nl - p) : b->len - at;
		if (l.n == cap) {
			cap = cap ? 2 * cap : 256;
			l.start = realloc(l.start, cap * sizeof *l.start);
			l.len = realloc(l.len, cap * sizeof *l.len);
			assert_true(l.start && l.len);
		}
		l.start[l.n] = p;
		l.len[l.n++] = len;
		at += len + 1;
	}
	return l;
}

static void free_lines(lines *l)
{
	free(l->start);
	free(l->len);
}

/* A packed and opened fixture model. */
typedef struct {
	uint8_t *blob;
	size_t blob_len;
	spm_model *m;
} opened;

static opened open_fixture(const char *name)
{
	opened o;
	buffer proto = read_fixture(name, ".model");
	char err[256] = "";
	if (spm_pack(proto.data, proto.len, &o.blob, &o.blob_len, err, sizeof err))
		fail_msg("spm_pack %s: %s", name, err);
	if (spm_open(o.blob, o.blob_len, &o.m, err, sizeof err))
		fail_msg("spm_open %s: %s", name, err);
	free(proto.data);
	return o;
}

static void close_fixture(opened *o)
{
	spm_close(o->m);
	free(o->blob);
}

/* The blob layout of docs/TOKENIZER.md, for tests that build blobs by hand. */
static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}
#define SECTION_OFF(sec) (40 + 8 * (sec))
#define SECTION_SIZE(sec) (40 + 8 * (sec) + 4)
enum { SEC_PIECES = 0, SEC_HASH = 2, SEC_TRIE = 3 };

static void format_ids(char *out, size_t cap, const int32_t *ids, size_t n)
{
	size_t at = 0;
	out[0] = 0;
	for (size_t i = 0; i < n && at < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, i ? " %d" : "%d", (int)ids[i]);
}

static size_t parse_ids(const char *p, size_t len, int32_t *ids, size_t cap)
{
	size_t n = 0;
	char buf[64];
	for (size_t i = 0; i < len;) {
		while (i < len && p[i] == ' ')
			i++;
		size_t k = 0;
		while (i < len && p[i] != ' ' && k < sizeof buf - 1)
			buf[k++] = p[i++];
		if (k == 0)
			break;
		buf[k] = 0;
		assert_true(n < cap);
		ids[n++] = (int32_t)strtol(buf, NULL, 10);
	}
	return n;
}

/* ---- encode/decode against spm_encode/spm_decode ---- */

static void check_encode(const spm_model *m, spm_scratch *s, const char *model, const char *text)
{
	buffer in = read_fixture(text, ".txt");
	char ext[64];
	snprintf(ext, sizeof ext, ".%s.ids", text);
	buffer want = read_fixture(model, ext);
	lines li = split_lines(&in), lw = split_lines(&want);
	assert_int_equal(li.n, lw.n);
	char *got = malloc(1 << 20);
	assert_non_null(got);
	for (size_t i = 0; i < li.n; i++) {
		const int32_t *ids;
		size_t n;
		assert_int_equal(spm_encode(m, s, li.start[i], li.len[i], &ids, &n), 0);
		format_ids(got, 1 << 20, ids, n);
		if (strlen(got) != lw.len[i] || memcmp(got, lw.start[i], lw.len[i]) != 0)
			fail_msg("%s %s line %zu: got [%s] want [%.*s]", model, text, i + 1, got, (int)lw.len[i],
				 lw.start[i]);
	}
	free(got);
	free_lines(&li);
	free_lines(&lw);
	free(in.data);
	free(want.data);
}

static void check_decode(const spm_model *m, spm_scratch *s, const char *model, const char *text)
{
	char ext[64];
	snprintf(ext, sizeof ext, ".%s.ids", text);
	buffer ids_file = read_fixture(model, ext);
	snprintf(ext, sizeof ext, ".%s.dec", text);
	buffer want = read_fixture(model, ext);
	lines li = split_lines(&ids_file), lw = split_lines(&want);
	assert_int_equal(li.n, lw.n);
	int32_t *ids = malloc(sizeof(int32_t) << 16);
	assert_non_null(ids);
	for (size_t i = 0; i < li.n; i++) {
		size_t n = parse_ids(li.start[i], li.len[i], ids, 1 << 16);
		const char *out;
		size_t len;
		assert_int_equal(spm_decode(m, s, ids, n, &out, &len), 0);
		assert_int_equal(out[len], '\0');
		if (len != lw.len[i] || memcmp(out, lw.start[i], len) != 0)
			fail_msg("%s %s decode line %zu: got [%.*s] want [%.*s]", model, text, i + 1, (int)len, out,
				 (int)lw.len[i], lw.start[i]);
	}
	free(ids);
	free_lines(&li);
	free_lines(&lw);
	free(ids_file.data);
	free(want.data);
}

/* Every fixture text through one opened model (its encoding, or its decoding). */
static void encode_all_texts(const spm_model *m, spm_scratch *s, const char *model)
{
	for (size_t t = 0; t < sizeof kTexts / sizeof *kTexts; t++)
		check_encode(m, s, model, kTexts[t]);
}
static void decode_all_texts(const spm_model *m, spm_scratch *s, const char *model)
{
	for (size_t t = 0; t < sizeof kTexts / sizeof *kTexts; t++)
		check_decode(m, s, model, kTexts[t]);
}

static void test_fixture_model(void **state)
{
	const char *model = *state;
	opened o = open_fixture(model);
	spm_scratch *s = spm_scratch_new();
	assert_non_null(s);
	for (size_t t = 0; t < sizeof kTexts / sizeof *kTexts; t++) {
		check_encode(o.m, s, model, kTexts[t]);
		check_decode(o.m, s, model, kTexts[t]);
	}
	spm_scratch_free(s);
	close_fixture(&o);
}

/* A decode-only blob (a model's target side) decodes every fixture exactly as
 * spm_decode does, with the same special ids, in less space; it cannot encode,
 * and a blob that claims to be decode-only but carries tables is refused. */
/* The blob with a lookup table stored after its sections, as blobs packed
 * before spm_open built the table carry one (2^k >= 2 n slots of id + 1,
 * FNV-1a-32, linear probing). */
static uint8_t *with_stored_table(const opened *o, size_t *len)
{
	uint32_t n = (uint32_t)spm_vocab_size(o->m), n_slots = 16, at = ((uint32_t)o->blob_len + 15) & ~15u;
	while (n_slots < 2 * n)
		n_slots *= 2;
	*len = at + 4 * (size_t)n_slots;
	uint8_t *b = calloc(1, *len);
	assert_non_null(b);
	memcpy(b, o->blob, o->blob_len);
	put_le32(b + 8, (uint32_t)*len);
	put_le32(b + SECTION_OFF(SEC_HASH), at);
	put_le32(b + SECTION_SIZE(SEC_HASH), 4 * n_slots);
	for (uint32_t id = 0; id < n; id++) {
		size_t plen;
		const char *p = spm_piece(o->m, (int)id, &plen);
		uint32_t h = 2166136261u;
		for (size_t i = 0; i < plen; i++)
			h = (h ^ (uint8_t)p[i]) * 16777619u;
		uint32_t slot = h & (n_slots - 1);
		while (le32(b + at + 4 * slot))
			slot = (slot + 1) & (n_slots - 1);
		put_le32(b + at + 4 * slot, id + 1);
	}
	return b;
}

/* The packer stores no lookup table and spm_open builds it; a blob that
 * stores one is checked and used; a repeated piece is refused. */
static void test_lookup_table_built_or_stored(void **state)
{
	(void)state;
	spm_scratch *s = spm_scratch_new();
	assert_non_null(s);
	for (size_t k = 0; k < sizeof kModels / sizeof *kModels; k++) {
		const char *model = kModels[k];
		opened full = open_fixture(model);
		assert_int_equal(le32(full.blob + SECTION_SIZE(SEC_HASH)), 0);
		encode_all_texts(full.m, s, model);

		size_t len;
		uint8_t *stored = with_stored_table(&full, &len);
		spm_model *m;
		char err[256] = "";
		if (spm_open(stored, len, &m, err, sizeof err))
			fail_msg("stored table %s: %s", model, err);
		encode_all_texts(m, s, model);
		spm_close(m);
		/* a stored table that sends a piece to another id */
		uint32_t at = le32(stored + SECTION_OFF(SEC_HASH)), slot = 0;
		while (le32(stored + at + 4 * slot) == 0)
			slot++;
		put_le32(stored + at + 4 * slot, le32(stored + at + 4 * slot) % (uint32_t)spm_vocab_size(full.m) + 1);
		assert_int_equal(spm_open(stored, len, &m, err, sizeof err), -1);
		assert_non_null(strstr(err, "hash table"));
		free(stored);

		/* the last piece's record pointing at the text of the one before it */
		uint8_t *dup = malloc(full.blob_len);
		assert_non_null(dup);
		memcpy(dup, full.blob, full.blob_len);
		uint32_t n = (uint32_t)spm_vocab_size(full.m);
		uint8_t *recs = dup + le32(dup + SECTION_OFF(SEC_PIECES));
		memcpy(recs + 16 * (size_t)(n - 1), recs + 16 * (size_t)(n - 2), 8);
		assert_int_equal(spm_open(dup, full.blob_len, &m, err, sizeof err), -1);
		assert_non_null(strstr(err, "repeats"));
		free(dup);
		close_fixture(&full);
	}
	spm_scratch_free(s);
}

static void test_decode_only(void **state)
{
	(void)state;
	spm_scratch *s = spm_scratch_new();
	assert_non_null(s);
	for (size_t k = 0; k < sizeof kModels / sizeof *kModels; k++) {
		const char *model = kModels[k];
		opened full = open_fixture(model);
		buffer proto = read_fixture(model, ".model");
		uint8_t *blob;
		size_t blob_len;
		spm_model *m;
		char err[256] = "";
		assert_int_equal(spm_pack_decoder(proto.data, proto.len, &blob, &blob_len, err, sizeof err), 0);
		if (spm_open(blob, blob_len, &m, err, sizeof err))
			fail_msg("spm_open %s: %s", model, err);
		assert_true(blob_len < full.blob_len);
		assert_int_equal(spm_vocab_size(m), spm_vocab_size(full.m));
		assert_int_equal(spm_unk_id(m), spm_unk_id(full.m));
		assert_int_equal(spm_bos_id(m), spm_bos_id(full.m));
		assert_int_equal(spm_eos_id(m), spm_eos_id(full.m));
		assert_int_equal(spm_pad_id(m), spm_pad_id(full.m));
		decode_all_texts(m, s, model);
		const int32_t *ids;
		size_t n;
		assert_int_equal(spm_encode(m, s, "a b", 3, &ids, &n), -1);
		assert_int_equal(spm_piece_to_id(m, "</s>", 4), -1);
		spm_close(m);
		/* A full blob with the decode-only flag set: a charsmap contradicts
         * it; without one it is a decode-only blob of the older layout (full
         * records), which still opens and decodes the same. */
		uint8_t *flagged = malloc(full.blob_len);
		assert_non_null(flagged);
		memcpy(flagged, full.blob, full.blob_len);
		flagged[16] |= 1u << 5;
		uint32_t trie_size = le32(full.blob + SECTION_SIZE(SEC_TRIE));
		if (trie_size) {
			assert_int_equal(spm_open(flagged, full.blob_len, &m, err, sizeof err), -1);
			assert_non_null(strstr(err, "decode-only"));
		} else {
			if (spm_open(flagged, full.blob_len, &m, err, sizeof err))
				fail_msg("older decode-only %s: %s", model, err);
			decode_all_texts(m, s, model);
			spm_close(m);
		}
		free(flagged);
		free(blob);
		free(proto.data);
		close_fixture(&full);
	}
	spm_scratch_free(s);
}

/* One scratch serving models of both types in turn (a unigram model grows
 * its work buffers first, then a BPE model reuses them for longer input):
 * under ASan this overflowed before the work buffers' capacities were all
 * counted in bytes (found by tests/fuzz/fuzz_tokenizer.c). */
static void test_scratch_shared_by_model_types(void **state)
{
	(void)state;
	opened uni = open_fixture("uni_nfkc"), bpe = open_fixture("bpe_bytes");
	spm_scratch *s = spm_scratch_new();
	assert_non_null(s);
	char text[4096];
	for (size_t len = 16; len <= sizeof text; len *= 2) {
		for (size_t i = 0; i < len; i++)
			text[i] = "ab cde fgh"[i % 10];
		const int32_t *ids;
		size_t n;
		assert_int_equal(spm_encode(uni.m, s, text, len / 2, &ids, &n), 0);
		assert_int_equal(spm_encode(bpe.m, s, text, len, &ids, &n), 0);
		assert_true(n > 0);
	}
	spm_scratch_free(s);
	close_fixture(&uni);
	close_fixture(&bpe);
}

static void test_special_ids(void **state)
{
	(void)state;
	opened o = open_fixture("uni_nfkc");
	assert_int_equal(spm_vocab_size(o.m), 1000);
	assert_int_equal(spm_unk_id(o.m), 0);
	assert_int_equal(spm_bos_id(o.m), 1);
	assert_int_equal(spm_eos_id(o.m), 2);
	assert_int_equal(spm_pad_id(o.m), -1);
	size_t len;
	const char *p = spm_piece(o.m, 1, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(p, "<s>", 3);
	assert_null(spm_piece(o.m, 1000, &len));
	assert_null(spm_piece(o.m, -1, &len));
	assert_int_equal(spm_piece_to_id(o.m, "</s>", 4), 2);
	assert_int_equal(spm_piece_to_id(o.m, "no such piece", 13), -1);
	close_fixture(&o);
	o = open_fixture("bpe_bytes");
	assert_int_equal(spm_pad_id(o.m), 3);
	int sep = spm_piece_to_id(o.m, "<sep>", 5);
	assert_true(sep > 3);
	close_fixture(&o);
}

static void test_encode_edge_cases(void **state)
{
	(void)state;
	opened o = open_fixture("uni_nfkc");
	spm_scratch *s = spm_scratch_new();
	const int32_t *ids;
	size_t n;
	assert_int_equal(spm_encode(o.m, s, "", 0, &ids, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(spm_encode(o.m, s, "   \t ", 5, &ids, &n), 0);
	assert_int_equal(n, 0);
	/* A long line, then a short one: the scratch grows and is reused. */
	size_t big = 200000;
	char *line = malloc(big);
	for (size_t i = 0; i < big; i++)
		line[i] = "ab cd\x80\xc3\xa4 "[i % 9];
	assert_int_equal(spm_encode(o.m, s, line, big, &ids, &n), 0);
	assert_true(n > 10000);
	assert_int_equal(spm_encode(o.m, s, "a", 1, &ids, &n), 0);
	assert_int_equal(n, 1);
	/* Decode rejects ids outside the vocabulary. */
	const char *text;
	size_t len;
	int32_t bad[2] = { 5, 1000 };
	assert_int_equal(spm_decode(o.m, s, bad, 2, &text, &len), -1);
	bad[1] = -1;
	assert_int_equal(spm_decode(o.m, s, bad, 2, &text, &len), -1);
	assert_int_equal(spm_decode(o.m, s, bad, 0, &text, &len), 0);
	assert_int_equal(len, 0);
	free(line);
	spm_scratch_free(s);
	close_fixture(&o);
}

/* ---- hostile inputs ---- */

static uint64_t next_rand(uint64_t *x)
{ /* xorshift64*, fixed seeds: reproducible */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 2685821657736338717ull;
}

static void expect_pack_error(const uint8_t *p, size_t len, const char *needle)
{
	uint8_t *blob = (uint8_t *)1;
	size_t blob_len = 1;
	char err[256] = "";
	assert_int_equal(spm_pack(p, len, &blob, &blob_len, err, sizeof err), -1);
	assert_null(blob);
	assert_true(err[0] != 0);
	if (needle && strstr(err, needle) == NULL)
		fail_msg("error [%s] lacks [%s]", err, needle);
}

static void test_pack_rejects_bad_protos(void **state)
{
	(void)state;
	buffer proto = read_fixture("bpe_bytes", ".model");
	expect_pack_error(proto.data, 0, "empty");
	expect_pack_error(proto.data, proto.len - 1, "truncated");
	expect_pack_error(proto.data, 3, NULL);
	/* Every prefix: an error or (cut between fields) a valid model, never a crash. */
	for (size_t len = 0; len < proto.len; len += 1 + len / 64) {
		uint8_t *blob;
		size_t blob_len;
		char err[256];
		if (spm_pack(proto.data, len, &blob, &blob_len, err, sizeof err) == 0) {
			spm_model *m;
			assert_int_equal(spm_open(blob, blob_len, &m, err, sizeof err), 0);
			spm_close(m);
			free(blob);
		}
	}
	/* WORD and CHAR: a trailing trainer_spec {model_type: 3 or 4} merges into the model. */
	uint8_t *copy = malloc(proto.len + 16);
	memcpy(copy, proto.data, proto.len);
	memcpy(copy + proto.len, "\x12\x02\x18\x03", 4);
	expect_pack_error(copy, proto.len + 4, "unsupported model type WORD");
	memcpy(copy + proto.len, "\x12\x02\x18\x04", 4);
	expect_pack_error(copy, proto.len + 4, "unsupported model type CHAR");
	/* A denormalizer with rules is not supported. */
	memcpy(copy + proto.len, "\x2a\x04\x12\x02xy", 6);
	expect_pack_error(copy, proto.len + 6, "denormalization");
	/* A length prefix running past the end. */
	memcpy(copy + proto.len, "\x0a\x7f\x0a", 3);
	expect_pack_error(copy, proto.len + 3, "truncated");
	free(copy);
	free(proto.data);
	/* Hand-made models: no pieces, no <unk>, a duplicate, an empty piece, a wire-type lie. */
	expect_pack_error((const uint8_t *)"\x12\x02\x18\x01", 4, "no pieces");
	expect_pack_error((const uint8_t *)"\x0a\x03\x0a\x01"
					   "a",
			  5, "unk is not defined");
	expect_pack_error((const uint8_t *)"\x0a\x05\x0a\x01"
					   "a\x18\x02"
					   "\x0a\x03\x0a\x01"
					   "a",
			  12, "already defined");
	expect_pack_error((const uint8_t *)"\x0a\x02\x18\x02", 4, "empty");
	expect_pack_error((const uint8_t *)"\x0a\x02\x10\x02", 4, "wire type");
	expect_pack_error((const uint8_t *)"\x0a\x08\x0a\x04<0x>\x18\x06", 10, "byte piece");
	/* Random garbage. */
	uint64_t seed = 0x5eed5eed1234ull;
	uint8_t junk[512];
	for (int iter = 0; iter < 3000; iter++) {
		size_t len = next_rand(&seed) % sizeof junk;
		for (size_t i = 0; i < len; i++)
			junk[i] = (uint8_t)next_rand(&seed);
		uint8_t *blob;
		size_t blob_len;
		char err[256];
		if (spm_pack(junk, len, &blob, &blob_len, err, sizeof err) == 0)
			free(blob);
	}
}

/* Exercise an opened (possibly corrupted) model: must not crash, results are irrelevant. */
static void exercise(const spm_model *m, spm_scratch *s, const lines *text, uint64_t *seed)
{
	for (size_t i = 0; i < text->n; i += 7) {
		const int32_t *ids;
		size_t n;
		spm_encode(m, s, text->start[i], text->len[i], &ids, &n);
	}
	int32_t ids[64];
	for (int k = 0; k < 64; k++)
		ids[k] = (int32_t)(next_rand(seed) % (uint64_t)spm_vocab_size(m));
	const char *out;
	size_t len;
	assert_int_equal(spm_decode(m, s, ids, 64, &out, &len), 0);
}

static void test_open_rejects_truncated_blobs(void **state)
{
	(void)state;
	opened o = open_fixture("bpe_bytes");
	char err[256];
	spm_model *m;
	for (size_t len = 0; len < o.blob_len; len += 1 + len / 256) {
		uint8_t *cut = malloc(len ? len : 1); /* exact size: ASan catches any over-read */
		memcpy(cut, o.blob, len);
		err[0] = 0;
		assert_int_equal(spm_open(cut, len, &m, err, sizeof err), -1);
		assert_true(err[0] != 0);
		free(cut);
	}
	assert_int_equal(spm_open(NULL, 0, &m, err, sizeof err), -1);
	close_fixture(&o);
}

/* Flip random bits/bytes (biased towards the header and tables); whatever spm_open accepts
 * must then encode and decode without touching memory outside the blob. */
static void mutate_and_open(const char *model, int iterations, size_t hot_end, uint64_t seed)
{
	opened o = open_fixture(model);
	buffer text = read_fixture("torture", ".txt");
	lines li = split_lines(&text);
	spm_scratch *s = spm_scratch_new();
	uint8_t *copy = malloc(o.blob_len);
	int accepted = 0;
	for (int iter = 0; iter < iterations; iter++) {
		memcpy(copy, o.blob, o.blob_len);
		int flips = 1 + (int)(next_rand(&seed) % 8);
		for (int f = 0; f < flips; f++) {
			size_t range = next_rand(&seed) % 2 ? hot_end : o.blob_len;
			size_t at = next_rand(&seed) % range;
			if (next_rand(&seed) % 2)
				copy[at] ^= (uint8_t)(1u << (next_rand(&seed) % 8));
			else
				copy[at] = (uint8_t)next_rand(&seed);
		}
		spm_model *m;
		char err[256];
		if (spm_open(copy, o.blob_len, &m, err, sizeof err) == 0) {
			accepted++;
			exercise(m, s, &li, &seed);
			spm_close(m);
		} else {
			assert_true(err[0] != 0);
		}
	}
	print_message("%s: %d of %d mutated blobs accepted (and exercised)\n", model, accepted, iterations);
	free(copy);
	spm_scratch_free(s);
	free_lines(&li);
	free(text.data);
	close_fixture(&o);
}

/* spm_decode_prefixes hands over, for every i, what spm_decode makes of
 * ids[0..i]: random id sequences of every fixture, half of their ids byte
 * pieces (partial and malformed characters, runs ending anywhere), the
 * control and unknown ids among the rest. */
typedef struct {
	const spm_model *m;
	spm_scratch *s;
	const int32_t *ids;
	size_t calls;
} prefix_check;

static int check_prefix(void *ctx, size_t i, const char *text, size_t len)
{
	prefix_check *c = ctx;
	char *got = malloc(len + 1);
	memcpy(got, text, len);
	const char *want;
	size_t want_len;
	assert_int_equal(spm_decode(c->m, c->s, c->ids, i + 1, &want, &want_len), 0);
	assert_int_equal(len, want_len);
	assert_memory_equal(got, want, len);
	assert_int_equal(i, c->calls);
	c->calls++;
	free(got);
	return 0;
}

static void test_decode_prefixes(void **state)
{
	(void)state;
	static const char *const bytes[] = { "<0xE2>", "<0x82>", "<0xAC>", "<0xF0>", "<0x9F>", "<0x98>",
					     "<0x80>", "<0x41>", "<0xC3>", "<0xA9>", "<0xFF>", "<0x20>" };
	const char *models[] = { "uni_nfkc", "uni_ident", "uni_bytes", "bpe_bytes" };
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	for (size_t f = 0; f < sizeof models / sizeof models[0]; f++) {
		opened o = open_fixture(models[f]);
		spm_scratch *walk = spm_scratch_new(), *ref = spm_scratch_new();
		int32_t byte_ids[sizeof bytes / sizeof bytes[0]], n_bytes = 0, vocab = spm_vocab_size(o.m);
		for (size_t b = 0; b < sizeof bytes / sizeof bytes[0]; b++) {
			int id = spm_piece_to_id(o.m, bytes[b], strlen(bytes[b]));
			if (id >= 0)
				byte_ids[n_bytes++] = id;
		}
		for (int round = 0; round < 300; round++) {
			int32_t ids[40];
			size_t n = 1 + next_rand(&seed) % 40;
			for (size_t i = 0; i < n; i++)
				ids[i] = n_bytes > 0 && next_rand(&seed) % 2 ? byte_ids[next_rand(&seed) % (uint64_t)n_bytes]
									     : (int32_t)(next_rand(&seed) % (uint64_t)vocab);
			prefix_check c = { o.m, ref, ids, 0 };
			assert_int_equal(spm_decode_prefixes(o.m, walk, ids, n, check_prefix, &c), 0);
			assert_int_equal(c.calls, n);
		}
		int32_t bad[2] = { 0, vocab };
		prefix_check c = { o.m, ref, bad, 0 };
		assert_int_equal(spm_decode_prefixes(o.m, walk, bad, 2, check_prefix, &c), -1);
		assert_int_equal(c.calls, 0);
		if (n_bytes == 0 && strcmp(models[f], "uni_nfkc") != 0 && strcmp(models[f], "uni_ident") != 0)
			fail_msg("%s has no byte pieces", models[f]);
		spm_scratch_free(walk);
		spm_scratch_free(ref);
		close_fixture(&o);
	}
}

static void test_open_survives_mutations(void **state)
{
	(void)state;
	mutate_and_open("bpe_bytes", 1500, 4096, 42);
	mutate_and_open("uni_bytes", 1500, 4096, 43);
}

/* The charsmap trie is checked step by step rather than at open: scramble it. */
static void test_scrambled_charsmap(void **state)
{
	(void)state;
	opened o = open_fixture("uni_nfkc");
	buffer text = read_fixture("torture", ".txt");
	lines li = split_lines(&text);
	spm_scratch *s = spm_scratch_new();
	uint8_t *copy = malloc(o.blob_len);
	uint64_t seed = 7;
	/* Section 3 (trie) is at header offset 40 + 3 * 8. */
	uint32_t trie_off = 0, trie_size = 0;
	for (int i = 0; i < 4; i++) {
		trie_off |= (uint32_t)o.blob[64 + i] << (8 * i);
		trie_size |= (uint32_t)o.blob[68 + i] << (8 * i);
	}
	assert_true(trie_size > 1000 && trie_off + trie_size <= o.blob_len);
	for (int iter = 0; iter < 40; iter++) {
		memcpy(copy, o.blob, o.blob_len);
		for (uint32_t k = 0; k < trie_size / 8; k++)
			copy[trie_off + next_rand(&seed) % trie_size] = (uint8_t)next_rand(&seed);
		spm_model *m;
		char err[256];
		assert_int_equal(spm_open(copy, o.blob_len, &m, err, sizeof err), 0);
		exercise(m, s, &li, &seed);
		spm_close(m);
	}
	free(copy);
	spm_scratch_free(s);
	free_lines(&li);
	free(text.data);
	close_fixture(&o);
}

/* Retype random pieces (NORMAL <-> CONTROL / USER_DEFINED / UNUSED): a valid blob with an
 * unusual vocabulary, which drives BPE's UNUSED re-segmentation and the user-symbol paths. */
static void test_scrambled_piece_types(void **state)
{
	(void)state;
	static const uint8_t kTypes[] = { 1, 3, 4, 5 };
	buffer text = read_fixture("torture", ".txt");
	lines li = split_lines(&text);
	spm_scratch *s = spm_scratch_new();
	uint64_t seed = 99;
	for (size_t mi = 0; mi < sizeof kModels / sizeof *kModels; mi++) {
		opened o = open_fixture(kModels[mi]);
		uint32_t pieces_off = 0;
		for (int i = 0; i < 4; i++)
			pieces_off |= (uint32_t)o.blob[40 + i] << (8 * i);
		int n = spm_vocab_size(o.m), accepted = 0;
		uint8_t *copy = malloc(o.blob_len);
		for (int iter = 0; iter < 30; iter++) {
			memcpy(copy, o.blob, o.blob_len);
			for (int k = 0; k < n / 10; k++) {
				int id = (int)(next_rand(&seed) % (uint64_t)n);
				uint8_t *type = copy + pieces_off + 16 * (size_t)id + 12;
				if (*type == 1 || *type == 3 || *type == 4 || *type == 5)
					*type = kTypes[next_rand(&seed) % 4];
			}
			spm_model *m;
			char err[256];
			if (spm_open(copy, o.blob_len, &m, err, sizeof err) == 0) {
				accepted++;
				exercise(m, s, &li, &seed);
				spm_close(m);
			}
		}
		assert_true(accepted > 0);
		free(copy);
		close_fixture(&o);
	}
	spm_scratch_free(s);
	free_lines(&li);
	free(text.data);
}

int main(void)
{
	const struct CMUnitTest rest[] = {
		cmocka_unit_test(test_special_ids),
		cmocka_unit_test(test_decode_prefixes),
		cmocka_unit_test(test_decode_only),
		cmocka_unit_test(test_lookup_table_built_or_stored),
		cmocka_unit_test(test_scratch_shared_by_model_types),
		cmocka_unit_test(test_encode_edge_cases),
		cmocka_unit_test(test_pack_rejects_bad_protos),
		cmocka_unit_test(test_open_rejects_truncated_blobs),
		cmocka_unit_test(test_open_survives_mutations),
		cmocka_unit_test(test_scrambled_charsmap),
		cmocka_unit_test(test_scrambled_piece_types),
	};
	struct CMUnitTest tests[sizeof kModels / sizeof *kModels + sizeof rest / sizeof *rest];
	size_t n = 0;
	for (size_t i = 0; i < sizeof kModels / sizeof *kModels; i++) {
		struct CMUnitTest t = { kModels[i], test_fixture_model, NULL, NULL, (void *)kModels[i] };
		tests[n++] = t;
	}
	for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
		tests[n++] = rest[i];
	return _cmocka_run_group_tests("spm", tests, n, NULL, NULL);
}
