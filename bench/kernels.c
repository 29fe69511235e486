/* Kernel throughput at the default model's real shapes, for every format
 * (f32, q8, q4, i8) and every implementation this CPU runs, next to the
 * machine's measured peak. Run by bench/kernels.sh (`make bench-kernels`).
 *
 * GOP/s counts a multiply-add as two operations, for every format, over the
 * useful rows x cols (padding not counted). Peaks come from loops of
 * independent register-only instructions: f32 FMA (what no kernel here
 * uses: f32 products keep separate multiply and add for bit-identical
 * results) and int8 dot products (AVX-512 VNNI vpdpbusd, AVX2 vpmaddubsw). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "../quant/matrix.h"
#include "../quant/qdot.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint32_t rng = 12345;

static uint32_t next_random(void)
{
	rng = rng * 1664525u + 1013904223u;
	return rng >> 8;
}

typedef struct {
	const char *name;
	int rows, cols, shortlist;   /* shortlist > 0: quant_matmul_rows over that many random rows */
} shape;

/* The teacher's shapes (the default model before distillation): e = re = r
 * = a = 256, f = 512, 8000 target pieces; the distilled student's, today's
 * default ("student" below): e = 256, re = 128, r = 192, a = 128, f = 256,
 * 8000 target pieces. */
static const shape SHAPES[] = {
	{ "decoder GRU W_ih (3r x e+2re)", 768, 768, 0 },
	{ "decoder GRU W_hh (3r x r)", 768, 256, 0 },
	{ "FC layer (f x f)", 512, 512, 0 },
	{ "output layer, shortlist of 700", 8000, 256, 700 },
	{ "output layer, all 8000 rows", 8000, 256, 0 },
	{ "student projected states (3r x 2re)", 576, 256, 0 },
	{ "student decoder GRU W_hh (3r x r)", 576, 192, 0 },
	{ "student encoder GRU W_hh (3re x re)", 384, 128, 0 },
	{ "student FC layer (f x f)", 256, 256, 0 },
	/* the Transformer-SSRU family's (Firefox's tiny shape, d = 256, FFN 1536) */
	{ "ssru attention projection (d x d)", 256, 256, 0 },
	{ "ssru FFN W1 (ffn x d)", 1536, 256, 0 },
	{ "ssru FFN W2 (d x ffn)", 256, 1536, 0 },
};

static void *checked_malloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	return p;
}

static quant_matrix make_matrix(format_encoding f, int rows, int cols)
{
	quant_matrix W = { .format = f, .rows = rows, .cols = cols };
	if (f == FORMAT_F32) {
		float *w = checked_malloc((size_t)rows * cols * sizeof *w);
		for (size_t i = 0; i < (size_t)rows * cols; i++)
			w[i] = (float)next_random() / 16777216.0f - 0.5f;
		W.data = w;
	} else {
		size_t bytes = format_matrix_code_bytes(f, rows, cols);
		uint8_t *codes = checked_malloc(bytes);
		float *factor = checked_malloc((size_t)rows * sizeof *factor);
		for (size_t i = 0; i < bytes; i++)
			codes[i] = (uint8_t)next_random();
		for (int r = 0; r < rows; r++)
			factor[r] = 1e-3f;
		W.data = codes;
		W.row_factor = factor;
	}
	return W;
}

static void free_matrix(quant_matrix *W)
{
	free((void *)W->data);
	free((void *)W->row_factor);
}

/* Seconds per call, best of three runs of at least 0.2 s each. */
static double time_product(const quant_matrix *W, const shape *s, const int32_t *rows, const float *x, int n,
			   float *y, quant_kscratch *k)
{
	double best = 1e30;
	for (int run = 0; run < 3; run++) {
		long calls = 0;
		double t0 = now(), t;
		do {
			if (s->shortlist)
				quant_matmul_rows(W, rows, s->shortlist, x, n, s->cols, NULL, y, s->shortlist, k);
			else
				quant_matmul(W, x, n, s->cols, NULL, y, s->rows, k);
			calls++;
		} while ((t = now() - t0) < 0.2);
		if (t / (double)calls < best)
			best = t / (double)calls;
	}
	return best;
}

