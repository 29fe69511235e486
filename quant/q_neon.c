/* NEON dot products for q8, q4, q4n and i8 (qdot.h), aarch64.
 *
 * q4 (and q4n, its other table): a 16-entry table lookup (tbl) turns each nibble into its signed int8
 * level; with the dot-product extension SDOT adds four int8 products per
 * lane, without it SMULL + SADALP do the same in two steps.
 * q8: the 128 16-bit magnitudes are split into a low-byte and a high-byte
 * table of 128 bytes, each looked up with TBL on four registers plus TBX on
 * the next four, then interleaved back into 16-bit levels; the weight's sign
 * is moved onto the activation and SMLAL accumulates 16 x 16 -> 32 bits.
 * i8: the bytes are the weights, laid out for SDOT by element (below).
 * Every sum is exact, so the results equal the scalar reference. */
#if defined(__aarch64__)
#include <arm_neon.h>
#include <string.h>

#include "matrix.h"
#include "qdot.h"
#include "qunroll.h"

#define CHUNK_STRIDE (FORMAT_PANEL_ROWS * FORMAT_CHUNK_BYTES)

/* ---- q4 ------------------------------------------------------------------ */

/* 16 nibbles (as bytes) against 16 activations, without SDOT. */
static inline int32x4_t q4_mac(int32x4_t acc, uint8x16_t nibbles, int8x16_t x, int8x16_t levels)
{
	int8x16_t w = vqtbl1q_s8(levels, nibbles);
	acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(w), vget_low_s8(x)));
	return vpadalq_s16(acc, vmull_high_s8(w, x));
}

static inline int32x4_t q4_chunk(int32x4_t acc, const uint8_t *codes, const int8_t *xq, int8x16_t levels)
{
	const uint8x16_t low = vdupq_n_u8(0x0F);
	for (int j = 0; j < FORMAT_CHUNK_BYTES; j += 16) {
		uint8x16_t c = vld1q_u8(codes + j);
		acc = q4_mac(acc, vandq_u8(c, low), vld1q_s8(xq + j), levels);
		acc = q4_mac(acc, vshrq_n_u8(c, 4), vld1q_s8(xq + FORMAT_CHUNK_BYTES + j), levels);
	}
	return acc;
}

/* A 4-bit format's row (q4 or q4n: `table` its signed levels). */
static inline int32_t nibble_dot(const int8_t *table, const uint8_t *row, int chunks, const int8_t *xq)
{
	int8x16_t levels = vld1q_s8(table);
	int32x4_t acc = vdupq_n_s32(0);
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		acc = q4_chunk(acc, row, xq, levels);
	return vaddvq_s32(acc);
}

static inline void nibble_panel(const int8_t *table, const uint8_t *panel, int chunks, const int8_t *xq,
				int32_t *out)
{
	int8x16_t levels = vld1q_s8(table);
	int32x4_t acc[FORMAT_PANEL_ROWS];
	QUANT_FOR_PANEL_ROWS(r)
		acc[r] = vdupq_n_s32(0);
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		QUANT_FOR_PANEL_ROWS(r)
			acc[r] = q4_chunk(acc[r], panel + r * FORMAT_CHUNK_BYTES, xq, levels);
	QUANT_FOR_PANEL_ROWS(r)
		out[r] = vaddvq_s32(acc[r]);
}

/* The entry points of a 4-bit format (q4, q4n) for one variant of the code
 * above (VARIANT: empty, or _sdot): that code with the format's table. */
#define NIBBLE_ENTRIES(fmt, table, variant)                                                         \
	static int32_t fmt##_dot##variant(const uint8_t *row, int chunks, const int8_t *xq)          \
	{                                                                                          \
		return nibble_dot##variant(table, row, chunks, xq);                                \
	}                                                                                          \
	static void fmt##_panel##variant(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out) \
	{                                                                                          \
		nibble_panel##variant(table, panel, chunks, xq, out);                              \
	}

NIBBLE_ENTRIES(q4, quant_q4_levels, )
NIBBLE_ENTRIES(q4n, quant_q4n_levels, )

