/* AVX-512 (BW + VNNI) dot products for q8, q4 and i8 (qdot.h). Compiled for
 * those extensions function by function, so the binary still runs on any
 * x86-64; quant_qdot_select calls them only where CPUID says they exist.
 *
 * q4: a 16-byte shuffle (vpshufb) turns each nibble into its level offset
 * to an unsigned byte (w + 128), vpdpbusd multiplies it by the signed
 * activations, and 128 times each input's sum corrects the offset exactly.
 * q8: two 64-entry word permutes (vpermi2w) over the 128 magnitudes give the
 * level, the sign bit negates it, and vpdpwssd adds pairs of 16-bit products.
 * A panel's four rows are computed together against up to four inputs,
 * each weight decoded once for all of them; for q4 a whole block of panels
 * in one call (qdot.h's q4_block). With VBMI, q8 has a block function too,
 * which splits each weight into two bytes for vpdpbusd (q8_block below).
 * i8: the weight bytes, their top bit flipped, straight into vpdpbusd
 * against four activations broadcast, each row's sum in its own lane
 * (i8_block below). */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "matrix.h"
#include "qdot.h"
#include "qunroll.h"

/* quant/q_avx512_vbmi.c compiles this file again for CPUs with VBMI,
 * defining these first. */
#ifndef QUANT_AVX512_VBMI
#define TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define QDOT quant_qdot_avx512
#define QDOT_NAME "avx512"
#endif
#define CHUNK_STRIDE (FORMAT_PANEL_ROWS * FORMAT_CHUNK_BYTES)

/* ---- sums of accumulators ------------------------------------------------ */

/* A panel's products end in one int32 accumulator per (input, row): reducing
 * each on its own costs a chain of shuffles per output, as much as the
 * products themselves for the model's 256- and 512-column rows. These add
 * 4 or 16 accumulators at once, as a transpose: lane i of the result is the
 * sum of a[i]'s lanes. */
