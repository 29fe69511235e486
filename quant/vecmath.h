/* Element-wise math over arrays, on the inline approximations of approx.h
 * (vecmath.c, through ew_body.h's loops), or, in `make SLEEF=1`'s
 * ./nmt-sleef, a dynamically linked variant, on SLEEF's vector functions
 * (vecmath_sleef.c). The engine reaches them through its ISA's element-wise
 * table (ew.h); tests and the SLEEF tables call them directly. */
#ifndef QUANT_VECMATH_H
#define QUANT_VECMATH_H
#include "approx.h"

void quant_vec_sigmoid(float *x, int n);
void quant_vec_tanh(float *x, int n);
void quant_vec_relu(float *x, int n);
/* In-place softmax over n values; returns nothing, n >= 1. */
void quant_vec_softmax(float *x, int n);
/* In-place log-softmax over n values: x_i becomes (x_i - max) - L. */
void quant_vec_log_softmax(float *x, int n);
/* L = log(sum_i e^(x_i - max)) and *max = max_i x_i, x untouched: log-softmax
 * for the few values a search keeps, bit-identical to quant_vec_log_softmax. */
float quant_vec_log_normalizer(const float *x, int n, float *max);

#endif