/* The same with SDOT (ARMv8.2 dot-product extension). */
#pragma GCC push_options
#pragma GCC target("arch=armv8.2-a+dotprod")
static inline int32x4_t q4_chunk_dot(int32x4_t acc, const uint8_t *codes, const int8_t *xq, int8x16_t levels)
{
	const uint8x16_t low = vdupq_n_u8(0x0F);
	for (int j = 0; j < FORMAT_CHUNK_BYTES; j += 16) {
		uint8x16_t c = vld1q_u8(codes + j);
		acc = vdotq_s32(acc, vqtbl1q_s8(levels, vandq_u8(c, low)), vld1q_s8(xq + j));
		acc = vdotq_s32(acc, vqtbl1q_s8(levels, vshrq_n_u8(c, 4)), vld1q_s8(xq + FORMAT_CHUNK_BYTES + j));
	}
	return acc;
}

static inline int32_t nibble_dot_sdot(const int8_t *table, const uint8_t *row, int chunks, const int8_t *xq)
{
	int8x16_t levels = vld1q_s8(table);
	int32x4_t acc = vdupq_n_s32(0);
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		acc = q4_chunk_dot(acc, row, xq, levels);
	return vaddvq_s32(acc);
}

static inline void nibble_panel_sdot(const int8_t *table, const uint8_t *panel, int chunks, const int8_t *xq,
				     int32_t *out)
{
	int8x16_t levels = vld1q_s8(table);
	int32x4_t acc[FORMAT_PANEL_ROWS];
	QUANT_FOR_PANEL_ROWS(r)
		acc[r] = vdupq_n_s32(0);
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		QUANT_FOR_PANEL_ROWS(r)
			acc[r] = q4_chunk_dot(acc[r], panel + r * FORMAT_CHUNK_BYTES, xq, levels);
	QUANT_FOR_PANEL_ROWS(r)
		out[r] = vaddvq_s32(acc[r]);
}

NIBBLE_ENTRIES(q4, quant_q4_levels, _sdot)
NIBBLE_ENTRIES(q4n, quant_q4n_levels, _sdot)
#pragma GCC pop_options

/* ---- q8 ------------------------------------------------------------------ */

typedef struct {
	uint8x16x4_t lo[2], hi[2];   /* low and high bytes of the 128 magnitudes */
} q8_table;

static inline q8_table q8_load_table(void)
{
	uint8_t lo[128], hi[128];
	for (int k = 0; k < 128; k++) {
		lo[k] = (uint8_t)(quant_q8_levels[k] & 0xFF);
		hi[k] = (uint8_t)(quant_q8_levels[k] >> 8);
	}
	q8_table t;
	for (int h = 0; h < 2; h++) {
		t.lo[h] = vld1q_u8_x4(lo + 64 * h);
		t.hi[h] = vld1q_u8_x4(hi + 64 * h);
	}
	return t;
}

/* 16 codes decoded: their 16-bit magnitudes (m0: the first eight) and
 * the bytes that are -1 where the weight is negative. */
typedef struct {
	int16x8_t m0, m1;
	int8x16_t neg;
} q8_decoded;

static inline q8_decoded q8_decode16(uint8x16_t codes, const q8_table *t)
{
	uint8x16_t k = vandq_u8(codes, vdupq_n_u8(0x7F));
	uint8x16_t k_hi = vsubq_u8(k, vdupq_n_u8(64));      /* wraps above 63 for k < 64: TBX keeps those */
	uint8x16_t lo = vqtbx4q_u8(vqtbl4q_u8(t->lo[0], k), t->lo[1], k_hi);
	uint8x16_t hi = vqtbx4q_u8(vqtbl4q_u8(t->hi[0], k), t->hi[1], k_hi);
	q8_decoded d;
	d.m0 = vreinterpretq_s16_u8(vzip1q_u8(lo, hi));
	d.m1 = vreinterpretq_s16_u8(vzip2q_u8(lo, hi));
	d.neg = vreinterpretq_s8_u8(vtstq_u8(codes, vdupq_n_u8(0x80)));
	return d;
}

/* Decoded codes against 16 activations: the sign moves onto x. */
static inline int32x4_t q8_apply16(int32x4_t acc, const q8_decoded *d, int8x16_t x)
{
	int8x16_t sx = vsubq_s8(veorq_s8(x, d->neg), d->neg);
	int16x8_t x0 = vmovl_s8(vget_low_s8(sx)), x1 = vmovl_high_s8(sx);
	acc = vmlal_s16(acc, vget_low_s16(d->m0), vget_low_s16(x0));
	acc = vmlal_high_s16(acc, d->m0, x0);
	acc = vmlal_s16(acc, vget_low_s16(d->m1), vget_low_s16(x1));
	return vmlal_high_s16(acc, d->m1, x1);
}