TARGET static inline __m512i add_pairs32(__m512i a, __m512i b)   /* per 128 bits: a0+a2 b0+b2 a1+a3 b1+b3 */
{
	return _mm512_add_epi32(_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
}

TARGET static inline __m512i add_pairs64(__m512i ab, __m512i cd)   /* per 128 bits: a b c d */
{
	return _mm512_add_epi32(_mm512_unpacklo_epi64(ab, cd), _mm512_unpackhi_epi64(ab, cd));
}

/* per 128 bits of each: [a b c d]; the sums over the four 128-bit lanes */
TARGET static inline __m128i add_lanes128(__m512i v)
{
	__m256i t = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
	return _mm_add_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
}

TARGET static inline __m128i reduce4(const __m512i a[4])
{
	return add_lanes128(add_pairs64(add_pairs32(a[0], a[1]), add_pairs32(a[2], a[3])));
}

/* 128-bit lane i of the result: the sum of q[i]'s four 128-bit lanes. */
TARGET static inline __m512i add_lanes4(const __m512i q[4])
{
	__m512i u = _mm512_add_epi32(_mm512_shuffle_i32x4(q[0], q[1], 0x88), _mm512_shuffle_i32x4(q[0], q[1], 0xDD));
	__m512i v = _mm512_add_epi32(_mm512_shuffle_i32x4(q[2], q[3], 0x88), _mm512_shuffle_i32x4(q[2], q[3], 0xDD));
	return _mm512_add_epi32(_mm512_shuffle_i32x4(u, v, 0x88), _mm512_shuffle_i32x4(u, v, 0xDD));
}

TARGET static inline __m512i reduce16(const __m512i a[16])
{
	__m512i q[4];
	_Pragma("GCC unroll 4") for (int i = 0; i < 4; i++)
		q[i] = add_pairs64(add_pairs32(a[4 * i], a[4 * i + 1]), add_pairs32(a[4 * i + 2], a[4 * i + 3]));
	/* q[i] holds, per 128-bit lane, partial sums of a[4i..4i+3] */
	return add_lanes4(q);
}

/* The 128-bit lanes of v, lane b holding input b's sums of a panel's four
 * rows, each to its input's sums (sums + b * ld) for the first nb inputs;
 * always inlined, so that a constant nb leaves only its stores. */
TARGET static inline __attribute__((always_inline)) void store_lanes(__m512i v, int nb, int32_t *sums, size_t ld)
{
	_mm_storeu_si128((__m128i *)sums, _mm512_castsi512_si128(v));
	if (nb > 1)
		_mm_storeu_si128((__m128i *)(sums + ld), _mm512_extracti32x4_epi32(v, 1));
	if (nb > 2)
		_mm_storeu_si128((__m128i *)(sums + 2 * ld), _mm512_extracti32x4_epi32(v, 2));
	if (nb > 3)
		_mm_storeu_si128((__m128i *)(sums + 3 * ld), _mm512_extracti32x4_epi32(v, 3));
}

/* 128 * (the sum of an input's first `bytes` padded columns, a multiple
 * of 64): the share of every one of its sums that an offset of 128 on the
 * weights adds. */
TARGET static int32_t offset128_of(const int8_t *xq, int bytes)
{
	const __m512i offset = _mm512_set1_epi8((char)0x80);
	__m512i acc = _mm512_setzero_si512();
	for (int i = 0; i < bytes; i += FORMAT_CHUNK_BYTES)
		acc = _mm512_dpbusd_epi32(acc, offset, _mm512_loadu_si512(xq + i));
	return _mm512_reduce_add_epi32(acc);
}

/* ---- q4 ------------------------------------------------------------------ */

/* One shuffle (vpshufb) turns each nibble into its level plus 128, an
 * unsigned byte (64..192; the level table, q4's or q4n's, is an argument),
 * and vpdpbusd multiplies those by the signed
 * activations: the sums are of (w + 128) * x, and 128 times the input's
 * sum, taken once per input, corrects them exactly. Putting the offset on
 * the weights rather than on the activations costs one correction per
 * input instead of one per row (two products per row and chunk). Both
 * sums are exact in int32 (|w + 128| <= 192, |x| <= 127, at most
 * 2 * 16384 columns). */
TARGET static inline __m512i q4_ulevels(const int8_t *table)
{
	__m128i signed_levels = _mm_loadu_si128((const __m128i *)table);
	return _mm512_broadcast_i32x4(_mm_xor_si128(signed_levels, _mm_set1_epi8((char)0x80)));   /* + 128 */
}

/* The weights plus 128 of a chunk's 128 columns: w0 the first 64, w1 the
 * next. vpshufb reads an index's low four bits but zeroes the byte when its
 * top bit is set, so each nibble is masked first; VBMI's vpermb reads the
 * low six bits of each index, and a table repeating the 16 levels four
 * times makes the two bits above a nibble irrelevant: two instructions
 * fewer per chunk. */
TARGET static inline void q4_weights(const uint8_t *chunk, __m512i levels, __m512i *w0, __m512i *w1)
{
	__m512i c = _mm512_loadu_si512(chunk);
#ifdef QUANT_AVX512_VBMI
	*w0 = _mm512_permutexvar_epi8(c, levels);
	*w1 = _mm512_permutexvar_epi8(_mm512_srli_epi16(c, 4), levels);
#else
	const __m512i low = _mm512_set1_epi8(0x0F);
	*w0 = _mm512_shuffle_epi8(levels, _mm512_and_si512(c, low));
	*w1 = _mm512_shuffle_epi8(levels, _mm512_and_si512(_mm512_srli_epi16(c, 4), low));
#endif
}

/* 128 * (the sum of an input's padded columns): the offset's share of
 * every one of its sums. */
TARGET static int32_t q4_offset_of(const int8_t *xq, int chunks)
{
	return offset128_of(xq, 2 * chunks * FORMAT_CHUNK_BYTES);
}

TARGET static inline __attribute__((always_inline)) int32_t nibble_dot(const int8_t *table, const uint8_t *row,
									int chunks, const int8_t *xq)
{
	const __m512i levels = q4_ulevels(table);
	__m512i acc = _mm512_setzero_si512();
	int32_t offset = q4_offset_of(xq, chunks);
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES) {
		__m512i w0, w1;
		q4_weights(row, levels, &w0, &w1);
		acc = _mm512_dpbusd_epi32(acc, w0, _mm512_loadu_si512(xq));
		acc = _mm512_dpbusd_epi32(acc, w1, _mm512_loadu_si512(xq + FORMAT_CHUNK_BYTES));
	}
	return _mm512_reduce_add_epi32(acc) - offset;
}

/* Four inputs' offsets, each repeated over the four rows of its 128-bit
 * lane: what reduce16's sums of a panel hold too much. */
