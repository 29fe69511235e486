/* WebAssembly SIMD (simd128) dot products for q8, q4, q4n and i8, and the f32
 * rows (qdot.h), for the wasm32 build (make wasm, -msimd128).
 *
 * q4: i8x16.swizzle looks each nibble up in the 16 signed int8 levels;
 * i16x8.extmul_{low,high}_i8x16 multiply levels and activations exactly
 * into 16 bits, four such products are added in 16 bits (|64 * 127| * 4
 * < 2^15: quant_quantize_x never makes -128) and
 * i32x4.extadd_pairwise_i16x8 widens them into the sums.
 * q8: the 128 magnitudes' low and high bytes are eight 16-byte tables
 * each, looked up with eight swizzles (an index out of 0..15 gives 0, so
 * k - 16t picks table t alone) and interleaved into 16-bit levels; the
 * sign is applied to the levels, and i32x4.dot_i16x8 multiplies them with
 * the widened activations.
 * i8: the bytes are the weights, in panels of 16 rows whose groups of four
 * columns hold each row's four weights side by side (format/weights.h):
 * widened to 16 bits, one i32x4.dot_i16x8 against an input's four
 * activations (repeated) leaves each row's products in two lanes, added
 * pairwise at the end.
 * Every sum is exact, so the results equal the scalar reference's.
 * f32: each row's eight partial sums in two registers, separate multiply
 * and add, reduced in f32_scalar.c's order, so the bits are its bits.
 * The element-wise table is quant_ew_generic, which the wasm build
 * compiles with -msimd128 four lanes wide (ew_generic.c). */
#if defined(__wasm_simd128__)
#include <string.h>
#include <wasm_simd128.h>

#include "matrix.h"
#include "qdot.h"
#include "qunroll.h"

#define CHUNK_STRIDE (FORMAT_PANEL_ROWS * FORMAT_CHUNK_BYTES)
#define TARGET
#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE int32_t hsum(v128_t v)
{
	return wasm_i32x4_extract_lane(v, 0) + wasm_i32x4_extract_lane(v, 1) + wasm_i32x4_extract_lane(v, 2) +
	       wasm_i32x4_extract_lane(v, 3);
}

/* ---- q4 ------------------------------------------------------------------ */

/* 16 code bytes (32 weights: the low nibbles columns j.., the high ones
 * columns 64 + j..) against the activations at x and x + 64. */
ALWAYS_INLINE v128_t q4_mac(v128_t acc, v128_t wl, v128_t wh, const int8_t *x)
{
	v128_t xl = wasm_v128_load(x), xh = wasm_v128_load(x + FORMAT_CHUNK_BYTES);
	v128_t p = wasm_i16x8_add(wasm_i16x8_add(wasm_i16x8_extmul_low_i8x16(wl, xl), wasm_i16x8_extmul_high_i8x16(wl, xl)),
				  wasm_i16x8_add(wasm_i16x8_extmul_low_i8x16(wh, xh), wasm_i16x8_extmul_high_i8x16(wh, xh)));
	return wasm_i32x4_add(acc, wasm_i32x4_extadd_pairwise_i16x8(p));
}

/* One row against NB <= QUANT_KBATCH inputs, out[b * ld]: each 16 code
 * bytes decoded once for all of them. */
ALWAYS_INLINE void q4_row_nb(const int8_t *table, const uint8_t *row, int chunks, const int8_t *xq, size_t stride,
			     const int NB, int32_t *out, size_t ld)
{
	const v128_t levels = wasm_v128_load(table), low = wasm_i8x16_splat(0x0F);
	v128_t acc[QUANT_KBATCH];
	QUANT_FOR_KBATCH(b, NB)
		acc[b] = wasm_i32x4_splat(0);
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		_Pragma("GCC unroll 4") for (int j = 0; j < FORMAT_CHUNK_BYTES; j += 16) {
			v128_t c = wasm_v128_load(row + j);
			v128_t wl = wasm_i8x16_swizzle(levels, wasm_v128_and(c, low));
			v128_t wh = wasm_i8x16_swizzle(levels, wasm_u8x16_shr(c, 4));
			QUANT_FOR_KBATCH(b, NB)
				acc[b] = q4_mac(acc[b], wl, wh, xq + b * stride + j);
		}
	QUANT_FOR_KBATCH(b, NB)
		out[b * ld] = hsum(acc[b]);
}

