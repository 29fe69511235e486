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

/* One row's eight lanes in two registers. */
typedef struct {
	float32x4_t lo, hi;
} lanes8;

static inline lanes8 mac8(lanes8 a, const float *w, float32x4_t x_lo, float32x4_t x_hi)
{
	a.lo = vaddq_f32(a.lo, vmulq_f32(vld1q_f32(w), x_lo));
	a.hi = vaddq_f32(a.hi, vmulq_f32(vld1q_f32(w + 4), x_hi));
	return a;
}

/* Named accumulators, not an array: the compiler keeps them in registers. */
void quant_f32_rows_neon(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out)
{
	const float *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];
	lanes8 a0 = { vdupq_n_f32(0.0f), vdupq_n_f32(0.0f) }, a1 = a0, a2 = a0, a3 = a0;
	int c = 0;
	for (; c + 8 <= cols; c += 8) {
		float32x4_t x_lo = vld1q_f32(x + c), x_hi = vld1q_f32(x + c + 4);
		a0 = mac8(a0, w0 + c, x_lo, x_hi);
		a1 = mac8(a1, w1 + c, x_lo, x_hi);
		a2 = mac8(a2, w2 + c, x_lo, x_hi);
		a3 = mac8(a3, w3 + c, x_lo, x_hi);
	}
	float sums[FORMAT_PANEL_ROWS] = { reduce8(a0.lo, a0.hi), reduce8(a1.lo, a1.hi),
				       reduce8(a2.lo, a2.hi), reduce8(a3.lo, a3.hi) };
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {
		for (int t = c; t < cols; t++)
			sums[r] += w[r][t] * x[t];
		out[r] = sums[r];
	}
}
#endif
