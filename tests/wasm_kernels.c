/* The WebAssembly SIMD kernels (quant/q_wasm.c, "wasm-simd128") against the
 * scalar reference, in the wasm build itself (cmocka has no wasm32 build):
 * like tests/test_quant.c's test_every_code, test_block_kernels and f32
 * products, every q4, q8 and i8 code value in every position against
 * activations of both signs and the extremes, random blocks of odd and
 * large panel and chunk counts against 1..QUANT_KBATCH inputs, and the f32
 * rows bit for bit. make wasm-kernels builds build/wasm/wasm_kernels.wasm;
 * tests/e2e/wasm.sh runs it under node (NMT_WASM=... wasm/nmt.mjs). Prints
 * one line per kernel and the count of mismatches, and exits 1 on any. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../quant/logquant.h"
#include "../quant/matrix.h"
#include "../quant/qdot.h"
#include "../quant/qlayout.h"

static long checks, failures;

static void expect(int32_t got, int32_t want, const char *what, int a, int b, int c)
{
	checks++;
	if (got != want && failures++ < 20)
		fprintf(stderr, "MISMATCH %s (%d, %d, %d): %d, want %d\n", what, a, b, c, got, want);
}

static uint32_t next(uint32_t *seed)
{
	*seed = *seed * 1664525u + 1013904223u;
	return *seed >> 8;
}

static void fill_bytes(uint8_t *p, size_t n, uint32_t *seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(next(seed) >> 16);
}

static const format_encoding FORMATS[] = { FORMAT_Q4, FORMAT_Q8, FORMAT_I8, FORMAT_Q4N };

typedef int32_t (*dot_fn)(const uint8_t *, int, const int8_t *);
typedef void (*panel_fn)(const uint8_t *, int, const int8_t *, int32_t *);
typedef void (*block_fn)(const uint8_t *, int, int, const int8_t *, size_t, int, int32_t *, size_t);

/* q8, q4, q4n: i8 has block functions alone */
static dot_fn dot_of(const quant_qdot *q, format_encoding f)
{
	return f == FORMAT_Q4 ? q->q4 : f == FORMAT_Q4N ? q->q4n : q->q8;
}

static panel_fn panel_of(const quant_qdot *q, format_encoding f)
{
	return f == FORMAT_Q4 ? q->q4_panel : f == FORMAT_Q4N ? q->q4n_panel : q->q8_panel;
}

static block_fn block_of(const quant_qdot *q, format_encoding f)
{
	return f == FORMAT_Q4 ? q->q4_block : f == FORMAT_Q4N ? q->q4n_block : f == FORMAT_Q8 ? q->q8_block : q->i8_block;
}

/* Every code of every format in every column position (test_quant.c's
 * test_every_code): row dot, panel and block (1..QUANT_KBATCH inputs:
 * xq, -xq, xq, ...) equal the level table's sums. */
