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
#include <string.h>

#include "../quant/logquant.h"
#include "../quant/matrix.h"
#include "../quant/qlayout.h"
#include "../quant/qdot.h"

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
	const int16_t *q8 = quant_logq_table(QUANT_LOGQ_8);
	assert_int_equal(quant_logq_levels(QUANT_LOGQ_8), 128);
	for (int k = 0; k < 127; k++)
		assert_true(fabs(q8[k] - 4096.0 * exp2(-k / 16.0)) <= 0.5);
	assert_int_equal(q8[127], 0);
	const int16_t *q4 = quant_logq_table(QUANT_LOGQ_4);
	assert_int_equal(quant_logq_levels(QUANT_LOGQ_4), 8);
	for (int k = 0; k < 7; k++)
		assert_int_equal(q4[k], 64 >> k);
	assert_int_equal(q4[7], 0);
	/* q4n: descending, its top level q4's (every kernel's bounds assume at
	 * most 64), an exact zero, the same code layout */
	const int16_t *q4n = quant_logq_table(QUANT_LOGQ_4N);
	assert_int_equal(quant_logq_levels(QUANT_LOGQ_4N), 8);
	assert_int_equal(quant_logq_code_bits(QUANT_LOGQ_4N), 4);
	assert_int_equal(q4n[0], 64);
	for (int k = 0; k < 7; k++)
		assert_true(q4n[k] > q4n[k + 1]);
	assert_int_equal(q4n[7], 0);
}

/* Every code is the level nearest to |w| / s, the sign is w's, and the
 * error is the smallest any code could give. */
static void check_nearest(quant_logq_format bits, const float *w, int n, const uint8_t *codes, float s)
{
	int levels = quant_logq_levels(bits);
	for (int i = 0; i < n; i++) {
		float v = quant_logq_value(bits, s, codes[i]);
		double err = fabs((double)w[i] - v);
		for (int k = 0; k < levels; k++) {
			float alt = quant_logq_value(bits, s, (uint8_t)((w[i] < 0) << (quant_logq_code_bits(bits) - 1) | k));
			assert_true(err <= fabs((double)w[i] - alt) + 1e-7 * s);
		}
		if (v != 0)
			assert_true((v < 0) == (w[i] < 0));
	}
}

static void check_rows(quant_logq_format bits, double max_rel_rms)
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
		float s = quant_logq_quantize_row(bits, w, n, codes);
		check_nearest(bits, w, n, codes, s);
		double err = quant_logq_row_error(bits, w, n, codes, s);

		/* No worse than the naive scale (the largest weight), codes nearest for it. */
		for (int i = 0; i < n; i++) {
			int k = 0;
			for (int j = 1; j < quant_logq_levels(bits); j++)
				if (fabs(fabs(w[i]) - quant_logq_value(bits, (float)amax, (uint8_t)j)) <
				    fabs(fabs(w[i]) - quant_logq_value(bits, (float)amax, (uint8_t)k)))
					k = j;
			naive[i] = (uint8_t)((w[i] < 0) << (quant_logq_code_bits(bits) - 1) | k);
		}
		assert_true(err <= quant_logq_row_error(bits, w, n, naive, (float)amax) * (1 + 1e-9) + 1e-12);
		if (n >= 17) {
			double rel_rms = sqrt(err / energy);
			print_message("%s n=%d relative rms error %.4f\n",
				      bits == QUANT_LOGQ_8 ? "q8" : bits == QUANT_LOGQ_4 ? "q4" : "q4n", n, rel_rms);
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
	check_rows(QUANT_LOGQ_8, 0.022);
}

static void test_q4_rows(void **state)
{
	(void)state;
	check_rows(QUANT_LOGQ_4, 0.25);
}

/* q4n's levels were fitted to trained weights, which are near Gaussian:
 * on Gaussian rows it must do clearly better than q4's powers of two. */
