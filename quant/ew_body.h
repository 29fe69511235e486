/* The engine's element-wise loops (the GRU cell, tanh over an array, the
 * activation quantizer, the log-softmax normalizer, the rescale of integer
 * sums, the attention's weighed sums, the decoder's vector sums and
 * rectifiers, the search's scan of the logits) as always-inline bodies. Each ISA file wraps them in functions compiled for its
 * instruction set (quant/ew.h), so the compiler vectorizes the same loops
 * 4 (SSE2, NEON), 8 (AVX2) or 16 (AVX-512) lanes wide. Every element sees
 * the same IEEE operations in the same order (-ffp-contract=off) and sums
 * keep a fixed eight-lane order, so the results are bit-identical on every
 * ISA. Internal to quant/, to engine/topk.h (the greedy pick is
 * quant_ew_first_reaching) and to family/gru/cuda.cu, which runs the same
 * bodies on the GPU. */
#ifndef QUANT_EW_BODY_H
#define QUANT_EW_BODY_H
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "approx.h"

#ifdef __CUDACC__   /* family/gru/cuda.cu runs these same bodies on the GPU */
#define QUANT_EW_INLINE static inline __host__ __device__
#else
#define QUANT_EW_INLINE static inline __attribute__((always_inline))
#endif

/* torch.nn.GRU's cell given gi = W_ih x + b_ih and gh = W_hh h + b_hh:
 *   r = σ(gi_r + gh_r)   z = σ(gi_z + gh_z)   n = tanh(gi_n + r ⊙ gh_n)
 *   h' = (1 − z) ⊙ n + z ⊙ h  =  n + z ⊙ (h − n) */
QUANT_EW_INLINE void quant_ew_gru_cell(int hidden, const float *gi, const float *gh, const float *h, float *h_out)
{
	for (int k = 0; k < hidden; k++) {
		float r = quant_sigmoid(gi[k] + gh[k]);
		float z = quant_sigmoid(gi[hidden + k] + gh[hidden + k]);
		float n = quant_tanh(gi[2 * hidden + k] + r * gh[2 * hidden + k]);
		h_out[k] = n + z * (h[k] - n);
	}
}

QUANT_EW_INLINE void quant_ew_tanh(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = quant_tanh(x[i]);
}

/* Round to nearest, ties to even, for |v| <= 2^22: adding and subtracting
 * 1.5 * 2^23 leaves no fraction bits, so the FPU's own rounding does it —
 * exactly lrintf under the default rounding mode, but a plain expression the
 * compiler vectorizes. */
QUANT_EW_INLINE float quant_ew_round_even(float v)
{
	const float magic = 12582912.0f;
	return (v + magic) - magic;
}

/* qlayout.h's quant_quantize_x: int8 activations, scale max|x| / 127. The
 * maximum is taken in eight lanes, which the compiler vectorizes (a single
 * running maximum it does not); x * 0 is NaN exactly when x is NaN or
 * infinite, so a plain sum of those flags a bad input. */
QUANT_EW_INLINE float quant_ew_quantize_x(const float *x, int cols, int padded, int8_t *xq)
{
	float lane_max[8] = { 0 }, lane_bad[8] = { 0 }, amax = 0, bad = 0;
	int c = 0;
	for (; c + 8 <= cols; c += 8)
		for (int k = 0; k < 8; k++) {
			float a = fabsf(x[c + k]);
			lane_max[k] = a > lane_max[k] ? a : lane_max[k];
			lane_bad[k] += x[c + k] * 0.0f;
		}
	for (int k = 0; k < 8; k++) {
		amax = lane_max[k] > amax ? lane_max[k] : amax;
		bad += lane_bad[k];
	}
	for (; c < cols; c++) {
		float a = fabsf(x[c]);
		amax = a > amax ? a : amax;
		bad += x[c] * 0.0f;
	}
	float inv = 127.0f / amax;
	if (!(amax > 0) || bad != 0 || !(inv <= FLT_MAX)) {
		/* zeros (or a non-finite input, or one so tiny that 127 / max|x|
		 * overflows: none of them may become garbage integers, and the
		 * row then contributes nothing; found by tests/fuzz/fuzz_model.c) */
		memset(xq, 0, (size_t)padded);
		return 0;
	}
	for (c = 0; c < cols; c++)
		xq[c] = (int8_t)(int)quant_ew_round_even(x[c] * inv);
	memset(xq + cols, 0, (size_t)(padded - cols));
	return amax / 127.0f;
}

