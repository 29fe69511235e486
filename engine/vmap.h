/* The n-gram vocabulary map (design-notes §4): which target pieces a source
 * n-gram may translate to, plus a list of pieces always allowed (0-grams).
 * Stored in the "vmap" section as a linear-probing hash table of 64-bit
 * n-gram fingerprints whose slots point into one contiguous payload of
 * target ids: one random access for the key, one for its targets, no
 * pointers, used in place from the mapping.
 *
 * Section layout (little-endian):
 *   u32 max_n, u32 n_zero, u32 n_slots (power of two), u32 reserved,
 *   u64 n_payload,
 *   u32 zero[n_zero], padded with one u32 if n_zero is odd,
 *   n_slots x { u64 fingerprint (0 = empty), u32 offset, u32 count },
 *   u32 payload[n_payload]                                               */
#ifndef NMT_VMAP_H
#define NMT_VMAP_H
#include <stddef.h>
#include <stdint.h>

#define NMT_VMAP_MAX_N 8
#define NMT_TAG_VMAP "vmap"

typedef struct {
	uint32_t max_n;
	uint32_t n_zero;
	uint32_t n_slots;
	const uint8_t *zero;      /* n_zero u32 target ids */
	const uint8_t *slots;     /* n_slots x 16 bytes */
	const uint8_t *payload;   /* u32 target ids */
	uint64_t n_payload;
} nmt_vmap;

/* Fingerprint of an n-gram of source ids: FNV-1a 64 over their 4-byte
 * little-endian forms, never 0 (0 marks an empty slot). */
uint64_t nmt_vmap_hash(const int32_t *ids, int n);

/* Validate the section against the vocabulary sizes and wrap it. */
int nmt_vmap_open(const uint8_t *data, uint64_t size, int tgt_vocab, nmt_vmap *v,
		  char *err, size_t errlen);

/* Target ids of an n-gram: *targets points at count little-endian u32 in the
 * mapping (count 0 if the n-gram is not in the map). */
void nmt_vmap_lookup(const nmt_vmap *v, const int32_t *ids, int n, const uint8_t **targets,
		     uint32_t *count);

/* The shortlist of a source sentence (ids without the final EOS): 0-grams,
 * eos_id, and the targets of every source n-gram, n = 1..max_n; written to
 * out in increasing id order, returning how many. marks is a zeroed scratch
 * array of tgt_vocab bytes, left zeroed. */
int nmt_vmap_shortlist(const nmt_vmap *v, const int32_t *src, int len, int32_t eos_id,
		       int tgt_vocab, uint8_t *marks, int32_t *out);

#endif
