/* Runs family/gru/cuda.cu on the CPU, so that the CUDA path's own code — its
 * buffers, tables, indexing, kernels and their k-best merge — is tested
 * against the CPU engine on a machine without a GPU (make test builds
 * build/cuda-emu/tests/test_cuda with it). Included before cuda.cu,
 * compiled as C++ by the host compiler with NMT_CUDA_EMULATE defined: the
 * CUDA keywords vanish, device memory is host memory, and a kernel launch
 * calls the kernel once for every (block, thread) in turn. That is a
 * faithful schedule for kernels whose threads never wait for each other or
 * write the same element, which is true of every kernel in cuda.cu (none
 * uses shared memory or a barrier). What it cannot check: real GPU timing,
 * memory limits or the driver. */
#ifndef TESTS_CUDA_EMU_H
#define TESTS_CUDA_EMU_H
#include <stdlib.h>
#include <string.h>

#define __global__
#define __device__
#define __host__

struct dim3 {
	unsigned x, y, z;
	dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

/* the launch being emulated, per host thread */
static thread_local dim3 blockIdx, threadIdx, blockDim, gridDim;

typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };

static inline cudaError_t cudaMalloc(void **p, size_t n)
{
	*p = malloc(n);
	return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}

static inline cudaError_t cudaFree(void *p)
{
	free(p);
	return cudaSuccess;
}

static inline cudaError_t cudaMemcpy(void *to, const void *from, size_t n, cudaMemcpyKind)
{
	memmove(to, from, n);
	return cudaSuccess;
}

static inline cudaError_t cudaGetDeviceCount(int *n)
{
	*n = 1;
	return cudaSuccess;
}

static inline cudaError_t cudaGetLastError(void)
{
	return cudaSuccess;
}

static inline const char *cudaGetErrorString(cudaError_t e)
{
	return e == cudaSuccess ? "no error" : "out of memory";
}

#define LAUNCH(kernel, grid, block, ...)                                                   \
	do {                                                                               \
		gridDim = dim3(grid);                                                      \
		blockDim = dim3(block);                                                    \
		for (blockIdx.y = 0; blockIdx.y < gridDim.y; blockIdx.y++)                 \
			for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)         \
				for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++) \
					kernel(__VA_ARGS__);                               \
	} while (0)

#endif