ALWAYS_INLINE int32_t nibble_dot(const int8_t *table, const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t out;
	q4_row_nb(table, row, chunks, xq, 0, 1, &out, 0);
	return out;
}

ALWAYS_INLINE void nibble_panel(const int8_t *table, const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	QUANT_FOR_PANEL_ROWS(r)
		q4_row_nb(table, panel + r * FORMAT_CHUNK_BYTES, chunks, xq, 0, 1, out + r, 0);
}

/* The block function widens the activations to 16 bits once per block (a
 * tile of Q4_TILE chunks at a time, on the stack) and the decoded levels
 * once per pass of up to four inputs: then a weight costs half an
 * i32x4.dot_i16x8 per input, the cheapest exact product WebAssembly SIMD
 * has (the 8-bit extmuls cost more instructions under V8 than the widening
 * they save). A panel's four rows go side by side, each input's
 * activations loaded once for them, and their sums are added across lanes
 * together (hsum4). test_2016 greedy, one thread: 2.7 s with a row at a
 * time and 8-bit extmuls, 1.4 s so. */
#define Q4_TILE 8
#define Q4_INPUTS 4   /* inputs per pass (q4_block's switch has cases 1 to 4) */
#define Q4_TILE_COLS (Q4_TILE * 2 * FORMAT_CHUNK_BYTES)

/* Four row sums' lanes added into one vector: lane r = the sum of a[r]'s lanes. */
ALWAYS_INLINE v128_t hsum4(v128_t a0, v128_t a1, v128_t a2, v128_t a3)
{
	v128_t t0 = wasm_i32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5), wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7));
	v128_t t1 = wasm_i32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5), wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7));
	return wasm_i32x4_add(wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5), wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
}

/* A panel's `chunks` <= Q4_TILE chunks against NB widened inputs (input b
 * at x16 + b * Q4_TILE_COLS), its four sums added to out[b * ld ..] (set
 * if `first`): the rows side by side, so that each input's activations
 * are loaded once for the four. */
ALWAYS_INLINE void q4_panel16_nb(const int8_t *table, const uint8_t *panel, int chunks, const int16_t *x16,
				 const int NB, int first, int32_t *out, size_t ld)
{
	const v128_t levels = wasm_v128_load(table), low = wasm_i8x16_splat(0x0F);
	v128_t acc[FORMAT_PANEL_ROWS][Q4_INPUTS];
	QUANT_FOR_PANEL_ROWS(r)
		QUANT_FOR_INPUTS(b, NB)
			acc[r][b] = wasm_i32x4_splat(0);
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, x16 += 2 * FORMAT_CHUNK_BYTES)
		for (int j = 0; j < FORMAT_CHUNK_BYTES; j += 16) {
			v128_t x[Q4_INPUTS][4];
			QUANT_FOR_INPUTS(b, NB) {
				const int16_t *xb = x16 + b * Q4_TILE_COLS + j;
				x[b][0] = wasm_v128_load(xb);
				x[b][1] = wasm_v128_load(xb + 8);
				x[b][2] = wasm_v128_load(xb + FORMAT_CHUNK_BYTES);
				x[b][3] = wasm_v128_load(xb + FORMAT_CHUNK_BYTES + 8);
			}
			QUANT_FOR_PANEL_ROWS(r) {
				v128_t c = wasm_v128_load(panel + r * FORMAT_CHUNK_BYTES + j);
				v128_t wl = wasm_i8x16_swizzle(levels, wasm_v128_and(c, low));
				v128_t wh = wasm_i8x16_swizzle(levels, wasm_u8x16_shr(c, 4));
				v128_t w0 = wasm_i16x8_extend_low_i8x16(wl), w1 = wasm_i16x8_extend_high_i8x16(wl);
				v128_t w2 = wasm_i16x8_extend_low_i8x16(wh), w3 = wasm_i16x8_extend_high_i8x16(wh);
				QUANT_FOR_INPUTS(b, NB) {
					v128_t d = wasm_i32x4_add(wasm_i32x4_dot_i16x8(w0, x[b][0]), wasm_i32x4_dot_i16x8(w1, x[b][1]));
					v128_t e = wasm_i32x4_add(wasm_i32x4_dot_i16x8(w2, x[b][2]), wasm_i32x4_dot_i16x8(w3, x[b][3]));
					acc[r][b] = wasm_i32x4_add(acc[r][b], wasm_i32x4_add(d, e));
				}
			}
		}
	QUANT_FOR_INPUTS(b, NB) {
		v128_t s = hsum4(acc[0][b], acc[1][b], acc[2][b], acc[3][b]);
		int32_t *o = out + b * ld;
		wasm_v128_store(o, first ? s : wasm_i32x4_add(wasm_v128_load(o), s));
	}
}

