/* The array functions of vecmath.h on approx.h's inline approximations,
 * through ew_body.h's loops (which the compiler vectorizes); with SLEEF=1,
 * the exponentials are vecmath_sleef.c's (which also has that build's
 * sigmoid and tanh). */
#include "vecmath.h"

#include <math.h>

#include "ew_body.h"

void quant_vec_relu(float *x, int n)
{
	quant_ew_relu(x, n);
}

#ifndef NMT_WITH_SLEEF
void quant_vec_sigmoid(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = quant_sigmoid(x[i]);
}

void quant_vec_tanh(float *x, int n)
{
	quant_ew_tanh(x, n);
}

void quant_vec_softmax(float *x, int n)
{
	quant_ew_softmax(x, n);
}

float quant_vec_log_normalizer(const float *x, int n, float *max)
{
	return quant_ew_log_normalizer(x, n, max);
}
#else
void quant_vec_exp_sleef(float *x, int n);

void quant_vec_softmax(float *x, int n)
{
	float m = quant_ew_max(x, n);
	for (int i = 0; i < n; i++)
		x[i] -= m;
	quant_vec_exp_sleef(x, n);
	float inv = 1.0f / quant_ew_sum(x, n);
	for (int i = 0; i < n; i++)
		x[i] *= inv;
}

/* log(sum e^(x - max)), the exponentials summed block by block (they need
 * a copy: x is left as it is); *max receives max(x). */
float quant_vec_log_normalizer(const float *x, int n, float *max)
{
	float m = quant_ew_max(x, n), tmp[256], sum = 0.0f;
	for (int i = 0; i < n; i += 256) {
		int len = n - i < 256 ? n - i : 256;
		for (int j = 0; j < len; j++)
			tmp[j] = x[i + j] - m;
		quant_vec_exp_sleef(tmp, len);
		sum += quant_ew_sum(tmp, len);
	}
	*max = m;
	return logf(sum);
}
#endif

/* (x - max) - log(sum e^(x - max)), PyTorch's order. */
void quant_vec_log_softmax(float *x, int n)
{
	float max, log_sum = quant_vec_log_normalizer(x, n, &max);
	for (int i = 0; i < n; i++)
		x[i] = (x[i] - max) - log_sum;
}
