/* The vocabulary map's text form (train/vmap.py) -> the "vmap" section. */
#ifndef PACK_VMAP_PACK_H
#define PACK_VMAP_PACK_H
#include <stddef.h>
#include <stdint.h>

int pack_vmap(const char *path, int src_vocab, int tgt_vocab, uint8_t **out, size_t *out_len,
	      char *err, size_t errlen);
/* The same section from lists in memory: the 0-grams zero[n_zero], and for
 * each source id s < src_vocab the targets ids[offsets[s] .. offsets[s + 1])
 * of the 1-gram s (no entry when empty). Ids must lie inside the
 * vocabularies. */
int pack_vmap_unigrams(const uint32_t *zero, size_t n_zero, const uint64_t *offsets, const uint32_t *ids,
		       int src_vocab, int tgt_vocab, uint8_t **out, size_t *out_len, char *err, size_t errlen);

#endif
