/* A loaded model: dimensions, weights bound by name to the read-only mapping
 * of the packed file, and the two tokenizers. Immutable once open, so one
 * model is shared by every thread. */
#ifndef ENGINE_MODEL_H
#define ENGINE_MODEL_H
#include <stddef.h>

#include "../nmt.h"
#include "../quant/matrix.h"
#include "../text/cases.h"
#include "../family/gru/gru_data.h"
#include "../family/ssru/ssru_data.h"
#include "../vocab/spm.h"
#include "../format/format.h"
#include "vmap.h"

/* The sizes every family has; a family's others are its own (gru_dims,
 * ssru_weights). */
typedef struct {
	int src_vocab, tgt_vocab;
	int emb;          /* e */
	int bos_id, eos_id;   /* target side */
	int src_eos_id;       /* appended to every source sentence */
} engine_dims;

struct nmt_model {
	engine_dims d;
	quant_matrix src_emb, tgt_emb;               /* [Vs, e], [Vt, e] */
	/* the family's own weights (family/gru/gru_data.h, family/ssru/ssru_data.h): those of m->family */
	union {
		gru_weights gru;
		ssru_weights ssru;
	};
	const float *out_bias;                       /* [Vt] */
	spm_model *src_vocab, *tgt_vocab;
	text_cases *src_cases, *tgt_cases;           /* their pieces' case classes, for the repetition guard */
	engine_vmap vmap;                            /* valid if has_vmap */
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
	quant_matrix shared_w;
	void *shared_codes;
	float *shared_factors;
	int n_shared;
	const char *meta;                            /* key=value lines, not NUL-terminated */
	size_t meta_len;
	double alpha;                                /* the search's length normalization where the
						      * caller asks for the model's: its metadata's
						      * "alpha", else ENGINE_DEFAULT_ALPHA */
	format_file_view view;
	int verified_bulk;                           /* the bulk sections' checksums were checked too */
	int metadata_only;                           /* opened with ENGINE_LOAD_METADATA: no weights bound */
	const void *map;                             /* the whole file */
	size_t map_len;
	int owns_map;                                /* file_map_close on close */
	void *owned_copy;                            /* free on close: an aligned copy of the caller's buffer */
	const struct quant_qdot *qdot;               /* q8/q4 dot products for this CPU */
	const struct engine_family *family;          /* its architecture's methods (family.h) */
	int max_input;                               /* the widest input of any of its matrix products */
};

/* The length normalization of a model whose metadata names none (nmt.h's
 * default before models named their own). */
#define ENGINE_DEFAULT_ALPHA 0.6

/* The engine's side of loading a model; nmt.h's nmt_model_open,
 * nmt_model_open_buffer and nmt_model_close (api/model.c) are built on these.
 * `how` is a set of these bits (the same values as nmt.h's NMT_OPEN_*): */
#define ENGINE_LOAD_VERIFY 1u /* check every section's checksum */
#define ENGINE_LOAD_METADATA 2u /* header, section table and metadata only:
			      * nothing bound or computed, no translating */
/* Map a packed file read-only and bind everything `how` asks for. 0, or on error a
 * one-line message and NMT_ERR_IO, NMT_ERR_FORMAT, NMT_ERR_NO_MEMORY or
 * NMT_ERR_UNSUPPORTED (nmt.h). */
int engine_load_file(const char *path, unsigned how, nmt_model **out, char *err, size_t errlen);
/* Use a packed file already in memory (64-byte aligned, else
 * NMT_ERR_ARGUMENT; it must outlive the model). Errors as above. */
int engine_load_memory(const void *buf, size_t len, unsigned how, nmt_model **out, char *err,
		    size_t errlen);
/* Unmap and free everything a load made (NULL: nothing). */
void engine_unload(nmt_model *m);

/* A metadata value copied NUL-terminated into val; -1 if absent or too long. */
int engine_meta_of(const nmt_model *m, const char *key, char *val, size_t vallen);

#endif