ALWAYS_INLINE void q4_block_nb(const int8_t *table, const uint8_t *codes, int panels, int chunks, const int8_t *xq,
			       size_t stride, const int NB, int32_t *sums, size_t ld)
{
	int16_t x16[Q4_INPUTS * Q4_TILE_COLS] __attribute__((aligned(16)));
	size_t panel_bytes = (size_t)chunks * CHUNK_STRIDE;
	for (int c0 = 0; c0 < chunks; c0 += Q4_TILE) {
		int n = chunks - c0 < Q4_TILE ? chunks - c0 : Q4_TILE;
		QUANT_FOR_INPUTS(b, NB) {
			const int8_t *x = xq + b * stride + (size_t)c0 * 2 * FORMAT_CHUNK_BYTES;
			for (int i = 0; i < n * 2 * FORMAT_CHUNK_BYTES; i += 16) {
				v128_t v = wasm_v128_load(x + i);
				wasm_v128_store(x16 + b * Q4_TILE_COLS + i, wasm_i16x8_extend_low_i8x16(v));
				wasm_v128_store(x16 + b * Q4_TILE_COLS + i + 8, wasm_i16x8_extend_high_i8x16(v));
			}
		}
		for (int p = 0; p < panels; p++)
			q4_panel16_nb(table, codes + p * panel_bytes + (size_t)c0 * CHUNK_STRIDE, n, x16, NB, c0 == 0,
				      sums + p * FORMAT_PANEL_ROWS, ld);
	}
}

ALWAYS_INLINE void nibble_block(const int8_t *table, const uint8_t *codes, int panels, int chunks, const int8_t *xq,
				size_t stride, int nb, int32_t *sums, size_t ld)
{
	for (; nb > 0; nb -= Q4_INPUTS, xq += Q4_INPUTS * stride, sums += Q4_INPUTS * ld)
		switch (nb) {
		case 1: q4_block_nb(table, codes, panels, chunks, xq, stride, 1, sums, ld); break;
		case 2: q4_block_nb(table, codes, panels, chunks, xq, stride, 2, sums, ld); break;
		case 3: q4_block_nb(table, codes, panels, chunks, xq, stride, 3, sums, ld); break;
		default: q4_block_nb(table, codes, panels, chunks, xq, stride, Q4_INPUTS, sums, ld); break;
		}
}

/* The entry points of a 4-bit format (q4, q4n): the code above with its
 * level table. */
