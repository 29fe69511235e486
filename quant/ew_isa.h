/* The element-wise kernel table of one ISA file (ew.h): ew_body.h's loops
 * wrapped in functions compiled for that ISA. The including file
 * defines TARGET (its target attribute), QUANT_EW_LANES (floats per vector)
 * and QUANT_EW_TABLE (the table's name) first, and includes this once.
 * Internal to quant/. */
#ifndef QUANT_EW_ISA_H
#define QUANT_EW_ISA_H
#include "ew.h"
#include "ew_body.h"
#include "vecmath.h"

TARGET static void gru_cell(int hidden, const float *gi, const float *gh, const float *h, float *h_out)
{
	quant_ew_gru_cell(hidden, gi, gh, h, h_out);
}

TARGET static float quantize_x(const float *x, int cols, int padded, int8_t *xq)
{
	return quant_ew_quantize_x(x, cols, padded, xq);
}

TARGET static void rescale(const int32_t *sum, const float *factor, float x_scale, const float *bias, int n, float *y)
{
	quant_ew_rescale(sum, factor, x_scale, bias, n, y);
}

TARGET static void weighted_sum(const float *w, int n_w, const float *rows, int n_rows, int n, float *out)
{
	quant_ew_weighted_sum(w, n_w, rows, n_rows, n, out);
}

TARGET static void key_scores(const float *q, int n_q, int ldq, const float *kt, int ld_kt, int n_keys, int dk,
			      float scale, float *z, int ldz)
{
	quant_ew_key_scores(q, n_q, ldq, kt, ld_kt, n_keys, dk, scale, z, ldz);
}

TARGET static void add(float *y, const float *x, int n)
{
	quant_ew_add(y, x, n);
}

TARGET static void add_relu(float *y, const float *x, int n)
{
	quant_ew_add_relu(y, x, n);
}

TARGET static void relu(float *x, int n)
{
	quant_ew_relu(x, n);
}

TARGET static void layer_norm(const float *x, int n, const float *g, const float *b, float *y)
{
	quant_ew_layer_norm(x, n, g, b, y);
}

TARGET static void ssru(int n, const float *wx, const float *fx, float *c, float *out)
{
	quant_ew_ssru(n, wx, fx, c, out);
}

TARGET static int first_reaching(const float *x, int n, float max, float log_sum, float live, float bar)
{
	return quant_ew_first_reaching(x, n, max, log_sum, live, bar);
}

#ifdef NMT_WITH_SLEEF   /* the SLEEF build's tanh and exponentials */
const quant_ew QUANT_EW_TABLE = { gru_cell, quant_vec_tanh, quantize_x, quant_vec_log_normalizer,
			      rescale, weighted_sum, key_scores, quant_vec_softmax, add, add_relu, relu, layer_norm, ssru,
			      first_reaching };
#else
TARGET static void softmax(float *x, int n)
{
	quant_ew_softmax(x, n);
}

TARGET static void vec_tanh(float *x, int n)
{
	quant_ew_tanh(x, n);
}

TARGET static float log_normalizer(const float *x, int n, float *max)
{
	return quant_ew_log_normalizer(x, n, max);
}

const quant_ew QUANT_EW_TABLE = { gru_cell, vec_tanh, quantize_x, log_normalizer,
			      rescale, weighted_sum, key_scores, softmax, add, add_relu, relu, layer_norm, ssru,
			      first_reaching };
#endif
#endif
