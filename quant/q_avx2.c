/* AVX2 dot products for q8, q4, q4n and i8 (qdot.h), for x86-64 CPUs without
 * AVX-512 VNNI. Compiled for AVX2 function by function; selected only where
 * CPUID reports it.
 *
 * q4 (and q4n, its other table): vpshufb gives each nibble's magnitude and its signed level; vpsignb
 * moves the weight's sign onto the activation; vpmaddubsw multiplies
 * unsigned magnitudes by signed activations into 16-bit pairs (at most
 * 2 * 64 * 127, so never saturating) and vpmaddwd widens them to 32 bits.
 * q8: AVX2 has no 16-bit table lookup; the levels are computed from byte
 * shuffles and a rounding multiply (q8_mac32), then vpmaddwd.
 * i8: the weights' magnitudes (vpabsb, at most 128) against the activations
 * with the weights' signs (vpsignb), vpmaddubsw (at most 2 * 128 * 127) and
 * vpmaddwd, as for q4 but with nothing to decode; the layout puts each row's
 * sum in its own lane. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "matrix.h"
#include "qdot.h"
#include "qunroll.h"

#define TARGET __attribute__((target("avx2")))
#define CHUNK_STRIDE (FORMAT_PANEL_ROWS * FORMAT_CHUNK_BYTES)

TARGET static inline int32_t hsum(__m256i v)
{
	__m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
	return _mm_cvtsi128_si32(s);
}

/* ---- q4 ------------------------------------------------------------------ */

typedef struct {
	__m256i magnitude, level, low, ones;
} q4_consts;

/* The tables of a 4-bit format's signed levels (q4's or q4n's). */
TARGET static inline q4_consts q4_setup(const int8_t *table)
{
	q4_consts k;
	__m128i levels = _mm_loadu_si128((const __m128i *)table);
	k.magnitude = _mm256_broadcastsi128_si256(_mm_abs_epi8(levels));
	k.level = _mm256_broadcastsi128_si256(levels);
	k.low = _mm256_set1_epi8(0x0F);
	k.ones = _mm256_set1_epi16(1);
	return k;
}

/* 32 nibbles against 32 activations. */
TARGET static inline __m256i q4_mac(__m256i acc, __m256i nibbles, __m256i x, const q4_consts *k)
{
	__m256i mag = _mm256_shuffle_epi8(k->magnitude, nibbles);
	__m256i signed_x = _mm256_sign_epi8(x, _mm256_shuffle_epi8(k->level, nibbles));
	__m256i pairs = _mm256_maddubs_epi16(mag, signed_x);
	return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, k->ones));
}

/* One 64-byte chunk (128 columns). */
TARGET static inline __m256i q4_chunk(__m256i acc, const uint8_t *codes, const int8_t *xq, const q4_consts *k)
{
	for (int half = 0; half < 2; half++) {
		__m256i c = _mm256_loadu_si256((const __m256i *)(codes + 32 * half));
		__m256i lo = _mm256_and_si256(c, k->low);
		__m256i hi = _mm256_and_si256(_mm256_srli_epi16(c, 4), k->low);
		acc = q4_mac(acc, lo, _mm256_loadu_si256((const __m256i *)(xq + 32 * half)), k);
		acc = q4_mac(acc, hi, _mm256_loadu_si256((const __m256i *)(xq + FORMAT_CHUNK_BYTES + 32 * half)), k);
	}
	return acc;
}

TARGET static inline __attribute__((always_inline)) int32_t nibble_dot(const int8_t *table, const uint8_t *row,
									int chunks, const int8_t *xq)
{
	q4_consts k = q4_setup(table);
	__m256i acc = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		acc = q4_chunk(acc, row, xq, &k);
	return hsum(acc);
}

TARGET static inline __attribute__((always_inline)) void nibble_panel(const int8_t *table, const uint8_t *panel,
								      int chunks, const int8_t *xq, int32_t *out)
{
	q4_consts k = q4_setup(table);
	__m256i acc[FORMAT_PANEL_ROWS];
	QUANT_FOR_PANEL_ROWS(r)
		acc[r] = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		QUANT_FOR_PANEL_ROWS(r)
			acc[r] = q4_chunk(acc[r], panel + r * FORMAT_CHUNK_BYTES, xq, &k);
	QUANT_FOR_PANEL_ROWS(r)
		out[r] = hsum(acc[r]);
}

/* ---- q8 ------------------------------------------------------------------ */