#define NIBBLE_ENTRIES(fmt, table)                                                                             \
	static int32_t fmt##_dot(const uint8_t *row, int chunks, const int8_t *xq)                             \
	{                                                                                                    \
		return nibble_dot(table, row, chunks, xq);                                                   \
	}                                                                                                    \
	static void fmt##_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)              \
	{                                                                                                    \
		nibble_panel(table, panel, chunks, xq, out);                                                 \
	}                                                                                                    \
	static void fmt##_block(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, \
				int nb, int32_t *sums, size_t ld)                                             \
	{                                                                                                    \
		nibble_block(table, codes, panels, chunks, xq, stride, nb, sums, ld);                        \
	}

NIBBLE_ENTRIES(q4, quant_q4_levels)
NIBBLE_ENTRIES(q4n, quant_q4n_levels)

/* ---- q8 ------------------------------------------------------------------ */

/* The low and high bytes of quant_q8_levels[0..127] (logquant.c; the
 * tests compare every code with it). */
static const uint8_t q8_lo[128] = {
	0, 82, 172, 13, 116, 226, 86, 209, 80, 214, 96, 239, 131, 28, 185, 91,
	0, 169, 86, 6, 186, 113, 43, 232, 168, 107, 48, 248, 194, 142, 93, 45,
	0, 213, 171, 131, 93, 57, 22, 244, 212, 181, 152, 124, 97, 71, 46, 23,
	0, 234, 214, 194, 175, 156, 139, 122, 106, 91, 76, 62, 48, 36, 23, 11,
	0, 245, 235, 225, 215, 206, 197, 189, 181, 173, 166, 159, 152, 146, 140, 134,
	128, 123, 117, 112, 108, 103, 99, 95, 91, 87, 83, 79, 76, 73, 70, 67,
	64, 61, 59, 56, 54, 52, 49, 47, 45, 43, 41, 40, 38, 36, 35, 33,
	32, 31, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 0
};
static const uint8_t q8_hi[128] = {
	16, 15, 14, 14, 13, 12, 12, 11, 11, 10, 10, 9, 9, 9, 8, 8,
	8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 4,
	4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

typedef struct {
	v128_t lo[8], hi[8];
} q8_table;

ALWAYS_INLINE q8_table q8_load_table(void)
{
	q8_table t;
	for (int i = 0; i < 8; i++) {
		t.lo[i] = wasm_v128_load(q8_lo + 16 * i);
		t.hi[i] = wasm_v128_load(q8_hi + 16 * i);
	}
	return t;
}

/* 16 codes decoded into their signed 16-bit levels (m[0]: the first
 * eight). */
ALWAYS_INLINE void q8_decode16(v128_t codes, const q8_table *t, v128_t m[2])
{
	v128_t idx = wasm_v128_and(codes, wasm_i8x16_splat(0x7F));
	v128_t lo = wasm_i8x16_swizzle(t->lo[0], idx), hi = wasm_i8x16_swizzle(t->hi[0], idx);
	_Pragma("GCC unroll 7") for (int i = 1; i < 8; i++) {
		idx = wasm_i8x16_sub(idx, wasm_i8x16_splat(16));   /* k - 16i, out of 0..15 (0) unless k is in table i */
		lo = wasm_v128_or(lo, wasm_i8x16_swizzle(t->lo[i], idx));
		hi = wasm_v128_or(hi, wasm_i8x16_swizzle(t->hi[i], idx));
	}
	v128_t neg = wasm_i8x16_shr(codes, 7);   /* -1 where the weight is negative */
	v128_t n0 = wasm_i16x8_extend_low_i8x16(neg), n1 = wasm_i16x8_extend_high_i8x16(neg);
	v128_t m0 = wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
	v128_t m1 = wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
	m[0] = wasm_i16x8_sub(wasm_v128_xor(m0, n0), n0);
	m[1] = wasm_i16x8_sub(wasm_v128_xor(m1, n1), n1);
}

/* Decoded levels against 16 activations. */
ALWAYS_INLINE v128_t q8_apply16(v128_t acc, const v128_t m[2], const int8_t *x)
{
	v128_t xv = wasm_v128_load(x);
	v128_t d = wasm_i32x4_add(wasm_i32x4_dot_i16x8(m[0], wasm_i16x8_extend_low_i8x16(xv)),
				  wasm_i32x4_dot_i16x8(m[1], wasm_i16x8_extend_high_i8x16(xv)));
	return wasm_i32x4_add(acc, d);
}

ALWAYS_INLINE void q8_row_nb(const uint8_t *row, int chunks, const int8_t *xq, size_t stride, const int NB,
			     int32_t *out, size_t ld)
{
	const q8_table t = q8_load_table();
	v128_t acc[QUANT_KBATCH];
	QUANT_FOR_KBATCH(b, NB)
		acc[b] = wasm_i32x4_splat(0);
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		for (int j = 0; j < FORMAT_CHUNK_BYTES; j += 16) {
			v128_t m[2];
			q8_decode16(wasm_v128_load(row + j), &t, m);
			QUANT_FOR_KBATCH(b, NB)
				acc[b] = q8_apply16(acc[b], m, xq + b * stride + j);
		}
	QUANT_FOR_KBATCH(b, NB)
		out[b * ld] = hsum(acc[b]);
}

static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t out;
	q8_row_nb(row, chunks, xq, 0, 1, &out, 0);
	return out;
}

