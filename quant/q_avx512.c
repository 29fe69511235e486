/* AVX-512 (BW + VNNI) dot products for q8 and q4 (qdot.h). Compiled for
 * those extensions function by function, so the binary still runs on any
 * x86-64; nmt_qdot_select calls them only where CPUID says they exist.
 *
 * q4: a 16-byte shuffle (vpshufb) turns each nibble into its signed level,
 * and vpdpbusd multiplies it by the activation offset to an unsigned byte
 * (x + 128, qdot.h); 128 times the weights' sum, taken alongside, corrects
 * the offset exactly.
 * q8: two 64-entry word permutes (vpermi2w) over the 128 magnitudes give the
 * level, the sign bit negates it, and vpdpwssd adds pairs of 16-bit products.
 * A panel's four rows are computed together against up to four inputs,
 * each weight decoded once for all of them. */
#if defined(__x86_64__)
#include <immintrin.h>

#include "matrix.h"
#include "qdot.h"
#include "qunroll.h"

#define TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define CHUNK_STRIDE (NMT_PANEL_ROWS * NMT_CHUNK_BYTES)

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

/* out[4b + r] = the sum over 128-bit lanes of q[b]'s r-th words (q[b] from
 * add_pairs64: input b's four rows), for b < NB. */
TARGET static inline __attribute__((always_inline)) void store_sums(__m512i *q, const int NB, int32_t *out)
{
	if (NB == 1) {
		_mm_storeu_si128((__m128i *)out, add_lanes128(q[0]));
		return;
	}
	for (int b = NB; b < 4; b++)
		q[b] = _mm512_setzero_si512();
	_mm512_mask_storeu_epi32(out, (__mmask16)((1u << (4 * NB)) - 1), add_lanes4(q));
}

/* ---- q4 ------------------------------------------------------------------ */

/* One shuffle (vpshufb) turns each nibble into its signed level; the
 * activations come as x + 128 (qdot.h), so vpdpbusd's unsigned x signed
 * byte products sum w * (x + 128), and a second accumulator per row sums
 * 128 * w for the correction. Both are exact in int32 (|w| <= 64,
 * x + 128 <= 255, at most 2 * 16384 columns). */
TARGET static inline __m512i q4_levels(void)
{
	return _mm512_broadcast_i32x4(_mm_setr_epi8(64, 32, 16, 8, 4, 2, 1, 0, -64, -32, -16, -8, -4, -2, -1, 0));
}

/* The signed weights of a chunk's 128 columns: w0 the first 64, w1 the next. */
TARGET static inline void q4_weights(const uint8_t *chunk, __m512i levels, __m512i *w0, __m512i *w1)
{
	const __m512i low = _mm512_set1_epi8(0x0F);
	__m512i c = _mm512_loadu_si512(chunk);
	*w0 = _mm512_shuffle_epi8(levels, _mm512_and_si512(c, low));
	*w1 = _mm512_shuffle_epi8(levels, _mm512_and_si512(_mm512_srli_epi16(c, 4), low));
}

/* 128 * (w0 + w1), summed into wsum */
TARGET static inline __m512i q4_offset_sum(__m512i wsum, __m512i w0, __m512i w1)
{
	const __m512i offset = _mm512_set1_epi8((char)0x80);
	return _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(wsum, offset, w0), offset, w1);
}

TARGET static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	const __m512i levels = q4_levels();
	__m512i acc = _mm512_setzero_si512(), wsum = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES) {
		__m512i w0, w1;
		q4_weights(row, levels, &w0, &w1);
		acc = _mm512_dpbusd_epi32(acc, _mm512_loadu_si512(xq), w0);
		acc = _mm512_dpbusd_epi32(acc, _mm512_loadu_si512(xq + NMT_CHUNK_BYTES), w1);
		wsum = q4_offset_sum(wsum, w0, w1);
	}
	return _mm512_reduce_add_epi32(_mm512_sub_epi32(acc, wsum));
}

/* Rows r0 and r0 + 1 of a panel against NB inputs: for input b,
 * add_pairs32 of the two rows' accumulators, less the offset correction. */