/* 16 codes against 16 activations. */
static inline int32x4_t q8_mac(int32x4_t acc, uint8x16_t codes, int8x16_t x, const q8_table *t)
{
	q8_decoded d = q8_decode16(codes, t);
	return q8_apply16(acc, &d, x);
}

static inline int32x4_t q8_chunk(int32x4_t acc, const uint8_t *codes, const int8_t *xq, const q8_table *t)
{
	for (int j = 0; j < FORMAT_CHUNK_BYTES; j += 16)
		acc = q8_mac(acc, vld1q_u8(codes + j), vld1q_s8(xq + j), t);
	return acc;
}

static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	q8_table t = q8_load_table();
	int32x4_t acc = vdupq_n_s32(0);
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		acc = q8_chunk(acc, row, xq, &t);
	return vaddvq_s32(acc);
}

static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q8_table t = q8_load_table();
	int32x4_t acc[FORMAT_PANEL_ROWS];
	QUANT_FOR_PANEL_ROWS(r)
		acc[r] = vdupq_n_s32(0);
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		QUANT_FOR_PANEL_ROWS(r)
			acc[r] = q8_chunk(acc[r], panel + r * FORMAT_CHUNK_BYTES, xq, &t);
	QUANT_FOR_PANEL_ROWS(r)
		out[r] = vaddvq_s32(acc[r]);
}

/* One row against NB <= QUANT_KBATCH inputs, out[b * ld]: each 16 codes
 * decoded once for all of them (the table lookups and the sign test are
 * half of q8_mac's work). */
static inline __attribute__((always_inline)) void q8_row_nb(const uint8_t *row, int chunks, const int8_t *xq,
							    size_t stride, const int NB, int32_t *out, size_t ld)
{
	q8_table t = q8_load_table();
	int32x4_t acc[QUANT_KBATCH];
	QUANT_FOR_KBATCH(b, NB)
		acc[b] = vdupq_n_s32(0);
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		for (int j = 0; j < FORMAT_CHUNK_BYTES; j += 16) {
			q8_decoded d = q8_decode16(vld1q_u8(row + j), &t);
			QUANT_FOR_KBATCH(b, NB)
				acc[b] = q8_apply16(acc[b], &d, vld1q_s8(xq + b * stride + j));
		}
	QUANT_FOR_KBATCH(b, NB)
		out[b * ld] = vaddvq_s32(acc[b]);
}

#define TARGET
QUANT_BLOCK_BY_ROWS(q8_block, q8_row_nb)
#undef TARGET

/* ---- i8 ------------------------------------------------------------------ */

/* A panel's group of four columns (format/weights.h) is four registers of
 * 4 rows x 4 weights. SDOT by element multiplies one by one input's four
 * activations (a 32-bit lane of a register holding four groups) and adds
 * each row's four products into that row's lane; without SDOT, SMULL by
 * the four activations repeated and SADALP leave each row's products in two
 * lanes, added pairwise at the end. */

/* One panel against NB <= 4 inputs with SDOT: acc[4 * b + q] holds rows
 * 4q..4q+3 for input b; four groups per step (one 16-byte load of each
 * input). */
#pragma GCC push_options
#pragma GCC target("arch=armv8.2-a+dotprod")
static inline __attribute__((always_inline)) void i8_panel_sdot(const uint8_t *codes, int groups, const int8_t *xq,
								size_t stride, const int NB, int32x4_t acc[16])
{
	_Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
		acc[i] = vdupq_n_s32(0);
	for (int g = 0; g < groups; g += 4, codes += 4 * 64, xq += 16) {
		int8x16_t x[4];
		QUANT_FOR_INPUTS(b, NB)
			x[b] = vld1q_s8(xq + b * stride);
#define I8_SDOT_GROUP(l)                                                                       \
	do {                                                                                   \
		int8x16_t w[4];                                                                \
		QUANT_FOR_PANEL_ROWS(q)                                                        \
			w[q] = vld1q_s8((const int8_t *)codes + (l) * 64 + 16 * q);             \
		QUANT_FOR_INPUTS(b, NB)                                                        \
			QUANT_FOR_PANEL_ROWS(q)                                                \
				acc[4 * b + q] = vdotq_laneq_s32(acc[4 * b + q], w[q], x[b], (l)); \
	} while (0)
		I8_SDOT_GROUP(0);
		I8_SDOT_GROUP(1);
		I8_SDOT_GROUP(2);
		I8_SDOT_GROUP(3);
#undef I8_SDOT_GROUP
	}
}