static void test_q4n_rows(void **state)
{
	(void)state;
	check_rows(QUANT_LOGQ_4N, 0.13);
}

static void test_zero_row(void **state)
{
	(void)state;
	for (int b = 0; b < 3; b++) {
		quant_logq_format bits = b == 2 ? QUANT_LOGQ_4N : b ? QUANT_LOGQ_4 : QUANT_LOGQ_8;
		float w[5] = { 0 };
		uint8_t codes[5];
		float s = quant_logq_quantize_row(bits, w, 5, codes);
		assert_true(s == 0.0f);
		for (int i = 0; i < 5; i++)
			assert_true(quant_logq_value(bits, s, codes[i]) == 0.0f);
	}
}

/* Values that are exactly representable come back exactly. */
static void test_exact_levels(void **state)
{
	(void)state;
	float w[8] = { 1.0f, -0.5f, 0.25f, -0.125f, 0.0625f, 0.03125f, -0.015625f, 0.0f };
	uint8_t codes[8];
	float s = quant_logq_quantize_row(QUANT_LOGQ_4, w, 8, codes);
	assert_true(s == 1.0f);
	for (int i = 0; i < 8; i++)
		assert_true(quant_logq_value(QUANT_LOGQ_4, s, codes[i]) == w[i]);
}

/* The quantized formats, and each one's functions of an implementation. */
static const format_encoding QFORMATS[] = { FORMAT_Q8, FORMAT_Q4, FORMAT_I8, FORMAT_Q4N };
#define N_QFORMATS 4

typedef int32_t (*dot_fn)(const uint8_t *, int, const int8_t *);
typedef void (*panel_fn)(const uint8_t *, int, const int8_t *, int32_t *);
typedef void (*multi_fn)(const uint8_t *, int, const int8_t *, size_t, int, int32_t *);
typedef void (*block_fn)(const uint8_t *, int, int, const int8_t *, size_t, int, int32_t *, size_t);

/* q8, q4, q4n only: i8 has block functions alone (qdot.h) */
static dot_fn dot_of(const quant_qdot *q, format_encoding f)
{
	return f == FORMAT_Q8 ? q->q8 : f == FORMAT_Q4N ? q->q4n : q->q4;
}

static panel_fn panel_of(const quant_qdot *q, format_encoding f)
{
	return f == FORMAT_Q8 ? q->q8_panel : f == FORMAT_Q4N ? q->q4n_panel : q->q4_panel;
}

static multi_fn multi_of(const quant_qdot *q, format_encoding f)
{
	return f == FORMAT_Q8    ? q->q8_panel_multi
	       : f == FORMAT_Q4  ? q->q4_panel_multi
	       : f == FORMAT_Q4N ? q->q4n_panel_multi
				 : NULL;
}

static block_fn block_of(const quant_qdot *q, format_encoding f)
{
	return f == FORMAT_Q8 ? q->q8_block : f == FORMAT_Q4 ? q->q4_block : f == FORMAT_Q4N ? q->q4n_block : q->i8_block;
}

/* A quantized matrix built the way model-pack builds one. */
typedef struct {
	quant_matrix W;
	uint8_t *codes;      /* row-major, one per byte */
	uint8_t *packed;
	float *factor;
} qmat;

static qmat make_qmat(format_encoding f, int rows, int cols, uint32_t seed)
{
	quant_logq_format bits = quant_logq_of(f);
	qmat q;
	float *w = malloc((size_t)cols * sizeof *w);
	q.codes = malloc((size_t)rows * cols);
	q.packed = malloc(format_matrix_code_bytes(f, rows, cols));
	q.factor = malloc((size_t)rows * sizeof *q.factor);
	assert_non_null(w);
	assert_non_null(q.codes);
	assert_non_null(q.packed);
	assert_non_null(q.factor);
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < cols; c++)
			w[c] = next_gaussian(&seed);
		uint8_t *codes = q.codes + (size_t)r * cols;
		q.factor[r] = f == FORMAT_I8 ? quant_i8_quantize_row(w, cols, codes)
					     : quant_logq_quantize_row(bits, w, cols, codes) / quant_logq_table(bits)[0];
	}
	quant_q_layout(f, rows, cols, q.codes, q.packed);
	q.W = (quant_matrix){ .format = f, .rows = rows, .cols = cols, .data = q.packed, .row_factor = q.factor };
	free(w);
	return q;
}

