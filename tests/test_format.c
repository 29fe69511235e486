/* The packed-file reader against truncated, corrupted and hostile files.
 * Every case must end in an error message, never a crash (run this under
 * `make test SANITIZE=1` to have ASan/UBSan check that). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format/crc32.h"
#include "../format/format.h"
#include "../engine/model.h"
#include "../engine/vmap.h"

#define MODEL_PATH "build/tiny.nmt"

typedef struct {
	uint8_t *good;   /* the valid file, 64-byte aligned */
	size_t len;
	uint8_t *work;   /* a scratch copy to damage */
} fixture;

static uint8_t *aligned_copy(const uint8_t *src, size_t len)
{
	uint8_t *p = aligned_alloc(64, (len + 63) / 64 * 64 + 64);
	assert_non_null(p);
	if (len)
		memcpy(p, src, len);
	return p;
}

static int setup(void **state)
{
	static fixture f;
	FILE *in = fopen(MODEL_PATH, "rb");
	if (!in)
		return -1;
	fseek(in, 0, SEEK_END);
	f.len = (size_t)ftell(in);
	fseek(in, 0, SEEK_SET);
	uint8_t *buf = malloc(f.len);
	if (!buf || fread(buf, 1, f.len, in) != f.len)
		return -1;
	fclose(in);
	f.good = aligned_copy(buf, f.len);
	f.work = aligned_copy(buf, f.len);
	free(buf);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	free(f->good);
	free(f->work);
	return 0;
}

/* Open from memory; returns 0 on success. The error must be one line. */
static int try_open(const uint8_t *buf, size_t len, int verify)
{
	nmt_model *m;
	char err[512] = "";
	int rc = engine_load_memory(buf, len, verify, &m, err, sizeof err);
	if (rc == 0) {
		engine_unload(m);
		return 0;
	}
	assert_true(err[0] != '\0');
	assert_null(strchr(err, '\n'));
	return rc;
}

/* After a deliberate edit, make every checksum right again, so the reader's
 * structural checks (not the CRCs) are what must catch the damage. */
static void refresh_checksums(uint8_t *buf, size_t len)
{
	uint32_t n = format_rd32(buf + FORMAT_H_NSECTIONS);
	for (uint32_t i = 0; i < n && i < FORMAT_MAX_SECTIONS; i++) {
		uint8_t *e = buf + FORMAT_HEADER_SIZE + (size_t)i * FORMAT_SECTION_ENTRY_SIZE;
		uint64_t off = format_rd64(e + FORMAT_S_OFFSET), size = format_rd64(e + FORMAT_S_SIZE);
		if (off <= len && size <= len - off)
			format_wr32(e + FORMAT_S_CRC, format_crc32(0, buf + off, size));
	}
	format_wr32(buf + FORMAT_H_TABLE_CRC, format_crc32(0, buf + FORMAT_HEADER_SIZE, (size_t)n * FORMAT_SECTION_ENTRY_SIZE));
	format_wr32(buf + FORMAT_H_HEADER_CRC, format_crc32(0, buf, FORMAT_H_HEADER_CRC));
}

static const format_section *section(const fixture *f, format_file_view *v, const char *tag)
{
	char err[256];
	assert_int_equal(format_parse(f->good, f->len, 1, v, err, sizeof err), 0);
	const format_section *s = format_find(v, tag);
	assert_non_null(s);
	return s;
}

static void test_valid_file_opens(void **state)
{
	fixture *f = *state;
	assert_int_equal(try_open(f->good, f->len, 0), 0);
	assert_int_equal(try_open(f->good, f->len, 1), 0);
}

static void test_truncation_is_an_error(void **state)
{
	fixture *f = *state;
	format_file_view v;
	section(f, &v, FORMAT_TAG_META);
	size_t cuts[256];
	int n = 0;
	cuts[n++] = 0;
	cuts[n++] = 1;
	cuts[n++] = FORMAT_HEADER_SIZE - 1;
	cuts[n++] = FORMAT_HEADER_SIZE;
	cuts[n++] = f->len - 1;
	for (uint32_t i = 0; i < v.n_sections; i++) {   /* around every section boundary */
		size_t start = (size_t)(v.sections[i].data - f->good), end = start + v.sections[i].size;
		cuts[n++] = start - 1;
		cuts[n++] = start;
		cuts[n++] = start + 1;
		cuts[n++] = end - 1;
	}
	uint32_t seed = 1;
	while (n < 256) {
		seed = seed * 1103515245u + 12345u;
		cuts[n++] = seed % f->len;
	}
	for (int i = 0; i < n; i++) {
		uint8_t *copy = aligned_copy(f->good, cuts[i]);
		assert_int_equal(try_open(copy, cuts[i], 0), NMT_ERR_FORMAT);
		free(copy);
	}
}