/* AVX2 has no 16-bit table lookup, so a q8 magnitude code k = 16a + b
 * (a = 0..7, b = 0..15) is decoded arithmetically from byte shuffles:
 *     level(k) = round(2 L(b) * 2^(14 - a) / 2^15) - fix(k)
 * with L(b) = quant_q8_levels[b], the rounding multiply being vpmulhrsw. The
 * double rounding is off by one for five codes (19, 23, 31, 41, 106): fix
 * is bit a of FIX[b]. Code 127 is the zero weight: its activation is
 * zeroed instead. test_quant checks every code against the level table. */
typedef struct {
	__m256i l2_lo, l2_hi;   /* bytes of 2 L(b) */
	__m256i y_lo, y_hi;     /* bytes of 2^(14 - a) */
	__m256i fix, bit;       /* FIX[b]; 1 << a */
	__m256i low4, low3, magnitude, zero_code, one;
} q8_consts;

#define BOTH_LANES(...) _mm256_broadcastsi128_si256(_mm_setr_epi8(__VA_ARGS__))

TARGET static inline q8_consts q8_setup(void)
{
	q8_consts k;
	k.l2_lo = BOTH_LANES(0, (char)164, 88, 26, (char)232, (char)196, (char)172, (char)162, (char)160, (char)172,
			     (char)192, (char)222, 6, 56, 114, (char)182);
	k.l2_hi = BOTH_LANES(32, 30, 29, 28, 26, 25, 24, 23, 22, 21, 20, 19, 19, 18, 17, 16);
	k.y_lo = BOTH_LANES(0, 0, 0, 0, 0, 0, 0, (char)128, 0, 0, 0, 0, 0, 0, 0, 0);
	k.y_hi = BOTH_LANES(64, 32, 16, 8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	k.fix = BOTH_LANES(0, 0, 0, 2, 0, 0, 0, 2, 0, 4, 64, 0, 0, 0, 0, 2);
	k.bit = BOTH_LANES(1, 2, 4, 8, 16, 32, 64, (char)128, 0, 0, 0, 0, 0, 0, 0, 0);
	k.low4 = _mm256_set1_epi8(0x0F);
	k.low3 = _mm256_set1_epi8(0x07);
	k.magnitude = _mm256_set1_epi8(0x7F);
	k.zero_code = _mm256_set1_epi8(0x7F);
	k.one = _mm256_set1_epi8(1);
	return k;
}

/* 32 codes decoded: their levels widened to 16 bits (in the lane-interleaved
 * order of unpacklo/unpackhi), the byte whose sign is the weight's, and
 * which are the zero code. */
typedef struct {
	__m256i level0, level1, sign, zero;
} q8_decoded;

TARGET static inline q8_decoded q8_decode32(__m256i c, const q8_consts *k)
{
	q8_decoded d;
	__m256i mag = _mm256_and_si256(c, k->magnitude);
	__m256i b = _mm256_and_si256(mag, k->low4);
	__m256i a = _mm256_and_si256(_mm256_srli_epi16(mag, 4), k->low3);
	__m256i bit_a = _mm256_shuffle_epi8(k->bit, a);
	__m256i fix = _mm256_min_epu8(_mm256_and_si256(_mm256_shuffle_epi8(k->fix, b), bit_a), k->one);
	__m256i l2_lo = _mm256_shuffle_epi8(k->l2_lo, b), l2_hi = _mm256_shuffle_epi8(k->l2_hi, b);
	__m256i y_lo = _mm256_shuffle_epi8(k->y_lo, a), y_hi = _mm256_shuffle_epi8(k->y_hi, a);
	d.level0 = _mm256_sub_epi16(_mm256_mulhrs_epi16(_mm256_unpacklo_epi8(l2_lo, l2_hi),
							_mm256_unpacklo_epi8(y_lo, y_hi)),
				    _mm256_unpacklo_epi8(fix, _mm256_setzero_si256()));
	d.level1 = _mm256_sub_epi16(_mm256_mulhrs_epi16(_mm256_unpackhi_epi8(l2_lo, l2_hi),
							_mm256_unpackhi_epi8(y_lo, y_hi)),
				    _mm256_unpackhi_epi8(fix, _mm256_setzero_si256()));
	d.sign = _mm256_or_si256(c, k->one);   /* negative exactly when the weight is */
	d.zero = _mm256_cmpeq_epi8(mag, k->zero_code);
	return d;
}

/* Decoded codes against 32 activations, into eight 32-bit sums: the weight's
 * sign moves onto the activation, the zero code zeroes it, and the bytes
 * are widened by the same unpacking as the levels. */
TARGET static inline __m256i q8_apply32(__m256i acc, const q8_decoded *d, __m256i x)
{
	__m256i sx = _mm256_andnot_si256(d->zero, _mm256_sign_epi8(x, d->sign));
	__m256i sx_high = _mm256_cmpgt_epi8(_mm256_setzero_si256(), sx);
	acc = _mm256_add_epi32(acc, _mm256_madd_epi16(d->level0, _mm256_unpacklo_epi8(sx, sx_high)));
	return _mm256_add_epi32(acc, _mm256_madd_epi16(d->level1, _mm256_unpackhi_epi8(sx, sx_high)));
}

TARGET static inline __m256i q8_mac32(__m256i acc, __m256i c, __m256i x, const q8_consts *k)
{
	q8_decoded d = q8_decode32(c, k);
	return q8_apply32(acc, &d, x);
}

TARGET static inline __m256i q8_chunk(__m256i acc, const uint8_t *codes, const int8_t *xq, const q8_consts *k)
{
	acc = q8_mac32(acc, _mm256_loadu_si256((const __m256i *)codes), _mm256_loadu_si256((const __m256i *)xq), k);
	return q8_mac32(acc, _mm256_loadu_si256((const __m256i *)(codes + 32)),
			_mm256_loadu_si256((const __m256i *)(xq + 32)), k);
}

TARGET static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	q8_consts k = q8_setup();
	__m256i acc = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		acc = q8_chunk(acc, row, xq, &k);
	return hsum(acc);
}