static void every_code(const quant_qdot *q)
{
	enum { ROWS = 8, COLS = 512 };
	static uint8_t codes[ROWS * COLS], packed[FORMAT_I8_PANEL_ROWS * COLS];
	static int8_t xq[QUANT_KBATCH * COLS];
	for (size_t fi = 0; fi < sizeof FORMATS / sizeof FORMATS[0]; fi++) {
		format_encoding f = FORMATS[fi];
		long before = failures;
		int n_codes = FORMAT_IS_4BIT(f) ? 16 : 256;
		memset(packed, 0, sizeof packed);
		for (int r = 0; r < ROWS; r++)
			for (int c = 0; c < COLS; c++)
				codes[r * COLS + c] = (uint8_t)((c * 7 + r * 37) % n_codes);
		quant_q_layout(f, ROWS, COLS, codes, packed);
		for (int c = 0; c < COLS; c++)
			xq[c] = (int8_t)(c % 5 == 0 ? 127 : c % 5 == 1 ? -127 : (c * 13) % 255 - 127);
		for (int b = 1; b < QUANT_KBATCH; b++)
			for (int c = 0; c < COLS; c++)
				xq[b * COLS + c] = (int8_t)(b % 2 ? -xq[c] : xq[c]);
		int chunks = quant_chunks_per_row(f, COLS), prows = FORMAT_PANEL_ROWS_OF(f);
		int32_t want[ROWS], sums[QUANT_KBATCH * FORMAT_I8_PANEL_ROWS];
		for (int r = 0; r < ROWS; r++) {
			want[r] = 0;
			for (int c = 0; c < COLS; c++)
				want[r] += quant_q_level(f, codes[r * COLS + c]) * xq[c];
		}
		if (f != FORMAT_I8)
			for (int r = 0; r < ROWS; r++) {
				int32_t panel[FORMAT_PANEL_ROWS];
				const uint8_t *row = packed + quant_chunk_offset(f, COLS, r, 0);
				const uint8_t *p = packed + quant_chunk_offset(f, COLS, r - r % FORMAT_PANEL_ROWS, 0);
				expect(dot_of(q, f)(row, chunks, xq), want[r], "dot", (int)f, r, 0);
				panel_of(q, f)(p, chunks, xq, panel);
				expect(panel[r % FORMAT_PANEL_ROWS], want[r], "panel", (int)f, r, 0);
			}
		block_fn block = block_of(q, f);
		int ld = prows > ROWS ? prows : ROWS;   /* one panel of i8, two of q4/q8 */
		if (block)
			for (int nb = 1; nb <= QUANT_KBATCH; nb++) {
				block(packed, ld / prows, chunks, xq, COLS, nb, sums, (size_t)ld);
				for (int b = 0; b < nb; b++)
					for (int r = 0; r < ROWS; r++)
						expect(sums[b * ld + r], b % 2 ? -want[r] : want[r], "every-code block",
						       (int)f, nb, r);
			}
		printf("%s %s: every code %s\n", q->name, format_encoding_name(f),
		       failures == before ? "exact" : "MISMATCH");
	}
}

/* One block call against the scalar row dot products (q8, q4) or the scalar
 * block (i8): random codes, activations without -128 (quant_quantize_x never
 * makes it; one call in eight only the extremes), a stride wider than the
 * rows, and a marker past the sums that must stay. */
static void check_block(const quant_qdot *q, format_encoding f, int panels, int chunks, int nb, uint32_t seed)
{
	enum { MARK = 0x5A5A5A5A };
	int prows = FORMAT_PANEL_ROWS_OF(f), cols = chunks * quant_chunk_cols(f), rows = panels * prows;
	size_t row_bytes = (size_t)chunks * FORMAT_CHUNK_BYTES * (FORMAT_IS_4BIT(f) ? 2 : 1);
	size_t stride = row_bytes + 64 * (size_t)(seed % 3), ld = (size_t)rows + 5;
	size_t code_bytes = (size_t)rows * chunks * FORMAT_CHUNK_BYTES;
	uint8_t *codes = malloc(code_bytes);
	int8_t *xq = malloc(stride * (size_t)nb);
	int32_t *sums = malloc(sizeof(int32_t) * ld * (size_t)nb), *want = malloc(sizeof(int32_t) * ld * (size_t)nb);
	if (!codes || !xq || !sums || !want) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	fill_bytes(codes, code_bytes, &seed);
	fill_bytes((uint8_t *)xq, stride * (size_t)nb, &seed);
	int extremes = (seed & 7) == 0;
	for (size_t i = 0; i < stride * (size_t)nb; i++)
		if (xq[i] == -128 || extremes)
			xq[i] = xq[i] < 0 ? -127 : 127;
	for (size_t i = 0; i < ld * (size_t)nb; i++)
		sums[i] = MARK;
	block_of(q, f)(codes, panels, chunks, xq, stride, nb, sums, ld);
	if (f == FORMAT_I8)
		quant_qdot_scalar.i8_block(codes, panels, chunks, xq, stride, nb, want, ld);
	else
		for (int b = 0; b < nb; b++)
			for (int r = 0; r < rows; r++)
				want[(size_t)b * ld + r] = dot_of(&quant_qdot_scalar, f)(
					codes + quant_chunk_offset(f, cols, r, 0), chunks, xq + (size_t)b * stride);
	for (int b = 0; b < nb; b++) {
		for (int r = 0; r < rows; r++)
			expect(sums[(size_t)b * ld + r], want[(size_t)b * ld + r], "block", panels, chunks, nb);
		for (size_t r = (size_t)rows; r < ld; r++)
			expect(sums[(size_t)b * ld + r], MARK, "block marker", panels, chunks, nb);
	}
	/* the row and panel functions on the same codes, first input */
	if (f != FORMAT_I8)
		for (int r = 0; r < rows; r += FORMAT_PANEL_ROWS) {
			int32_t panel[FORMAT_PANEL_ROWS];
			const uint8_t *p = codes + quant_chunk_offset(f, cols, r, 0);
			panel_of(q, f)(p, chunks, xq, panel);
			for (int k = 0; k < FORMAT_PANEL_ROWS; k++) {
				expect(panel[k], want[r + k], "panel", panels, chunks, r + k);
				expect(dot_of(q, f)(p + k * FORMAT_CHUNK_BYTES, chunks, xq), want[r + k], "dot", panels, chunks,
				       r + k);
			}
		}
	free(codes);
	free(xq);
	free(sums);
	free(want);
}

