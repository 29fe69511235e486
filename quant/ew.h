/* Element-wise kernels per ISA: the loops of quant/ew_body.h compiled for
 * each instruction set, bit-identical to each other (so a translation does
 * not depend on the CPU). Chosen with the dot products (qdot.h: its `ew`). */
#ifndef QUANT_EW_H
#define QUANT_EW_H
#include <stdint.h>

typedef struct quant_ew {
	/* h_out = GRU(h) given gi = W_ih x + b_ih, gh = W_hh h + b_hh */
	void (*gru_cell)(int hidden, const float *gi, const float *gh, const float *h, float *h_out);
	void (*tanh)(float *x, int n);
	/* qlayout.h's quant_quantize_x */
	float (*quantize_x)(const float *x, int cols, int padded, int8_t *xq);
	/* vecmath.h's quant_vec_log_normalizer */
	float (*log_normalizer)(const float *x, int n, float *max);
	/* ew_body.h's quant_ew_rescale and quant_ew_weighted_sum */
	void (*rescale)(const int32_t *sum, const float *factor, float x_scale, const float *bias, int n, float *y);
	void (*weighted_sum)(const float *w, int n_w, const float *rows, int n_rows, int n, float *out);
	/* ew_body.h's quant_ew_key_scores (the attention's scores) */
	void (*key_scores)(const float *q, int n_q, int ldq, const float *kt, int ld_kt, int n_keys, int dk,
			   float scale, float *z, int ldz);
	/* vecmath.h's quant_vec_softmax (the attention's weights) */
	void (*softmax)(float *x, int n);
	/* y += x; y += relu(x); x = relu(x) (the decoder's vector sums and its
	 * FC layers' activation) */
	void (*add)(float *y, const float *x, int n);
	void (*add_relu)(float *y, const float *x, int n);
	void (*relu)(float *x, int n);
	/* ew_body.h's quant_ew_layer_norm and quant_ew_ssru (the SSRU family) */
	void (*layer_norm)(const float *x, int n, const float *g, const float *b, float *y);
	void (*ssru)(int n, const float *wx, const float *fx, float *c, float *out);
	/* ew_body.h's quant_ew_first_reaching */
	int (*first_reaching)(const float *x, int n, float max, float log_sum, float live, float bar);
} quant_ew;

/* The baseline build's (SSE2 on x86-64, NEON on aarch64); with SLEEF=1 its
 * tanh and exponentials are SLEEF's, and so are every ISA's. */
extern const quant_ew quant_ew_generic;
#if defined(__x86_64__)
extern const quant_ew quant_ew_avx2, quant_ew_avx512;
#endif

#endif
