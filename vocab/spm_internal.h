/* vocab/spm_internal.h - shared definitions of the tokenizer's translation units.
 * Not part of the public interface (see spm.h). */
#ifndef VOCAB_SPM_INTERNAL_H
#define VOCAB_SPM_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "spm.h"

/* ModelProto.SentencePiece.Type values. */
enum spm_piece_type {
	SPM_NORMAL = 1,
	SPM_UNKNOWN = 2,
	SPM_CONTROL = 3,
	SPM_USER_DEFINED = 4,
	SPM_UNUSED = 5,
	SPM_BYTE = 6
};
/* TrainerSpec.ModelType values (only the first two are supported). */
enum spm_model_type { SPM_UNIGRAM = 1, SPM_BPE = 2, SPM_WORD = 3, SPM_CHAR = 4 };

/* Blob header flags. */
enum {
	SPM_F_ADD_DUMMY_PREFIX = 1u << 0,
	SPM_F_REMOVE_EXTRA_WS = 1u << 1,
	SPM_F_ESCAPE_WS = 1u << 2,
	SPM_F_WS_AS_SUFFIX = 1u << 3,
	SPM_F_BYTE_FALLBACK = 1u << 4,
	SPM_F_DECODE_ONLY = 1u << 5, /* no lookup table, no charsmap: spm_pack_decoder */
	SPM_F_ALL = (1u << 6) - 1
};

/* Blob layout constants (see docs/TOKENIZER.md). */
#define SPM_MAGIC "nmtspm1"           /* 8 bytes including the NUL */
#define SPM_HEADER_SIZE 96u
#define SPM_PIECE_REC 16u             /* u32 str_off, u32 str_len, f32 score, u32 type */
#define SPM_DECODER_REC 8u            /* decode-only: u32 str_off, u16 str_len, u16 type */
#define SPM_ALIGN 16u
enum { SPM_SEC_PIECES, SPM_SEC_STRINGS, SPM_SEC_HASH, SPM_SEC_TRIE, SPM_SEC_NORM, SPM_SEC_UNK_SURFACE, SPM_N_SECTIONS };
#define SPM_SECTION_TABLE 40u	   /* offset of {u32 off, u32 size} x SPM_N_SECTIONS */
#define SPM_MAX_INPUT (256u << 20) /* longest line spm_encode accepts */

/* U+2581 LOWER ONE EIGHTH BLOCK: SentencePiece's visible space. */
#define SPM_SPACE_SYMBOL "\xe2\x96\x81"

struct spm_model {
	const uint8_t *pieces; /* n_pieces records of rec_size bytes */
	uint32_t rec_size;   /* SPM_PIECE_REC, or SPM_DECODER_REC in a decode-only blob */
	const uint8_t *strings; /* piece text, referenced by the records */
	const uint8_t *hash; /* n_slots little-endian u32: 0 = empty, else id + 1 */
	uint8_t *built_hash; /* the table spm_open built when the blob stores none, else NULL */
	const uint8_t *trie; /* darts-clone units (u32) of the precompiled charsmap */
	const char *norm;    /* NUL-terminated replacement strings of the charsmap */
	const char *unk_surface; /* what <unk> decodes to */
	uint32_t n_pieces, strings_len, n_slots, trie_units, norm_len, unk_surface_len;
	uint32_t model_type, flags;
	int32_t unk_id, bos_id, eos_id, pad_id;
	float min_score, max_score; /* over NORMAL pieces, as SentencePiece computes them */
	uint32_t max_match_len; /* longest NORMAL/USER_DEFINED/UNUSED piece in bytes */
	uint32_t max_user_len;  /* longest USER_DEFINED piece in bytes (0: none) */
	int inner_space;        /* some matchable piece holds the normalizer's space past its
                                 * first byte; when none does, no piece crosses a word start */
};

/* The space the normalizer writes between words: U+2581 or, unescaped, ' '. */
static inline const char *spm_space(const spm_model *m, size_t *len)
{
	int escaped = (m->flags & SPM_F_ESCAPE_WS) != 0;
	*len = escaped ? 3 : 1;
	return escaped ? SPM_SPACE_SYMBOL : " ";
}

/* A piece of the segmentation: bytes [start, start+len) of the normalized text. */
typedef struct {
	uint32_t start, len;
	int32_t id;
} spm_span;

