/* The architecture (docs/DESIGN.md §3, metadata arch=gru-fc-1) as the
 * packed file spells it: the names of its tensors, its metadata's sizes and
 * their ranges, and the list of tensors with their shapes. model-pack
 * requires and writes these (pack/main.c); gru.c reads and binds them.
 * Names follow train/model.py's state_dict. */
#ifndef FAMILY_GRU_ARCH_H
#define FAMILY_GRU_ARCH_H
#include <stddef.h>

#include "../../engine/model.h"

#define GRU_ARCH "gru-fc-1"
#define GRU_ARCH_MAX_TENSORS (24 + 8 * GRU_MAX_ENC_LAYERS)

/* Tensors: a linear layer's are NAME GRU_WEIGHT and NAME GRU_BIAS; a GRU's
 * are PREFIX GRU_W_IH SUFFIX, ..., the encoder's suffix GRU_ENC_LAYER (its
 * layer from 0) followed by GRU_REVERSE for the backward direction
 * (torch.nn.GRU's names), the decoder's none (nn.GRUCell's). */
#define GRU_SRC_EMB "src_emb"
#define GRU_TGT_EMB "tgt_emb"
#define GRU_ENC "enc"
#define GRU_ENC_LAYER "_l%d"
#define GRU_REVERSE "_reverse"
#define GRU_INIT "init"
#define GRU_ATT_U "att_U"
#define GRU_ATT_W "att_W"
#define GRU_ATT_V "att_V"
#define GRU_DEC "dec"
#define GRU_FC_IN "fc_in"
#define GRU_FC "fc"
#define GRU_TOP "top"
#define GRU_OUT_BIAS "out_bias"
#define GRU_WEIGHT ".weight"
#define GRU_BIAS ".bias"
#define GRU_W_IH ".weight_ih"
#define GRU_W_HH ".weight_hh"
#define GRU_B_IH ".bias_ih"
#define GRU_B_HH ".bias_hh"

/* The checkpoint's dec.weight_ih [3r, e + ctx]: the packed file holds it as
 * two matrices, its embedding columns and its context columns. */
#define GRU_TENSOR_DEC_IH GRU_DEC GRU_W_IH
#define GRU_TENSOR_DEC_IH_X GRU_TENSOR_DEC_IH ".emb"
#define GRU_TENSOR_DEC_IH_C GRU_TENSOR_DEC_IH ".ctx"

/* The metadata key asking each translator to fill the per-word tables of
 * the first K ids (family/gru/precomp.h). */
#define GRU_META_PRECOMPUTE "precompute"

/* The sizes in the metadata (and in a checkpoint's), in the order
 * model-pack writes them, each with its range. */
typedef struct {
	const char *key;
	long lo, hi;
	int own;      /* 1: a field of gru_dims, 0: of engine_dims */
	size_t off;   /* its offset there */
} gru_meta_dim;

#define GRU_META_DIMS 11
extern const gru_meta_dim gru_meta_dims[GRU_META_DIMS];

/* Where size k's value lives, and that value. */
int *gru_meta_dim_field(const gru_meta_dim *k, engine_dims *d, gru_dims *gd);
int gru_meta_dim_value(const gru_meta_dim *k, const engine_dims *d, const gru_dims *gd);

typedef struct {
	char name[32];
	int rows, cols;    /* a vector is 1 x cols */
	int is_vector;     /* 1-D in the checkpoint */
} gru_tensor_spec;

/* Fill out[] (GRU_ARCH_MAX_TENSORS entries) and return how many. */
int gru_arch_tensors(const engine_dims *d, const gru_dims *gd, gru_tensor_spec *out);

#endif
