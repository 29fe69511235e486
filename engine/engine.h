/* The engine's internals: per-thread state, the encoder, the decoder step and
 * the search. The math is design-notes §1 and train/model.py, step for step. */
#ifndef NMT_ENGINE_H
#define NMT_ENGINE_H
#include <stdint.h>

#include "model.h"
#include "../quant/matrix.h"

#define NMT_MAX_BEAM 8

/* Everything one thread needs to translate, allocated once for a model and
 * grown only when a longer sentence than any before arrives (never inside the
 * decode loop). Nothing in it is shared. */
typedef struct nmt_state {
	const nmt_model *m;
	int cap_src;        /* source positions the buffers hold */
	int cap_steps;      /* decode steps the search history holds */

	/* encoder */
	float *layer_a, *layer_b;   /* [S, max(e, 2re)] ping-pong layer input/output */
	float *enc_gi;              /* [S, 3re] input projections of one direction */
	float *enc_gh;              /* [3re] */
	float *enc_h0;              /* [re] zeros: each direction starts from nothing */
	float *enc_mean;            /* [2re] mean of the states, for h_0 */
	const float *states;        /* [S, 2re] the encoder's output (layer_a or layer_b) */
	float *keys;                /* [S, a] */
	int src_len;

	/* decoder, one row per live hypothesis */
	float *h, *h_next;          /* [B, r] */
	float *xc;                  /* [B, e + 2re]: [embedding ; context] */
	float *q, *qv;              /* [B, a] */
	float *att;                 /* [S] */
	float *gi, *gh;             /* [B, 3r] */
	float *z, *z_next;          /* [B, f] */
	float *t;                   /* [B, e] */
	float *logits;              /* [B, V'] over the shortlist, or [B, Vt] */

	/* the output vocabulary of the current sentence: shortlist[0..n) ids in
	 * increasing order, or all of Vt when shortlist_len == 0 */
	int32_t *shortlist;         /* [Vt] */
	int shortlist_len;
	uint8_t *shortlist_marks;   /* [Vt] zeroed scratch for building it */

	nmt_kscratch kq;            /* the kernels' quantized activations */

	/* search history: token and parent slot of each live hypothesis per step */
	int32_t *hist_tok, *hist_parent;   /* [cap_steps, B] */
	int32_t *out_ids;                  /* [B, cap_steps] reconstructed outputs */
} nmt_state;

int nmt_state_init(nmt_state *s, const nmt_model *m);
void nmt_state_free(nmt_state *s);
/* Make room for a source of src_len tokens decoded for up to max_steps steps. */
int nmt_state_reserve(nmt_state *s, int src_len, int max_steps);

/* h_out = GRU(h) given the input projections gi = W_ih x + b_ih and the
 * recurrent projections gh = W_hh h + b_hh, torch.nn.GRU's gate order. */
void nmt_gru_cell(int hidden, const float *gi, const float *gh, const float *h, float *h_out);

/* Encode src[0..S) (EOS included): fills states, keys and the decoder's
 * initial state h[0]. */
void nmt_encode(nmt_state *s, const int32_t *src, int S);

/* One decoder step for n rows: prev[i] is row i's previous token, s->h its
 * state. Writes s->h_next and the logits s->logits [n, Vt]. */
void nmt_decode_step(nmt_state *s, int n, const int32_t *prev);

typedef struct {
	int use_shortlist;  /* restrict the output layer to the vocabulary map's shortlist, if the model has one */
	int beam;       /* 1..NMT_MAX_BEAM; 1 = greedy */
	int nbest;      /* 1..beam */
	double alpha;   /* length normalization: score = logP / len^alpha */
	int max_len;    /* 0: ceil(1.5 * S + 10) */
} nmt_search_options;

typedef struct {
	const int32_t *ids;   /* without EOS; points into the state */
	int len;
	float logprob;        /* sum of token log-probabilities, EOS included */
	float score;          /* logprob / (tokens incl. EOS)^alpha */
} nmt_hypothesis;

/* Beam search over an encoded sentence (train/search.py is the spec).
 * Fills out[0..*n_out), best first. -1 only if memory runs out. */
int nmt_search(nmt_state *s, const nmt_search_options *o, nmt_hypothesis *out, int *n_out);

/* ceil(1.5 * S + 10), design-notes §1. */
int nmt_default_max_len(int src_len);

#endif
