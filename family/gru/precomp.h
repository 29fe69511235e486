/* The GRU family's per-word tables (Devlin 2014 §4.2; docs/DESIGN.md):
 * for the first source ids, the first encoder layer's input projections
 * W_ih e + b_ih (forward then backward, 6 re floats); for the first target
 * ids, the attention's V_a e then the decoder GRU's dec_ih_x e (a + 3 r).
 * Filled by the same products the engine runs without them, so using them
 * changes no result. model-pack either stores them (the "precomp" section)
 * or asks for them in the metadata (precompute=K), and then they are
 * computed here when the model opens. */
#ifndef FAMILY_GRU_PRECOMP_H
#define FAMILY_GRU_PRECOMP_H
#include "../../engine/model.h"

/* Floats per source and per target id. */
size_t gru_precomp_src_cols(const engine_dims *d);
size_t gru_precomp_tgt_cols(const engine_dims *d);
/* Fill enc [n_src, src_cols] and att [n_tgt, tgt_cols] for ids 0..n-1 of
 * a bound model. -1 if out of memory. */
int gru_precomp_fill(const nmt_model *m, int n_src, int n_tgt, float *enc, float *att);
/* Compute the tables of the first `top` ids into memory the model owns
 * (freed by engine_unload) and point m->pre_* at them. */
int gru_precomp_derive(nmt_model *m, long top, char *err, size_t errlen);

#endif