struct spm_scratch {
	char *norm;
	size_t norm_cap; /* normalized text */
	spm_span *spans;
	size_t spans_cap; /* segmentation before unk merging/byte fallback */
	int32_t *ids;
	size_t ids_cap; /* encode output */
	char *text;
	size_t text_cap; /* decode output */
	void *work;
	size_t work_cap; /* algorithm-specific (bytes) */
	void *work2;
	size_t work2_cap;
	void *work3;
	size_t work3_cap;
};

/* ---- little-endian access (works at any alignment) ---- */
static inline uint32_t spm_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void spm_wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static inline float spm_bits_to_float(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline uint32_t spm_float_to_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* ---- pieces (ids are validated by the callers) ---- */
static inline uint32_t spm_rd16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}
static inline const uint8_t *spm_rec(const spm_model *m, int32_t id)
{
	return m->pieces + (size_t)id * m->rec_size;
}
static inline uint32_t spm_piece_len(const spm_model *m, int32_t id)
{
	const uint8_t *r = spm_rec(m, id);
	return m->rec_size == SPM_DECODER_REC ? spm_rd16(r + 4) : spm_rd32(r + 4);
}
static inline const char *spm_piece_str(const spm_model *m, int32_t id, size_t *len)
{
	*len = spm_piece_len(m, id);
	return (const char *)m->strings + spm_rd32(spm_rec(m, id));
}
/* Scores are for encoding: a decode-only blob has none (0). */
static inline float spm_piece_score(const spm_model *m, int32_t id)
{
	return m->rec_size == SPM_DECODER_REC ? 0.0f : spm_bits_to_float(spm_rd32(spm_rec(m, id) + 8));
}
static inline uint32_t spm_piece_type(const spm_model *m, int32_t id)
{
	const uint8_t *r = spm_rec(m, id);
	return m->rec_size == SPM_DECODER_REC ? spm_rd16(r + 6) : spm_rd32(r + 12);
}

/* Slots of a lookup table for n pieces: a power of two, at most half full. */
static inline uint32_t spm_table_slots(size_t n_pieces)
{
	uint32_t n = 16;
	while (n < 2 * n_pieces)
		n *= 2;
	return n;
}

/* ---- piece lookup: FNV-1a hash table, linear probing; incremental so that the
 * segmenters can extend a candidate one byte at a time ---- */
#define SPM_FNV_INIT 2166136261u
static inline uint32_t spm_fnv_step(uint32_t h, uint8_t c)
{
	return (h ^ c) * 16777619u;
}
uint32_t spm_hash(const void *s, size_t len);
/* id of the piece equal to s[0..len) whose hash is h, or -1. */
int32_t spm_lookup_hashed(const spm_model *m, uint32_t h, const char *s, size_t len);
static inline int32_t spm_lookup(const spm_model *m, const char *s, size_t len)
{
	return spm_lookup_hashed(m, spm_hash(s, len), s, len);
}
/* Length of the longest USER_DEFINED piece that prefixes s[0..len), 0 if none. */
size_t spm_user_prefix(const spm_model *m, const char *s, size_t len);

/* ---- UTF-8, with SentencePiece's exact rules ---- */
/* Bytes a character takes judging by its lead byte only (SentencePiece's OneCharLen). */
static inline size_t spm_one_char_len(uint8_t lead)
{
	static const uint8_t len_by_high_nibble[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4 };
	return len_by_high_nibble[lead >> 4];
}
/* Whether a character is well-formed (and its length) is common/utf8.h's
 * utf8_valid_length: SentencePiece's rules, which refuse a bad or truncated
 * sequence, an overlong one, a surrogate and anything above U+10FFFF. */

/* ---- scratch ---- */
/* Make *buf hold at least n elements of elem bytes. 0 or -1 (overflow / out of memory). */
int spm_reserve(void **buf, size_t *cap, size_t n, size_t elem);

/* ---- pipeline stages ---- */
int spm_normalize(const spm_model *m, spm_scratch *s, const char *in, size_t n, size_t *out_len);
/* Segment s->norm[0..n) into s->spans; *n_spans gets the count. */
int spm_unigram_segment(const spm_model *m, spm_scratch *s, size_t n, size_t *n_spans);
int spm_bpe_segment(const spm_model *m, spm_scratch *s, size_t n, size_t *n_spans);

/* ---- errors ---- */
/* Write a one-line message into err (if any) and return -1. */
int spm_fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

#endif
