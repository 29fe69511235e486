/* The element-wise approximations of quant/vecmath.h against an oracle:
 * SLEEF's 1-ulp functions (Debian's libsleef-dev) when the build found it,
 * otherwise libm in double precision. Sweeps every 1/1024 over [-100, 100]
 * plus pseudo-random values of every magnitude, prints the maximum errors
 * measured and checks them against the bounds vecmath.h states. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../quant/vecmath.h"

#ifdef NMT_HAVE_SLEEF
#include <sleef.h>
#define ORACLE "SLEEF 1-ulp"
static double oracle_exp(float x) { return Sleef_expf_u10(x); }
static double oracle_tanh(float x) { return Sleef_tanhf_u10(x); }
#else
#define ORACLE "libm (double)"
static double oracle_exp(float x) { return exp((double)x); }
static double oracle_tanh(float x) { return tanh((double)x); }
#endif

static double oracle_sigmoid(float x)
{
	return 1.0 / (1.0 + oracle_exp(-x));
}

/* |got - want| in units of the last place of want as a float. */
static double ulps(float got, double want)
{
	float w = (float)fabs(want);
	double ulp = (double)nextafterf(w, INFINITY) - w;
	return fabs((double)got - want) / ulp;
}

typedef struct {
	double exp_ulp, sigmoid_ulp, tanh_abs, tanh_ulp;
} errors;

static void measure(float x, errors *e)
{
	if (x >= -87.0f && x <= 88.0f)
		e->exp_ulp = fmax(e->exp_ulp, ulps(quant_exp(x), oracle_exp(x)));
	if (x >= -87.0f)
		e->sigmoid_ulp = fmax(e->sigmoid_ulp, ulps(quant_sigmoid(x), oracle_sigmoid(x)));
	double t = oracle_tanh(x);
	e->tanh_abs = fmax(e->tanh_abs, fabs(quant_tanh(x) - t));
	e->tanh_ulp = fmax(e->tanh_ulp, ulps(quant_tanh(x), t));
}

/* Pseudo-random floats of every sign and magnitude from 2^-30 to 2^7. */
static float random_float(uint32_t *seed)
{
	*seed = *seed * 1664525u + 1013904223u;
	float m = 1.0f + (float)(*seed >> 9) / 8388608.0f;
	int exponent = (int)((*seed >> 3) % 38) - 30;
	return ldexpf((*seed & 1) ? -m : m, exponent);
}

static void test_accuracy(void **state)
{
	(void)state;
	errors e = { 0 };
	for (int i = -100 * 1024; i <= 100 * 1024; i++)
		measure((float)i / 1024.0f, &e);
	uint32_t seed = 7;
	for (int i = 0; i < 1000000; i++)
		measure(random_float(&seed), &e);
	print_message("oracle %s: exp max %.2f ulp, sigmoid max %.2f ulp, tanh max %.2e abs / %.2f ulp\n",
		      ORACLE, e.exp_ulp, e.sigmoid_ulp, e.tanh_abs, e.tanh_ulp);
	assert_true(e.exp_ulp <= 1.5);
	assert_true(e.sigmoid_ulp <= 4.0);
	/* 1 ulp of 1 is 6e-8: SLEEF's float tanh, itself rounded, measures
	 * 5.96e-8; libm in double sees the true 8.1e-8 */
	assert_true(e.tanh_abs <= 1e-7);
	assert_true(e.tanh_ulp <= 3.0);
}

/* Outside the accurate range the functions saturate, never overflow to
 * infinity or produce NaN. */
static void test_saturation(void **state)
{
	(void)state;
	const float xs[] = { -1e30f, -1000.0f, -88.0f, 89.0f, 1000.0f, 1e30f, -INFINITY, INFINITY };
	for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
		float x = xs[i];
		assert_true(isfinite(quant_exp(x)) && quant_exp(x) > 0.0f);
		assert_true(quant_sigmoid(x) >= 0.0f && quant_sigmoid(x) <= 1.0f);
		assert_true(fabsf(quant_tanh(x)) == 1.0f);
		assert_true((quant_tanh(x) > 0) == (x > 0));
	}
	assert_true(quant_sigmoid(-1000.0f) < 1e-37f);
	assert_true(quant_sigmoid(1000.0f) == 1.0f);
	assert_true(quant_tanh(0.0f) == 0.0f);
}

/* The array functions apply the same inline functions. */
static void test_arrays(void **state)
{
	(void)state;
	float a[37], b[37];
	uint32_t seed = 3;
	for (int i = 0; i < 37; i++)
		a[i] = b[i] = random_float(&seed);
	quant_vec_tanh(a, 37);
	for (int i = 0; i < 37; i++)
		assert_true(a[i] == quant_tanh(b[i]));
	memcpy(a, b, sizeof a);
	quant_vec_sigmoid(a, 37);
	for (int i = 0; i < 37; i++)
		assert_true(a[i] == quant_sigmoid(b[i]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accuracy),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_arrays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
