/* Element-wise math on float vectors, in place. Plain libm now; vectorized
 * approximations with measured error come with the SIMD kernels. */
#ifndef NMT_QUANT_VECMATH_H
#define NMT_QUANT_VECMATH_H

void nmt_vec_sigmoid(float *x, int n);
void nmt_vec_tanh(float *x, int n);
void nmt_vec_relu(float *x, int n);
/* In-place softmax over n values; returns nothing, n >= 1. */
void nmt_vec_softmax(float *x, int n);
/* In-place log-softmax over n values. */
void nmt_vec_log_softmax(float *x, int n);

#endif