static void free_qmat(qmat *q)
{
	free(q->codes);
	free(q->packed);
	free(q->factor);
}

/* What any q8/q4 kernel must return, bit for bit: the integer sum over the
 * row-major codes, then the one rescale. xq/xs: the input as quantized by
 * quant_quantize_x. */
static float expected_output(const qmat *q, int r, const int8_t *xq, float xs, const float *bias)
{
	int32_t sum = 0;
	for (int c = 0; c < q->W.cols; c++)
		sum += quant_q_level(q->W.format, q->codes[(size_t)r * q->W.cols + c]) * xq[c];
	float y = (float)sum * (q->factor[r] * xs);
	return bias ? y + bias[r] : y;
}

/* Quantize one matrix (the slow part) and check every implementation given
 * on it. */
static void check_qmatmul(const quant_qdot *const *qdots, int n_qdots, format_encoding f, int rows, int cols, int n)
{
	uint32_t seed = (uint32_t)(rows * 131 + cols * 7 + n + f);
	qmat q = make_qmat(f, rows, cols, seed);
	int ldx = cols + 3, ldy = rows + 2;
	float *x = malloc((size_t)n * ldx * sizeof *x), *bias = malloc((size_t)rows * sizeof *bias);
	float *y = malloc((size_t)n * ldy * sizeof *y), *yr = malloc((size_t)n * rows * sizeof *yr);
	int32_t *sel = malloc((size_t)rows * sizeof *sel);
	float *row = malloc((size_t)cols * sizeof *row);
	assert_non_null(x);
	assert_non_null(bias);
	assert_non_null(y);
	assert_non_null(yr);
	assert_non_null(sel);
	assert_non_null(row);
	for (size_t i = 0; i < (size_t)n * ldx; i++)
		x[i] = 10 * next_gaussian(&seed);
	for (int r = 0; r < rows; r++) {
		bias[r] = next_gaussian(&seed);
		sel[r] = rows - 1 - r;          /* every row, backwards */
	}
	int padded = format_matrix_padded_cols(f, cols);
	int8_t *xq = malloc((size_t)padded);
	float *want = malloc((size_t)n * rows * sizeof *want);
	assert_non_null(xq);
	assert_non_null(want);
	for (int i = 0; i < n; i++) {
		float xs = quant_quantize_x(x + (size_t)i * ldx, cols, padded, xq);
		for (int r = 0; r < rows; r++)
			want[(size_t)i * rows + r] = expected_output(&q, r, xq, xs, NULL);
	}
	quant_kscratch k;
	for (int d = 0; d < n_qdots; d++) {
		assert_int_equal(quant_kscratch_init(&k, cols, qdots[d]), 0);
		quant_matmul(&q.W, x, n, ldx, bias, y, ldy, &k);
		quant_matmul_rows(&q.W, sel, rows, x, n, ldx, NULL, yr, rows, &k);
		for (int i = 0; i < n; i++)
			for (int r = 0; r < rows; r++) {
				assert_true(y[(size_t)i * ldy + r] == want[(size_t)i * rows + r] + bias[r]);
				assert_true(yr[(size_t)i * rows + (rows - 1 - r)] == want[(size_t)i * rows + r]);
			}
		/* the same rows gathered into a matrix of their own */
		uint8_t *gcodes = malloc(quant_matrix_gather_bytes(&q.W, rows));
		float *gfactors = malloc((size_t)rows * sizeof *gfactors);
		assert_non_null(gcodes);
		assert_non_null(gfactors);
		quant_matrix G;
		quant_matrix_gather(&q.W, sel, rows, gcodes, gfactors, &G);
		quant_matmul(&G, x, n, ldx, NULL, yr, rows, &k);
		for (int i = 0; i < n; i++)
			for (int r = 0; r < rows; r++)
				assert_true(yr[(size_t)i * rows + (rows - 1 - r)] == want[(size_t)i * rows + r]);
		free(gcodes);
		free(gfactors);
		quant_kscratch_free(&k);
	}
	free(xq);
	free(want);
	for (int r = 0; r < rows; r++) {
		quant_matrix_row(&q.W, r, row);
		for (int c = 0; c < cols; c++) {
			float want = (float)quant_q_level(f, q.codes[(size_t)r * cols + c]) * q.factor[r];
			assert_true(fabsf(row[c] - want) <= 1e-6f * fabsf(want));
		}
	}
	free_qmat(&q);
	free(x);
	free(bias);
	free(y);
	free(yr);
	free(sel);
	free(row);
}