/* The maximum, in eight lanes that the compiler vectorizes, then across
 * them in order. Exact; a NaN counts only as x[0] (as in a left-to-right
 * scan, where a NaN first element wins and later ones lose every
 * comparison). */
QUANT_EW_INLINE float quant_ew_max(const float *x, int n)
{
	if (n < 8) {
		float m = x[0];
		for (int i = 1; i < n; i++)
			m = x[i] > m ? x[i] : m;
		return m;
	}
	float lane[8];
	memcpy(lane, x, sizeof lane);
	int i = 8;
	for (; i + 8 <= n; i += 8)
		for (int k = 0; k < 8; k++)
			lane[k] = x[i + k] > lane[k] ? x[i + k] : lane[k];
	float m = lane[0];
	for (int k = 1; k < 8; k++)
		m = lane[k] > m ? lane[k] : m;
	for (; i < n; i++)
		m = x[i] > m ? x[i] : m;
	return m;
}

/* Sum in eight lanes (vectorizable without reassociation), then reduced. */
QUANT_EW_INLINE float quant_ew_sum(const float *x, int n)
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

/* The f32 products' dot product (f32_scalar.c): eight partial sums, lane k
 * taking columns k, k + 8, ..., reduced in a fixed order, then the last
 * n % 8 products one by one. */
QUANT_EW_INLINE float quant_ew_dot8(const float *a, const float *b, int n)
{
	float acc[8] = { 0 };
	int c = 0;
	for (; c + 8 <= n; c += 8)
		for (int k = 0; k < 8; k++)
			acc[k] += a[c + k] * b[c + k];
	float sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
	for (; c < n; c++)
		sum += a[c] * b[c];
	return sum;
}

/* q_matmul.c's rescale of exact integer sums:
 * y[r] = (float)sum[r] * (factor[r] * x_scale) [+ bias[r]]. */
QUANT_EW_INLINE void quant_ew_rescale(const int32_t *sum, const float *factor, float x_scale, const float *bias, int n,
				  float *y)
{
	if (bias)
		for (int r = 0; r < n; r++)
			y[r] = (float)sum[r] * (factor[r] * x_scale) + bias[r];
	else
		for (int r = 0; r < n; r++)
			y[r] = (float)sum[r] * (factor[r] * x_scale);
}

#ifndef __CUDACC__
/* The including ISA file may say how many floats its vectors hold. */
#ifndef QUANT_EW_LANES
#define QUANT_EW_LANES 4
#endif
typedef float quant_ew_vec __attribute__((vector_size(4 * QUANT_EW_LANES)));

/* NB <= 4 weighed sums of the same rows (a constant after inlining): two
 * vectors of columns at a time, their NB x 2 sums held in registers while
 * the rows stream by, each row's values loaded once for all NB sums. */