/* only_format: "f32", "q8", "q4" or "i8" to bench that format alone, NULL for all */
static void bench_shapes(const quant_qdot *const *qdots, int n_qdots, const char *only_format)
{
	const int batches[] = { 1, 4, 8, 16 };
	printf("%-32s %-4s %5s", "shape", "fmt", "batch");
	for (int d = 0; d < n_qdots; d++)
		printf(" %18s", qdots[d]->name);
	printf("   (GOP/s)\n");
	for (size_t si = 0; si < sizeof SHAPES / sizeof SHAPES[0]; si++) {
		const shape *s = &SHAPES[si];
		int out_rows = s->shortlist ? s->shortlist : s->rows;
		int32_t *rows = checked_malloc((size_t)(s->shortlist + 1) * sizeof *rows);
		float *x = checked_malloc((size_t)16 * s->cols * sizeof *x);
		float *y = checked_malloc((size_t)16 * out_rows * sizeof *y);
		for (int j = 0; j < s->shortlist; j++)
			rows[j] = (int32_t)(next_random() % (uint32_t)s->rows);
		for (int i = 0; i < 16 * s->cols; i++)
			x[i] = (float)next_random() / 16777216.0f - 0.5f;
		for (int f = FORMAT_F32; f <= FORMAT_I8; f++) {
			const char *format_name = format_encoding_name((format_encoding)f);
			if (only_format && strcmp(only_format, format_name) != 0)
				continue;
			quant_matrix W = make_matrix((format_encoding)f, s->rows, s->cols);
			for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
				int n = batches[b];
				printf("%-32s %-4s %5d", s->name, format_name, n);
				for (int d = 0; d < n_qdots; d++) {
					quant_kscratch k;
					if (quant_kscratch_init(&k, s->cols, qdots[d]) != 0) {
						fprintf(stderr, "bench: out of memory\n");
						exit(1);
					}
					double sec = time_product(&W, s, rows, x, n, y, &k);
					printf(" %18.2f", 2.0 * out_rows * s->cols * n / sec / 1e9);
					quant_kscratch_free(&k);
				}
				printf("\n");
				fflush(stdout);
			}
			free_matrix(&W);
		}
		free(rows);
		free(x);
		free(y);
	}
}

#if defined(__x86_64__)
#define CHAINS 8
#define PEAK_ITERS 20000000L

/* Each loop runs CHAINS independent accumulators, enough to cover the
 * instructions' latency on current cores. The chain loops are unrolled
 * completely (FOR_CHAINS), or gcc keeps the accumulators on the stack and
 * the loop measures store-to-load forwarding instead of the unit. */
#define FOR_CHAINS _Pragma("GCC unroll 8") for (int c = 0; c < CHAINS; c++)
__attribute__((target("avx512f"))) static double peak_fma512(void)
{
	__m512 acc[CHAINS], a = _mm512_set1_ps(1.0000001f), b = _mm512_set1_ps(0.9999999f);
	FOR_CHAINS
		acc[c] = _mm512_set1_ps((float)c);
	double t0 = now();
	for (long i = 0; i < PEAK_ITERS; i++)
		FOR_CHAINS
			acc[c] = _mm512_fmadd_ps(acc[c], a, b);
	double t = now() - t0;
	float sink = 0;
	for (int c = 0; c < CHAINS; c++)
		sink += _mm512_reduce_add_ps(acc[c]);
	if (sink == 12345.0f)
		printf(" ");
	return 2.0 * 16 * CHAINS * PEAK_ITERS / t / 1e9;
}

__attribute__((target("avx2,fma"))) static double peak_fma256(void)
{
	__m256 acc[CHAINS], a = _mm256_set1_ps(1.0000001f), b = _mm256_set1_ps(0.9999999f);
	FOR_CHAINS
		acc[c] = _mm256_set1_ps((float)c);
	double t0 = now();
	for (long i = 0; i < PEAK_ITERS; i++)
		FOR_CHAINS
			acc[c] = _mm256_fmadd_ps(acc[c], a, b);
	double t = now() - t0;
	float sink = 0;
	for (int c = 0; c < CHAINS; c++) {
		float v[8];
		_mm256_storeu_ps(v, acc[c]);
		sink += v[0];
	}
	if (sink == 12345.0f)
		printf(" ");
	return 2.0 * 8 * CHAINS * PEAK_ITERS / t / 1e9;
}