/* Every implementation this CPU runs, into qdots[6]; returns how many. */
static int available_qdots(const quant_qdot **qdots)
{
	const char *names[] = { "scalar", "avx2", "avx512", "avx512-vbmi", "neon", "neon-dotprod" };
	int n_qdots = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if ((qdots[n_qdots] = quant_qdot_select(names[i])) != NULL)
			n_qdots++;
		else
			print_message("%s: not supported here, skipped\n", names[i]);
	}
	return n_qdots;
}

/* Every implementation this CPU runs gives exactly the reference integers. */
static void test_qmatmul_odd_sizes(void **state)
{
	(void)state;
	const quant_qdot *qdots[6];
	int n_qdots = available_qdots(qdots);
	for (int f = 0; f < N_QFORMATS; f++)
		for (int a = 0; a < N_SIZES; a++)
			for (int b = 0; b < N_SIZES; b++)
				check_qmatmul(qdots, n_qdots, QFORMATS[f], SIZES[a], SIZES[b], a == b ? 11 : 2);
	for (int d = 0; d < n_qdots; d++)
		print_message("%s: exact on all sizes\n", qdots[d]->name);
}

/* i8's part of test_every_code: one panel (rows <= 16) against 1..4 of the
 * inputs xq3 (xq, -xq, xq, -xq; cols each). */
static void check_every_i8_code(const quant_qdot *q, const uint8_t *codes, const uint8_t *packed, int rows, int cols,
				const int8_t *xq3)
{
	int chunks = quant_chunks_per_row(FORMAT_I8, cols);
	for (int nb = 1; nb <= QUANT_PANEL_INPUTS; nb++) {
		int32_t sums[QUANT_PANEL_INPUTS * FORMAT_I8_PANEL_ROWS];
		q->i8_block(packed, 1, chunks, xq3, (size_t)cols, nb, sums, FORMAT_I8_PANEL_ROWS);
		for (int r = 0; r < rows; r++) {
			int32_t want = 0;
			for (int c = 0; c < cols; c++)
				want += quant_q_level(FORMAT_I8, codes[r * cols + c]) * xq3[c];
			for (int b = 0; b < nb; b++)
				assert_int_equal(sums[b * FORMAT_I8_PANEL_ROWS + r], b % 2 ? -want : want);
		}
	}
}

/* Every code of every format, in every column position of a chunk, against
 * activations of both signs and the extremes: each implementation's dot
 * products equal the level table's sums (the AVX2 q8 kernel computes its
 * levels instead of looking them up, so every code must be seen). */