static void blocks(const quant_qdot *q)
{
	static const int panels[] = { 1, 2, 3, 7, 64 }, chunks[] = { 1, 2, 3, 4, 8, 17, 65 };
	for (size_t fi = 0; fi < sizeof FORMATS / sizeof FORMATS[0]; fi++) {
		format_encoding f = FORMATS[fi];
		long before = failures;
		if (!block_of(q, f)) {
			printf("%s %s_block: none (the driver uses the panels)\n", q->name, format_encoding_name(f));
			continue;
		}
		for (size_t p = 0; p < sizeof panels / sizeof panels[0]; p++)
			for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
				for (int nb = 1; nb <= QUANT_KBATCH; nb++)
					check_block(q, f, panels[p], chunks[c], nb, (uint32_t)(p * 1000 + c * 10 + (size_t)nb));
		printf("%s %s_block, panel, dot: random blocks %s\n", q->name, format_encoding_name(f),
		       failures == before ? "exact" : "MISMATCH");
	}
}

/* f32 rows: bit-identical to quant_f32_rows_scalar for every column count
 * up to 80 and some wide ones, values of mixed signs and magnitudes. */
static void f32_rows(const quant_qdot *q)
{
	enum { MAXC = 1031 };
	static float w[FORMAT_PANEL_ROWS][MAXC], x[MAXC];
	uint32_t seed = 12345;
	long before = failures;
	for (int cols = 0; cols <= MAXC; cols = cols < 80 ? cols + 1 : cols * 2 + 1) {
		if (cols > MAXC)
			cols = MAXC;
		for (int rep = 0; rep < 3; rep++) {
			for (int c = 0; c < cols; c++) {
				for (int r = 0; r < FORMAT_PANEL_ROWS; r++)
					w[r][c] = ((float)(int32_t)(next(&seed) & 0xFFFFF) - 524288.0f) * (1.0f / 65536.0f) *
						  (float)(1 << (next(&seed) % 8));
				x[c] = ((float)(int32_t)(next(&seed) & 0xFFFFF) - 524288.0f) * 1e-5f;
			}
			const float *wr[FORMAT_PANEL_ROWS] = { w[0], w[1], w[2], w[3] };
			float got[FORMAT_PANEL_ROWS], want[FORMAT_PANEL_ROWS];
			q->f32_rows(wr, x, cols, got);
			quant_f32_rows_scalar(wr, x, cols, want);
			for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {
				int32_t g, e;
				memcpy(&g, &got[r], sizeof g);
				memcpy(&e, &want[r], sizeof e);
				expect(g, e, "f32_rows (bits)", cols, rep, r);
			}
		}
		if (cols == MAXC)
			break;
	}
	printf("%s f32_rows: %s\n", q->name, failures == before ? "bit-identical" : "MISMATCH");
}

int main(void)
{
	const char *name = getenv("NMT_KERNELS");
	const quant_qdot *q = quant_qdot_select(name && *name ? name : "wasm-simd128");
	if (!q) {
		fprintf(stderr, "wasm_kernels: no kernels %s in this build\n", name && *name ? name : "wasm-simd128");
		return 1;
	}
	if (quant_qdot_select(NULL) != q)
		printf("note: the default kernels are %s\n", quant_qdot_select(NULL)->name);
	every_code(q);
	blocks(q);
	f32_rows(q);
	if (q->ew != quant_qdot_scalar.ew)
		printf("note: %s has its own element-wise table\n", q->name);
	printf("%s: %ld checks, %ld mismatches\n", q->name, checks, failures);
	return failures ? 1 : 0;
}
