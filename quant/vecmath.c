#include "vecmath.h"

#include <math.h>

void nmt_vec_sigmoid(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = 1.0f / (1.0f + expf(-x[i]));
}

void nmt_vec_tanh(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = tanhf(x[i]);
}

void nmt_vec_relu(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

static float max_of(const float *x, int n)
{
	float m = x[0];
	for (int i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

void nmt_vec_softmax(float *x, int n)
{
	float m = max_of(x, n);
	double sum = 0.0;
	for (int i = 0; i < n; i++) {
		x[i] = expf(x[i] - m);
		sum += x[i];
	}
	float inv = (float)(1.0 / sum);
	for (int i = 0; i < n; i++)
		x[i] *= inv;
}

void nmt_vec_log_softmax(float *x, int n)
{
	float m = max_of(x, n);
	double sum = 0.0;
	for (int i = 0; i < n; i++)
		sum += exp((double)(x[i] - m));
	float log_sum = (float)log(sum);
	for (int i = 0; i < n; i++)  /* (x - max) - log(sum), PyTorch's order */
		x[i] = (x[i] - m) - log_sum;
}