static void test_every_code(void **state)
{
	(void)state;
	const quant_qdot *qdots[6];
	int n_qdots = available_qdots(qdots);
	enum { ROWS = 8, COLS = 512 };
	static uint8_t codes[ROWS * COLS], packed[FORMAT_I8_PANEL_ROWS * COLS];
	static int8_t xq[COLS], xq3[QUANT_PANEL_INPUTS * COLS];
	for (int f = 0; f < N_QFORMATS; f++) {
		format_encoding fmt = QFORMATS[f];
		int n_codes = FORMAT_IS_4BIT(fmt) ? 16 : 256;
		for (int r = 0; r < ROWS; r++)
			for (int c = 0; c < COLS; c++)
				codes[r * COLS + c] = (uint8_t)((c * 7 + r * 37) % n_codes);
		quant_q_layout(fmt, ROWS, COLS, codes, packed);
		for (int c = 0; c < COLS; c++)
			xq[c] = (int8_t)(c % 5 == 0 ? 127 : c % 5 == 1 ? -127 : (c * 13) % 255 - 127);
		for (int b = 0; b < QUANT_PANEL_INPUTS; b++)
			for (int c = 0; c < COLS; c++)
				xq3[b * COLS + c] = (int8_t)(b % 2 ? -xq[c] : xq[c]);
		int chunks = quant_chunks_per_row(fmt, COLS);
		for (int d = 0; d < n_qdots; d++) {
			if (fmt == FORMAT_I8) {
				check_every_i8_code(qdots[d], codes, packed, ROWS, COLS, xq3);
				continue;
			}
			for (int r = 0; r < ROWS; r++) {
				int32_t want = 0, panel[FORMAT_PANEL_ROWS];
				for (int c = 0; c < COLS; c++)
					want += quant_q_level(fmt, codes[r * COLS + c]) * xq[c];
				const uint8_t *row = packed + quant_chunk_offset(fmt, COLS, r, 0);
				assert_int_equal(dot_of(qdots[d], fmt)(row, chunks, xq), want);
				const uint8_t *p = packed + quant_chunk_offset(fmt, COLS, r - r % FORMAT_PANEL_ROWS, 0);
				panel_of(qdots[d], fmt)(p, chunks, xq, panel);
				assert_int_equal(panel[r % FORMAT_PANEL_ROWS], want);
				/* several inputs: xq, then -xq, then xq again */
				multi_fn multi = multi_of(qdots[d], fmt);
				if (!multi)
					continue;
				for (int nb = 1; nb <= QUANT_PANEL_INPUTS; nb++) {
					int32_t outs[QUANT_PANEL_INPUTS * FORMAT_PANEL_ROWS];
					multi(p, chunks, xq3, COLS, nb, outs);
					for (int b = 0; b < nb; b++)
						assert_int_equal(outs[b * FORMAT_PANEL_ROWS + r % FORMAT_PANEL_ROWS],
								 b % 2 ? -want : want);
				}
			}
		}
	}
}

/* Random bytes (codes of either format, or activations). */
static void fill_bytes(uint8_t *p, size_t n, uint32_t *seed)
{
	for (size_t i = 0; i < n; i++) {
		*seed = *seed * 1664525u + 1013904223u;
		p[i] = (uint8_t)(*seed >> 24);
	}
}

/* One block call against the scalar dot products: `panels` panels of
 * `chunks` random chunks (every code value appears), nb inputs of random
 * int8 with the extremes -128 excluded (quant_quantize_x never makes it),
 * strides wider than the rows, and a marker around the sums that must stay. */
