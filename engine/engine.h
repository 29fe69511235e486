/* The engine's internals: per-thread state, the encoder, the decoder step and
 * the search. The math is docs/DESIGN.md §3 and train/model.py, step for step. */
#ifndef ENGINE_ENGINE_H
#define ENGINE_ENGINE_H
#include <stdint.h>

#include "../nmt.h"   /* NMT_MAX_BEAM */
#include "../text/guard.h"
#include "model.h"
#include "topk.h"
#include "profile.h"
#include "../quant/matrix.h"
#include "../family/gru/gru_data.h"
#include "../family/ssru/ssru_data.h"

/* One sentence of a batch: where its encoder outputs sit, its output
 * vocabulary, and its beam during the search. */
typedef struct {
	int src_off, src_len;       /* its rows of the concatenated encoder outputs */
	int max_len;                /* decode steps allowed */

	/* the output vocabulary: shortlist[0..shortlist_len), or all of Vt when
	 * shortlist_len == 0. Its first state->sl.n_shared ids are the model's
	 * shared ones (model.h), the rest the sentence's own; each part is in
	 * increasing id order. */
	const int32_t *shortlist;
	int shortlist_len;
	quant_matrix out_w;         /* q8/q4 with a shortlist: its own rows gathered (data NULL otherwise) */
	const float *out_bias;      /* the output bias of those rows */

	/* the beam (search.c) */
	int n_live, n_fin;
	text_guard_limits guard;    /* the repetition guard's limits, from its source */
	int32_t prev[NMT_MAX_BEAM];         /* each live hypothesis's last token */
	int live_slot[NMT_MAX_BEAM];        /* and where it sits in the history */
	float live_score[NMT_MAX_BEAM];     /* and its log-probability */
	struct engine_finished {
		int step, slot;     /* where its last token sits in the history */
		int len;            /* tokens, EOS included if it ended with one */
		float logprob;
		double score;
	} fin[NMT_MAX_BEAM];
} engine_sentence;

struct engine_state;

/* A device that runs the encoder and the decoder's steps instead of this
 * CPU (opened by the model's family, family.h: the GRU family's is
 * family/gru/cuda.h), the search's bookkeeping staying here: each step it
 * returns every sentence's k best continuations, and it carries the
 * surviving rows' states over to the next step itself. */
typedef struct engine_device_ops {
	const char *name;
	/* engine_encode's work, for the prepared batch */
	int (*encode)(void *dev, struct engine_state *s, const int32_t *const *src);
	/* engine_decode_step's for rows s->row_sent / s->row_prev, then for each
	 * sentence i with live rows its beam - n_fin best continuations into
	 * s->cand[i * NMT_MAX_BEAM ..], s->n_cand[i] of them (search.c's
	 * pick_candidates: value = live score + log-softmax, flat = row in the
	 * sentence * Vt + target id) */
	int (*step)(void *dev, struct engine_state *s, int n);
	/* the next step's row i continues from this step's row s->carry_from[i] */
	int (*carry)(void *dev, struct engine_state *s, int n);
	/* what went wrong in the device's last failed call */
	const char *(*error)(void *dev);
	/* free the device's copy of the model and its buffers */
	void (*close)(void *dev);
} engine_device_ops;

/* The batch's shortlists, one after the other, and their gathered output
 * rows. Built, reserved and freed by shortlist.c. */
typedef struct {
	int n_shared;               /* every shortlist starts with the model's shared ids
	                             * (0: no shortlists) */
	int32_t *ids;               /* [sum of lengths] */
	size_t cap_ids;
	uint8_t *marks;             /* [Vt] zeroed scratch for building one */
	uint8_t *gathered;          /* codes of the gathered rows */
	size_t cap_gathered;
	float *gathered_f;          /* [2 * sum of lengths]: factors, then biases */
	size_t cap_gathered_f;
} engine_shortlist_state;

/* The search's history per sentence: token, parent slot and log-probability
 * (of the hypothesis so far) of each pick, the outputs rebuilt from it, and
 * with the attention option each pick's attention over its sentence's
 * source. Reserved and freed by history.c. */
typedef struct {
	int cap_sents, cap_steps;          /* sentences and decode steps the arrays hold */
	int32_t *tok, *parent;             /* [n, cap_steps, NMT_MAX_BEAM] */
	float *lp;                         /* [n, cap_steps, NMT_MAX_BEAM] */
	int32_t *out_ids, *out_slot;       /* [n, NMT_MAX_BEAM, cap_steps] reconstructed outputs */
	float *out_lp;                     /* [n, NMT_MAX_BEAM, cap_steps] their tokens' log-probabilities */
	int keep_att;
	int att_steps, att_stride;         /* of the prepared batch: steps, floats per entry */
	float *att;                        /* [n, att_steps, beam, att_stride] */
	size_t cap_att;
	float *step_att;                   /* [rows, att_stride] this step's rows' (the decoder writes it) */
	size_t cap_step_att;
} engine_history;

/* Everything one thread needs to translate a batch of sentences, allocated
 * when the thread starts and grown only when a bigger batch than any before
 * arrives, in engine_batch_prepare (never inside the decode loop). Nothing in
 * it is shared. The model's own parts (encoder, decoder) sit beside the
 * ones every model shares (sentences and rows, shortlists, history), each
 * reserving and freeing its own buffers. */
