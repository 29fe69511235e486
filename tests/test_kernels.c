/* The kernels behind quant/matrix.h and quant/vecmath.h, and the GRU cell,
 * against straightforward double-precision references on odd sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../quant/matrix.h"
#include "../quant/qdot.h"
#include "../quant/vecmath.h"

static const int SIZES[] = { 1, 3, 17, 255, 1000 };
#define N_SIZES (int)(sizeof SIZES / sizeof SIZES[0])

/* Deterministic values in [-1, 1): a test must not depend on libc's rand(). */
static float next_value(uint32_t *seed)
{
	*seed = *seed * 1664525u + 1013904223u;
	return (float)((*seed >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static float *random_floats(size_t n, uint32_t *seed)
{
	float *p = malloc(n * sizeof *p);
	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		p[i] = next_value(seed);
	return p;
}

static void check_matmul(int rows, int cols, int n, int with_bias)
{
	uint32_t seed = (uint32_t)(rows * 7919 + cols * 31 + n);
	float *w = random_floats((size_t)rows * cols, &seed);
	float *x = random_floats((size_t)n * (cols + 2), &seed);   /* ldx = cols + 2 */
	float *b = random_floats((size_t)rows, &seed);
	float *y = calloc((size_t)n * (rows + 1), sizeof *y);      /* ldy = rows + 1 */
	quant_matrix W = { .format = FORMAT_F32, .rows = rows, .cols = cols, .data = w };

	assert_non_null(y);
	quant_matmul(&W, x, n, cols + 2, with_bias ? b : NULL, y, rows + 1, NULL);
	for (int i = 0; i < n; i++)
		for (int r = 0; r < rows; r++) {
			double want = with_bias ? b[r] : 0.0, mag = fabs(want);
			for (int c = 0; c < cols; c++) {
				want += (double)w[(size_t)r * cols + c] * x[(size_t)i * (cols + 2) + c];
				mag += fabs((double)w[(size_t)r * cols + c] * x[(size_t)i * (cols + 2) + c]);
			}
			/* The worst-case bound of f32 summation: (n + 1) u sum|terms|, u = 2^-24. */
			double bound = (cols + 2) * 0x1p-24 * (mag + 1.0);
			assert_true(fabs(y[(size_t)i * (rows + 1) + r] - want) <= bound);
		}
	free(w);
	free(x);
	free(b);
	free(y);
}

static void test_matmul_f32_odd_sizes(void **state)
{
	(void)state;
	for (int a = 0; a < N_SIZES; a++)
		for (int b = 0; b < N_SIZES; b++) {
			check_matmul(SIZES[a], SIZES[b], 1, 1);
			check_matmul(SIZES[a], SIZES[b], 3, 0);
		}
}

static void test_matrix_row(void **state)
{
	(void)state;
	float w[12];
	for (int i = 0; i < 12; i++)
		w[i] = (float)i;
	quant_matrix W = { .format = FORMAT_F32, .rows = 3, .cols = 4, .data = w };
	float out[4];
	quant_matrix_row(&W, 2, out);
	assert_memory_equal(out, w + 8, sizeof out);
}

static void test_softmax_and_log_softmax(void **state)
{
	(void)state;
	uint32_t seed = 42;
	for (int s = 0; s < N_SIZES; s++) {
		int n = SIZES[s];
		float *x = random_floats((size_t)n, &seed), *p = malloc((size_t)n * sizeof *p);
		assert_non_null(p);
		for (int i = 0; i < n; i++)
			x[i] *= 30.0f;    /* wide range: the max-subtraction must matter */
		memcpy(p, x, (size_t)n * sizeof *p);
		quant_vec_softmax(p, n);
		double sum = 0.0;
		for (int i = 0; i < n; i++)
			sum += p[i];
		assert_true(fabs(sum - 1.0) < 1e-5);
		memcpy(p, x, (size_t)n * sizeof *p);
		quant_vec_log_softmax(p, n);
		double lse = 0.0, mx = -INFINITY;
		for (int i = 0; i < n; i++)
			mx = fmax(mx, x[i]);
		for (int i = 0; i < n; i++)
			lse += exp(x[i] - mx);
		lse = mx + log(lse);
		for (int i = 0; i < n; i++)
			assert_true(fabs(p[i] - (x[i] - lse)) < 1e-4);
		/* the search's fused pass computes single values from the
		 * normalizer: they must be log-softmax's, bit for bit */
		float max, log_sum = quant_vec_log_normalizer(x, n, &max);
		for (int i = 0; i < n; i++)
			assert_true((x[i] - max) - log_sum == p[i]);
		free(x);
		free(p);
	}
}

static void test_elementwise(void **state)
{
	(void)state;
	float v[7] = { -20.0f, -1.5f, -0.0f, 0.0f, 0.25f, 3.0f, 20.0f };
	float s[7], t[7], r[7];
	memcpy(s, v, sizeof v);
	memcpy(t, v, sizeof v);
	memcpy(r, v, sizeof v);
	quant_vec_sigmoid(s, 7);
	quant_vec_tanh(t, 7);
	quant_vec_relu(r, 7);
	for (int i = 0; i < 7; i++) {
		assert_true(fabs(s[i] - 1.0 / (1.0 + exp(-(double)v[i]))) < 1e-6);
		assert_true(fabs(t[i] - tanh((double)v[i])) < 1e-6);
		assert_true(r[i] == (v[i] > 0 ? v[i] : 0.0f));
	}
}

/* The GRU cell against torch.nn.GRU's equations written out in double. */
static void test_gru_cell(void **state)
{
	(void)state;
	enum { H = 5 };
	uint32_t seed = 7;
	float gi[3 * H], gh[3 * H], h[H], out[H];
	for (int k = 0; k < 3 * H; k++) {
		gi[k] = 2 * next_value(&seed);
		gh[k] = 2 * next_value(&seed);
	}
	for (int k = 0; k < H; k++)
		h[k] = next_value(&seed);
	quant_ew_generic.gru_cell(H, gi, gh, h, out);
	for (int k = 0; k < H; k++) {
		double r = 1 / (1 + exp(-(double)(gi[k] + gh[k])));
		double z = 1 / (1 + exp(-(double)(gi[H + k] + gh[H + k])));
		double n = tanh(gi[2 * H + k] + r * gh[2 * H + k]);
		assert_true(fabs(out[k] - ((1 - z) * n + z * h[k])) < 1e-6);
	}
}

/* Every ISA's element-wise kernels give the generic build's floats and
 * integers bit for bit, on odd sizes and on inputs from tiny to huge
 * (where the exponential clamps). */
static void test_ew_bit_identical(void **state)
{
	(void)state;
	const char *isas[] = { "avx2", "avx512", "avx512-vbmi", "neon", "neon-dotprod" };
	const quant_ew *ref = &quant_ew_generic;
	uint32_t seed = 3;
	for (size_t a = 0; a < sizeof isas / sizeof isas[0]; a++) {
		const quant_qdot *q = quant_qdot_select(isas[a]);
		if (!q)
			continue;
		for (int s = 0; s < N_SIZES; s++) {
			int n = SIZES[s];
			float *x = random_floats((size_t)3 * n, &seed), *g = random_floats((size_t)3 * n, &seed);
			float *h = random_floats((size_t)n, &seed);
			float *y1 = malloc((size_t)3 * n * sizeof *y1), *y2 = malloc((size_t)3 * n * sizeof *y2);
			int8_t *q1 = malloc((size_t)n + 64), *q2 = malloc((size_t)n + 64);
			assert_non_null(y1);
			assert_non_null(y2);
			assert_non_null(q1);
			assert_non_null(q2);
			for (int i = 0; i < 3 * n; i++)   /* magnitudes from 1e-3 to 1e3 */
				x[i] *= powf(10.0f, (float)(i % 7) - 3.0f);
			ref->gru_cell(n, x, g, h, y1);
			q->ew->gru_cell(n, x, g, h, y2);
			assert_memory_equal(y1, y2, (size_t)n * sizeof *y1);
			memcpy(y1, x, (size_t)3 * n * sizeof *y1);
			memcpy(y2, x, (size_t)3 * n * sizeof *y2);
			ref->tanh(y1, 3 * n);
			q->ew->tanh(y2, 3 * n);
			assert_memory_equal(y1, y2, (size_t)3 * n * sizeof *y1);
			float m1, m2;
			assert_true(ref->log_normalizer(x, 3 * n, &m1) == q->ew->log_normalizer(x, 3 * n, &m2));
			assert_true(m1 == m2);
			assert_true(ref->quantize_x(x, n, n + 64, q1) == q->ew->quantize_x(x, n, n + 64, q2));
			assert_memory_equal(q1, q2, (size_t)n + 64);
			/* integer sums of every size and sign, rescaled with and without a bias */
			int32_t *sums = malloc((size_t)n * sizeof *sums);
			assert_non_null(sums);
			for (int i = 0; i < n; i++)
				sums[i] = (int32_t)(x[i] * 1e5f);
			for (int with_bias = 0; with_bias < 2; with_bias++) {
				ref->rescale(sums, h, 0.37f, with_bias ? g : NULL, n, y1);
				q->ew->rescale(sums, h, 0.37f, with_bias ? g : NULL, n, y2);
				assert_memory_equal(y1, y2, (size_t)n * sizeof *y1);
			}
			free(sums);
			/* the search's scan: the first value at or above bars from below
			 * every value to above all of them, as a plain loop finds it */
			float lmax, lsum = ref->log_normalizer(x, n, &lmax);
			for (int t = 0; t <= 8; t++) {
				float bar = -2.5f + (float)t * 0.3f, live = -0.25f;
				int want = n;
				for (int v = n - 1; v >= 0; v--)
					if (live + ((x[v] - lmax) - lsum) >= bar)
						want = v;
				assert_int_equal(ref->first_reaching(x, n, lmax, lsum, live, bar), want);
				assert_int_equal(q->ew->first_reaching(x, n, lmax, lsum, live, bar), want);
			}
			/* sums and rectifiers */
			memcpy(y1, x, (size_t)n * sizeof *y1);
			memcpy(y2, x, (size_t)n * sizeof *y2);
			ref->add(y1, g, n);
			q->ew->add(y2, g, n);
			assert_memory_equal(y1, y2, (size_t)n * sizeof *y1);
			ref->add_relu(y1, g + n, n);
			q->ew->add_relu(y2, g + n, n);
			assert_memory_equal(y1, y2, (size_t)n * sizeof *y1);
			ref->relu(y1, n);
			q->ew->relu(y2, n);
			assert_memory_equal(y1, y2, (size_t)n * sizeof *y1);
			/* attention contexts: three rows of n weighed by one to eight
			 * sets of weights at once (a sentence's hypotheses, up to
			 * NMT_MAX_BEAM), each set's sums the same as on its own */
			int n_rows = n >= 3 ? 3 : n;
			float *w = random_floats((size_t)8 * n_rows, &seed);
			float *s1 = malloc((size_t)8 * n * sizeof *s1), *s2 = malloc((size_t)8 * n * sizeof *s2);
			assert_non_null(s1);
			assert_non_null(s2);
			for (int n_w = 1; n_w <= 8; n_w++) {
				ref->weighted_sum(w, n_w, x, n_rows, n, s1);
				q->ew->weighted_sum(w, n_w, x, n_rows, n, s2);
				assert_memory_equal(s1, s2, (size_t)n_w * n * sizeof *s1);
				for (int i = 0; i < n_w; i++) {
					ref->weighted_sum(w + i * n_rows, 1, x, n_rows, n, s2);
					assert_memory_equal(s2, s1 + (size_t)i * n, (size_t)n * sizeof *s1);
				}
			}
			free(w);
			free(s1);
			free(s2);
			free(x);
			free(g);
			free(h);
			free(y1);
			free(y2);
			free(q1);
			free(q2);
		}
		print_message("%s element-wise kernels: bit-identical to the generic ones\n", isas[a]);
	}
}

/* The attention's scores with the keys as lanes (quant_ew_key_scores) are,
 * on every ISA, quant_ew_dot8 of the query and the key times the scale, bit
 * for bit: key counts around every vector width, head sizes with and
 * without a tail past whole eights, queries read at a stride. */
static void test_key_scores(void **state)
{
	(void)state;
	const char *isas[] = { "scalar", "avx2", "avx512", "neon" };
	static const int keys[] = { 1, 3, 4, 15, 16, 17, 33 }, dks[] = { 8, 13, 32, 64 };
	uint32_t seed = 11;
	for (size_t a = 0; a < sizeof isas / sizeof isas[0]; a++) {
		const quant_qdot *q = quant_qdot_select(isas[a]);
		if (!q)
			continue;
		for (size_t ki = 0; ki < sizeof keys / sizeof keys[0]; ki++)
			for (size_t di = 0; di < sizeof dks / sizeof dks[0]; di++) {
				int S = keys[ki], dk = dks[di], T = 3, ldq = dk + 5, ld = S + 16;
				float *qs = random_floats((size_t)T * ldq, &seed), *k = random_floats((size_t)S * dk, &seed);
				float *kt = calloc((size_t)dk * ld, sizeof *kt), *z = malloc((size_t)T * S * sizeof *z);
				assert_non_null(kt);
				assert_non_null(z);
				for (int s = 0; s < S; s++)
					for (int c = 0; c < dk; c++)
						kt[(size_t)c * ld + s] = k[(size_t)s * dk + c];
				q->ew->key_scores(qs, T, ldq, kt, ld, S, dk, 0.17f, z, S);
				for (int t = 0; t < T; t++)
					for (int s = 0; s < S; s++) {
						float want = quant_ew_dot8(k + (size_t)s * dk, qs + (size_t)t * ldq, dk) * 0.17f;
						assert_memory_equal(&z[(size_t)t * S + s], &want, sizeof want);
					}
				free(qs);
				free(k);
				free(kt);
				free(z);
			}
		print_message("%s key_scores: the f32 dot products' bits\n", isas[a]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matmul_f32_odd_sizes),
		cmocka_unit_test(test_ew_bit_identical),
		cmocka_unit_test(test_matrix_row),
		cmocka_unit_test(test_softmax_and_log_softmax),
		cmocka_unit_test(test_elementwise),
		cmocka_unit_test(test_gru_cell),
		cmocka_unit_test(test_key_scores),
	};
	return cmocka_run_group_tests_name("kernels", tests, NULL, NULL);
}
