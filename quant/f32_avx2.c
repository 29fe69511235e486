/* AVX2 f32 dot products (qdot.h): four weight rows against one input, eight
 * columns per step, one accumulator register per row whose lanes are exactly
 * the eight partial sums of f32_scalar.c (separate multiply and add, no FMA),
 * reduced in the same order, so the results are bit-identical to it. */
#if defined(__x86_64__)
#include <immintrin.h>

#include "qdot.h"

#define TARGET __attribute__((target("avx2")))

/* ((a0 + a4) + (a1 + a5)) + ((a2 + a6) + (a3 + a7)) */
TARGET static inline float reduce8(__m256 acc)
{
	__m128 s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
	__m128 pairs = _mm_add_ps(s, _mm_movehdup_ps(s));   /* lanes 0, 2: s0 + s1, s2 + s3 */
	return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehl_ps(pairs, pairs)));
}

/* The four accumulators are named variables: as an array, gcc keeps them on
 * the stack and every step waits on a store and a reload. */
TARGET void quant_f32_rows_avx2(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out)
{
	const float *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];
	__m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
	int c = 0;
	for (; c + 8 <= cols; c += 8) {
		__m256 xv = _mm256_loadu_ps(x + c);
		a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_loadu_ps(w0 + c), xv));
		a1 = _mm256_add_ps(a1, _mm256_mul_ps(_mm256_loadu_ps(w1 + c), xv));
		a2 = _mm256_add_ps(a2, _mm256_mul_ps(_mm256_loadu_ps(w2 + c), xv));
		a3 = _mm256_add_ps(a3, _mm256_mul_ps(_mm256_loadu_ps(w3 + c), xv));
	}
	float sums[FORMAT_PANEL_ROWS] = { reduce8(a0), reduce8(a1), reduce8(a2), reduce8(a3) };
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {
		for (int t = c; t < cols; t++)
			sums[r] += w[r][t] * x[t];
		out[r] = sums[r];
	}
}
#endif
