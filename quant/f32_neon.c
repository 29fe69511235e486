/* NEON f32 dot products (qdot.h), aarch64: each row's eight partial sums in
 * two registers (lanes 0-3 and 4-7), separate multiply and add (vmulq, vaddq;
 * never vfmaq, which would round once instead of twice), reduced in the
 * order of f32_scalar.c, so the results are bit-identical to it. */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "qdot.h"

/* ((a0 + a4) + (a1 + a5)) + ((a2 + a6) + (a3 + a7)) */
static inline float reduce8(float32x4_t lo, float32x4_t hi)
{
	float32x4_t s = vaddq_f32(lo, hi);
	return (vgetq_lane_f32(s, 0) + vgetq_lane_f32(s, 1)) + (vgetq_lane_f32(s, 2) + vgetq_lane_f32(s, 3));
}

void nmt_f32_rows_neon(const float *const w[NMT_PANEL_ROWS], const float *x, int cols, float *out)
{
	float32x4_t lo[NMT_PANEL_ROWS], hi[NMT_PANEL_ROWS];
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		lo[r] = hi[r] = vdupq_n_f32(0.0f);
	int c = 0;
	for (; c + 8 <= cols; c += 8) {
		float32x4_t x_lo = vld1q_f32(x + c), x_hi = vld1q_f32(x + c + 4);
		for (int r = 0; r < NMT_PANEL_ROWS; r++) {
			lo[r] = vaddq_f32(lo[r], vmulq_f32(vld1q_f32(w[r] + c), x_lo));
			hi[r] = vaddq_f32(hi[r], vmulq_f32(vld1q_f32(w[r] + c + 4), x_hi));
		}
	}
	for (int r = 0; r < NMT_PANEL_ROWS; r++) {
		float sum = reduce8(lo[r], hi[r]);
		for (int t = c; t < cols; t++)
			sum += w[r][t] * x[t];
		out[r] = sum;
	}
}
#endif