TARGET static inline __m512i lane_offsets(const int32_t *offset)
{
	return _mm512_setr_epi32(offset[0], offset[0], offset[0], offset[0], offset[1], offset[1], offset[1], offset[1],
				 offset[2], offset[2], offset[2], offset[2], offset[3], offset[3], offset[3], offset[3]);
}

/* A panel's four rows against NB <= 4 inputs, each input's two halves of a
 * chunk held in registers for all four rows: acc[4 * b + r]. */
TARGET static inline __attribute__((always_inline)) void q4_four_rows(const int8_t *table, const uint8_t *panel,
								     int chunks, const int8_t *xq, size_t stride,
								     const int NB, __m512i *acc)
{
	const __m512i levels = q4_ulevels(table);
	_Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
		acc[i] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES) {
		__m512i x0[4], x1[4];
		QUANT_FOR_INPUTS(b, NB) {
			x0[b] = _mm512_loadu_si512(xq + b * stride);
			x1[b] = _mm512_loadu_si512(xq + b * stride + FORMAT_CHUNK_BYTES);
		}
		QUANT_FOR_PANEL_ROWS(r) {
			__m512i w0, w1;
			q4_weights(panel + r * FORMAT_CHUNK_BYTES, levels, &w0, &w1);
			QUANT_FOR_INPUTS(b, NB) {
				acc[4 * b + r] = _mm512_dpbusd_epi32(acc[4 * b + r], w0, x0[b]);
				acc[4 * b + r] = _mm512_dpbusd_epi32(acc[4 * b + r], w1, x1[b]);
			}
		}
	}
}

/* `panels` consecutive panels against NB <= 4 inputs (NB a constant after
 * inlining): sums[b * ld + r]. Each chunk is decoded once for all the
 * inputs, whose activations stay in registers for the panel's four rows. */
TARGET static inline __attribute__((always_inline)) void nibble_block_nb(const int8_t *table, const uint8_t *codes,
									int panels, int chunks, const int8_t *xq,
									size_t stride, const int NB, int32_t *sums,
									size_t ld)
{
	int32_t offset[4] = { 0 };
	QUANT_FOR_INPUTS(b, NB)
		offset[b] = q4_offset_of(xq + b * stride, chunks);
	const __m512i offsets = lane_offsets(offset);
	size_t panel_bytes = (size_t)chunks * CHUNK_STRIDE;

	for (int p = 0; p < panels; p++, codes += panel_bytes, sums += FORMAT_PANEL_ROWS) {
		__m512i acc[16];
		q4_four_rows(table, codes, chunks, xq, stride, NB, acc);
		/* 128-bit lane b: input b's four rows */
		store_lanes(_mm512_sub_epi32(reduce16(acc), offsets), NB, sums, ld);
	}
}

/* ---- q8 ------------------------------------------------------------------ */

/* Two 64-entry word permutes (vpermi2w) over the 128 magnitudes give each
 * code's 16-bit level, the sign bit negates it, and vpdpwssd adds pairs of
 * 16-bit products. */
typedef struct {
	__m512i t[4];   /* the 128 magnitudes as 16-bit words, 32 per register */
} q8_table;

TARGET static inline q8_table q8_load_table(void)
{
	q8_table t;
	for (int i = 0; i < 4; i++)
		t.t[i] = _mm512_loadu_si512(quant_q8_levels + 32 * i);
	return t;
}

/* The signed 16-bit levels of 32 codes. */
TARGET static inline __m512i q8_weights(const uint8_t *codes, const q8_table *t)
{
	__m512i c = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)codes));
	__m512i lo = _mm512_permutex2var_epi16(t->t[0], c, t->t[1]);   /* k < 64: index bits 0-5 */
	__m512i hi = _mm512_permutex2var_epi16(t->t[2], c, t->t[3]);   /* k >= 64 */
	__m512i mag = _mm512_mask_blend_epi16(_mm512_test_epi16_mask(c, _mm512_set1_epi16(0x40)), lo, hi);
	__mmask32 negative = _mm512_test_epi16_mask(c, _mm512_set1_epi16(0x80));
	return _mm512_mask_sub_epi16(mag, negative, _mm512_setzero_si512(), mag);
}

/* 32 activations as 16-bit words */
TARGET static inline __m512i q8_x(const int8_t *xq)
{
	return _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)xq));
}

