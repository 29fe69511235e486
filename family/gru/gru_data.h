/* The GRU family's own data: its weights, bound into the model by gru.c
 * (nmt_model's gru), and its per-thread state parts (engine_state's gru),
 * reserved and freed by encoder.c and decoder.c. */
#ifndef FAMILY_GRU_GRU_DATA_H
#define FAMILY_GRU_GRU_DATA_H
#include <stdint.h>

#include "../../quant/matrix.h"

#define GRU_MAX_ENC_LAYERS 8

/* The family's own sizes (docs/DESIGN.md §1); the vocabularies and e are
 * the model's (engine_dims). */
typedef struct {
	int enc_hidden;   /* re, per direction */
	int enc_layers;   /* Le */
	int dec_hidden;   /* r */
	int att;          /* a */
	int fc;           /* f */
	int fc_layers;    /* N tied residual layers */
} gru_dims;

/* A GRU in torch.nn.GRU's layout: gates stacked (r, z, n) along the rows. */
typedef struct {
	quant_matrix w_ih, w_hh;   /* [3h, in], [3h, h] */
	const float *b_ih, *b_hh;  /* [3h] */
} gru_layer;

typedef struct {
	gru_dims dims;
	gru_layer enc[GRU_MAX_ENC_LAYERS][2];        /* [layer][0 fwd, 1 bwd] */
	quant_linear init;                           /* [r, 2re] */
	quant_matrix att_U, att_W, att_V;            /* [a, 2re], [a, r], [a, e] */
	gru_layer dec;                               /* input [e + 2re]; w_ih unused: */
	quant_matrix dec_ih_x, dec_ih_c;             /* its columns split: [3r, e], [3r, 2re] */
	quant_linear fc_in, fc, top;                 /* [f, r], [f, f], [e, f] */
	/* Precomputed per-word products (Devlin 2014 §4.2), for the first
	 * pre_src / pre_tgt ids (0: none): the first encoder layer's input
	 * projections W_ih e_w + b_ih, forward then backward [6re]; per target
	 * word the attention query's V_a e_w, then the decoder GRU's input
	 * projection of the embedding, dec_ih_x e_w [a + 3r]. Exactly what
	 * the engine computes without them. Stored in the file (read in
	 * place), or, for the first cache_src / cache_tgt ids, filled by each
	 * translator as it first meets a word (gru_word_tables). */
	const float *pre_enc, *pre_att;
	int pre_src, pre_tgt;
	int cache_src, cache_tgt;
} gru_weights;

/* A translator's own per-word tables (precomp.h), rows laid out as the
 * stored ones, each filled the first time its word is met: no time at
 * open, and only the words a text uses cost memory. */
typedef struct {
	float *enc;                 /* [cache_src, 6re] */
	float *att;                 /* [cache_tgt, a + 3r] */
	uint8_t *enc_have;          /* [cache_src] bit dir: that direction's row is filled */
	uint8_t *att_have;          /* [cache_tgt] */
} gru_word_tables;

/* The encoder's buffers, all sentences' positions one after the other
 * (P of them; n sentences). Reserved and freed by encoder.c. */
typedef struct {
	int cap_src;                /* positions the buffers hold */
	int cap_unc;                /* positions without precomputed projections they hold */
	int cap_sents;              /* sentences the per-sentence buffers hold */
	float *layer_a, *layer_b;   /* [P, max(e, 2re)] ping-pong layer input/output */
	float *gi;                  /* [P, max(3re, 3r)] input projections of one direction; once
	                             * the encoder is done, the projected states (proj) */
	int32_t *src_ids;           /* [P] each position's source id */
	int32_t *unc;               /* [U] positions whose word has no precomputed projection */
	float *x;                   /* [U, e] their embeddings, one after the other */
	float *gi_u;                /* [U, 3re] and their projections */
	float *h;                   /* [n, re] the states the recurrence continues from */
	float *gh;                  /* [n, 3re] */
	int32_t *pos;               /* [n] the position each of those rows writes */
	float *mean;                /* [2re] mean of a sentence's states, for h_0 */
	const float *states;        /* [P, 2re] the encoder's output (layer_a or layer_b) */
	float *keys;                /* [P, a] */
	float *proj;                /* [P, 3r] the decoder GRU's input projection of each state,
	                             * W_ih,c s_j: gi's memory, free after the encoder */
	float *h0;                  /* [n, r] each sentence's initial decoder state */
} gru_encoder_state;

/* The decoder step's buffers, one row per live hypothesis (R rows), grouped
 * by sentence. Reserved and freed by decoder.c. */
typedef struct {
	int cap_rows;               /* rows the buffers hold */
	int cap_src;                /* source positions att holds per row */
	float *h, *h_next;          /* [R, r] */
	float *x;                   /* [R, e] the embeddings of the rows' previous words, those of
	                             * unc only, one after the other (as qv and gx) */
	float *q, *qv;              /* [R, a] */
	const float **qv_row;       /* [R] each row's V_a x: in qv, or a precomputed table's row */
	const float **gx_row;       /* [R] each row's W_ih,x x: in gx, or a precomputed table's row */
	int32_t *unc;               /* [R] the rows whose word has no table row (yet) */
	float *att;                 /* [beam, S] a sentence's rows' attention weights */
	float *gi, *gh, *gx;        /* [R, 3r] */
	float *z, *z_next;          /* [R, f] */
	float *t;                   /* [R, e] */
} gru_decoder_state;

typedef struct {
	gru_encoder_state enc;
	gru_decoder_state dec;
	gru_word_tables words;
} gru_state;

#endif