static void check_block(const quant_qdot *q, format_encoding f, int panels, int chunks, int nb, uint32_t seed)
{
	enum { MARK = 0x5A5A5A5A };
	block_fn block = block_of(q, f);
	int panel_rows = FORMAT_PANEL_ROWS_OF(f), cols = chunks * quant_chunk_cols(f), rows = panels * panel_rows;
	size_t row_bytes = (size_t)chunks * FORMAT_CHUNK_BYTES * (FORMAT_IS_4BIT(f) ? 2 : 1);
	size_t stride = row_bytes + 64 * (size_t)(seed % 3), ld = (size_t)rows + 5;
	size_t code_bytes = (size_t)rows * chunks * FORMAT_CHUNK_BYTES;
	uint8_t *codes = malloc(code_bytes);
	int8_t *xq = malloc(stride * (size_t)nb);
	int32_t *sums = malloc(sizeof(int32_t) * ld * (size_t)nb);
	assert_true(codes && xq && sums);
	fill_bytes(codes, code_bytes, &seed);
	fill_bytes((uint8_t *)xq, stride * (size_t)nb, &seed);
	for (size_t i = 0; i < stride * (size_t)nb; i++)
		if (xq[i] == -128 || (seed & 7) == 0)   /* one call in eight: the extremes only */
			xq[i] = xq[i] < 0 ? -127 : 127;
	for (size_t i = 0; i < ld * (size_t)nb; i++)
		sums[i] = MARK;
	block(codes, panels, chunks, xq, stride, nb, sums, ld);
	/* the reference: the scalar kernel's row dot products (q8, q4) or its
	 * block function (i8, checked element by element in test_every_code) */
	int32_t *want = malloc(sizeof(int32_t) * ld * (size_t)nb);
	assert_non_null(want);
	if (f == FORMAT_I8)
		quant_qdot_scalar.i8_block(codes, panels, chunks, xq, stride, nb, want, ld);
	else
		for (int b = 0; b < nb; b++)
			for (int r = 0; r < rows; r++)
				want[(size_t)b * ld + r] = dot_of(&quant_qdot_scalar, f)(
					codes + quant_chunk_offset(f, cols, r, 0), chunks, xq + (size_t)b * stride);
	for (int b = 0; b < nb; b++) {
		for (int r = 0; r < rows; r++)
			assert_int_equal(sums[(size_t)b * ld + r], want[(size_t)b * ld + r]);
		for (size_t r = (size_t)rows; r < ld; r++)
			assert_int_equal(sums[(size_t)b * ld + r], MARK);
	}
	free(codes);
	free(xq);
	free(sums);
	free(want);
}

/* Every ISA's block functions (qdot.h's q4_block, q8_block, i8_block) give the
 * scalar kernel's integers for 1..QUANT_KBATCH inputs, odd and large panel
 * and chunk counts. */
static void test_block_kernels(void **state)
{
	(void)state;
	static const int panels[] = { 1, 2, 3, 7, 64 }, chunks[] = { 1, 2, 3, 4, 8, 17, 65 };
	const quant_qdot *qdots[6];
	int n_qdots = available_qdots(qdots);
	for (int d = 0; d < n_qdots; d++)
		for (int f = 0; f < N_QFORMATS; f++) {
			format_encoding fmt = QFORMATS[f];
			/* (the scalar i8 block is the reference here; test_every_code
			 * and the odd sizes check it against the integer sums) */
			if (!block_of(qdots[d], fmt) || (fmt == FORMAT_I8 && qdots[d] == &quant_qdot_scalar))
				continue;
			for (size_t p = 0; p < sizeof panels / sizeof panels[0]; p++)
				for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
					for (int nb = 1; nb <= QUANT_KBATCH; nb++)
						check_block(qdots[d], fmt, panels[p], chunks[c], nb,
							    (uint32_t)(p * 1000 + c * 10 + (size_t)nb));
			print_message("%s %s_block: exact\n", qdots[d]->name, format_encoding_name(fmt));
		}
}

/* The f32 products of every implementation equal the scalar reference's bit
 * for bit (the summation order is fixed: quant/f32_scalar.c), whole matrix
 * and shortlist rows, one input and several. */