static void test_random_bytes_are_an_error(void **state)
{
	fixture *f = *state;
	uint32_t seed = 99;
	for (size_t i = 0; i < f->len; i++) {
		seed = seed * 1103515245u + 12345u;
		f->work[i] = (uint8_t)(seed >> 16);
	}
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
	memcpy(f->work, "NMTMODEL", 8);   /* even with the right magic */
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
}

/* A flipped bit anywhere is caught at load, except inside the bulk weights,
 * which only a full verification (nmt info --verify) checks. */
static void test_bit_flips_are_caught(void **state)
{
	fixture *f = *state;
	format_file_view v;
	(void)section(f, &v, FORMAT_TAG_WEIGHTS);
	uint32_t seed = 5;

	for (int i = 0; i < 600; i++) {
		size_t pos;
		if (i < FORMAT_HEADER_SIZE + 5 * FORMAT_SECTION_ENTRY_SIZE) {
			pos = (size_t)i;   /* every byte of header and table */
		} else {
			seed = seed * 1103515245u + 12345u;
			pos = seed % f->len;
		}
		memcpy(f->work, f->good, f->len);
		f->work[pos] ^= (uint8_t)(1u << (i % 8));
		int in_bulk = 0;      /* the weights and precomputed tables: checked by --verify only */
		int in_padding = 1;   /* bytes between sections belong to nothing */
		for (uint32_t s = 0; s < v.n_sections; s++) {
			size_t a = (size_t)(v.sections[s].data - f->good), b = a + v.sections[s].size;
			if (pos < FORMAT_HEADER_SIZE + v.n_sections * FORMAT_SECTION_ENTRY_SIZE || (pos >= a && pos < b))
				in_padding = 0;
			if (pos >= a && pos < b && (v.sections[s].flags & FORMAT_SECTION_BULK))
				in_bulk = 1;
		}
		if (in_padding)
			continue;
		assert_int_equal(try_open(f->work, f->len, 0), in_bulk ? 0 : NMT_ERR_FORMAT);
		assert_int_equal(try_open(f->work, f->len, 1), NMT_ERR_FORMAT);
	}
}

static void test_wrong_magic_and_future_version(void **state)
{
	fixture *f = *state;
	memcpy(f->work, f->good, f->len);
	memcpy(f->work, "NMTMODEX", 8);
	refresh_checksums(f->work, f->len);
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);

	memcpy(f->work, f->good, f->len);
	format_wr32(f->work + FORMAT_H_VERSION, FORMAT_VERSION + 1);
	refresh_checksums(f->work, f->len);
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);

	memcpy(f->work, f->good, f->len);
	format_wr64(f->work + FORMAT_H_FILE_SIZE, f->len + 64);
	refresh_checksums(f->work, f->len);
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
}

/* Structurally hostile files with correct checksums. */
static void test_hostile_sections(void **state)
{
	fixture *f = *state;
	uint8_t *e0 = f->work + FORMAT_HEADER_SIZE;
	const uint64_t bad_offsets[] = { f->len, f->len + 64, UINT64_MAX - 63, 0, 64 };
	const uint64_t bad_sizes[] = { f->len, UINT64_MAX, UINT64_MAX - 64 };

	for (size_t i = 0; i < sizeof bad_offsets / sizeof bad_offsets[0]; i++) {
		memcpy(f->work, f->good, f->len);
		format_wr64(e0 + FORMAT_S_OFFSET, bad_offsets[i]);
		refresh_checksums(f->work, f->len);
		assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
	}
	for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
		memcpy(f->work, f->good, f->len);
		format_wr64(e0 + FORMAT_S_SIZE, bad_sizes[i]);
		refresh_checksums(f->work, f->len);
		assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
	}
	memcpy(f->work, f->good, f->len);   /* misaligned */
	format_wr64(e0 + FORMAT_S_OFFSET, format_rd64(e0 + FORMAT_S_OFFSET) + 4);
	refresh_checksums(f->work, f->len);
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);

	memcpy(f->work, f->good, f->len);   /* absurd section count */
	format_wr32(f->work + FORMAT_H_NSECTIONS, 0xFFFFFFFFu);
	format_wr32(f->work + FORMAT_H_HEADER_CRC, format_crc32(0, f->work, FORMAT_H_HEADER_CRC));
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
}

