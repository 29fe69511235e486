/* The tensors the architecture (docs/DESIGN.md §3, metadata arch=gru-fc-1)
 * consists of, by checkpoint name and shape: what model-pack requires of a
 * checkpoint and what it writes. Names follow train/model.py's state_dict. */
#ifndef FAMILY_GRU_ARCH_H
#define FAMILY_GRU_ARCH_H
#include "../../engine/model.h"

#define GRU_ARCH "gru-fc-1"
#define GRU_ARCH_MAX_TENSORS (24 + 8 * GRU_MAX_ENC_LAYERS)

/* The packed file holds the checkpoint's dec.weight_ih [3r, e + ctx] as two
 * matrices, its embedding columns and its context columns. */
#define GRU_TENSOR_DEC_IH_X "dec.weight_ih.emb"
#define GRU_TENSOR_DEC_IH_C "dec.weight_ih.ctx"

typedef struct {
	char name[32];
	int rows, cols;    /* a vector is 1 x cols */
	int is_vector;     /* 1-D in the checkpoint */
} gru_tensor_spec;

/* Fill out[] (GRU_ARCH_MAX_TENSORS entries) and return how many. */
int gru_arch_tensors(const engine_dims *d, const gru_dims *gd, gru_tensor_spec *out);

#endif