typedef struct engine_state {
	const nmt_model *m;
	const struct quant_ew *ew;  /* the element-wise kernels of the model's ISA (quant/ew.h) */
	quant_kscratch kq;          /* the matrix products' quantized activations */
	int beam;                   /* of the prepared batch */
	int n_sents, cap_sents;
	engine_sentence *sent;      /* [cap_sents] */
	int total_src, max_src;     /* positions of all sentences; the longest */

	/* the rows of a step, as the search hands them to the decoder and
	 * takes its logits back */
	int cap_rows;               /* rows these hold */
	int32_t *row_sent;          /* [R] the sentence of each row */
	int32_t *row_prev;          /* [R] the previous token of each row */
	float *logits;              /* [R, logit_stride] over each row's sentence's output vocabulary */
	int logit_stride;           /* floats per row of logits: the widest output vocabulary */
	int cap_logit_stride;
	int32_t *carry_from;        /* [R] the row of the step before that each row continues */
	int guard_on;               /* the prepared batch runs the repetition guard */
	text_guard_row *guard;      /* [R] what each row of this step may not continue with */
	engine_candidate *cand;     /* [cap_sents * NMT_MAX_BEAM] each sentence's best continuations */
	int *n_cand;                /* [cap_sents] */

	union {                     /* the model family's own parts (its _data.h) */
		gru_state gru;
		ssru_state ssru;
	};
	engine_shortlist_state sl;
	engine_history hist;

	/* a device running the model instead (NULL: this CPU), exchanging
	 * candidates, carries and rows with the search every step */
	const engine_device_ops *dev_ops;
	void *dev;

	long rows_decoded;          /* decoder rows engine_search has run, summed over calls */
#ifdef ENGINE_PROFILE
	engine_profile prof;        /* time and multiply-adds per stage (profile.h) */
#endif
} engine_state;

int engine_state_init(engine_state *s, const nmt_model *m);
void engine_state_free(engine_state *s);

/* Each part's buffers grown to hold what it is asked for (0, or -1 with
 * what was there kept), and freed. */
int engine_history_reserve(engine_history *h, int n_sents, int steps);
/* With the attention option: room for every pick's attention over its
 * source, and this step's rows'. */
int engine_history_reserve_attention(engine_history *h, int n_sents, int beam, int steps, int stride);
void engine_history_free(engine_history *h);
int engine_shortlist_init(engine_shortlist_state *sl, const nmt_model *m);
void engine_shortlist_free(engine_shortlist_state *sl);
/* Every sentence of the prepared batch's shortlist built into s->sl (the
 * model's shared ids first, s->sl.n_shared of them) and, for q8/q4, its own
 * output rows gathered; s->logit_stride set to the longest. 0 or -1. */
int engine_shortlists_build(engine_state *s, const int32_t *const *src);

typedef struct {
	int use_shortlist;  /* restrict the output layer to the vocabulary map's shortlist, if the model has one */
	int beam;       /* 1..NMT_MAX_BEAM; 1 = greedy */
	int nbest;      /* 1..beam */
	double alpha;   /* length normalization: score = logP / len^alpha */
	int max_len;    /* 0: ceil(1.5 * S + 10) */
	int guard;      /* 1: the repetition guard: no hypothesis loops (guard.h) */
	int attention;  /* 1: keep each output token's attention (engine_search_attention) */
	int split;      /* the translator's: 1 = each line is cut into sentences
			 * (text/split.h), 0 = a line is one sentence */
	int protect;    /* the translator's: 1 = protected spans come through verbatim (protect.h) */
	int case_fold;  /* the translator's: 1 = a sentence in capitals is translated in
			 * sentence case and given back in capitals (text/case.h) */
	int html;       /* the translator's: 1 = lines are HTML fragments (markup.h) */
} engine_search_options;

/* Set up a batch of n sentences, src[i][0..src_len[i]) each (EOS included,
 * src_len >= 1): buffers grown to fit, shortlists built and their output rows
 * gathered. The arrays are read here only. -1 if memory runs out. */
int engine_batch_prepare(engine_state *s, int n, const int32_t *const *src, const int *src_len,
		      const engine_search_options *o);

/* Encode the prepared batch's sources: fills states, keys and each
 * sentence's initial decoder state h0. */
void engine_encode(engine_state *s, const int32_t *const *src);

/* One decoder step for n rows: row i belongs to sentence s->row_sent[i]
 * (rows of a sentence adjacent), s->row_prev[i] is its previous token, s->h
 * its state. Writes s->h_next and the logits, row i at s->logits + i *
 * s->logit_stride over its sentence's output vocabulary. */
void engine_decode_step(engine_state *s, int n);

typedef struct {
	const int32_t *ids;   /* without EOS; points into the state */
	const float *token_lp;   /* [len] each token's log-probability */
	const int32_t *slots;    /* [len] where each token sits in its step's history */
	int len;
	float logprob;        /* sum of token log-probabilities, EOS included */
	float score;          /* logprob / (tokens incl. EOS)^alpha */
} engine_hypothesis;

/* The output layer for n rows of the final hidden values x [n, emb]: the
 * logits, row i at s->logits + i * s->logit_stride, over its sentence's
 * output vocabulary (m->tgt_emb, tied, and m->out_bias). */
void engine_output_layer(engine_state *s, const float *x, int n);

/* Beam search over the encoded batch (train/search.py is the spec for each
 * sentence; sentences do not affect each other). Sentence i's best
 * hypotheses go to out[i * o->nbest ..], best first, n_out[i] of them.
 * 0, or -1 when the device (if any) fails. */
int engine_search(engine_state *s, const engine_search_options *o, engine_hypothesis *out, int *n_out);

/* With o->attention: the attention over sentence sent's source positions
 * (src_len floats, EOS last) of the decoder step that chose the token at
 * (step, slot) of a hypothesis's slots[]; NULL without. Valid until the
 * next batch is prepared. */
const float *engine_search_attention(const engine_state *s, int sent, int step, int slot);

/* ceil(1.5 * S + 10), docs/DESIGN.md §3. */
int engine_default_max_len(int src_len);

#endif