static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	QUANT_FOR_PANEL_ROWS(r)
		q8_row_nb(panel + r * FORMAT_CHUNK_BYTES, chunks, xq, 0, 1, out + r, 0);
}

QUANT_BLOCK_BY_ROWS(q8_block, q8_row_nb)

/* ---- i8 ------------------------------------------------------------------ */

/* The inputs' activations as the dot products take them: for each group of
 * four columns, x0..x3 x0..x3 widened to 16 bits, one register, so that
 * the inner loop loads it instead of splatting and widening it for every
 * half panel. Made once per block call for I8_X_GROUPS groups at a time. */
#define I8_X_GROUPS 128
ALWAYS_INLINE void i8_widen_inputs(const int8_t *xq, size_t stride, int nb, int g0, int groups, v128_t *x16)
{
	for (int b = 0; b < nb; b++)
		for (int g = 0; g < groups; g++) {
			int32_t v;
			memcpy(&v, xq + b * stride + 4 * (size_t)(g0 + g), sizeof v);
			x16[b * I8_X_GROUPS + g] = wasm_i16x8_extend_low_i8x16(wasm_i32x4_splat(v));
		}
}

/* Half a panel (rows 8h..8h+7: two 16-byte registers of a group, four rows
 * each) against NB <= 2 inputs (x16: their widened groups):
 * acc[4 * b + 2 * q + s] holds rows 8h + 4q + 2s and 8h + 4q + 2s + 1 of
 * input b, two lanes each; added to sums unless `first`. */
ALWAYS_INLINE void i8_half_nb(const uint8_t *codes, int groups, const v128_t *x16, const int NB, int first,
			      int32_t *sums, size_t ld)
{
	v128_t acc[8];
	_Pragma("GCC unroll 8") for (int i = 0; i < 8; i++)
		acc[i] = wasm_i32x4_splat(0);
	for (int g = 0; g < groups; g++, codes += 64) {
		v128_t w[4];
		_Pragma("GCC unroll 2") for (int q = 0; q < 2; q++) {
			v128_t c = wasm_v128_load(codes + 16 * q);
			w[2 * q] = wasm_i16x8_extend_low_i8x16(c);
			w[2 * q + 1] = wasm_i16x8_extend_high_i8x16(c);
		}
		_Pragma("GCC unroll 2") for (int b = 0; b < NB; b++) {
			v128_t x = x16[b * I8_X_GROUPS + g];
			_Pragma("GCC unroll 4") for (int i = 0; i < 4; i++)
				acc[4 * b + i] = wasm_i32x4_add(acc[4 * b + i], wasm_i32x4_dot_i16x8(w[i], x));
		}
	}
	_Pragma("GCC unroll 2") for (int b = 0; b < NB; b++)
		_Pragma("GCC unroll 2") for (int q = 0; q < 2; q++) {
			v128_t a = acc[4 * b + 2 * q], c = acc[4 * b + 2 * q + 1];
			v128_t s = wasm_i32x4_add(wasm_i32x4_shuffle(a, c, 0, 2, 4, 6), wasm_i32x4_shuffle(a, c, 1, 3, 5, 7));
			int32_t *out = sums + b * ld + 4 * q;
			wasm_v128_store(out, first ? s : wasm_i32x4_add(s, wasm_v128_load(out)));
		}
}

