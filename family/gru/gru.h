/* The GRU family's encoder (encoder.c) and decoder step (decoder.c), as the
 * family table in gru.c names them. */
#ifndef NMT_ENGINE_GRU_H
#define NMT_ENGINE_GRU_H
#include "../../engine/engine.h"
#include "../../engine/family.h"

void nmt_gru_encode(nmt_state *s, const int32_t *const *src);
void nmt_gru_step(nmt_state *s, int n);

/* The state parts' buffers grown to hold what they are asked for (0, or
 * -1 with what was there kept), and freed. */
int nmt_encoder_reserve(nmt_encoder_state *e, const nmt_dims *d, int n_sents, int positions, int uncovered);
void nmt_encoder_free(nmt_encoder_state *e);
int nmt_decoder_reserve(nmt_decoder_state *dec, const nmt_dims *d, int rows, int positions);
void nmt_decoder_free(nmt_decoder_state *dec);

extern const nmt_family nmt_family_gru;

#endif
