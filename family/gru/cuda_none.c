/* Builds without CUDA (the default): asking for the GPU is an error that
 * says how to get one. make CUDA=1 links family/gru/cuda.cu instead. */
#include "cuda.h"

#include <stdio.h>

int gru_cuda_open(const nmt_model *m, const engine_device_ops **ops, void **dev, char *err, size_t errlen)
{
	(void)m;
	*ops = NULL;
	*dev = NULL;
	snprintf(err, errlen, "this build has no CUDA support (build it with make CUDA=1)");
	return NMT_ERR_UNSUPPORTED;
}