static void i8_block(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, int nb,
		     int32_t *sums, size_t ld)
{
	v128_t x16[QUANT_KBATCH * I8_X_GROUPS];
	int groups = chunks * FORMAT_CHUNK_BYTES / 4;
	for (int g0 = 0; g0 < groups; g0 += I8_X_GROUPS) {
		int n = groups - g0 < I8_X_GROUPS ? groups - g0 : I8_X_GROUPS;
		i8_widen_inputs(xq, stride, nb, g0, n, x16);
		const uint8_t *panel = codes + (size_t)g0 * 64;
		int32_t *s0 = sums;
		for (int p = 0; p < panels; p++, panel += (size_t)groups * 64, s0 += FORMAT_I8_PANEL_ROWS)
			for (int h = 0; h < 2; h++)
				for (int b = 0; b < nb; b += 2) {
					int32_t *s = s0 + (size_t)b * ld + 8 * h;
					if (nb - b == 1)
						i8_half_nb(panel + 32 * h, n, x16 + b * I8_X_GROUPS, 1, g0 == 0, s, ld);
					else
						i8_half_nb(panel + 32 * h, n, x16 + b * I8_X_GROUPS, 2, g0 == 0, s, ld);
				}
	}
}

/* ---- f32 ----------------------------------------------------------------- */

/* ((a0 + a4) + (a1 + a5)) + ((a2 + a6) + (a3 + a7)) */
ALWAYS_INLINE float reduce8(v128_t lo, v128_t hi)
{
	v128_t s = wasm_f32x4_add(lo, hi);
	return (wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1)) +
	       (wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3));
}

void quant_f32_rows_wasm(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out)
{
	const float *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];
	v128_t l0 = wasm_f32x4_splat(0.0f), h0 = l0, l1 = l0, h1 = l0, l2 = l0, h2 = l0, l3 = l0, h3 = l0;
	int c = 0;
	for (; c + 8 <= cols; c += 8) {
		v128_t xl = wasm_v128_load(x + c), xh = wasm_v128_load(x + c + 4);
#define MAC8(l, h, wr)                                                              \
	do {                                                                        \
		l = wasm_f32x4_add(l, wasm_f32x4_mul(wasm_v128_load(wr + c), xl));    \
		h = wasm_f32x4_add(h, wasm_f32x4_mul(wasm_v128_load(wr + c + 4), xh)); \
	} while (0)
		MAC8(l0, h0, w0);
		MAC8(l1, h1, w1);
		MAC8(l2, h2, w2);
		MAC8(l3, h3, w3);
#undef MAC8
	}
	float sums[FORMAT_PANEL_ROWS] = { reduce8(l0, h0), reduce8(l1, h1), reduce8(l2, h2), reduce8(l3, h3) };
	for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {
		for (int t = c; t < cols; t++)
			sums[r] += w[r][t] * x[t];
		out[r] = sums[r];
	}
}

const quant_qdot quant_qdot_wasm = { .name = "wasm-simd128", .q8 = q8_dot, .q4 = q4_dot, .q8_panel = q8_panel,
				     .q4_panel = q4_panel, .f32_rows = quant_f32_rows_wasm, .ew = &quant_ew_generic,
				     .q4_block = q4_block, .q8_block = q8_block, .i8_block = i8_block, .q4n = q4n_dot,
				     .q4n_panel = q4n_panel, .q4n_block = q4n_block };
#endif
