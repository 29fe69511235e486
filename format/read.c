/* Reading the packed file's header and section table (format.h). */
#include "format.h"

#include <stdio.h>
#include <string.h>

#include "crc32.h"
#include "../common/error.h"

static int check_header(const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	if (len < FORMAT_HEADER_SIZE)
		return error_set(err, errlen, "not an nmt model (file too small: %zu bytes)", len);
	if (memcmp(buf + FORMAT_H_MAGIC, FORMAT_MAGIC, 8) != 0)
		return error_set(err, errlen, "not an nmt model (bad magic)");
	if (format_crc32(0, buf, FORMAT_H_HEADER_CRC) != format_rd32(buf + FORMAT_H_HEADER_CRC))
		return error_set(err, errlen, "corrupt model: header checksum mismatch");
	uint32_t version = format_rd32(buf + FORMAT_H_VERSION);
	if (version != FORMAT_VERSION)
		return error_set(err, errlen, "model format version %u is not supported (this nmt reads version %d)",
			    version, FORMAT_VERSION);
	uint64_t file_size = format_rd64(buf + FORMAT_H_FILE_SIZE);
	if (file_size != len)
		return error_set(err, errlen, "model file is %zu bytes but its header says %llu (truncated or extended?)",
			    len, (unsigned long long)file_size);
	uint32_t n = format_rd32(buf + FORMAT_H_NSECTIONS);
	if (n == 0 || n > FORMAT_MAX_SECTIONS)
		return error_set(err, errlen, "corrupt model: %u sections (must be 1..%d)", n, FORMAT_MAX_SECTIONS);
	if ((uint64_t)n * FORMAT_SECTION_ENTRY_SIZE > len - FORMAT_HEADER_SIZE)
		return error_set(err, errlen, "corrupt model: section table runs past the end of the file");
	return 0;
}

static int read_entry(const uint8_t *buf, size_t len, const uint8_t *e, format_section *s,
		      char *err, size_t errlen)
{
	memcpy(s->tag, e + FORMAT_S_TAG, FORMAT_SECTION_TAG_LEN);
	s->tag[FORMAT_SECTION_TAG_LEN] = '\0';
	if (s->tag[0] == '\0' || memchr(e + FORMAT_S_TAG, '\0', FORMAT_SECTION_TAG_LEN) == NULL)
		return error_set(err, errlen, "corrupt model: bad section tag");
	for (const char *c = s->tag; *c; c++)
		if (*c < 0x21 || *c > 0x7e)
			return error_set(err, errlen, "corrupt model: bad section tag");
	uint64_t off = format_rd64(e + FORMAT_S_OFFSET), size = format_rd64(e + FORMAT_S_SIZE);
	uint32_t align = format_rd32(e + FORMAT_S_ALIGN);
	if (align < FORMAT_ALIGN || (align & (align - 1)) != 0 || off % align != 0)
		return error_set(err, errlen, "corrupt model: section \"%s\" is misaligned", s->tag);
	if (off > len || size > len - off)
		return error_set(err, errlen, "corrupt model: section \"%s\" runs past the end of the file", s->tag);
	s->data = buf + off;
	s->size = size;
	s->crc = format_rd32(e + FORMAT_S_CRC);
	s->flags = format_rd32(e + FORMAT_S_FLAGS);
	return 0;
}

int format_parse(const uint8_t *buf, size_t len, int verify_bulk,
		     format_file_view *view, char *err, size_t errlen)
{
	if (check_header(buf, len, err, errlen) != 0)
		return -1;
	memset(view, 0, sizeof *view);
	view->version = format_rd32(buf + FORMAT_H_VERSION);
	view->n_sections = format_rd32(buf + FORMAT_H_NSECTIONS);
	const uint8_t *table = buf + FORMAT_HEADER_SIZE;
	size_t table_size = (size_t)view->n_sections * FORMAT_SECTION_ENTRY_SIZE;
	if (format_crc32(0, table, table_size) != format_rd32(buf + FORMAT_H_TABLE_CRC))
		return error_set(err, errlen, "corrupt model: section table checksum mismatch");
	for (uint32_t i = 0; i < view->n_sections; i++) {
		format_section *s = &view->sections[i];
		if (read_entry(buf, len, table + (size_t)i * FORMAT_SECTION_ENTRY_SIZE, s, err, errlen) != 0)
			return -1;
		if ((uint64_t)(s->data - buf) < FORMAT_HEADER_SIZE + table_size && s->size > 0)
			return error_set(err, errlen, "corrupt model: section \"%s\" overlaps the section table", s->tag);
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(view->sections[j].tag, s->tag) == 0)
				return error_set(err, errlen, "corrupt model: duplicate section \"%s\"", s->tag);
		int bulk = (s->flags & FORMAT_SECTION_BULK) != 0;
		if ((verify_bulk || !bulk) && format_crc32(0, s->data, s->size) != s->crc)
			return error_set(err, errlen, "corrupt model: section \"%s\" checksum mismatch", s->tag);
	}
	return 0;
}

const format_section *format_find(const format_file_view *view, const char *tag)
{
	for (uint32_t i = 0; i < view->n_sections; i++)
		if (strcmp(view->sections[i].tag, tag) == 0)
			return &view->sections[i];
	return NULL;
}