static void check_f32_matmul(const quant_qdot *const *qdots, int n_qdots, int rows, int cols, int n)
{
	uint32_t seed = (uint32_t)(rows * 17 + cols * 3 + n);
	int ldx = cols + 1, ldy = rows + 3;
	float *w = malloc((size_t)rows * cols * sizeof *w), *x = malloc((size_t)n * ldx * sizeof *x);
	float *bias = malloc((size_t)rows * sizeof *bias);
	float *want = malloc((size_t)n * ldy * sizeof *want), *y = malloc((size_t)n * ldy * sizeof *y);
	float *want_rows = malloc((size_t)n * rows * sizeof *want_rows), *yr = malloc((size_t)n * rows * sizeof *yr);
	int32_t *sel = malloc((size_t)rows * sizeof *sel);
	assert_true(w && x && bias && want && y && want_rows && yr && sel);
	for (size_t i = 0; i < (size_t)rows * cols; i++)
		w[i] = next_gaussian(&seed);
	for (size_t i = 0; i < (size_t)n * ldx; i++)
		x[i] = next_gaussian(&seed);
	for (int r = 0; r < rows; r++) {
		bias[r] = next_gaussian(&seed);
		sel[r] = (int32_t)(((size_t)r * 7) % (size_t)rows);   /* a permutation when rows % 7 != 0 */
	}
	quant_matrix W = { .format = FORMAT_F32, .rows = rows, .cols = cols, .data = w };
	quant_matmul(&W, x, n, ldx, bias, want, ldy, NULL);
	quant_matmul_rows(&W, sel, rows, x, n, ldx, NULL, want_rows, rows, NULL);
	for (int d = 0; d < n_qdots; d++) {
		quant_kscratch k;
		assert_int_equal(quant_kscratch_init(&k, cols, qdots[d]), 0);
		quant_matmul(&W, x, n, ldx, bias, y, ldy, &k);
		quant_matmul_rows(&W, sel, rows, x, n, ldx, NULL, yr, rows, &k);
		for (int i = 0; i < n; i++)
			for (int r = 0; r < rows; r++) {
				assert_memory_equal(&y[(size_t)i * ldy + r], &want[(size_t)i * ldy + r], sizeof(float));
				assert_memory_equal(&yr[(size_t)i * rows + r], &want_rows[(size_t)i * rows + r], sizeof(float));
			}
		quant_kscratch_free(&k);
	}
	free(w);
	free(x);
	free(bias);
	free(want);
	free(y);
	free(want_rows);
	free(yr);
	free(sel);
}

static void test_f32_matmul_bit_identical(void **state)
{
	(void)state;
	const quant_qdot *qdots[6];
	int n_qdots = available_qdots(qdots);
	for (int a = 0; a < N_SIZES; a++)
		for (int b = 0; b < N_SIZES; b++)
			check_f32_matmul(qdots, n_qdots, SIZES[a], SIZES[b], a == b ? 9 : 2);
	for (int d = 0; d < n_qdots; d++)
		print_message("%s f32: bit-identical to scalar on all sizes\n", qdots[d]->name);
}

static void test_level_tables(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++)
		assert_int_equal(quant_q8_levels[c], quant_q_level(FORMAT_Q8, (uint8_t)c));
	for (int c = 0; c < 16; c++) {
		assert_int_equal(quant_q4_levels[c], quant_q_level(FORMAT_Q4, (uint8_t)c));
		assert_int_equal(quant_q4n_levels[c], quant_q_level(FORMAT_Q4N, (uint8_t)c));
		assert_int_equal(quant_q4n_levels[c], (c & 8 ? -1 : 1) * quant_logq_table(QUANT_LOGQ_4N)[c & 7]);
	}
	for (int c = 0; c < 256; c++)
		assert_int_equal(c < 128 ? c : c - 256, quant_q_level(FORMAT_I8, (uint8_t)c));
	for (int f = 0; f < N_QFORMATS; f++)
		assert_int_equal(quant_q_level(QFORMATS[f], quant_zero_code(QFORMATS[f])), 0);
	assert_null(quant_qdot_select("bogus"));
	assert_non_null(quant_qdot_select(NULL));
}

/* The quantized product approximates the float one: relative error of
 * the output vector within the formats' weight error plus int8 rounding. */
