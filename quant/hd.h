/* QUANT_HD marks an inline function that the CUDA build (family/gru/cuda.cu) also
 * compiles for the GPU, so that both run the very same code: the element-wise
 * math, the activation quantizer, the layout of quantized weights, the k-best
 * list. Empty in every C build. */
#ifndef QUANT_HD_H
#define QUANT_HD_H

#ifdef __CUDACC__
#define QUANT_HD __host__ __device__
#else
#define QUANT_HD
#endif

#endif
