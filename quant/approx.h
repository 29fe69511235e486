/* Element-wise math: e^x, the logistic sigmoid and tanh as branch-free
 * inline functions, written so that the compiler vectorizes the loops that
 * call them (quant/ew_body.h's loops), and bit-identical
 * on every ISA because they are plain IEEE operations in a fixed order
 * (-ffp-contract=off). Accuracy is measured against SLEEF in
 * tests/test_vecmath.c: at most 1.0 ulp from SLEEF's e^x (on [-87, 88]),
 * 3.4 ulp for the sigmoid (x >= -87; below it the sigmoid is < 1e-37),
 * 2 ulp and 6e-8 absolute for tanh (8.1e-8 against libm in double, which
 * does not round its reference to float).
 */
#ifndef QUANT_APPROX_H
#define QUANT_APPROX_H
#include <stdint.h>
#include <string.h>

#include "hd.h"

/* e^x, Cody-Waite reduction x = n ln2 + r, |r| <= ln2 / 2, and a degree-7
 * polynomial for e^r (Cephes' expf). Arguments are clamped to
 * [-87.33, 88]: below, the result is ~FLT_MIN instead of a subnormal or 0;
 * above, e^88 instead of a value near the overflow threshold. The clamps
 * are written so that a NaN fails the first test and becomes 88: a NaN must
 * not reach the float-to-int conversion below, which would be undefined (a
 * damaged model can produce one; found by tests/fuzz/fuzz_model.c). */
static inline QUANT_HD float quant_exp(float x)
{
	x = x < 88.0f ? x : 88.0f;
	x = x > -87.33f ? x : -87.33f;
	float n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;   /* round(x / ln 2) */
	float r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
	float p = 1.9875691500e-4f;
	p = p * r + 1.3981999507e-3f;
	p = p * r + 8.3334519073e-3f;
	p = p * r + 4.1665795894e-2f;
	p = p * r + 1.6666665459e-1f;
	p = p * r + 5.0000001201e-1f;
	p = (p * (r * r) + r) + 1.0f;
	int32_t bits = ((int32_t)n + 127) * (1 << 23);   /* 2^n, n in [-126, 127] */
	float scale;
	memcpy(&scale, &bits, sizeof scale);
	return p * scale;
}

static inline QUANT_HD float quant_sigmoid(float x)
{
	return 1.0f / (1.0f + quant_exp(-x));
}

/* tanh: an odd Taylor polynomial through x^13 below |x| = 0.4 (error < 1e-9
 * relative there), 1 - 2 / (e^2|x| + 1) above; the sign restored. */
static inline QUANT_HD float quant_tanh(float x)
{
	float a = x < 0.0f ? -x : x, a2 = a * a;
	float p = 21844.0f / 6081075.0f;
	p = p * a2 - 1382.0f / 155925.0f;
	p = p * a2 + 62.0f / 2835.0f;
	p = p * a2 - 17.0f / 315.0f;
	p = p * a2 + 2.0f / 15.0f;
	p = p * a2 - 1.0f / 3.0f;
	float small = a + a * (a2 * p);
	float large = 1.0f - 2.0f / (quant_exp(2.0f * a) + 1.0f);
	float t = a < 0.4f ? small : large;
	return x < 0.0f ? -t : t;
}

#endif
