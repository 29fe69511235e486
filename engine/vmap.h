/* The n-gram vocabulary map (docs/DESIGN.md §6): which target pieces a source
 * n-gram may translate to, plus a list of pieces always allowed (0-grams).
 * Stored in the "vmap" section as a linear-probing hash table of 32-bit
 * n-gram fingerprints whose slots point into one contiguous payload of
 * target-id lists: one random access for the key, one for its targets, no
 * pointers, used in place from the mapping. Ids are 16 bits wide when the
 * target vocabulary has at most 65535 pieces, else 32.
 *
 * Section layout (little-endian; W = id_bytes, 2 or 4):
 *   u32 max_n, u32 n_zero, u32 n_slots (power of two), u32 id_bytes,
 *   u64 n_payload (W-byte values),
 *   zero[n_zero] (W bytes each), padded with zero bytes to a multiple of 4,
 *   n_slots x { u32 fingerprint (0 = empty), u32 offset },
 *   payload[n_payload] (W bytes each): at each slot's offset its list, a
 *   count followed by that many target ids.
 *
 * A 64-bit FNV-1a hash of the n-gram gives both the home slot (high half)
 * and the fingerprint (low half). The packer merges the lists of n-grams
 * whose fingerprints collide, and an absent n-gram that matches a stored
 * fingerprint gets that entry's targets: either way a shortlist can only
 * grow, never lose a piece the map gives its n-grams.                  */
#ifndef ENGINE_VMAP_H
#define ENGINE_VMAP_H
#include <stddef.h>
#include <stdint.h>

#define ENGINE_VMAP_MAX_N 8
#define ENGINE_TAG_VMAP "vmap"

#define ENGINE_VMAP_SLOT_BYTES 8

typedef struct {
	uint32_t max_n;
	uint32_t n_zero;
	uint32_t n_slots;
	uint32_t id_bytes;        /* 2 or 4 */
	const uint8_t *zero;      /* n_zero ids */
	const uint8_t *slots;     /* n_slots x ENGINE_VMAP_SLOT_BYTES */
	const uint8_t *payload;   /* counts and ids */
	uint64_t n_payload;
} engine_vmap;

/* FNV-1a 64 over the ids' 4-byte little-endian forms. */
uint64_t engine_vmap_hash(const int32_t *ids, int n);

/* The home slot and the fingerprint (never 0, which marks an empty slot)
 * of a hash, for a table of n_slots (a power of two). */
static inline uint32_t engine_vmap_home(uint64_t hash, uint32_t n_slots)
{
	return (uint32_t)(hash >> 32) & (n_slots - 1);
}

static inline uint32_t engine_vmap_fingerprint(uint64_t hash)
{
	uint32_t fp = (uint32_t)hash;
	return fp ? fp : 1;
}

/* Value i of an array of W-byte little-endian values. */
static inline uint32_t engine_vmap_value(const uint8_t *p, uint32_t id_bytes, uint64_t i)
{
	const uint8_t *q = p + id_bytes * i;
	uint32_t v = (uint32_t)q[0] | (uint32_t)q[1] << 8;
	if (id_bytes == 4)
		v |= (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
	return v;
}

/* Validate the section against the vocabulary sizes and wrap it. */
int engine_vmap_open(const uint8_t *data, uint64_t size, int tgt_vocab, engine_vmap *v,
		  char *err, size_t errlen);

/* Target ids of an n-gram: *targets points at count W-byte ids in the
 * mapping (count 0 if the n-gram is not in the map). */
void engine_vmap_lookup(const engine_vmap *v, const int32_t *ids, int n, const uint8_t **targets,
		     uint32_t *count);

/* The shortlist of a source sentence (ids without the final EOS): 0-grams,
 * eos_id, and the targets of every source n-gram, n = 1..max_n; written to
 * out in increasing id order, returning how many. marks is a zeroed scratch
 * array of tgt_vocab bytes, left zeroed. */
int engine_vmap_shortlist(const engine_vmap *v, const int32_t *src, int len, int32_t eos_id,
		       int tgt_vocab, uint8_t *marks, int32_t *out);

#endif
