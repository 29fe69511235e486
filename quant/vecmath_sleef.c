/* vecmath.c's sigmoid, tanh and exp on SLEEF's 1-ulp vector functions, for
 * the optional dynamically linked build (`make SLEEF=1` -> ./nmt-sleef;
 * Debian ships SLEEF only as a shared library, so the static ./nmt cannot
 * use it). Four lanes (SSE2, every x86-64); the GRU cell keeps vecmath.h's
 * inline functions. */
#if defined(NMT_WITH_SLEEF) && defined(__x86_64__)
#include <immintrin.h>
#include <sleef.h>

#include "vecmath.h"

typedef __m128 (*vec4_fn)(__m128);

static __m128 sigmoid4(__m128 x)
{
	__m128 one = _mm_set1_ps(1.0f);
	return _mm_div_ps(one, _mm_add_ps(one, Sleef_expf4_u10(_mm_sub_ps(_mm_setzero_ps(), x))));
}

/* SLEEF declares its functions with a const-qualified return type, which
 * clang will not convert to vec4_fn: plain wrappers. */
static __m128 tanh4(__m128 x)
{
	return Sleef_tanhf4_u10(x);
}

static __m128 exp4(__m128 x)
{
	return Sleef_expf4_u10(x);
}

/* Whole groups of four in registers, the rest through a zero-padded block. */
static void apply4(float *x, int n, vec4_fn f)
{
	int i = 0;
	for (; i + 4 <= n; i += 4)
		_mm_storeu_ps(x + i, f(_mm_loadu_ps(x + i)));
	if (i < n) {
		float tail[4] = { 0 };
		memcpy(tail, x + i, (size_t)(n - i) * sizeof *tail);
		_mm_storeu_ps(tail, f(_mm_loadu_ps(tail)));
		memcpy(x + i, tail, (size_t)(n - i) * sizeof *tail);
	}
}

void quant_vec_sigmoid(float *x, int n)
{
	apply4(x, n, sigmoid4);
}

void quant_vec_tanh(float *x, int n)
{
	apply4(x, n, tanh4);
}

void quant_vec_exp_sleef(float *x, int n)
{
	apply4(x, n, exp4);
}
#elif defined(NMT_WITH_SLEEF)
#error "make SLEEF=1 is for x86-64"
#endif
