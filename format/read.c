/* Reading the packed file's header and section table (format.h). */
#include "format.h"

#include <stdio.h>
#include <string.h>

#include "crc32.h"
#include "../common/error.h"

static int check_header(const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	if (len < NMT_HEADER_SIZE)
		return error_set(err, errlen, "not an nmt model (file too small: %zu bytes)", len);
	if (memcmp(buf + NMT_H_MAGIC, NMT_MAGIC, 8) != 0)
		return error_set(err, errlen, "not an nmt model (bad magic)");
	if (nmt_crc32(0, buf, NMT_H_HEADER_CRC) != nmt_rd32(buf + NMT_H_HEADER_CRC))
		return error_set(err, errlen, "corrupt model: header checksum mismatch");
	uint32_t version = nmt_rd32(buf + NMT_H_VERSION);
	if (version != NMT_FORMAT_VERSION)
		return error_set(err, errlen, "model format version %u is not supported (this nmt reads version %d)",
			    version, NMT_FORMAT_VERSION);
	uint64_t file_size = nmt_rd64(buf + NMT_H_FILE_SIZE);
	if (file_size != len)
		return error_set(err, errlen, "model file is %zu bytes but its header says %llu (truncated or extended?)",
			    len, (unsigned long long)file_size);
	uint32_t n = nmt_rd32(buf + NMT_H_NSECTIONS);
	if (n == 0 || n > NMT_MAX_SECTIONS)
		return error_set(err, errlen, "corrupt model: %u sections (must be 1..%d)", n, NMT_MAX_SECTIONS);
	if ((uint64_t)n * NMT_SECTION_ENTRY_SIZE > len - NMT_HEADER_SIZE)
		return error_set(err, errlen, "corrupt model: section table runs past the end of the file");
	return 0;
}

static int read_entry(const uint8_t *buf, size_t len, const uint8_t *e, nmt_section *s,
		      char *err, size_t errlen)
{
	memcpy(s->tag, e + NMT_S_TAG, NMT_SECTION_TAG_LEN);
	s->tag[NMT_SECTION_TAG_LEN] = '\0';
	if (s->tag[0] == '\0' || memchr(e + NMT_S_TAG, '\0', NMT_SECTION_TAG_LEN) == NULL)
		return error_set(err, errlen, "corrupt model: bad section tag");
	for (const char *c = s->tag; *c; c++)
		if (*c < 0x21 || *c > 0x7e)
			return error_set(err, errlen, "corrupt model: bad section tag");
	uint64_t off = nmt_rd64(e + NMT_S_OFFSET), size = nmt_rd64(e + NMT_S_SIZE);
	uint32_t align = nmt_rd32(e + NMT_S_ALIGN);
	if (align < NMT_ALIGN || (align & (align - 1)) != 0 || off % align != 0)
		return error_set(err, errlen, "corrupt model: section \"%s\" is misaligned", s->tag);
	if (off > len || size > len - off)
		return error_set(err, errlen, "corrupt model: section \"%s\" runs past the end of the file", s->tag);
	s->data = buf + off;
	s->size = size;
	s->crc = nmt_rd32(e + NMT_S_CRC);
	s->flags = nmt_rd32(e + NMT_S_FLAGS);
	return 0;
}

int nmt_format_parse(const uint8_t *buf, size_t len, int verify_bulk,
		     nmt_file_view *view, char *err, size_t errlen)
{
	if (check_header(buf, len, err, errlen) != 0)
		return -1;
	memset(view, 0, sizeof *view);
	view->version = nmt_rd32(buf + NMT_H_VERSION);
	view->n_sections = nmt_rd32(buf + NMT_H_NSECTIONS);
	const uint8_t *table = buf + NMT_HEADER_SIZE;
	size_t table_size = (size_t)view->n_sections * NMT_SECTION_ENTRY_SIZE;
	if (nmt_crc32(0, table, table_size) != nmt_rd32(buf + NMT_H_TABLE_CRC))
		return error_set(err, errlen, "corrupt model: section table checksum mismatch");
	for (uint32_t i = 0; i < view->n_sections; i++) {
		nmt_section *s = &view->sections[i];
		if (read_entry(buf, len, table + (size_t)i * NMT_SECTION_ENTRY_SIZE, s, err, errlen) != 0)
			return -1;
		if ((uint64_t)(s->data - buf) < NMT_HEADER_SIZE + table_size && s->size > 0)
			return error_set(err, errlen, "corrupt model: section \"%s\" overlaps the section table", s->tag);
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(view->sections[j].tag, s->tag) == 0)
				return error_set(err, errlen, "corrupt model: duplicate section \"%s\"", s->tag);
		int bulk = (s->flags & NMT_SECTION_BULK) != 0;
		if ((verify_bulk || !bulk) && nmt_crc32(0, s->data, s->size) != s->crc)
			return error_set(err, errlen, "corrupt model: section \"%s\" checksum mismatch", s->tag);
	}
	return 0;
}

const nmt_section *nmt_format_find(const nmt_file_view *view, const char *tag)
{
	for (uint32_t i = 0; i < view->n_sections; i++)
		if (strcmp(view->sections[i].tag, tag) == 0)
			return &view->sections[i];
	return NULL;
}
