/* The GRU family's per-word tables (Devlin 2014 §4.2; docs/DESIGN.md):
 * for the first source ids, the first encoder layer's input projections
 * W_ih e + b_ih (forward then backward, 6 re floats); for the first target
 * ids, the attention's V_a e then the decoder GRU's dec_ih_x e (a + 3 r).
 * Filled by the same products the engine runs without them, so using them
 * changes no result. model-pack either stores them (the "precomp" section,
 * read in place) or asks for them in the metadata (precompute=K), and then
 * each translator fills its own rows of the first K ids as it meets their
 * words (gru_word_tables). */
#ifndef FAMILY_GRU_PRECOMP_H
#define FAMILY_GRU_PRECOMP_H
#include "../../engine/engine.h"

/* Floats per source and per target id. */
size_t gru_precomp_src_cols(const gru_dims *gd);
size_t gru_precomp_tgt_cols(const gru_dims *gd);
/* Fill enc [n_src, src_cols] and att [n_tgt, tgt_cols] for ids 0..n-1 of
 * a bound model. -1 if out of memory. */
int gru_precomp_fill(const nmt_model *m, int n_src, int n_tgt, float *enc, float *att);

/* Whether the model has source tables, stored or filled. */
int gru_has_src_tables(const nmt_model *m);
/* A translator's tables reserved (once; 0, or -1 out of memory) and freed. */
int gru_word_tables_reserve(gru_word_tables *w, const nmt_model *m);
void gru_word_tables_free(gru_word_tables *w);
/* Source word id's first-layer input projection in direction dir (3 re
 * floats), or NULL when no table holds it yet. */
const float *gru_src_row(const engine_state *s, int32_t id, int dir);
/* Keep a projection just computed, where id has a row in s's tables. */
void gru_src_row_keep(engine_state *s, int32_t id, int dir, const float *row);
/* Target word id's V_a e (a floats) then dec_ih_x e (3 r), or NULL. */
const float *gru_tgt_row(const engine_state *s, int32_t id);
void gru_tgt_row_keep(engine_state *s, int32_t id, const float *qv, const float *gx);

#endif
