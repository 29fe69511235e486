/* NMT_HD marks an inline function that the CUDA build (family/gru/cuda.cu) also
 * compiles for the GPU, so that both run the very same code: the element-wise
 * math, the activation quantizer, the layout of quantized weights, the k-best
 * list. Empty in every C build. */
#ifndef NMT_QUANT_HD_H
#define NMT_QUANT_HD_H

#ifdef __CUDACC__
#define NMT_HD __host__ __device__
#else
#define NMT_HD
#endif

#endif