static void test_qmatmul_accuracy(void **state)
{
	(void)state;
	const int rows = 64, cols = 255;
	for (int f = 0; f < N_QFORMATS; f++) {
		format_encoding fmt = QFORMATS[f];
		uint32_t seed = 99;
		qmat q = make_qmat(fmt, rows, cols, seed);
		/* the same weights again (same seed), unquantized */
		float *w = malloc((size_t)rows * cols * sizeof *w), x[255], y[64];
		assert_non_null(w);
		for (size_t i = 0; i < (size_t)rows * cols; i++)
			w[i] = next_gaussian(&seed);
		for (int c = 0; c < cols; c++)
			x[c] = next_gaussian(&seed);
		quant_kscratch k;
		assert_int_equal(quant_kscratch_init(&k, cols, quant_qdot_select(NULL)), 0);
		quant_matmul(&q.W, x, 1, cols, NULL, y, rows, &k);
		double err = 0, energy = 0;
		for (int r = 0; r < rows; r++) {
			double want = 0;
			for (int c = 0; c < cols; c++)
				want += (double)w[(size_t)r * cols + c] * x[c];
			err += (y[r] - want) * (y[r] - want);
			energy += want * want;
		}
		double rel = sqrt(err / energy);
		print_message("%s product: relative rms error %.4f\n", format_encoding_name(fmt), rel);
		assert_true(rel < (fmt == FORMAT_Q4 ? 0.3 : fmt == FORMAT_Q4N ? 0.15 : 0.03));
		quant_kscratch_free(&k);
		free_qmat(&q);
		free(w);
	}
}

/* The activation quantizer rounds x * 127 / max|x| to nearest, ties to
 * even (lrintf's rule), including exact ties; any NaN or infinity makes the
 * whole row zero rather than garbage integers. */
static void test_quantize_x(void **state)
{
	(void)state;
	float x[37];
	int8_t xq[48];
	uint32_t seed = 99;

	for (int trial = 0; trial < 200; trial++) {
		for (int c = 0; c < 37; c++)
			x[c] = 5 * next_gaussian(&seed);
		if (trial % 2)   /* amax 127: every multiple of 0.5 is representable, so ties happen */
			for (int c = 0; c < 37; c++)
				x[c] = (c == 0 ? 127.0f : (float)((int)(x[c] * 8) % 254) / 2);
		float s = quant_quantize_x(x, 37, 48, xq);
		float amax = 0;
		for (int c = 0; c < 37; c++)
			amax = fabsf(x[c]) > amax ? fabsf(x[c]) : amax;
		assert_true(s == amax / 127.0f);
		for (int c = 0; c < 37; c++)
			assert_int_equal(xq[c], (int8_t)lrintf(x[c] * (127.0f / amax)));
		for (int c = 37; c < 48; c++)
			assert_int_equal(xq[c], 0);
	}
	x[5] = NAN;
	assert_true(quant_quantize_x(x, 37, 48, xq) == 0);
	for (int c = 0; c < 48; c++)
		assert_int_equal(xq[c], 0);
	x[5] = -INFINITY;
	assert_true(quant_quantize_x(x, 37, 48, xq) == 0);
	for (int c = 0; c < 48; c++)
		assert_int_equal(xq[c], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_quantize_x),
		cmocka_unit_test(test_q8_rows),
		cmocka_unit_test(test_q4_rows),
		cmocka_unit_test(test_q4n_rows),
		cmocka_unit_test(test_zero_row),
		cmocka_unit_test(test_exact_levels),
		cmocka_unit_test(test_level_tables),
		cmocka_unit_test(test_every_code),
		cmocka_unit_test(test_block_kernels),
		cmocka_unit_test(test_f32_matmul_bit_identical),
		cmocka_unit_test(test_qmatmul_odd_sizes),
		cmocka_unit_test(test_qmatmul_accuracy),
	};
	return cmocka_run_group_tests_name("quant", tests, NULL, NULL);
}
