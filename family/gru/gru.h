/* The GRU family's encoder (encoder.c) and decoder step (decoder.c), as the
 * family table in gru.c names them. */
#ifndef NMT_ENGINE_GRU_H
#define NMT_ENGINE_GRU_H
#include "../../engine/engine.h"
#include "../../engine/family.h"

void nmt_gru_encode(nmt_state *s, const int32_t *const *src);
void nmt_gru_step(nmt_state *s, int n);

extern const nmt_family nmt_family_gru;

#endif