/* A tensor entry that points outside the weights, or disagrees with the
 * metadata's dimensions. */
static void test_hostile_tensor_directory(void **state)
{
	fixture *f = *state;
	format_file_view v;
	const format_section *dir = section(f, &v, FORMAT_TAG_TENSORS);
	size_t dir_off = (size_t)(dir->data - f->good);
	uint32_t count = format_rd32(dir->data);

	for (uint32_t t = 0; t < count; t++) {
		uint8_t *e = f->work + dir_off + 8 + (size_t)t * FORMAT_TENSOR_ENTRY_SIZE;
		const int fields[] = { FORMAT_T_OFFSET, FORMAT_T_SIZE, FORMAT_T_ROWS, FORMAT_T_DTYPE };
		for (size_t k = 0; k < 4; k++) {
			memcpy(f->work, f->good, f->len);
			if (fields[k] == FORMAT_T_OFFSET || fields[k] == FORMAT_T_SIZE)
				format_wr64(e + fields[k], format_rd64(e + fields[k]) + (uint64_t)f->len);
			else
				format_wr32(e + fields[k], format_rd32(e + fields[k]) + 1);
			refresh_checksums(f->work, f->len);
			assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
		}
	}
	memcpy(f->work, f->good, f->len);   /* a count larger than the section */
	format_wr32(f->work + dir_off, count + 1);
	refresh_checksums(f->work, f->len);
	assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
}

/* Metadata that disagrees with the tensors or is out of range. */
static void test_hostile_metadata(void **state)
{
	fixture *f = *state;
	format_file_view v;
	const format_section *meta = section(f, &v, FORMAT_TAG_META);
	size_t off = (size_t)(meta->data - f->good);
	/* (fc_layers changes no tensor shape, so a wrong value cannot be detected.) */
	const char *keys[] = { "emb=", "enc_layers=", "tgt_vocab=", "src_vocab=", "arch=", "eos_id=" };

	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		memcpy(f->work, f->good, f->len);
		char *hit = memmem(f->work + off, meta->size, keys[k], strlen(keys[k]));
		assert_non_null(hit);
		char *digit = hit + strlen(keys[k]);
		*digit = *digit == '9' ? '1' : (char)(*digit + 1);
		refresh_checksums(f->work, f->len);
		assert_int_equal(try_open(f->work, f->len, 0), NMT_ERR_FORMAT);
	}
}

/* The model's own length normalization (metadata "alpha"): the packer's
 * "packed_by" line rewritten in place, at the same length, as alpha=VALUE
 * with VALUE padded by pad. 0 and the model's alpha, or the open's error. */
static int open_with_alpha(fixture *f, const char *value, char pad, double *alpha)
{
	format_file_view v;
	const format_section *meta = section(f, &v, FORMAT_TAG_META);
	size_t off = (size_t)(meta->data - f->good);
	memcpy(f->work, f->good, f->len);
	char *line = memmem(f->work + off, meta->size, "packed_by=", 10);
	assert_non_null(line);
	size_t len = (size_t)((char *)memchr(line, '\n', meta->size) - line), n = strlen(value);
	assert_true(6 + n <= len);
	memcpy(line, "alpha=", 6);
	memcpy(line + 6, value, n);
	memset(line + 6 + n, pad, len - 6 - n);
	refresh_checksums(f->work, f->len);
	nmt_model *m;
	char err[512] = "";
	int rc = engine_load_memory(f->work, f->len, 0, &m, err, sizeof err);
	if (rc != 0) {
		assert_non_null(strstr(err, "alpha"));
		assert_null(strchr(err, '\n'));
		return rc;
	}
	*alpha = m->alpha;
	engine_unload(m);
	return 0;
}

