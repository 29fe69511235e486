/* AVX-512 (BW + VNNI) dot products for q8 and q4 (qdot.h). Compiled for
 * those extensions function by function, so the binary still runs on any
 * x86-64; nmt_qdot_select calls them only where CPUID says they exist.
 *
 * q4: a 16-byte shuffle (vpshufb) turns each nibble into its magnitude, and
 * the weight's sign is moved onto the activation (negated under a mask), so
 * vpdpbusd's unsigned x signed byte products give w * x exactly.
 * q8: two 64-entry word permutes (vpermi2w) over the 128 magnitudes give the
 * level, the sign again goes to the activation, and vpdpwssd adds pairs of
 * 16-bit products. */
#if defined(__x86_64__)
#include <immintrin.h>

#include "matrix.h"
#include "qdot.h"
#include "qunroll.h"

#define TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define CHUNK_STRIDE (NMT_PANEL_ROWS * NMT_CHUNK_BYTES)

/* ---- q4 ------------------------------------------------------------------ */

TARGET static inline __m512i q4_mac(__m512i acc, __m512i nibbles, __m512i x, __m512i magnitudes)
{
	__m512i mag = _mm512_shuffle_epi8(magnitudes, nibbles);
	__mmask64 negative = _mm512_test_epi8_mask(nibbles, _mm512_set1_epi8(0x08));
	__m512i signed_x = _mm512_mask_sub_epi8(x, negative, _mm512_setzero_si512(), x);
	return _mm512_dpbusd_epi32(acc, mag, signed_x);
}

TARGET static inline __m512i q4_magnitudes(void)
{
	return _mm512_broadcast_i32x4(_mm_setr_epi8(64, 32, 16, 8, 4, 2, 1, 0, 64, 32, 16, 8, 4, 2, 1, 0));
}

TARGET static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	const __m512i mags = q4_magnitudes(), low = _mm512_set1_epi8(0x0F);
	__m512i acc = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES) {
		__m512i c = _mm512_loadu_si512(row);
		__m512i x0 = _mm512_loadu_si512(xq), x1 = _mm512_loadu_si512(xq + NMT_CHUNK_BYTES);
		acc = q4_mac(acc, _mm512_and_si512(c, low), x0, mags);
		acc = q4_mac(acc, _mm512_and_si512(_mm512_srli_epi16(c, 4), low), x1, mags);
	}
	return _mm512_reduce_add_epi32(acc);
}

TARGET static void q4_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	const __m512i mags = q4_magnitudes(), low = _mm512_set1_epi8(0x0F);
	__m512i acc[NMT_PANEL_ROWS];
	FOR_PANEL_ROWS(r)
		acc[r] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES) {
		__m512i x0 = _mm512_loadu_si512(xq), x1 = _mm512_loadu_si512(xq + NMT_CHUNK_BYTES);
		FOR_PANEL_ROWS(r) {
			__m512i c = _mm512_loadu_si512(panel + r * NMT_CHUNK_BYTES);
			acc[r] = q4_mac(acc[r], _mm512_and_si512(c, low), x0, mags);
			acc[r] = q4_mac(acc[r], _mm512_and_si512(_mm512_srli_epi16(c, 4), low), x1, mags);
		}
	}
	FOR_PANEL_ROWS(r)
		out[r] = _mm512_reduce_add_epi32(acc[r]);
}

/* ---- q8 ------------------------------------------------------------------ */

typedef struct {
	__m512i t[4];   /* the 128 magnitudes as 16-bit words, 32 per register */
} q8_table;

TARGET static inline q8_table q8_load_table(void)
{
	q8_table t;
	for (int i = 0; i < 4; i++)
		t.t[i] = _mm512_loadu_si512(nmt_q8_levels + 32 * i);
	return t;
}

/* 32 codes and 32 activations. */
TARGET static inline __m512i q8_mac(__m512i acc, __m256i codes, __m256i x8, const q8_table *t)
{
	__m512i c = _mm512_cvtepu8_epi16(codes);
	__m512i lo = _mm512_permutex2var_epi16(t->t[0], c, t->t[1]);   /* k < 64: index bits 0-5 */
	__m512i hi = _mm512_permutex2var_epi16(t->t[2], c, t->t[3]);   /* k >= 64 */
	__m512i mag = _mm512_mask_blend_epi16(_mm512_test_epi16_mask(c, _mm512_set1_epi16(0x40)), lo, hi);
	__mmask32 negative = _mm512_test_epi16_mask(c, _mm512_set1_epi16(0x80));
	__m512i x = _mm512_cvtepi8_epi16(x8);
	x = _mm512_mask_sub_epi16(x, negative, _mm512_setzero_si512(), x);
	return _mm512_dpwssd_epi32(acc, mag, x);
}

TARGET static inline __m512i q8_chunk(__m512i acc, const uint8_t *codes, const int8_t *xq, const q8_table *t)
{
	acc = q8_mac(acc, _mm256_loadu_si256((const __m256i *)codes), _mm256_loadu_si256((const __m256i *)xq), t);
	return q8_mac(acc, _mm256_loadu_si256((const __m256i *)(codes + 32)),
		      _mm256_loadu_si256((const __m256i *)(xq + 32)), t);
}