TARGET static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	q8_table t = q8_load_table();
	__m512i acc = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES) {
		acc = _mm512_dpwssd_epi32(acc, q8_weights(row, &t), q8_x(xq));
		acc = _mm512_dpwssd_epi32(acc, q8_weights(row + 32, &t), q8_x(xq + 32));
	}
	return _mm512_reduce_add_epi32(acc);
}

TARGET static inline __attribute__((always_inline)) void q8_panel_nb(const uint8_t *panel, int chunks,
								    const int8_t *xq, size_t stride,
								    const int NB, int32_t *out)
{
	q8_table t = q8_load_table();
	__m512i acc[QUANT_PANEL_INPUTS * FORMAT_PANEL_ROWS];
	_Pragma("GCC unroll 16") for (int i = 0; i < QUANT_PANEL_INPUTS * FORMAT_PANEL_ROWS; i++)
		acc[i] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		_Pragma("GCC unroll 2") for (int half = 0; half < 2; half++)
			QUANT_FOR_PANEL_ROWS(r) {
				__m512i w = q8_weights(panel + r * FORMAT_CHUNK_BYTES + 32 * half, &t);
				QUANT_FOR_INPUTS(b, NB) {
					__m512i *a = &acc[b * FORMAT_PANEL_ROWS + r];
					*a = _mm512_dpwssd_epi32(*a, w, q8_x(xq + b * stride + 32 * half));
				}
			}
	if (NB == 1)
		_mm_storeu_si128((__m128i *)out, reduce4(acc));
	else
		_mm512_mask_storeu_epi32(out, (__mmask16)((1u << (NB * FORMAT_PANEL_ROWS)) - 1), reduce16(acc));
}

/* ---- q8 in blocks (VBMI) ----------------------------------------------------- */

#ifdef QUANT_AVX512_VBMI
/* A whole block of panels against up to eight inputs with vpdpbusd, which
 * takes bytes: a code's weight w (|w| <= 4096) plus Q8_OFFSET is split
 * into two unsigned bytes, u = w + Q8_OFFSET = 64 H + L, each looked up by
 * one 128-entry byte permute (vpermi2b, which reads the low seven bits:
 * the magnitude). For a positive code H = (level + Q8_OFFSET) >> 6 in
 * 65..129 and L = its low six bits; a negative code's u is 2 Q8_OFFSET
 * minus the positive one's, which 129 - H and 64 - L give (64 (129 - H) +
 * 64 - L = 8320 - u) as bytes in 0..64 and 1..64. Then
 *     sum w x = 64 sum H x + sum L x - Q8_OFFSET sum x,
 * the last term once per input. Two byte products per weight cost as much
 * as one vpdpwssd, but the decoding is five instructions per 64 codes
 * instead of fourteen, which lets each decoded row serve eight inputs read
 * straight from memory. Every step is an int32 addition, multiplication or
 * shift, exact modulo 2^32, so the sums are the scalar kernel's. */
#define Q8_OFFSET 4160

/* h[0..1]: H of the 128 magnitudes, l[0..1]: L; derived from the level
 * table once per call. */
typedef struct {
	__m512i h[2], l[2];
} q8_split_table;

TARGET static inline __m512i q8_table_bytes(const int16_t *levels, int high)
{
	__m256i half[2];
	for (int i = 0; i < 2; i++) {
		__m512i u = _mm512_add_epi16(_mm512_loadu_si512(levels + 32 * i), _mm512_set1_epi16(Q8_OFFSET));
		u = high ? _mm512_srli_epi16(u, 6) : _mm512_and_si512(u, _mm512_set1_epi16(63));
		half[i] = _mm512_cvtepi16_epi8(u);
	}
	return _mm512_inserti64x4(_mm512_castsi256_si512(half[0]), half[1], 1);
}

TARGET static inline q8_split_table q8_load_split_table(void)
{
	q8_split_table t;
	for (int i = 0; i < 2; i++) {
		t.h[i] = q8_table_bytes(quant_q8_levels + 64 * i, 1);
		t.l[i] = q8_table_bytes(quant_q8_levels + 64 * i, 0);
	}
	return t;
}