TARGET static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q8_consts k = q8_setup();
	__m256i acc[FORMAT_PANEL_ROWS];
	QUANT_FOR_PANEL_ROWS(r)
		acc[r] = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		QUANT_FOR_PANEL_ROWS(r)
			acc[r] = q8_chunk(acc[r], panel + r * FORMAT_CHUNK_BYTES, xq, &k);
	QUANT_FOR_PANEL_ROWS(r)
		out[r] = hsum(acc[r]);
}

/* ---- several inputs at once ------------------------------------------------ */

/* One row of a panel against NB inputs, each chunk decoded once (qdot.h);
 * NB is a constant after inlining, so the accumulators stay in registers. */

/* One row against NB <= QUANT_KBATCH inputs: out[b * ld]. */
TARGET static inline __attribute__((always_inline)) void q8_row_nb(const uint8_t *row, int chunks,
								  const int8_t *xq, size_t stride, const int NB,
								  int32_t *out, size_t ld)
{
	q8_consts k = q8_setup();
	__m256i acc[QUANT_KBATCH];
	QUANT_FOR_KBATCH(b, NB)
		acc[b] = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += FORMAT_CHUNK_BYTES)
		for (int half = 0; half < 2; half++) {
			q8_decoded d = q8_decode32(_mm256_loadu_si256((const __m256i *)(row + 32 * half)), &k);
			QUANT_FOR_KBATCH(b, NB)
				acc[b] = q8_apply32(acc[b], &d,
						    _mm256_loadu_si256((const __m256i *)(xq + b * stride + 32 * half)));
		}
	QUANT_FOR_KBATCH(b, NB)
		out[b * ld] = hsum(acc[b]);
}

TARGET static inline __attribute__((always_inline)) void q8_row_multi(const uint8_t *row, int chunks,
								     const int8_t *xq, size_t stride,
								     const int NB, int32_t *out)
{
	q8_row_nb(row, chunks, xq, stride, NB, out, FORMAT_PANEL_ROWS);
}

/* qdot.h's q8_block: each row decoded once for all nb inputs, eight
 * rather than the panel functions' four, which halves the decoding per
 * product (AVX2 computes q8 levels, costlier than applying them). */
QUANT_BLOCK_BY_ROWS(q8_block, q8_row_nb)

TARGET static inline __attribute__((always_inline)) void nibble_row_multi(const int8_t *table, const uint8_t *row,
									 int chunks, const int8_t *xq, size_t stride,
									 const int NB, int32_t *out)
{
	q4_consts k = q4_setup(table);
	__m256i acc[QUANT_PANEL_INPUTS];
	QUANT_FOR_INPUTS(b, NB)
		acc[b] = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * FORMAT_CHUNK_BYTES)
		for (int part = 0; part < 4; part++) {   /* low nibbles of bytes 0-31, 32-63, then high */
			__m256i c = _mm256_loadu_si256((const __m256i *)(row + 32 * (part & 1)));
			__m256i nib = _mm256_and_si256(part < 2 ? c : _mm256_srli_epi16(c, 4), k.low);
			__m256i mag = _mm256_shuffle_epi8(k.magnitude, nib), sign = _mm256_shuffle_epi8(k.level, nib);
			const int8_t *x = xq + (part >> 1) * FORMAT_CHUNK_BYTES + 32 * (part & 1);
			QUANT_FOR_INPUTS(b, NB) {
				__m256i sx = _mm256_sign_epi8(_mm256_loadu_si256((const __m256i *)(x + b * stride)), sign);
				acc[b] = _mm256_add_epi32(acc[b], _mm256_madd_epi16(_mm256_maddubs_epi16(mag, sx), k.ones));
			}
		}
	QUANT_FOR_INPUTS(b, NB)
		out[b * FORMAT_PANEL_ROWS] = hsum(acc[b]);
}

