/* The model-file reader: every section (header, table, metadata, tensors,
 * vocabularies, vocabulary map, precomputed tables). Each input is opened
 * twice: as it is, and with its checksums and file size made right, since
 * otherwise almost every mutation would stop at the first CRC. A model that
 * opens must also translate (a short line, beam 2, the shortlist on). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../format/crc32.h"
#include "../../format/format.h"
#include "../../engine/model.h"
#include "../../engine/translator.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The header's file size, each section's CRC, the table's and the header's. */
static void fix_checksums(uint8_t *b, size_t n)
{
	if (n < FORMAT_HEADER_SIZE)
		return;
	uint32_t sections = format_rd32(b + FORMAT_H_NSECTIONS);
	if (sections > FORMAT_MAX_SECTIONS || FORMAT_HEADER_SIZE + (size_t)sections * FORMAT_SECTION_ENTRY_SIZE > n)
		return;
	for (uint32_t i = 0; i < sections; i++) {
		uint8_t *e = b + FORMAT_HEADER_SIZE + (size_t)i * FORMAT_SECTION_ENTRY_SIZE;
		uint64_t off = format_rd64(e + FORMAT_S_OFFSET), size = format_rd64(e + FORMAT_S_SIZE);
		if (off <= n && size <= n - off)
			wr32(e + FORMAT_S_CRC, format_crc32(0, b + off, (size_t)size));
	}
	for (int i = 0; i < 8; i++)
		b[FORMAT_H_FILE_SIZE + i] = (uint8_t)((uint64_t)n >> (8 * i));
	wr32(b + FORMAT_H_TABLE_CRC, format_crc32(0, b + FORMAT_HEADER_SIZE, (size_t)sections * FORMAT_SECTION_ENTRY_SIZE));
	wr32(b + FORMAT_H_HEADER_CRC, format_crc32(0, b, 60));
}

static void translate_with(const nmt_model *m)
{
	engine_translator *t = engine_translator_new(m);
	if (!t)
		return;
	engine_search_options o = { .beam = 2, .nbest = 2, .alpha = 0.6, .max_len = 12, .use_shortlist = 1 };
	nmt_translation out[2];
	int n = 0;
	char err[256];
	static const char line[] = "A man with two dogs.";
	if (engine_translator_line(t, &o, line, sizeof line - 1, out, &n, err, sizeof err) == 0)
		FUZZ_ASSERT(n >= 1 && n <= 2 && out[0].text[out[0].len] == '\0');
	engine_translator_free(t);
}

static void open_and_use(const uint8_t *buf, size_t n, unsigned how)
{
	nmt_model *m;
	char err[256], val[64];
	if (engine_load_memory(buf, n, how, &m, err, sizeof err) != 0) {
		FUZZ_ASSERT(err[0] != '\0');
		return;
	}
	engine_meta_of(m, "arch", val, sizeof val);
	if (!(how & ENGINE_LOAD_METADATA))
		translate_with(m);
	engine_unload(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the reader wants the mapping's alignment */
	uint8_t *buf = aligned_alloc(FORMAT_ALIGN, (size + FORMAT_ALIGN) / FORMAT_ALIGN * FORMAT_ALIGN);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	open_and_use(buf, size, ENGINE_LOAD_METADATA);
	open_and_use(buf, size, 0);
	fix_checksums(buf, size);
	open_and_use(buf, size, ENGINE_LOAD_VERIFY);
	free(buf);
	return 0;
}