/* vpdpbusd: 16 lanes x 4 u8*s8 products, accumulated in 32 bits. */
__attribute__((target("avx512f,avx512vnni"))) static double peak_vnni512(void)
{
	__m512i acc[CHAINS], a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-2);
	FOR_CHAINS
		acc[c] = _mm512_set1_epi32(c);
	double t0 = now();
	for (long i = 0; i < PEAK_ITERS; i++)
		FOR_CHAINS
			acc[c] = _mm512_dpbusd_epi32(acc[c], a, b);
	double t = now() - t0;
	int sink = 0;
	for (int c = 0; c < CHAINS; c++)
		sink += _mm512_reduce_add_epi32(acc[c]);
	if (sink == 12345)
		printf(" ");
	return 2.0 * 64 * CHAINS * PEAK_ITERS / t / 1e9;
}

/* vpmaddubsw: 32 u8*s8 products summed in pairs (the AVX2 int8 path). */
__attribute__((target("avx2"))) static double peak_maddubs256(void)
{
	__m256i acc[CHAINS], a = _mm256_set1_epi8(3), b = _mm256_set1_epi8(-2);
	FOR_CHAINS
		acc[c] = _mm256_set1_epi16((short)c);
	double t0 = now();
	for (long i = 0; i < PEAK_ITERS; i++)
		FOR_CHAINS
			acc[c] = _mm256_add_epi16(acc[c], _mm256_maddubs_epi16(a, b));
	double t = now() - t0;
	int sink = 0;
	for (int c = 0; c < CHAINS; c++)
		sink += _mm256_extract_epi16(acc[c], 0);
	if (sink == 12345)
		printf(" ");
	return 2.0 * 32 * CHAINS * PEAK_ITERS / t / 1e9;
}

static void bench_peaks(void)
{
	printf("measured peaks, one core (GOP/s, multiply-add = 2):\n");
	if (__builtin_cpu_supports("avx512f"))
		printf("  f32 FMA, AVX-512        %8.1f\n", peak_fma512());
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		printf("  f32 FMA, AVX2           %8.1f\n", peak_fma256());
	if (__builtin_cpu_supports("avx512vnni"))
		printf("  int8 vpdpbusd, AVX-512  %8.1f\n", peak_vnni512());
	if (__builtin_cpu_supports("avx2"))
		printf("  int8 vpmaddubsw, AVX2   %8.1f\n", peak_maddubs256());
}
#else
static void bench_peaks(void)
{
	printf("measured peaks: not implemented for this architecture\n");
}
#endif

/* Usage: kernels [f32|q8|q4]. An implementation with a q8 block function
 * is measured a second time without it ("name,panels": the driver's panel
 * path), to show what the block function buys on the same run. */
int main(int argc, char **argv)
{
	const char *names[] = { "scalar", "avx2", "avx512", "avx512-vbmi", "neon", "neon-dotprod" };
	const quant_qdot *qdots[12];
	static quant_qdot panels_only[6];
	static char panel_names[6][32];
	int n = 0, n_sel = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((qdots[n] = quant_qdot_select(names[i])) != NULL)
			n++;
	n_sel = n;
	for (int d = 0; d < n_sel; d++)
		if (qdots[d]->q8_block) {
			panels_only[d] = *qdots[d];
			panels_only[d].q8_block = NULL;
			snprintf(panel_names[d], sizeof panel_names[d], "%s,panels", qdots[d]->name);
			panels_only[d].name = panel_names[d];
			qdots[n++] = &panels_only[d];
		}
	bench_peaks();
	bench_shapes(qdots, n, argc > 1 ? argv[1] : NULL);
	return 0;
}
