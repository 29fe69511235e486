/* A loaded model: dimensions, weights bound by name to the read-only mapping
 * of the packed file, and the two tokenizers. Immutable once open, so one
 * model is shared by every thread. */
#ifndef NMT_MODEL_H
#define NMT_MODEL_H
#include <stddef.h>

#include "../nmt.h"
#include "../quant/matrix.h"
#include "../text/cases.h"
#include "../vocab/spm.h"
#include "../format/format.h"
#include "vmap.h"

#define NMT_MAX_ENC_LAYERS 8

typedef struct {
	int src_vocab, tgt_vocab;
	int emb;          /* e */
	int enc_hidden;   /* re, per direction */
	int enc_layers;   /* Le */
	int dec_hidden;   /* r */
	int att;          /* a */
	int fc;           /* f */
	int fc_layers;    /* N tied residual layers */
	int bos_id, eos_id;   /* target side */
	int src_eos_id;       /* appended to every source sentence */
} nmt_dims;

/* A GRU in torch.nn.GRU's layout: gates stacked (r, z, n) along the rows. */
typedef struct {
	nmt_matrix w_ih, w_hh;     /* [3h, in], [3h, h] */
	const float *b_ih, *b_hh;  /* [3h] */
} nmt_gru;

typedef struct {
	nmt_matrix w;
	const float *b;            /* may be NULL */
} nmt_linear;

/* The SSRU family's weights (family/ssru/ssru.c; Marian's student models):
 * multi-head attention (q, k, v, o, each W x + b, then a layer norm of the
 * output plus the input), a ReLU feed-forward block with its layer norm,
 * and an SSRU layer (W, W_f, b_f and a layer norm). */
#define NMT_SSRU_MAX_LAYERS 16

typedef struct {
	nmt_linear q, k, v, o;
	const float *ln_s, *ln_b;
} nmt_attention_w;

typedef struct {
	nmt_linear w1, w2;
	const float *ln_s, *ln_b;
} nmt_ffn_w;

typedef struct {
	nmt_matrix w, wf;
	const float *bf, *ln_s, *ln_b;
} nmt_ssru_w;

typedef struct {
	int heads, ffn, dec_ffn, enc_layers, dec_layers;
	nmt_matrix dec_emb;   /* the decoder's input embeddings (tgt_emb unless untied) */
	nmt_attention_w enc_att[NMT_SSRU_MAX_LAYERS];
	nmt_ffn_w enc_ffn[NMT_SSRU_MAX_LAYERS];
	nmt_ssru_w dec_rnn[NMT_SSRU_MAX_LAYERS];
	nmt_attention_w dec_att[NMT_SSRU_MAX_LAYERS];
	nmt_ffn_w dec_ffn_w[NMT_SSRU_MAX_LAYERS];
} nmt_ssru_weights;

struct nmt_model {
	nmt_dims d;
	nmt_matrix src_emb, tgt_emb;                 /* [Vs, e], [Vt, e] */
	nmt_gru enc[NMT_MAX_ENC_LAYERS][2];          /* [layer][0 fwd, 1 bwd] */
	nmt_linear init;                             /* [r, 2re] */
	nmt_matrix att_U, att_W, att_V;              /* [a, 2re], [a, r], [a, e] */
	nmt_gru dec;                                 /* input [e + 2re]; w_ih unused: */
	nmt_matrix dec_ih_x, dec_ih_c;               /* its columns split: [3r, e], [3r, 2re] */
	nmt_linear fc_in, fc, top;                   /* [f, r], [f, f], [e, f] */
	nmt_ssru_weights ssru;                       /* the SSRU family's (the GRU fields above are the GRU's) */
	const float *out_bias;                       /* [Vt] */
	spm_model *src_vocab, *tgt_vocab;
	nmt_cases *src_cases, *tgt_cases;            /* their pieces' case classes, for the repetition guard */
	nmt_vmap vmap;                               /* valid if has_vmap */
	/* Precomputed per-word products (Devlin 2014 §4.2), for the first
	 * pre_src / pre_tgt ids (0: none): the first encoder layer's input
	 * projections W_ih e_w + b_ih, forward then backward [6re]; per target
	 * word the attention query's V_a e_w, then the decoder GRU's input
	 * projection of the embedding, dec_ih_x e_w [a + 3r]. Exactly what
	 * the engine computes without them. */
	const float *pre_enc, *pre_att;
	int pre_src, pre_tgt;
	float *owned_precomp;                        /* the tables when computed at open (family/gru/precomp.h) */
	int has_vmap;
	/* What every shortlist holds, the map's 0-grams and EOS: their ids in
	 * increasing order, their output biases and, for q8/q4, their rows of
	 * the output layer gathered once at open (shared_w; data NULL for f32),
	 * so that each step multiplies them for all of a batch's rows in one
	 * product (family/gru/decoder.c). n_shared is 0 without a map. */
	/* Shortlists padded as marian-decoder pads its own (an imported
	 * model's metadata says so): the smallest ids from pad_from on that
	 * are not in the list, until its length is a multiple of pad (0: none). */
	int shortlist_pad, shortlist_pad_from;
	int32_t *shared_ids;
	float *shared_bias;
	nmt_matrix shared_w;
	void *shared_codes;
	float *shared_factors;
	int n_shared;
	const char *meta;                            /* key=value lines, not NUL-terminated */
	size_t meta_len;
	nmt_file_view view;
	int verified_bulk;                           /* the bulk sections' checksums were checked too */
	int metadata_only;                           /* opened with NMT_LOAD_METADATA: no weights bound */
	const void *map;                             /* the whole file */
	size_t map_len;
	int owns_map;                                /* munmap on close */
	void *owned_copy;                            /* free on close: an aligned copy of the caller's buffer */
	const struct nmt_qdot *qdot;                 /* q8/q4 dot products for this CPU */
	const struct nmt_family *family;             /* its architecture's methods (family.h) */
	int max_input;                               /* the widest input of any of its matrix products */
};

/* The engine's side of loading a model; nmt.h's nmt_model_open,
 * nmt_model_open_buffer and nmt_model_close (api/model.c) are built on these.
 * `how` is a set of these bits (the same values as nmt.h's NMT_OPEN_*): */
#define NMT_LOAD_VERIFY 1u   /* check every section's checksum */
#define NMT_LOAD_METADATA 2u /* header, section table and metadata only:
			      * nothing bound or computed, no translating */
/* Map a packed file read-only and bind everything `how` asks for. 0, or on error a
 * one-line message and NMT_ERR_IO, NMT_ERR_FORMAT, NMT_ERR_NO_MEMORY or
 * NMT_ERR_UNSUPPORTED (nmt.h). */
int nmt_load_file(const char *path, unsigned how, nmt_model **out, char *err, size_t errlen);
/* Use a packed file already in memory (64-byte aligned, else
 * NMT_ERR_ARGUMENT; it must outlive the model). Errors as above. */
int nmt_load_memory(const void *buf, size_t len, unsigned how, nmt_model **out, char *err,
		    size_t errlen);
/* Unmap and free everything a load made (NULL: nothing). */
void nmt_unload(nmt_model *m);

/* A metadata value copied NUL-terminated into val; -1 if absent or too long. */
int nmt_meta_of(const nmt_model *m, const char *key, char *val, size_t vallen);

#endif