static void test_metadata_alpha(void **state)
{
	fixture *f = *state;
	double alpha = -1;
	/* without the key: the engine's default */
	nmt_model *m;
	char err[512];
	assert_int_equal(engine_load_memory(f->good, f->len, 0, &m, err, sizeof err), 0);
	assert_true(m->alpha == ENGINE_DEFAULT_ALPHA);
	engine_unload(m);
	assert_int_equal(open_with_alpha(f, "1.", '0', &alpha), 0);
	assert_true(alpha == 1.0);
	assert_int_equal(open_with_alpha(f, "0.", '0', &alpha), 0);
	assert_true(alpha == 0.0);
	assert_int_equal(open_with_alpha(f, "1.5", ' ', &alpha), NMT_ERR_FORMAT);   /* trailing spaces */
	assert_int_equal(open_with_alpha(f, "", 'x', &alpha), NMT_ERR_FORMAT);
	assert_int_equal(open_with_alpha(f, "10.", '1', &alpha), NMT_ERR_FORMAT);   /* over 10 */
	assert_int_equal(open_with_alpha(f, "-0.", '1', &alpha), NMT_ERR_FORMAT);
	assert_int_equal(open_with_alpha(f, "nan", ' ', &alpha), NMT_ERR_FORMAT);
}

static void test_unaligned_buffer_is_refused(void **state)
{
	fixture *f = *state;
	uint8_t *p = aligned_alloc(64, (f->len + 63) / 64 * 64 + 64);
	assert_non_null(p);
	memcpy(p + 8, f->good, f->len);
	assert_int_equal(try_open(p + 8, f->len, 0), NMT_ERR_ARGUMENT);
	free(p);
}

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *in = fopen(path, "rb");
	assert_non_null(in);
	fseek(in, 0, SEEK_END);
	*len = (size_t)ftell(in);
	fseek(in, 0, SEEK_SET);
	uint8_t *tmp = malloc(*len), *buf;
	assert_non_null(tmp);
	assert_int_equal(fread(tmp, 1, *len, in), *len);
	fclose(in);
	buf = aligned_copy(tmp, *len);
	free(tmp);
	return buf;
}

static uint32_t first_used_slot(const uint8_t *slots, uint32_t n_slots)
{
	for (uint32_t k = 0; k < n_slots; k++)
		if (format_rd32(slots + (size_t)k * ENGINE_VMAP_SLOT_BYTES) != 0)
			return k;
	return 0;
}

/* A vocabulary map whose header, slots or ids are wrong (with correct
 * checksums) must be refused before any lookup runs. */
