/* AVX-512 (BW + VNNI) dot products for q8 and q4 (qdot.h). Compiled for
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
 * in one call (qdot.h's q4_block). */
#if defined(__x86_64__)
#include <immintrin.h>

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

/* ---- q4 ------------------------------------------------------------------ */

/* One shuffle (vpshufb) turns each nibble into its level plus 128, an
 * unsigned byte (64..192), and vpdpbusd multiplies those by the signed
 * activations: the sums are of (w + 128) * x, and 128 times the input's
 * sum, taken once per input, corrects them exactly. Putting the offset on
 * the weights rather than on the activations costs one correction per
 * input instead of one per row (two products per row and chunk). Both
 * sums are exact in int32 (|w + 128| <= 192, |x| <= 127, at most
 * 2 * 16384 columns). */
TARGET static inline __m512i q4_ulevels(void)
{
	return _mm512_broadcast_i32x4(_mm_setr_epi8((char)192, (char)160, (char)144, (char)136, (char)132, (char)130,
						    (char)129, (char)128, 64, 96, 112, 120, 124, 126, 127, (char)128));
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
	const __m512i offset = _mm512_set1_epi8((char)0x80);
	__m512i acc = _mm512_setzero_si512();
	for (int i = 0; i < 2 * chunks; i++)
		acc = _mm512_dpbusd_epi32(acc, offset, _mm512_loadu_si512(xq + i * FORMAT_CHUNK_BYTES));
	return _mm512_reduce_add_epi32(acc);
}

TARGET static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	const __m512i levels = q4_ulevels();
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
TARGET static inline __m512i q4_lane_offsets(const int32_t *offset)
{
	return _mm512_setr_epi32(offset[0], offset[0], offset[0], offset[0], offset[1], offset[1], offset[1], offset[1],
				 offset[2], offset[2], offset[2], offset[2], offset[3], offset[3], offset[3], offset[3]);
}

/* A panel's four rows against NB <= 4 inputs, each input's two halves of a
 * chunk held in registers for all four rows: acc[4 * b + r]. */
TARGET static inline __attribute__((always_inline)) void q4_four_rows(const uint8_t *panel, int chunks,
								     const int8_t *xq, size_t stride, const int NB,
								     __m512i *acc)
{
	const __m512i levels = q4_ulevels();
	_Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
		acc[i] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES) {
		__m512i x0[4], x1[4];
		FOR_INPUTS(b, NB) {
			x0[b] = _mm512_loadu_si512(xq + b * stride);
			x1[b] = _mm512_loadu_si512(xq + b * stride + FORMAT_CHUNK_BYTES);
		}
		FOR_PANEL_ROWS(r) {
			__m512i w0, w1;
			q4_weights(panel + r * FORMAT_CHUNK_BYTES, levels, &w0, &w1);
			FOR_INPUTS(b, NB) {
				acc[4 * b + r] = _mm512_dpbusd_epi32(acc[4 * b + r], w0, x0[b]);
				acc[4 * b + r] = _mm512_dpbusd_epi32(acc[4 * b + r], w1, x1[b]);
			}
		}
	}
}

/* `panels` consecutive panels against NB <= 4 inputs (NB a constant after
 * inlining): sums[b * ld + r]. Each chunk is decoded once for all the
 * inputs, whose activations stay in registers for the panel's four rows. */
TARGET static inline __attribute__((always_inline)) void q4_block_nb(const uint8_t *codes, int panels, int chunks,
								    const int8_t *xq, size_t stride, const int NB,
								    int32_t *sums, size_t ld)
{
	int32_t offset[4] = { 0 };
	FOR_INPUTS(b, NB)
		offset[b] = q4_offset_of(xq + b * stride, chunks);
	const __m512i offsets = q4_lane_offsets(offset);
	size_t panel_bytes = (size_t)chunks * CHUNK_STRIDE;

	for (int p = 0; p < panels; p++, codes += panel_bytes, sums += FORMAT_PANEL_ROWS) {
		__m512i acc[16];
		q4_four_rows(codes, chunks, xq, stride, NB, acc);
		/* 128-bit lane b: input b's four rows */
		__m512i v = _mm512_sub_epi32(reduce16(acc), offsets);
		_mm_storeu_si128((__m128i *)sums, _mm512_castsi512_si128(v));
		if (NB > 1)
			_mm_storeu_si128((__m128i *)(sums + ld), _mm512_extracti32x4_epi32(v, 1));
		if (NB > 2)
			_mm_storeu_si128((__m128i *)(sums + 2 * ld), _mm512_extracti32x4_epi32(v, 2));
		if (NB > 3)
			_mm_storeu_si128((__m128i *)(sums + 3 * ld), _mm512_extracti32x4_epi32(v, 3));
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
			FOR_PANEL_ROWS(r) {
				__m512i w = q8_weights(panel + r * FORMAT_CHUNK_BYTES + 32 * half, &t);
				FOR_INPUTS(b, NB) {
					__m512i *a = &acc[b * FORMAT_PANEL_ROWS + r];
					*a = _mm512_dpwssd_epi32(*a, w, q8_x(xq + b * stride + 32 * half));
				}
			}
	if (NB == 1)
		_mm_storeu_si128((__m128i *)out, reduce4(acc));
	else
		_mm512_mask_storeu_epi32(out, (__mmask16)((1u << (NB * FORMAT_PANEL_ROWS)) - 1), reduce16(acc));
}

/* ---- the entry points ------------------------------------------------------ */

TARGET static void q4_block(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, int nb,
			    int32_t *sums, size_t ld)
{
	for (; nb > 0; nb -= 4, xq += 4 * stride, sums += 4 * ld)
		switch (nb) {
		case 1: q4_block_nb(codes, panels, chunks, xq, stride, 1, sums, ld); break;
		case 2: q4_block_nb(codes, panels, chunks, xq, stride, 2, sums, ld); break;
		case 3: q4_block_nb(codes, panels, chunks, xq, stride, 3, sums, ld); break;
		default: q4_block_nb(codes, panels, chunks, xq, stride, 4, sums, ld); break;
		}
}

TARGET static void q4_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q4_block_nb(panel, 1, chunks, xq, 0, 1, out, FORMAT_PANEL_ROWS);
}

TARGET static void q4_panel_multi(const uint8_t *panel, int chunks, const int8_t *xq, size_t stride, int nb,
				  int32_t *out)
{
	q4_block(panel, 1, chunks, xq, stride, nb, out, FORMAT_PANEL_ROWS);
}

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

const quant_qdot QDOT = { QDOT_NAME, q8_dot, q4_dot, q8_panel, q4_panel, q8_panel_multi, q4_panel_multi,
				       quant_f32_rows_avx512, &quant_ew_avx512, q4_block };
#endif
