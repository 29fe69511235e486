/* The vocabulary map's text form (train/vmap.py) -> the "vmap" section. */
#ifndef PACK_VMAP_PACK_H
#define PACK_VMAP_PACK_H
#include <stddef.h>
#include <stdint.h>

int pack_vmap(const char *path, int src_vocab, int tgt_vocab, uint8_t **out, size_t *out_len,
	      char *err, size_t errlen);

#endif
