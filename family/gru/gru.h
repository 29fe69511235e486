/* The GRU family's encoder (encoder.c) and decoder step (decoder.c), as the
 * family table in gru.c names them. */
#ifndef FAMILY_GRU_GRU_H
#define FAMILY_GRU_GRU_H
#include "../../engine/engine.h"
#include "../../engine/family.h"

void gru_encode(engine_state *s, const int32_t *const *src);
void gru_step(engine_state *s, int n);

/* The state parts' buffers grown to hold what they are asked for (0, or
 * -1 with what was there kept), and freed. */
int gru_encoder_reserve(gru_encoder_state *e, const nmt_model *m, int n_sents, int positions, int uncovered);
void gru_encoder_free(gru_encoder_state *e);
int gru_decoder_reserve(gru_decoder_state *dec, const nmt_model *m, int rows, int positions);
void gru_decoder_free(gru_decoder_state *dec);

extern const engine_family gru_family;

#endif