/* ---- i8 ------------------------------------------------------------------ */

/* A panel's group of four columns (format/weights.h) is two registers of
 * 8 rows x 4 weights. Against one input's four activations broadcast, with
 * the weights' signs moved onto them, vpmaddubsw and vpmaddwd leave each
 * row's four products summed in that row's lane. */
TARGET static inline __m256i i8_x4(const int8_t *x)
{
	int32_t v;
	memcpy(&v, x, sizeof v);
	return _mm256_set1_epi32(v);
}

/* One panel against NB <= 4 inputs: acc[2 * b + h] holds rows 8h..8h+7
 * for input b. */
TARGET static inline __attribute__((always_inline)) void i8_panel_nb(const uint8_t *codes, int groups,
								    const int8_t *xq, size_t stride, const int NB,
								    __m256i acc[8])
{
	const __m256i ones = _mm256_set1_epi16(1);
	_Pragma("GCC unroll 8") for (int i = 0; i < 8; i++)
		acc[i] = _mm256_setzero_si256();
	for (int g = 0; g < groups; g++, codes += 64, xq += 4) {
		__m256i w[2], mag[2];
		for (int h = 0; h < 2; h++) {
			w[h] = _mm256_loadu_si256((const __m256i *)(codes + 32 * h));
			mag[h] = _mm256_abs_epi8(w[h]);
		}
		QUANT_FOR_INPUTS(b, NB) {
			__m256i x = i8_x4(xq + b * stride);
			for (int h = 0; h < 2; h++) {
				__m256i pairs = _mm256_maddubs_epi16(mag[h], _mm256_sign_epi8(x, w[h]));
				acc[2 * b + h] = _mm256_add_epi32(acc[2 * b + h], _mm256_madd_epi16(pairs, ones));
			}
		}
	}
}

TARGET static inline __attribute__((always_inline)) void i8_block_nb(const uint8_t *codes, int panels, int chunks,
								    const int8_t *xq, size_t stride, const int NB,
								    int32_t *sums, size_t ld)
{
	int groups = chunks * FORMAT_CHUNK_BYTES / 4;
	for (int p = 0; p < panels; p++, codes += (size_t)groups * 64, sums += FORMAT_I8_PANEL_ROWS) {
		__m256i acc[8];
		i8_panel_nb(codes, groups, xq, stride, NB, acc);
		QUANT_FOR_INPUTS(b, NB)
			for (int h = 0; h < 2; h++)
				_mm256_storeu_si256((__m256i *)(sums + b * ld + 8 * h), acc[2 * b + h]);
	}
}

/* qdot.h's i8_block, four inputs at a time. */
QUANT_BLOCK_BY_FOURS(i8_block, i8_block_nb)

QUANT_PANEL_MULTI(q8_panel_multi, q8_row_multi)

/* The entry points of a 4-bit format (q4, q4n): the code above with its
 * level table. */
#define NIBBLE_ENTRIES(fmt, table)                                                                             \
	TARGET static int32_t fmt##_dot(const uint8_t *row, int chunks, const int8_t *xq)                      \
	{                                                                                                    \
		return nibble_dot(table, row, chunks, xq);                                                   \
	}                                                                                                    \
	TARGET static void fmt##_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)       \
	{                                                                                                    \
		nibble_panel(table, panel, chunks, xq, out);                                                 \
	}                                                                                                    \
	TARGET static inline __attribute__((always_inline)) void fmt##_row_multi(                            \
		const uint8_t *row, int chunks, const int8_t *xq, size_t stride, const int NB, int32_t *out) \
	{                                                                                                    \
		nibble_row_multi(table, row, chunks, xq, stride, NB, out);                                   \
	}                                                                                                    \
	QUANT_PANEL_MULTI(fmt##_panel_multi, fmt##_row_multi)

NIBBLE_ENTRIES(q4, quant_q4_levels)
NIBBLE_ENTRIES(q4n, quant_q4n_levels)

const quant_qdot quant_qdot_avx2 = { .name = "avx2", .q8 = q8_dot, .q4 = q4_dot, .q8_panel = q8_panel,
				     .q4_panel = q4_panel, .q8_panel_multi = q8_panel_multi,
				     .q4_panel_multi = q4_panel_multi, .f32_rows = quant_f32_rows_avx2,
				     .ew = &quant_ew_avx2, .q8_block = q8_block, .i8_block = i8_block, .q4n = q4n_dot,
				     .q4n_panel = q4n_panel, .q4n_panel_multi = q4n_panel_multi };
#endif