QUANT_EW_INLINE void quant_ew_weighted_sums_nb(const float *w, const int NB, const float *rows, int n_rows, int n,
					   float *out)
{
	const int L = QUANT_EW_LANES;
	int k0 = 0;
	for (; k0 + 2 * L <= n; k0 += 2 * L) {
		quant_ew_vec acc[4][2];
		_Pragma("GCC unroll 4") for (int b = 0; b < NB; b++)
			acc[b][0] = acc[b][1] = (quant_ew_vec){ 0 };
		for (int j = 0; j < n_rows; j++) {
			quant_ew_vec r0, r1; /* unaligned loads */
			memcpy(&r0, rows + (size_t)j * n + k0, sizeof r0);
			memcpy(&r1, rows + (size_t)j * n + k0 + L, sizeof r1);
			_Pragma("GCC unroll 4") for (int b = 0; b < NB; b++) {
				float wb = w[b * n_rows + j];
				acc[b][0] += wb * r0;
				acc[b][1] += wb * r1;
			}
		}
		_Pragma("GCC unroll 4") for (int b = 0; b < NB; b++) {
			memcpy(out + (size_t)b * n + k0, &acc[b][0], sizeof acc[b][0]);
			memcpy(out + (size_t)b * n + k0 + L, &acc[b][1], sizeof acc[b][1]);
		}
	}
	for (; k0 < n; k0++)
		for (int b = 0; b < NB; b++) {
			float sum = 0.0f;
			for (int j = 0; j < n_rows; j++)
				sum += w[b * n_rows + j] * rows[(size_t)j * n + k0];
			out[(size_t)b * n + k0] = sum;
		}
}

/* The attention's scores: z[t * ldz + s] = quant_ew_dot8(q_t, key s) *
 * scale for t < n_q, s < n_keys, the keys transposed (key s's column c at
 * kt[c * ld_kt + s]; ld_kt covers n_keys rounded up to whole vectors, the
 * lanes past n_keys readable and discarded). The lanes run over keys and
 * eight accumulators over columns, each lane adding exactly the terms of
 * quant_ew_dot8 in its order: the f32 product's bits, many keys at a time
 * instead of one dot product and its reduction per key. */
QUANT_EW_INLINE void quant_ew_key_scores(const float *q, int n_q, int ldq, const float *kt, int ld_kt, int n_keys,
				     int dk, float scale, float *z, int ldz)
{
	const int L = QUANT_EW_LANES;
	for (int t = 0; t < n_q; t++) {
		const float *qt = q + (size_t)t * ldq;
		for (int s0 = 0; s0 < n_keys; s0 += L) {
			quant_ew_vec acc[8], k;
			_Pragma("GCC unroll 8") for (int j = 0; j < 8; j++)
				acc[j] = (quant_ew_vec){ 0 };
			int c = 0;
			for (; c + 8 <= dk; c += 8)
				_Pragma("GCC unroll 8") for (int j = 0; j < 8; j++) {
					memcpy(&k, kt + (size_t)(c + j) * ld_kt + s0, sizeof k);
					acc[j] += k * qt[c + j];
				}
			quant_ew_vec sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
			for (; c < dk; c++) {
				memcpy(&k, kt + (size_t)c * ld_kt + s0, sizeof k);
				sum += k * qt[c];
			}
			sum *= scale;
			int m = n_keys - s0 < L ? n_keys - s0 : L;
			memcpy(z + (size_t)t * ldz + s0, &sum, (size_t)m * sizeof(float));
		}
	}
}

/* out[i * n + k] = sum_j w[i * n_rows + j] * rows[j * n + k] for i < n_w,
 * k < n: the attention's weighed projected states for the n_w hypotheses
 * of one sentence, each element summed over j in order from 0 (as
 * family/gru/cuda.cu's k_att_context sums), so the result is the same for any
 * n_w. */
QUANT_EW_INLINE void quant_ew_weighted_sum(const float *w, int n_w, const float *rows, int n_rows, int n, float *out)
{
	for (; n_w > 0; n_w -= 4, w += 4 * (size_t)n_rows, out += 4 * (size_t)n)
		switch (n_w) {
		case 1: quant_ew_weighted_sums_nb(w, 1, rows, n_rows, n, out); break;
		case 2: quant_ew_weighted_sums_nb(w, 2, rows, n_rows, n, out); break;
		case 3: quant_ew_weighted_sums_nb(w, 3, rows, n_rows, n, out); break;
		default: quant_ew_weighted_sums_nb(w, 4, rows, n_rows, n, out); break;
		}
}
#endif

QUANT_EW_INLINE float quant_ew_relu1(float x)
{
	return x > 0.0f ? x : 0.0f;
}