static inline __attribute__((always_inline)) void i8_block_sdot_nb(const uint8_t *codes, int panels, int chunks,
								   const int8_t *xq, size_t stride, const int NB,
								   int32_t *sums, size_t ld)
{
	int groups = chunks * FORMAT_CHUNK_BYTES / 4;
	for (int p = 0; p < panels; p++, codes += (size_t)groups * 64, sums += FORMAT_I8_PANEL_ROWS) {
		int32x4_t acc[16];
		i8_panel_sdot(codes, groups, xq, stride, NB, acc);
		QUANT_FOR_INPUTS(b, NB)
			QUANT_FOR_PANEL_ROWS(q)
				vst1q_s32(sums + b * ld + 4 * q, acc[4 * b + q]);
	}
}

#define TARGET
QUANT_BLOCK_BY_FOURS(i8_block_sdot, i8_block_sdot_nb)
#undef TARGET
#pragma GCC pop_options

/* One panel against NB <= 2 inputs without SDOT: acc[8 * b + 2 * q + h]
 * holds rows 4q + 2h and 4q + 2h + 1 of input b, two lanes each (|w x| <=
 * 128 * 127 fits the 16-bit products). */
static inline __attribute__((always_inline)) void i8_panel_neon(const uint8_t *codes, int groups, const int8_t *xq,
								size_t stride, const int NB, int32x4_t acc[16])
{
	_Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
		acc[i] = vdupq_n_s32(0);
	for (int g = 0; g < groups; g++, codes += 64, xq += 4) {
		int8x16_t w[4];
		QUANT_FOR_PANEL_ROWS(q)
			w[q] = vld1q_s8((const int8_t *)codes + 16 * q);
		QUANT_FOR_INPUTS(b, NB) {
			int32_t v;
			memcpy(&v, xq + b * stride, sizeof v);
			int8x16_t x = vreinterpretq_s8_s32(vdupq_n_s32(v));
			QUANT_FOR_PANEL_ROWS(q) {
				int32x4_t *a = &acc[8 * b + 2 * q];
				a[0] = vpadalq_s16(a[0], vmull_s8(vget_low_s8(w[q]), vget_low_s8(x)));
				a[1] = vpadalq_s16(a[1], vmull_high_s8(w[q], x));
			}
		}
	}
}

static inline __attribute__((always_inline)) void i8_block_neon_nb(const uint8_t *codes, int panels, int chunks,
								   const int8_t *xq, size_t stride, const int NB,
								   int32_t *sums, size_t ld)
{
	int groups = chunks * FORMAT_CHUNK_BYTES / 4;
	for (int p = 0; p < panels; p++, codes += (size_t)groups * 64, sums += FORMAT_I8_PANEL_ROWS) {
		int32x4_t acc[16];
		i8_panel_neon(codes, groups, xq, stride, NB, acc);
		QUANT_FOR_INPUTS(b, NB)
			QUANT_FOR_PANEL_ROWS(q)
				vst1q_s32(sums + b * ld + 4 * q, vpaddq_s32(acc[8 * b + 2 * q], acc[8 * b + 2 * q + 1]));
	}
}

static void i8_block(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, int nb,
		     int32_t *sums, size_t ld)
{
	for (; nb > 0; nb -= 2, xq += 2 * stride, sums += 2 * ld)
		if (nb == 1)
			i8_block_neon_nb(codes, panels, chunks, xq, stride, 1, sums, ld);
		else
			i8_block_neon_nb(codes, panels, chunks, xq, stride, 2, sums, ld);
}

const quant_qdot quant_qdot_neon = { .name = "neon", .q8 = q8_dot, .q4 = q4_dot, .q8_panel = q8_panel,
				     .q4_panel = q4_panel, .f32_rows = quant_f32_rows_neon, .ew = &quant_ew_generic,
				     .q8_block = q8_block, .i8_block = i8_block, .q4n = q4n_dot, .q4n_panel = q4n_panel };
const quant_qdot quant_qdot_neon_dotprod = { .name = "neon-dotprod", .q8 = q8_dot, .q4 = q4_dot_sdot,
					     .q8_panel = q8_panel, .q4_panel = q4_panel_sdot,
					     .f32_rows = quant_f32_rows_neon, .ew = &quant_ew_generic,
					     .q8_block = q8_block, .i8_block = i8_block_sdot, .q4n = q4n_dot_sdot,
					     .q4n_panel = q4n_panel_sdot };
#endif
