/* The packed model file, version 3 (docs/FORMAT.md is the full description).
 *
 *   [header 64 B][section table: n x 48 B][sections, each 64-byte aligned]
 *
 * All integers are little-endian. The reader (read.c) trusts nothing:
 * every offset, size and count is checked against the file before use. The
 * writer lives in model-pack/. */
#ifndef NMT_FORMAT_H
#define NMT_FORMAT_H
#include <stddef.h>
#include <stdint.h>

#define NMT_MAGIC "NMTMODEL"
#define NMT_FORMAT_VERSION 3
#define NMT_HEADER_SIZE 64
#define NMT_SECTION_ENTRY_SIZE 48
#define NMT_SECTION_TAG_LEN 16
#define NMT_MAX_SECTIONS 64
#define NMT_ALIGN 64

/* Header layout (byte offsets). */
enum {
	NMT_H_MAGIC = 0,        /* char[8] "NMTMODEL" */
	NMT_H_VERSION = 8,      /* u32 */
	NMT_H_NSECTIONS = 12,   /* u32 */
	NMT_H_FILE_SIZE = 16,   /* u64: the whole file, to catch truncation early */
	NMT_H_TABLE_CRC = 24,   /* u32: CRC-32 of the section table */
	/* bytes [28, 60) reserved, zero */
	NMT_H_HEADER_CRC = 60,  /* u32: CRC-32 of header bytes [0, 60) */
};

/* Section table entry layout (byte offsets within the 48-byte entry). */
enum {
	NMT_S_TAG = 0,          /* char[16], NUL-padded ASCII */
	NMT_S_OFFSET = 16,      /* u64, from the start of the file */
	NMT_S_SIZE = 24,        /* u64 */
	NMT_S_ALIGN = 32,       /* u32, power of two >= 64; offset % align == 0 */
	NMT_S_CRC = 36,         /* u32: CRC-32 of the section's bytes */
	NMT_S_FLAGS = 40,       /* u32: NMT_SECTION_* */
};

/* A bulk section's checksum is only verified by `nmt info --verify`: hashing
 * hundreds of megabytes of weights at every start would cost more than
 * translating a line. Every other section is verified at every load. */
#define NMT_SECTION_BULK 1u

/* Section tags. */
#define NMT_TAG_META "meta"           /* key=value lines, UTF-8 */
#define NMT_TAG_TENSORS "tensors"     /* tensor directory */
#define NMT_TAG_WEIGHTS "weights"     /* tensor data, bulk */
#define NMT_TAG_SRC_VOCAB "src.vocab" /* SentencePiece blob, see docs/TOKENIZER.md */
#define NMT_TAG_TGT_VOCAB "tgt.vocab"
#define NMT_TAG_PRECOMP "precomp"     /* per-word input projections, bulk (optional) */

/* Tensor directory: u32 count, u32 reserved, then count 64-byte entries. */
#define NMT_TENSOR_ENTRY_SIZE 64
#define NMT_TENSOR_NAME_LEN 32
enum {
	NMT_T_NAME = 0,         /* char[32], NUL-padded */
	NMT_T_DTYPE = 32,       /* u32: nmt_format (weights.h) */
	NMT_T_ROWS = 36,        /* u32 */
	NMT_T_COLS = 40,        /* u32: a vector is 1 x n */
	NMT_T_OFFSET = 48,      /* u64, from the start of the weights section, 64-aligned */
	NMT_T_SIZE = 56,        /* u64 bytes */
};

/* A tensor's bytes are format/weights.h's layout for its format. */

/* Little-endian field access without alignment assumptions. */
static inline uint32_t nmt_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t nmt_rd64(const uint8_t *p)
{
	return (uint64_t)nmt_rd32(p) | (uint64_t)nmt_rd32(p + 4) << 32;
}

static inline void nmt_wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void nmt_wr64(uint8_t *p, uint64_t v)
{
	nmt_wr32(p, (uint32_t)v);
	nmt_wr32(p + 4, (uint32_t)(v >> 32));
}

/* A section located and bounds-checked by nmt_format_parse. */
typedef struct {
	char tag[NMT_SECTION_TAG_LEN + 1];
	const uint8_t *data;
	uint64_t size;
	uint32_t crc;
	uint32_t flags;
} nmt_section;

typedef struct {
	uint32_t version;
	uint32_t n_sections;
	nmt_section sections[NMT_MAX_SECTIONS];
} nmt_file_view;

/* Check header and table against the buffer, locate every section, and verify
 * the checksums of all non-bulk sections (all sections if verify_bulk). */
int nmt_format_parse(const uint8_t *buf, size_t len, int verify_bulk,
		     nmt_file_view *view, char *err, size_t errlen);

/* The section with this tag, or NULL. */
const nmt_section *nmt_format_find(const nmt_file_view *view, const char *tag);

#endif