/* The H and L bytes of 64 codes. */
TARGET static inline void q8_split(const uint8_t *codes, const q8_split_table *t, __m512i *h, __m512i *l)
{
	__m512i c = _mm512_loadu_si512(codes);
	__mmask64 negative = _mm512_movepi8_mask(c);
	__m512i hp = _mm512_permutex2var_epi8(t->h[0], c, t->h[1]);
	__m512i lp = _mm512_permutex2var_epi8(t->l[0], c, t->l[1]);
	*h = _mm512_mask_sub_epi8(hp, negative, _mm512_set1_epi8((char)129), hp);
	*l = _mm512_mask_sub_epi8(lp, negative, _mm512_set1_epi8(64), lp);
}

/* One row against NB inputs: v[b] holds 16 partial sums of 64 H x + L x
 * (without the offset's share), v[b] = 0 for NB <= b < 8. */
TARGET static inline __attribute__((always_inline)) void q8_row_split(const uint8_t *row, int chunks,
								     const int8_t *xq, size_t stride,
								     const int NB, const q8_split_table *t,
								     __m512i v[8])
{
	__m512i ah[8], al[8];
	QUANT_FOR_KBATCH(b, NB)
		ah[b] = al[b] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES) {
		__m512i h, l;
		q8_split(row, t, &h, &l);
		QUANT_FOR_KBATCH(b, NB) {
			__m512i x = _mm512_loadu_si512(xq + b * stride);
			ah[b] = _mm512_dpbusd_epi32(ah[b], h, x);
			al[b] = _mm512_dpbusd_epi32(al[b], l, x);
		}
	}
	_Pragma("GCC unroll 8") for (int b = 0; b < 8; b++)
		v[b] = b < NB ? _mm512_add_epi32(_mm512_slli_epi32(ah[b], 6), al[b]) : _mm512_setzero_si512();
}

/* Q8_OFFSET times the sum of each of four inputs' padded columns, input b
 * in 128-bit lane b: what the block's sums hold too much. */
TARGET static inline __m512i q8_lane_offsets(const int8_t *xq, size_t stride, int chunks, int nb)
{
	int32_t s[4] = { 0 };
	const __m512i ones = _mm512_set1_epi8(1);
	for (int b = 0; b < nb && b < 4; b++) {
		__m512i acc = _mm512_setzero_si512();
		for (int ch = 0; ch < chunks; ch++)
			acc = _mm512_dpbusd_epi32(acc, ones, _mm512_loadu_si512(xq + b * stride + ch * FORMAT_CHUNK_BYTES));
		s[b] = _mm512_reduce_add_epi32(acc);
	}
	__m512i sums = _mm512_setr_epi32(s[0], s[0], s[0], s[0], s[1], s[1], s[1], s[1], s[2], s[2], s[2], s[2],
					 s[3], s[3], s[3], s[3]);
	return _mm512_mullo_epi32(sums, _mm512_set1_epi32(Q8_OFFSET));
}

/* Four inputs' sums of a panel's four rows, stored for the first nb of
 * them: each 128-bit lane of part[r] holds partial sums of row r against
 * inputs 0..3; add_lanes4 adds them into lane r, a dword permute
 * transposes that 4 x 4 (row, input) matrix so that lane b is input b's
 * four rows, the offsets come off, and each lane goes to its input's sums. */
TARGET static inline void q8_store_panel(const __m512i part[4], __m512i offsets, int nb, int32_t *sums, size_t ld)
{
	const __m512i transpose = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
	store_lanes(_mm512_sub_epi32(_mm512_permutexvar_epi32(transpose, add_lanes4(part)), offsets), nb, sums, ld);
}

/* `panels` panels against NB <= 8 inputs, row by row: each row's chunk is
 * decoded once for all NB inputs, whose activations are read from memory
 * (the registers hold the sixteen accumulators). */
TARGET static inline __attribute__((always_inline)) void q8_block_nb(const uint8_t *codes, int panels, int chunks,
								    const int8_t *xq, size_t stride, const int NB,
								    int32_t *sums, size_t ld)
{
	const q8_split_table t = q8_load_split_table();
	__m512i offsets[2];
	for (int g = 0; g < 2; g++)
		offsets[g] = NB > 4 * g ? q8_lane_offsets(xq + 4 * g * stride, stride, chunks, NB - 4 * g)
				        : _mm512_setzero_si512();
	size_t panel_bytes = (size_t)chunks * CHUNK_STRIDE;

	for (int p = 0; p < panels; p++, codes += panel_bytes, sums += FORMAT_PANEL_ROWS) {
		__m512i part[2][4];   /* [input group][row] */
		for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {
			__m512i v[8];
			q8_row_split(codes + r * FORMAT_CHUNK_BYTES, chunks, xq, stride, NB, &t, v);
			for (int g = 0; g < (NB + 3) / 4; g++)
				part[g][r] = add_pairs64(add_pairs32(v[4 * g], v[4 * g + 1]),
							 add_pairs32(v[4 * g + 2], v[4 * g + 3]));
		}
		for (int g = 0; g < (NB + 3) / 4; g++)
			q8_store_panel(part[g], offsets[g], NB - 4 * g, sums + 4 * g * ld, ld);
	}
}

