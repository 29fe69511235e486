/* The SSRU family's own data: its weights, bound into the model by ssru.c
 * (nmt_model's ssru), and its per-thread state part (engine_state's ssru). */
#ifndef FAMILY_SSRU_SSRU_DATA_H
#define FAMILY_SSRU_SSRU_DATA_H

#include "../../quant/matrix.h"

/* The SSRU family's weights (family/ssru/ssru.c; Marian's student models):
 * multi-head attention (q, k, v, o, each W x + b, then a layer norm of the
 * output plus the input), a ReLU feed-forward block with its layer norm,
 * and an SSRU layer (W, W_f, b_f and a layer norm). */
#define SSRU_MAX_LAYERS 16

typedef struct {
	quant_linear q, k, v, o;
	const float *ln_s, *ln_b;
} ssru_attention_w;

typedef struct {
	quant_linear w1, w2;
	const float *ln_s, *ln_b;
} ssru_ffn_w;

typedef struct {
	quant_matrix w, wf;
	const float *bf, *ln_s, *ln_b;
} ssru_w;

typedef struct {
	int heads, ffn, dec_ffn, enc_layers, dec_layers;
	quant_matrix dec_emb; /* the decoder's input embeddings (tgt_emb unless untied) */
	ssru_attention_w enc_att[SSRU_MAX_LAYERS];
	ssru_ffn_w enc_ffn[SSRU_MAX_LAYERS];
	ssru_w dec_rnn[SSRU_MAX_LAYERS];
	ssru_attention_w dec_att[SSRU_MAX_LAYERS];
	ssru_ffn_w dec_ffn_w[SSRU_MAX_LAYERS];
	/* The sinusoidal position encodings, computed once at bind (the bound
	 * model is shared read-only by every thread) instead of at every
	 * position of every batch and step: each pair's frequency [d / 2],
	 * and positions 0 .. pos_len - 1 as rows of d (sines, then cosines);
	 * later positions are computed from pos_freq (ssru_encoder.c). */
	float *pos_freq, *pos_table;
	int pos_len;
} ssru_weights;

/* The SSRU family's buffers (engine/ssru*.c): P source positions, R rows,
 * d = emb, H heads of dk = d / H, L decoder layers. Reserved and freed by
 * ssru.c. */
/* Columns past a transposed key block's P positions: a vector's worth of
 * keys read from any sentence's first position stays inside the block
 * (quant_ew_key_scores reads whole vectors, at most 16 floats). */
#define SSRU_KEY_PAD 16

typedef struct {
	int cap_src, cap_rows, cap_sq;
	int pos;                    /* the position of the next decoder step */
	float *x, *y;               /* [P, d] a layer's input and output */
	float *q, *k, *v;           /* [P, d] projections */
	float *kt, *vh;             /* keys head by head transposed, [H, dk, P + SSRU_KEY_PAD]
	                             * (ssru_transpose_heads); values [H, P, dk] */
	float *ctx;                 /* [P, d] the heads' contexts joined */
	float *hid;                 /* [P, max ffn] the feed-forward layers' hidden values */
	float *scores;              /* [max(S, beam) x S] one head's attention of a sentence */
	float *head_out;            /* [max(S, beam) x dk] one head's contexts */
	float *ck, *cv;             /* the cross-attentions' keys [L, H, dk, P + SSRU_KEY_PAD] and
	                             * values [L, H, P, dk] */
	float *c, *c_next;          /* [L, R, d] the SSRU cells */
	float *rx, *ry, *rq, *rctx; /* [R, d] a step's rows */
	float *rwx, *rfx;           /* [R, d] an SSRU layer's W x and W_f x + b_f */
	float *rhid;                /* [R, dec ffn] */
} ssru_state;

#endif