static void test_hostile_vmap(void **state)
{
	(void)state;
	size_t len;
	uint8_t *good = read_all("build/tiny_vmap_small.nmt", &len), *work = aligned_copy(good, len);
	format_file_view v;
	char err[256];
	assert_int_equal(format_parse(good, len, 1, &v, err, sizeof err), 0);
	const format_section *s = format_find(&v, ENGINE_TAG_VMAP);
	assert_non_null(s);
	size_t off = (size_t)(s->data - good);
	uint32_t n_zero = format_rd32(s->data + 4), n_slots = format_rd32(s->data + 8), w = format_rd32(s->data + 12);
	size_t slots = off + 24 + (n_zero * w + 3) / 4 * 4, payload = slots + (size_t)n_slots * ENGINE_VMAP_SLOT_BYTES;
	assert_int_equal(w, 2);   /* 300 target pieces: 16-bit ids */
	assert_int_equal(try_open(good, len, 1), 0);

	struct { size_t at; uint32_t value; } edits[] = {
		{ off, 0 },                          /* max_n 0 */
		{ off, ENGINE_VMAP_MAX_N + 1 },      /* max_n too large */
		{ off + 8, n_slots - 1 },            /* n_slots not a power of two */
		{ off + 8, n_slots * 2 },            /* n_slots disagrees with the size */
		{ off + 12, 3 },                     /* an id width other than 2 or 4 */
		{ off + 12, 4 },                     /* id width disagrees with the size */
		{ off + 16, 0xFFFFFFFFu },           /* n_payload absurd */
		{ off + 24, 300 },                   /* a 0-gram outside the vocabulary */
	};
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		memcpy(work, good, len);
		format_wr32(work + edits[i].at, edits[i].value);
		refresh_checksums(work, len);
		assert_int_equal(try_open(work, len, 0), NMT_ERR_FORMAT);
	}
	/* A used slot whose offset points past the payload, whose count runs
	 * past it, or whose list names an id outside the vocabulary. */
	for (uint32_t k = 0; k < n_slots; k++) {
		uint8_t *slot = work + slots + (size_t)k * ENGINE_VMAP_SLOT_BYTES;
		memcpy(work, good, len);
		if (format_rd32(slot) == 0)
			continue;
		uint32_t list = format_rd32(slot + 4);
		format_wr32(slot + 4, 0x7FFFFFFFu);
		refresh_checksums(work, len);
		assert_int_equal(try_open(work, len, 0), NMT_ERR_FORMAT);
		memcpy(work, good, len);
		work[payload + 2 * (size_t)list] = 0xFF;       /* count 0xFFxx */
		work[payload + 2 * (size_t)list + 1] = 0xFF;
		refresh_checksums(work, len);
		assert_int_equal(try_open(work, len, 0), NMT_ERR_FORMAT);
		memcpy(work, good, len);
		assert_true((work[payload + 2 * (size_t)list] | work[payload + 2 * (size_t)list + 1] << 8) >= 1);
		work[payload + 2 * (size_t)list + 2] = 0x2C;   /* first id = 300 */
		work[payload + 2 * (size_t)list + 3] = 0x01;
		refresh_checksums(work, len);
		assert_int_equal(try_open(work, len, 0), NMT_ERR_FORMAT);
		break;
	}
	memcpy(work, good, len);   /* no empty slot: a probe could run forever */
	for (uint32_t k = 0; k < n_slots; k++)
		if (format_rd32(work + slots + (size_t)k * ENGINE_VMAP_SLOT_BYTES) == 0)
			memcpy(work + slots + (size_t)k * ENGINE_VMAP_SLOT_BYTES,
			       work + slots + ENGINE_VMAP_SLOT_BYTES * (size_t)first_used_slot(work + slots, n_slots),
			       ENGINE_VMAP_SLOT_BYTES);
	refresh_checksums(work, len);
	assert_int_equal(try_open(work, len, 0), NMT_ERR_FORMAT);
	free(good);
	free(work);
}

/* The standard check value, and every length and alignment against the
 * bitwise definition (the fast path takes 8 bytes at a time). */
static void test_crc32(void **state)
{
	(void)state;
	uint8_t buf[80];
	assert_int_equal(format_crc32(0, "123456789", 9), 0xCBF43926u);
	for (int i = 0; i < 80; i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	for (int start = 0; start < 8; start++)
		for (int len = 0; start + len <= 80; len++) {
			uint32_t c = 0xFFFFFFFFu;
			for (int i = start; i < start + len; i++) {
				c ^= buf[i];
				for (int k = 0; k < 8; k++)
					c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			}
			assert_int_equal(format_crc32(0, buf + start, (size_t)len), ~c);
		}
	/* continuing a CRC equals taking it in one go */
	assert_int_equal(format_crc32(format_crc32(0, buf, 21), buf + 21, 59), format_crc32(0, buf, 80));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32),
		cmocka_unit_test(test_valid_file_opens),
		cmocka_unit_test(test_truncation_is_an_error),
		cmocka_unit_test(test_random_bytes_are_an_error),
		cmocka_unit_test(test_bit_flips_are_caught),
		cmocka_unit_test(test_wrong_magic_and_future_version),
		cmocka_unit_test(test_hostile_sections),
		cmocka_unit_test(test_hostile_tensor_directory),
		cmocka_unit_test(test_hostile_metadata),
		cmocka_unit_test(test_metadata_alpha),
		cmocka_unit_test(test_unaligned_buffer_is_refused),
		cmocka_unit_test(test_hostile_vmap),
	};
	return cmocka_run_group_tests_name("format", tests, setup, teardown);
}
