/* The log-quantization formats and the quantizer (quant/logquant.h):
 * the tables, nearest-code assignment, scale optimality against the naive
 * max scale, and round-trip error on random rows of odd sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "../quant/logquant.h"

static const int SIZES[] = { 1, 3, 17, 255, 1000 };
#define N_SIZES (int)(sizeof SIZES / sizeof SIZES[0])

/* Roughly Gaussian values (sum of four uniforms), like trained weights. */
static float next_gaussian(uint32_t *seed)
{
	float sum = 0;
	for (int i = 0; i < 4; i++) {
		*seed = *seed * 1664525u + 1013904223u;
		sum += (float)((*seed >> 8) & 0xFFFF) / 65536.0f - 0.5f;
	}
	return sum * 0.1f;
}

static void test_tables(void **state)
{
	(void)state;
	const int16_t *q8 = nmt_logq_table(NMT_LOGQ_8);
	assert_int_equal(nmt_logq_levels(NMT_LOGQ_8), 128);
	for (int k = 0; k < 127; k++)
		assert_true(fabs(q8[k] - 4096.0 * exp2(-k / 16.0)) <= 0.5);
	assert_int_equal(q8[127], 0);
	const int16_t *q4 = nmt_logq_table(NMT_LOGQ_4);
	assert_int_equal(nmt_logq_levels(NMT_LOGQ_4), 8);
	for (int k = 0; k < 7; k++)
		assert_int_equal(q4[k], 64 >> k);
	assert_int_equal(q4[7], 0);
}

/* Every code is the level nearest to |w| / s, the sign is w's, and the
 * error is the smallest any code could give. */
static void check_nearest(nmt_logq_bits bits, const float *w, int n, const uint8_t *codes, float s)
{
	int levels = nmt_logq_levels(bits);
	for (int i = 0; i < n; i++) {
		float v = nmt_logq_value(bits, s, codes[i]);
		double err = fabs((double)w[i] - v);
		for (int k = 0; k < levels; k++) {
			float alt = nmt_logq_value(bits, s, (uint8_t)((w[i] < 0) << (bits - 1) | k));
			assert_true(err <= fabs((double)w[i] - alt) + 1e-7 * s);
		}
		if (v != 0)
			assert_true((v < 0) == (w[i] < 0));
	}
}

static void check_rows(nmt_logq_bits bits, double max_rel_rms)
{
	for (int t = 0; t < N_SIZES; t++) {
		int n = SIZES[t];
		uint32_t seed = (uint32_t)(n * 977 + bits);
		float *w = malloc((size_t)n * sizeof *w);
		uint8_t *codes = malloc((size_t)n);
		uint8_t *naive = malloc((size_t)n);
		assert_non_null(w);
		assert_non_null(codes);
		assert_non_null(naive);
		double energy = 0, amax = 0;
		for (int i = 0; i < n; i++) {
			w[i] = next_gaussian(&seed);
			energy += (double)w[i] * w[i];
			amax = fmax(amax, fabs(w[i]));
		}
		float s = nmt_logq_quantize_row(bits, w, n, codes);
		check_nearest(bits, w, n, codes, s);
		double err = nmt_logq_row_error(bits, w, n, codes, s);

		/* No worse than the naive scale (the largest weight), codes nearest for it. */
		for (int i = 0; i < n; i++) {
			int k = 0;
			for (int j = 1; j < nmt_logq_levels(bits); j++)
				if (fabs(fabs(w[i]) - nmt_logq_value(bits, (float)amax, (uint8_t)j)) <
				    fabs(fabs(w[i]) - nmt_logq_value(bits, (float)amax, (uint8_t)k)))
					k = j;
			naive[i] = (uint8_t)((w[i] < 0) << (bits - 1) | k);
		}
		assert_true(err <= nmt_logq_row_error(bits, w, n, naive, (float)amax) * (1 + 1e-9) + 1e-12);
		if (n >= 17) {
			double rel_rms = sqrt(err / energy);
			print_message("q%d n=%d relative rms error %.4f\n", bits, n, rel_rms);
			assert_true(rel_rms <= max_rel_rms);
		} else if (n == 1) {
			assert_true(err <= 1e-12);   /* one weight: it is the scale */
		}
		free(w);
		free(codes);
		free(naive);
	}
}

/* Bounds from the formats' geometry: q8 levels are 2^(1/16) apart, so a
 * weight in range is within 2.2% of a level; q4 levels are 2x apart (within
 * 33%), and most Gaussian weights fall in range. */
static void test_q8_rows(void **state)
{
	(void)state;
	check_rows(NMT_LOGQ_8, 0.022);
}

static void test_q4_rows(void **state)
{
	(void)state;
	check_rows(NMT_LOGQ_4, 0.25);
}

static void test_zero_row(void **state)
{
	(void)state;
	for (int b = 0; b < 2; b++) {
		nmt_logq_bits bits = b ? NMT_LOGQ_4 : NMT_LOGQ_8;
		float w[5] = { 0 };
		uint8_t codes[5];
		float s = nmt_logq_quantize_row(bits, w, 5, codes);
		assert_true(s == 0.0f);
		for (int i = 0; i < 5; i++)
			assert_true(nmt_logq_value(bits, s, codes[i]) == 0.0f);
	}
}

/* Values that are exactly representable come back exactly. */
static void test_exact_levels(void **state)
{
	(void)state;
	float w[8] = { 1.0f, -0.5f, 0.25f, -0.125f, 0.0625f, 0.03125f, -0.015625f, 0.0f };
	uint8_t codes[8];
	float s = nmt_logq_quantize_row(NMT_LOGQ_4, w, 8, codes);
	assert_true(s == 1.0f);
	for (int i = 0; i < 8; i++)
		assert_true(nmt_logq_value(NMT_LOGQ_4, s, codes[i]) == w[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_q8_rows),
		cmocka_unit_test(test_q4_rows),
		cmocka_unit_test(test_zero_row),
		cmocka_unit_test(test_exact_levels),
	};
	return cmocka_run_group_tests_name("quant", tests, NULL, NULL);
}
