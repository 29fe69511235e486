/* The "precomp" section (docs/FORMAT.md): per-word products computed at
 * packing time by the engine's own code, so that using them changes no
 * result. */
#ifndef PACK_PRECOMP_H
#define PACK_PRECOMP_H
#include <stddef.h>
#include <stdint.h>

/* Open the packed model at `path` and compute the section for its first
 * `top` source and target ids (fewer if a vocabulary is smaller) into a
 * malloc'd *blob. -1 and a message on error. */
int pack_precomp(const char *path, int top, uint8_t **blob, size_t *len, char *err, size_t errlen);

#endif