TARGET static inline __attribute__((always_inline)) void q4_two_rows(const uint8_t *panel, int chunks,
								    const int8_t *xq, size_t stride,
								    const int NB, int r0, __m512i *pairs)
{
	const __m512i levels = q4_levels();
	__m512i acc[NMT_PANEL_INPUTS][2], wsum[2];
	FOR_INPUTS(b, NB)
		acc[b][0] = acc[b][1] = _mm512_setzero_si512();
	wsum[0] = wsum[1] = _mm512_setzero_si512();
	panel += r0 * NMT_CHUNK_BYTES;
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES)
		_Pragma("GCC unroll 2") for (int r = 0; r < 2; r++) {
			__m512i w0, w1;
			q4_weights(panel + r * NMT_CHUNK_BYTES, levels, &w0, &w1);
			wsum[r] = q4_offset_sum(wsum[r], w0, w1);
			FOR_INPUTS(b, NB) {
				acc[b][r] = _mm512_dpbusd_epi32(acc[b][r], _mm512_loadu_si512(xq + b * stride), w0);
				acc[b][r] = _mm512_dpbusd_epi32(acc[b][r], _mm512_loadu_si512(xq + b * stride + NMT_CHUNK_BYTES),
								w1);
			}
		}
	FOR_INPUTS(b, NB)
		pairs[b] = add_pairs32(_mm512_sub_epi32(acc[b][0], wsum[0]), _mm512_sub_epi32(acc[b][1], wsum[1]));
}

/* A panel's four rows against NB inputs (NB a constant after inlining):
 * each chunk is decoded once for all the inputs. Two rows at a time keep
 * every accumulator in a register. */
TARGET static inline __attribute__((always_inline)) void q4_panel_nb(const uint8_t *panel, int chunks,
								    const int8_t *xq, size_t stride,
								    const int NB, int32_t *out)
{
	__m512i low[NMT_PANEL_INPUTS], high[NMT_PANEL_INPUTS], q[NMT_PANEL_INPUTS];
	q4_two_rows(panel, chunks, xq, stride, NB, 0, low);
	q4_two_rows(panel, chunks, xq, stride, NB, 2, high);
	FOR_INPUTS(b, NB)
		q[b] = add_pairs64(low[b], high[b]);
	store_sums(q, NB, out);
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
		t.t[i] = _mm512_loadu_si512(nmt_q8_levels + 32 * i);
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
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES) {
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
	__m512i acc[NMT_PANEL_INPUTS * NMT_PANEL_ROWS];
	_Pragma("GCC unroll 16") for (int i = 0; i < NMT_PANEL_INPUTS * NMT_PANEL_ROWS; i++)
		acc[i] = _mm512_setzero_si512();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		_Pragma("GCC unroll 2") for (int half = 0; half < 2; half++)
			FOR_PANEL_ROWS(r) {
				__m512i w = q8_weights(panel + r * NMT_CHUNK_BYTES + 32 * half, &t);
				FOR_INPUTS(b, NB) {
					__m512i *a = &acc[b * NMT_PANEL_ROWS + r];
					*a = _mm512_dpwssd_epi32(*a, w, q8_x(xq + b * stride + 32 * half));
				}
			}
	if (NB == 1)
		_mm_storeu_si128((__m128i *)out, reduce4(acc));
	else
		_mm512_mask_storeu_epi32(out, (__mmask16)((1u << (NB * NMT_PANEL_ROWS)) - 1), reduce16(acc));
}

/* ---- the entry points ------------------------------------------------------ */

TARGET static void q4_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q4_panel_nb(panel, chunks, xq, 0, 1, out);
}

TARGET static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q8_panel_nb(panel, chunks, xq, 0, 1, out);
}

/* out[b * NMT_PANEL_ROWS + r] for nb <= NMT_PANEL_INPUTS inputs */
#define PANEL_MULTI(name, panel_nb)                                                                   \
	TARGET static void name(const uint8_t *panel, int chunks, const int8_t *xq, size_t stride, int nb, \
				int32_t *out)                                                              \
	{                                                                                                 \
		switch (nb) {                                                                             \
		case 1: panel_nb(panel, chunks, xq, stride, 1, out); break;                              \
		case 2: panel_nb(panel, chunks, xq, stride, 2, out); break;                              \
		case 3: panel_nb(panel, chunks, xq, stride, 3, out); break;                              \
		default: panel_nb(panel, chunks, xq, stride, 4, out); break;                             \
		}                                                                                         \
	}

PANEL_MULTI(q4_panel_multi, q4_panel_nb)
PANEL_MULTI(q8_panel_multi, q8_panel_nb)

const nmt_qdot nmt_qdot_avx512 = { "avx512", q8_dot, q4_dot, q8_panel, q4_panel, q8_panel_multi, q4_panel_multi,
				       nmt_f32_rows_avx512, &nmt_ew_avx512, 128 };
#endif
