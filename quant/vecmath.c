/* The array functions of vecmath.h on its inline approximations; loops the
 * compiler vectorizes. Built instead of vecmath_sleef.c unless SLEEF=1. */
#include "vecmath.h"

#include <math.h>

#include "ew.h"
#include "ew_body.h"
#include "qlayout.h"

#ifndef NMT_WITH_SLEEF
void nmt_vec_sigmoid(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = nmt_sigmoid(x[i]);
}

void nmt_vec_tanh(float *x, int n)
{
	nmt_ew_tanh(x, n);
}

static void vec_exp(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = nmt_exp(x[i]);
}
#else
void nmt_vec_exp_sleef(float *x, int n);
#define vec_exp nmt_vec_exp_sleef
#endif

void nmt_vec_relu(float *x, int n)
{
	nmt_ew_relu(x, n);
}

#define max_of nmt_ew_max
#define sum_of nmt_ew_sum

static void sub_scalar(float *x, int n, float v)
{
	for (int i = 0; i < n; i++)
		x[i] -= v;
}

void nmt_vec_softmax(float *x, int n)
{
	sub_scalar(x, n, max_of(x, n));
	vec_exp(x, n);
	float inv = 1.0f / sum_of(x, n);
	for (int i = 0; i < n; i++)
		x[i] *= inv;
}

/* log(sum e^(x - max)), the exponentials summed block by block (they need
 * a copy: x is left as it is); *max receives max(x). */
float nmt_vec_log_normalizer(const float *x, int n, float *max)
{
#ifndef NMT_WITH_SLEEF
	return nmt_ew_log_normalizer(x, n, max);
#else
	float m = max_of(x, n), tmp[256], sum = 0.0f;
	for (int i = 0; i < n; i += 256) {
		int len = n - i < 256 ? n - i : 256;
		for (int j = 0; j < len; j++)
			tmp[j] = x[i + j] - m;
		vec_exp(tmp, len);
		sum += sum_of(tmp, len);
	}
	*max = m;
	return logf(sum);
#endif
}

/* (x - max) - log(sum e^(x - max)), PyTorch's order. */
void nmt_vec_log_softmax(float *x, int n)
{
	float max, log_sum = nmt_vec_log_normalizer(x, n, &max);
	for (int i = 0; i < n; i++)
		x[i] = (x[i] - max) - log_sum;
}

static void gru_cell(int hidden, const float *gi, const float *gh, const float *h, float *h_out)
{
	nmt_ew_gru_cell(hidden, gi, gh, h, h_out);
}

static void rescale(const int32_t *sum, const float *factor, float x_scale, const float *bias, int n, float *y)
{
	nmt_ew_rescale(sum, factor, x_scale, bias, n, y);
}

static void weighted_sum(const float *w, int n_w, const float *rows, int n_rows, int n, float *out)
{
	nmt_ew_weighted_sum(w, n_w, rows, n_rows, n, out);
}

static void add(float *y, const float *x, int n)
{
	nmt_ew_add(y, x, n);
}

static void add_relu(float *y, const float *x, int n)
{
	nmt_ew_add_relu(y, x, n);
}

static void relu(float *x, int n)
{
	nmt_ew_relu(x, n);
}

static int first_reaching(const float *x, int n, float max, float log_sum, float live, float bar)
{
	return nmt_ew_first_reaching(x, n, max, log_sum, live, bar);
}

const nmt_ew nmt_ew_generic = { gru_cell, nmt_vec_tanh, nmt_quantize_x, nmt_vec_log_normalizer,
				rescale, weighted_sum, add, add_relu, relu, first_reaching };