TARGET static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	q8_table t = q8_load_table();
	__m512i acc = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		acc = q8_chunk(acc, row, xq, &t);
	return _mm512_reduce_add_epi32(acc);
}

TARGET static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q8_table t = q8_load_table();
	__m512i acc[NMT_PANEL_ROWS];
	FOR_PANEL_ROWS(r)
		acc[r] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		FOR_PANEL_ROWS(r)
			acc[r] = q8_chunk(acc[r], panel + r * NMT_CHUNK_BYTES, xq, &t);
	FOR_PANEL_ROWS(r)
		out[r] = _mm512_reduce_add_epi32(acc[r]);
}

/* ---- several inputs at once ------------------------------------------------ */

/* One row of a panel against NB inputs: each chunk's codes are decoded once
 * (q4: the magnitudes and sign mask; q8: the 16-bit levels and sign mask)
 * and reused for every input. NB is a constant after inlining, so the
 * accumulators stay in registers. */

TARGET static inline __attribute__((always_inline)) void q4_row_multi(const uint8_t *row, int chunks,
								     const int8_t *xq, size_t stride,
								     const int NB, int32_t *out)
{
	const __m512i mags = q4_magnitudes(), low = _mm512_set1_epi8(0x0F), sign = _mm512_set1_epi8(0x08);
	__m512i acc[NMT_PANEL_INPUTS];
	FOR_INPUTS(b, NB)
		acc[b] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES) {
		__m512i c = _mm512_loadu_si512(row);
		__m512i n0 = _mm512_and_si512(c, low), n1 = _mm512_and_si512(_mm512_srli_epi16(c, 4), low);
		__m512i m0 = _mm512_shuffle_epi8(mags, n0), m1 = _mm512_shuffle_epi8(mags, n1);
		__mmask64 neg0 = _mm512_test_epi8_mask(n0, sign), neg1 = _mm512_test_epi8_mask(n1, sign);
		FOR_INPUTS(b, NB) {
			__m512i x0 = _mm512_loadu_si512(xq + b * stride);
			__m512i x1 = _mm512_loadu_si512(xq + b * stride + NMT_CHUNK_BYTES);
			x0 = _mm512_mask_sub_epi8(x0, neg0, _mm512_setzero_si512(), x0);
			x1 = _mm512_mask_sub_epi8(x1, neg1, _mm512_setzero_si512(), x1);
			acc[b] = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(acc[b], m0, x0), m1, x1);
		}
	}
	FOR_INPUTS(b, NB)
		out[b * NMT_PANEL_ROWS] = _mm512_reduce_add_epi32(acc[b]);
}

/* The 16-bit levels of 32 codes, and which are negative. */
TARGET static inline __m512i q8_levels(__m256i codes, const q8_table *t, __mmask32 *negative)
{
	__m512i c = _mm512_cvtepu8_epi16(codes);
	__m512i lo = _mm512_permutex2var_epi16(t->t[0], c, t->t[1]);
	__m512i hi = _mm512_permutex2var_epi16(t->t[2], c, t->t[3]);
	*negative = _mm512_test_epi16_mask(c, _mm512_set1_epi16(0x80));
	return _mm512_mask_blend_epi16(_mm512_test_epi16_mask(c, _mm512_set1_epi16(0x40)), lo, hi);
}

TARGET static inline __attribute__((always_inline)) void q8_row_multi(const uint8_t *row, int chunks,
								     const int8_t *xq, size_t stride,
								     const int NB, int32_t *out)
{
	q8_table t = q8_load_table();
	__m512i acc[NMT_PANEL_INPUTS];
	FOR_INPUTS(b, NB)
		acc[b] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		for (int half = 0; half < 2; half++) {
			__mmask32 neg;
			__m512i mag = q8_levels(_mm256_loadu_si256((const __m256i *)(row + 32 * half)), &t, &neg);
			FOR_INPUTS(b, NB) {
				__m512i x = _mm512_cvtepi8_epi16(
					_mm256_loadu_si256((const __m256i *)(xq + b * stride + 32 * half)));
				x = _mm512_mask_sub_epi16(x, neg, _mm512_setzero_si512(), x);
				acc[b] = _mm512_dpwssd_epi32(acc[b], mag, x);
			}
		}
	FOR_INPUTS(b, NB)
		out[b * NMT_PANEL_ROWS] = _mm512_reduce_add_epi32(acc[b]);
}

NMT_PANEL_MULTI(q4_panel_multi, q4_row_multi)
NMT_PANEL_MULTI(q8_panel_multi, q8_row_multi)

const nmt_qdot nmt_qdot_avx512 = { "avx512", q8_dot, q4_dot, q8_panel, q4_panel, q8_panel_multi, q4_panel_multi,
				       nmt_f32_rows_avx512, &nmt_ew_avx512 };
#endif