QUANT_EW_INLINE void quant_ew_add(float *y, const float *x, int n)
{
	for (int i = 0; i < n; i++)
		y[i] += x[i];
}

QUANT_EW_INLINE void quant_ew_add_relu(float *y, const float *x, int n)
{
	for (int i = 0; i < n; i++)
		y[i] += quant_ew_relu1(x[i]);
}

QUANT_EW_INLINE void quant_ew_relu(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = quant_ew_relu1(x[i]);
}

/* The lowest v < n whose log-softmax continuation value
 * live + ((x[v] - max) - log_sum) is at least `bar`, or n: the search's
 * scan for the few logits that can still enter its k-best list. Blocks of
 * 32 are tested without an early exit, so the compiler vectorizes the
 * test, and only a block that holds one is searched element by element. */
QUANT_EW_INLINE int quant_ew_first_reaching(const float *x, int n, float max, float log_sum, float live, float bar)
{
	for (int v0 = 0; v0 < n; v0 += 32) {
		int end = n - v0 < 32 ? n : v0 + 32, hit = 0;
		for (int v = v0; v < end; v++)
			hit |= live + ((x[v] - max) - log_sum) >= bar;
		if (!hit)
			continue;
		for (int v = v0; v < end; v++)
			if (live + ((x[v] - max) - log_sum) >= bar)
				return v;
	}
	return n;
}

/* In-place softmax over n >= 1 values: e^(x - max), divided by their sum. */
QUANT_EW_INLINE void quant_ew_softmax(float *x, int n)
{
	float m = quant_ew_max(x, n);
	for (int i = 0; i < n; i++)
		x[i] = quant_exp(x[i] - m);
	float inv = 1.0f / quant_ew_sum(x, n);
	for (int i = 0; i < n; i++)
		x[i] *= inv;
}

/* Layer normalization as Marian computes it, y = g ⊙ (x − mean) / sqrt(var
 * + 1e-6) + b over n values, the variance biased (divided by n); both sums
 * in eight lanes, so the result is the same on every ISA. y may be x. */
QUANT_EW_INLINE void quant_ew_layer_norm(const float *x, int n, const float *g, const float *b, float *y)
{
	float mean = quant_ew_sum(x, n) / (float)n, acc[8] = { 0 };
	int i = 0;
	for (; i + 8 <= n; i += 8)
		for (int k = 0; k < 8; k++) {
			float dev = x[i + k] - mean;
			acc[k] += dev * dev;
		}
	float var = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
	for (; i < n; i++) {
		float dev = x[i] - mean;
		var += dev * dev;
	}
	float sigma = sqrtf(var / (float)n + 1e-6f);
	for (i = 0; i < n; i++)
		y[i] = g[i] * ((x[i] - mean) / sigma) + b[i];
}

/* An SSRU cell over n values: f = σ(fx) (fx = W_f x + b_f), c = f ⊙ c +
 * (1 − f) ⊙ wx (wx = W x), in place; out = ReLU(c). */
QUANT_EW_INLINE void quant_ew_ssru(int n, const float *wx, const float *fx, float *c, float *out)
{
	for (int i = 0; i < n; i++) {
		float f = quant_sigmoid(fx[i]);
		c[i] = f * c[i] + (1.0f - f) * wx[i];
		out[i] = c[i] > 0.0f ? c[i] : 0.0f;
	}
}

/* vecmath.h's quant_vec_log_normalizer: log(sum e^(x - max)) in blocks. */
QUANT_EW_INLINE float quant_ew_log_normalizer(const float *x, int n, float *max)
{
	float m = quant_ew_max(x, n), tmp[256], sum = 0.0f;
	for (int i = 0; i < n; i += 256) {
		int len = n - i < 256 ? n - i : 256;
		for (int j = 0; j < len; j++)
			tmp[j] = quant_exp(x[i + j] - m);
		sum += quant_ew_sum(tmp, len);
	}
	*max = m;
	return logf(sum);
}

#endif
