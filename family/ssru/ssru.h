/* The SSRU family (arch=transformer-ssru): Marian's student models, a
 * Transformer encoder and a decoder of SSRU layers (docs/DESIGN.md §3b).
 * ssru.c binds the weights and keeps the state; ssru_encoder.c and
 * ssru_decoder.c compute. */
#ifndef FAMILY_SSRU_SSRU_H
#define FAMILY_SSRU_SSRU_H
#include "../../engine/engine.h"
#include "../../engine/family.h"

void ssru_encode(engine_state *s, const int32_t *const *src);
void ssru_step(engine_state *s, int n);

/* The position encodings' table, built at bind into w (0, or -1 out of
 * memory; SSRU_POS_TABLE_FLOATS floats, at least one position), and freed
 * (also after a failed build). */
#define SSRU_POS_TABLE_FLOATS 65536
int ssru_positions_build(ssru_weights *w, int d);
void ssru_positions_free(ssru_weights *w);
/* Shared by the encoder and the decoder: x[0..d) scaled, plus sinusoidal
 * position p's encoding (sines in the first half, cosines in the second);
 * and multi-head attention (scores scaled by 1/sqrt(dk), softmax) of T queries (rows of q, stride d) over S keys and
 * values laid out head by head (from the sentence's first position: keys
 * transposed, kt: [H, dk, ld_kt], ssru_transpose_heads; values vh: [H,
 * stride head_stride, dk]), contexts joined into ctx [T, d]. With att (T rows att_ld
 * apart, may be NULL): the heads' weights averaged, the alignments. */
void ssru_scale_add_position(const ssru_weights *w, float *x, int d, float scale, int p);
void ssru_attend(engine_state *s, const float *q, int T, const float *kt, int ld_kt, const float *vh,
		 size_t head_stride, int S, float *ctx, float *att, int att_ld);
/* y = LN(x W + b + y) row by row: a linear layer, the residual, the layer
 * norm; x [n, d], y [n, d], tmp room for [n, d]. */
void ssru_project_norm(engine_state *s, const quant_linear *l, const float *x, int n, const float *ln_s,
			   const float *ln_b, float *y, float *tmp);
/* x's rows [n, d] as heads: out[h][p][dk] for p < n, h < H (out's heads
 * head_stride floats apart). */
void ssru_split_heads(const float *x, int n, int d, int heads, size_t head_stride, float *out);
/* x's rows [n, d] transposed, which is its heads transposed one after the
 * other: out[j * ld + p] = x[p][j] (head h's column c is j = h * dk + c) for
 * p < n, and 0 for n <= p < ld (ld >= n + SSRU_KEY_PAD): the keys as
 * quant_ew_key_scores reads them. */
void ssru_transpose_heads(const float *x, int n, int d, int ld, float *out);
/* x = LN(FFN(x) + x) with hid as room for the hidden values [n, ffn] */
void ssru_ffn(engine_state *s, const ssru_ffn_w *f, int ffn, float *x, int n, float *hid, float *tmp);

extern const engine_family ssru_family;

#endif
