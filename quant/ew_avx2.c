/* quant/ew_body.h's loops compiled for AVX2 (see ew.h). */
#if defined(__x86_64__)
#include "ew.h"
#define NMT_EW_LANES 8   /* floats per vector, for ew_body.h */
#include "ew_body.h"

#define TARGET __attribute__((target("avx2")))

TARGET static void gru_cell(int hidden, const float *gi, const float *gh, const float *h, float *h_out)
{
	nmt_ew_gru_cell(hidden, gi, gh, h, h_out);
}

TARGET static float quantize_x(const float *x, int cols, int padded, int8_t *xq)
{
	return nmt_ew_quantize_x(x, cols, padded, xq);
}

TARGET static void rescale(const int32_t *sum, const float *factor, float x_scale, const float *bias, int n, float *y)
{
	nmt_ew_rescale(sum, factor, x_scale, bias, n, y);
}

TARGET static void weighted_sum(const float *w, int n_w, const float *rows, int n_rows, int n, float *out)
{
	nmt_ew_weighted_sum(w, n_w, rows, n_rows, n, out);
}

TARGET static void add(float *y, const float *x, int n)
{
	nmt_ew_add(y, x, n);
}

TARGET static void add_relu(float *y, const float *x, int n)
{
	nmt_ew_add_relu(y, x, n);
}

TARGET static void relu(float *x, int n)
{
	nmt_ew_relu(x, n);
}

TARGET static int first_reaching(const float *x, int n, float max, float log_sum, float live, float bar)
{
	return nmt_ew_first_reaching(x, n, max, log_sum, live, bar);
}

#ifdef NMT_WITH_SLEEF   /* the SLEEF build's tanh and exponentials */
const nmt_ew nmt_ew_avx2 = { gru_cell, nmt_vec_tanh, quantize_x, nmt_vec_log_normalizer,
				rescale, weighted_sum, add, add_relu, relu, first_reaching };
#else
TARGET static void vec_tanh(float *x, int n)
{
	nmt_ew_tanh(x, n);
}

TARGET static float log_normalizer(const float *x, int n, float *max)
{
	return nmt_ew_log_normalizer(x, n, max);
}

const nmt_ew nmt_ew_avx2 = { gru_cell, vec_tanh, quantize_x, log_normalizer,
				rescale, weighted_sum, add, add_relu, relu, first_reaching };
#endif
#endif