TARGET static void q8_block(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, int nb,
			    int32_t *sums, size_t ld)
{
	switch (nb) {
	case 1: q8_block_nb(codes, panels, chunks, xq, stride, 1, sums, ld); break;
	case 2: q8_block_nb(codes, panels, chunks, xq, stride, 2, sums, ld); break;
	case 3: q8_block_nb(codes, panels, chunks, xq, stride, 3, sums, ld); break;
	case 4: q8_block_nb(codes, panels, chunks, xq, stride, 4, sums, ld); break;
	case 5: q8_block_nb(codes, panels, chunks, xq, stride, 5, sums, ld); break;
	case 6: q8_block_nb(codes, panels, chunks, xq, stride, 6, sums, ld); break;
	case 7: q8_block_nb(codes, panels, chunks, xq, stride, 7, sums, ld); break;
	default: q8_block_nb(codes, panels, chunks, xq, stride, 8, sums, ld); break;
	}
}
#define Q8_BLOCK q8_block
#else
/* Without VBMI there is no byte permute over 128 entries: the driver
 * calls the panel functions. */
#define Q8_BLOCK NULL
#endif

/* ---- i8 ------------------------------------------------------------------ */

/* The i8 layout (format/weights.h) gives 64 bytes per panel and group of
 * four columns: 16 rows x 4 weights, one register. vpdpbusd multiplies it by
 * one input's four activations broadcast to every lane and adds each row's
 * four products into that row's lane, so a panel's sums against one input
 * build up in one register, with no decoding and no sums across lanes.
 * Flipping each weight byte's top bit gives the unsigned w + 128 that
 * vpdpbusd wants; 128 times each input's sum, taken once per call, corrects
 * it exactly (|w + 128| <= 255, |x| <= 127: int32 holds
 * FORMAT_I8_MAX_COLS columns). */

/* An input's four activations of group g, in every lane. */
TARGET static inline __m512i i8_x4(const int8_t *x)
{
	int32_t v;
	memcpy(&v, x, sizeof v);
	return _mm512_set1_epi32(v);
}

/* P <= 2 panels (panel_bytes apart) against NB <= 4 inputs, their sums
 * less the offsets stored at sums[b * ld + 16 q + r]. Eight accumulators
 * reach the same rate as sixteen (bench/kernels: 73-87% of the vpdpbusd
 * peak at 4-16 inputs) with fewer of gcc's register copies. */
TARGET static inline __attribute__((always_inline)) void i8_panels(const uint8_t *codes, size_t panel_bytes,
								  const int P, int groups, const int8_t *xq,
								  size_t stride, const int NB, const __m512i *offset,
								  int32_t *sums, size_t ld)
{
	const __m512i flip = _mm512_set1_epi8((char)0x80);
	__m512i acc0[4], acc1[4];   /* panel 0's and panel 1's */
	QUANT_FOR_INPUTS(b, 4)
		acc0[b] = acc1[b] = _mm512_setzero_si512();
	for (int g = 0; g < groups; g++, codes += 64, xq += 4) {
		__m512i w0 = _mm512_xor_si512(_mm512_loadu_si512(codes), flip);
		__m512i w1 = P > 1 ? _mm512_xor_si512(_mm512_loadu_si512(codes + panel_bytes), flip) : w0;
		QUANT_FOR_INPUTS(b, NB) {
			__m512i x = i8_x4(xq + b * stride);
			acc0[b] = _mm512_dpbusd_epi32(acc0[b], w0, x);
			if (P > 1)
				acc1[b] = _mm512_dpbusd_epi32(acc1[b], w1, x);
		}
	}
	QUANT_FOR_INPUTS(b, NB) {
		_mm512_storeu_si512(sums + b * ld, _mm512_sub_epi32(acc0[b], offset[b]));
		if (P > 1)
			_mm512_storeu_si512(sums + b * ld + FORMAT_I8_PANEL_ROWS, _mm512_sub_epi32(acc1[b], offset[b]));
	}
}

