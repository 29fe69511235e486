/* The CUDA path (make CUDA=1, family/gru/cuda.cu): the encoder and the
 * decoder's steps on an NVIDIA GPU, for batched translation — the weights
 * copied to the device in their packed formats (q8/q4 products in integers,
 * as on the CPU), the fused bias + log-softmax + k-best of Amun 2018 (Alg.
 * 4/6) picking each sentence's candidates on the device, and the rows of
 * finished hypotheses dropped from the device's state every step. The
 * search's bookkeeping (search.c) stays on the CPU and is shared with the
 * CPU path through engine_device_ops. Builds without CUDA link cuda_none.c. */
#ifndef FAMILY_GRU_CUDA_H
#define FAMILY_GRU_CUDA_H
#include <stddef.h>

#include "../../engine/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The family's device_open (family.h): the first GPU, with model m's
 * weights copied to it, for one translator: 0, or an nmt_status and a
 * message (NMT_ERR_UNSUPPORTED without CUDA support or a usable GPU;
 * NMT_ERR_NO_MEMORY when device memory runs out). The ops close it. */
int gru_cuda_open(const nmt_model *m, const engine_device_ops **ops, void **dev, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
