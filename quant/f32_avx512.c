/* AVX-512 f32 dot products (qdot.h). A 512-bit register holds two rows'
 * eight partial sums side by side (row r in the low half, row r + 1 in the
 * high half), so the lanes are exactly those of f32_scalar.c and the results
 * bit-identical to it; four rows take two registers and one broadcast of the
 * input per eight columns. */
#if defined(__x86_64__)
#include <immintrin.h>

#include "qdot.h"

#define TARGET __attribute__((target("avx512f,avx512dq")))

TARGET static inline __m512 two_rows(const float *a, const float *b)
{
	return _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(a)), _mm256_loadu_ps(b), 1);
}

/* ((a0 + a4) + (a1 + a5)) + ((a2 + a6) + (a3 + a7)) of one 256-bit half */
TARGET static inline float reduce8(__m256 acc)
{
	__m128 s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
	__m128 pairs = _mm_add_ps(s, _mm_movehdup_ps(s));
	return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehl_ps(pairs, pairs)));
}

TARGET void quant_f32_rows_avx512(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out)
{
	__m512 acc01 = _mm512_setzero_ps(), acc23 = _mm512_setzero_ps();
	int c = 0;
	for (; c + 8 <= cols; c += 8) {
		__m512 xv = _mm512_broadcast_f32x8(_mm256_loadu_ps(x + c));
		acc01 = _mm512_add_ps(acc01, _mm512_mul_ps(two_rows(w[0] + c, w[1] + c), xv));
		acc23 = _mm512_add_ps(acc23, _mm512_mul_ps(two_rows(w[2] + c, w[3] + c), xv));
	}
	float sums[FORMAT_PANEL_ROWS] = {
		reduce8(_mm512_castps512_ps256(acc01)), reduce8(_mm512_extractf32x8_ps(acc01, 1)),
		reduce8(_mm512_castps512_ps256(acc23)), reduce8(_mm512_extractf32x8_ps(acc23, 1)),
	};
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {
		for (int t = c; t < cols; t++)
			sums[r] += w[r][t] * x[t];
		out[r] = sums[r];
	}
}
#endif
