/* The tensors the architecture (docs/DESIGN.md §3, metadata arch=gru-fc-1)
 * consists of, by checkpoint name and shape: what model-pack requires of a
 * checkpoint and what it writes. Names follow train/model.py's state_dict. */
#ifndef NMT_ARCH_H
#define NMT_ARCH_H
#include "../../engine/model.h"

#define NMT_GRU_ARCH "gru-fc-1"
#define NMT_ARCH_MAX_TENSORS (24 + 8 * NMT_MAX_ENC_LAYERS)

/* The packed file holds the checkpoint's dec.weight_ih [3r, e + ctx] as two
 * matrices, its embedding columns and its context columns. */
#define NMT_TENSOR_DEC_IH_X "dec.weight_ih.emb"
#define NMT_TENSOR_DEC_IH_C "dec.weight_ih.ctx"

typedef struct {
	char name[32];
	int rows, cols;    /* a vector is 1 x cols */
	int is_vector;     /* 1-D in the checkpoint */
} nmt_tensor_spec;

/* Fill out[] (NMT_ARCH_MAX_TENSORS entries) and return how many. */
int nmt_arch_tensors(const nmt_dims *d, nmt_tensor_spec *out);

#endif