TARGET static inline __attribute__((always_inline)) void i8_block_nb(const uint8_t *codes, int panels, int chunks,
								    const int8_t *xq, size_t stride, const int NB,
								    int32_t *sums, size_t ld)
{
	int groups = chunks * FORMAT_CHUNK_BYTES / 4;
	size_t panel_bytes = (size_t)groups * 64;
	__m512i offset[4];
	QUANT_FOR_INPUTS(b, NB)
		offset[b] = _mm512_set1_epi32(offset128_of(xq + b * stride, chunks * FORMAT_CHUNK_BYTES));
	int p = 0;
	for (; p + 2 <= panels; p += 2, codes += 2 * panel_bytes, sums += 2 * FORMAT_I8_PANEL_ROWS)
		i8_panels(codes, panel_bytes, 2, groups, xq, stride, NB, offset, sums, ld);
	if (p < panels)
		i8_panels(codes, panel_bytes, 1, groups, xq, stride, NB, offset, sums, ld);
}

QUANT_BLOCK_BY_FOURS(i8_block, i8_block_nb)

/* ---- the entry points ------------------------------------------------------ */

/* The entry points of a 4-bit format (q4, q4n): the code above with its
 * level table. */
#define NIBBLE_ENTRIES(fmt, table)                                                                             \
	TARGET static int32_t fmt##_dot(const uint8_t *row, int chunks, const int8_t *xq)                      \
	{                                                                                                    \
		return nibble_dot(table, row, chunks, xq);                                                   \
	}                                                                                                    \
	TARGET static inline __attribute__((always_inline)) void fmt##_block_nb(                             \
		const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, const int NB, \
		int32_t *sums, size_t ld)                                                                    \
	{                                                                                                    \
		nibble_block_nb(table, codes, panels, chunks, xq, stride, NB, sums, ld);                     \
	}                                                                                                    \
	QUANT_BLOCK_BY_FOURS(fmt##_block, fmt##_block_nb)                                                    \
	TARGET static void fmt##_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)       \
	{                                                                                                    \
		fmt##_block_nb(panel, 1, chunks, xq, 0, 1, out, FORMAT_PANEL_ROWS);                          \
	}                                                                                                    \
	TARGET static void fmt##_panel_multi(const uint8_t *panel, int chunks, const int8_t *xq, size_t stride, \
					     int nb, int32_t *out)                                          \
	{                                                                                                    \
		fmt##_block(panel, 1, chunks, xq, stride, nb, out, FORMAT_PANEL_ROWS);                       \
	}

NIBBLE_ENTRIES(q4, quant_q4_levels)
NIBBLE_ENTRIES(q4n, quant_q4n_levels)

TARGET static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q8_panel_nb(panel, chunks, xq, 0, 1, out);
}

/* out[b * FORMAT_PANEL_ROWS + r] for nb <= QUANT_PANEL_INPUTS inputs */
TARGET static void q8_panel_multi(const uint8_t *panel, int chunks, const int8_t *xq, size_t stride, int nb,
				  int32_t *out)
{
	switch (nb) {
	case 1: q8_panel_nb(panel, chunks, xq, stride, 1, out); break;
	case 2: q8_panel_nb(panel, chunks, xq, stride, 2, out); break;
	case 3: q8_panel_nb(panel, chunks, xq, stride, 3, out); break;
	default: q8_panel_nb(panel, chunks, xq, stride, 4, out); break;
	}
}

const quant_qdot QDOT = { .name = QDOT_NAME, .q8 = q8_dot, .q4 = q4_dot, .q8_panel = q8_panel, .q4_panel = q4_panel,
			  .q8_panel_multi = q8_panel_multi, .q4_panel_multi = q4_panel_multi,
			  .f32_rows = quant_f32_rows_avx512, .ew = &quant_ew_avx512, .q4_block = q4_block,
			  .q8_block = Q8_BLOCK, .i8_block = i8_block, .q4n = q4n_dot, .q4n_panel = q4n_panel,
			  .q4n_panel_multi = q4n_panel_multi, .q4n_block = q4n_block };
#endif
