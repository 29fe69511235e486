/* The packed model file, version 3 (docs/FORMAT.md is the full description).
 *
 *   [header 64 B][section table: n x 48 B][sections, each 64-byte aligned]
 *
 * All integers are little-endian. The reader (read.c) trusts nothing:
 * every offset, size and count is checked against the file before use. The
 * writer lives in model-pack/. */
#ifndef FORMAT_FORMAT_H
#define FORMAT_FORMAT_H
#include <stddef.h>
#include <stdint.h>

#define FORMAT_MAGIC "NMTMODEL"
#define FORMAT_VERSION 3
#define FORMAT_HEADER_SIZE 64
#define FORMAT_SECTION_ENTRY_SIZE 48
#define FORMAT_SECTION_TAG_LEN 16
#define FORMAT_MAX_SECTIONS 64
#define FORMAT_ALIGN 64

/* Header layout (byte offsets). */
enum {
	FORMAT_H_MAGIC = 0,     /* char[8] "NMTMODEL" */
	FORMAT_H_VERSION = 8,   /* u32 */
	FORMAT_H_NSECTIONS = 12, /* u32 */
	FORMAT_H_FILE_SIZE = 16, /* u64: the whole file, to catch truncation early */
	FORMAT_H_TABLE_CRC = 24, /* u32: CRC-32 of the section table */
	/* bytes [28, 60) reserved, zero */
	FORMAT_H_HEADER_CRC = 60, /* u32: CRC-32 of header bytes [0, 60) */
};

/* Section table entry layout (byte offsets within the 48-byte entry). */
enum {
	FORMAT_S_TAG = 0,       /* char[16], NUL-padded ASCII */
	FORMAT_S_OFFSET = 16,   /* u64, from the start of the file */
	FORMAT_S_SIZE = 24,     /* u64 */
	FORMAT_S_ALIGN = 32,    /* u32, power of two >= 64; offset % align == 0 */
	FORMAT_S_CRC = 36,      /* u32: CRC-32 of the section's bytes */
	FORMAT_S_FLAGS = 40,    /* u32: FORMAT_SECTION_* */
};

/* A bulk section's checksum is only verified by `nmt info --verify`: hashing
 * hundreds of megabytes of weights at every start would cost more than
 * translating a line. Every other section is verified at every load. */
#define FORMAT_SECTION_BULK 1u

/* Section tags. */
#define FORMAT_TAG_META "meta"        /* key=value lines, UTF-8 */
#define FORMAT_TAG_TENSORS "tensors"  /* tensor directory */
#define FORMAT_TAG_WEIGHTS "weights"  /* tensor data, bulk */
#define FORMAT_TAG_SRC_VOCAB "src.vocab" /* SentencePiece blob, see docs/TOKENIZER.md */
#define FORMAT_TAG_TGT_VOCAB "tgt.vocab"
#define FORMAT_TAG_PRECOMP "precomp"  /* per-word input projections, bulk (optional) */

/* Tensor directory: u32 count, u32 reserved, then count 64-byte entries. */
#define FORMAT_TENSOR_ENTRY_SIZE 64
#define FORMAT_TENSOR_NAME_LEN 32
enum {
	FORMAT_T_NAME = 0,      /* char[32], NUL-padded */
	FORMAT_T_DTYPE = 32,    /* u32: format_encoding (weights.h) */
	FORMAT_T_ROWS = 36,     /* u32 */
	FORMAT_T_COLS = 40,     /* u32: a vector is 1 x n */
	FORMAT_T_OFFSET = 48,   /* u64, from the start of the weights section, 64-aligned */
	FORMAT_T_SIZE = 56,     /* u64 bytes */
};

/* A tensor's bytes are format/weights.h's layout for its format. */

/* Little-endian field access without alignment assumptions. */
static inline uint32_t format_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t format_rd64(const uint8_t *p)
{
	return (uint64_t)format_rd32(p) | (uint64_t)format_rd32(p + 4) << 32;
}

static inline void format_wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void format_wr64(uint8_t *p, uint64_t v)
{
	format_wr32(p, (uint32_t)v);
	format_wr32(p + 4, (uint32_t)(v >> 32));
}

/* A section located and bounds-checked by format_parse. */
typedef struct {
	char tag[FORMAT_SECTION_TAG_LEN + 1];
	const uint8_t *data;
	uint64_t size;
	uint32_t crc;
	uint32_t flags;
} format_section;

typedef struct {
	uint32_t version;
	uint32_t n_sections;
	format_section sections[FORMAT_MAX_SECTIONS];
} format_file_view;

/* Check header and table against the buffer, locate every section, and verify
 * the checksums of all non-bulk sections (all sections if verify_bulk). */
int format_parse(const uint8_t *buf, size_t len, int verify_bulk,
		     format_file_view *view, char *err, size_t errlen);

/* The section with this tag, or NULL. */
const format_section *format_find(const format_file_view *view, const char *tag);

#endif
