/* The array functions of vecmath.h on its inline approximations; loops the
 * compiler vectorizes. Built instead of vecmath_sleef.c unless SLEEF=1. */
#include "vecmath.h"

#include <math.h>

#ifndef NMT_WITH_SLEEF
void nmt_vec_sigmoid(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = nmt_sigmoid(x[i]);
}

void nmt_vec_tanh(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = nmt_tanh(x[i]);
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
	for (int i = 0; i < n; i++)
		x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

static float max_of(const float *x, int n)
{
	float m = x[0];
	for (int i = 1; i < n; i++)
		m = x[i] > m ? x[i] : m;
	return m;
}

/* Sum in eight lanes (vectorizable without reassociation), then reduced. */
static float sum_of(const float *x, int n)
{
	float acc[8] = { 0 };
	int i = 0;
	for (; i + 8 <= n; i += 8)
		for (int k = 0; k < 8; k++)
			acc[k] += x[i + k];
	float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
	for (; i < n; i++)
		s += x[i];
	return s;
}

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
}

/* (x - max) - log(sum e^(x - max)), PyTorch's order. */
void nmt_vec_log_softmax(float *x, int n)
{
	float max, log_sum = nmt_vec_log_normalizer(x, n, &max);
	for (int i = 0; i < n; i++)
		x[i] = (x[i] - max) - log_sum;
}
