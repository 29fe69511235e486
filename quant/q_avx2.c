/* AVX2 dot products for q8 and q4 (qdot.h), for x86-64 CPUs without
 * AVX-512 VNNI. Compiled for AVX2 function by function; selected only where
 * CPUID reports it.
 *
 * q4: vpshufb gives each nibble's magnitude and its signed level; vpsignb
 * moves the weight's sign onto the activation; vpmaddubsw multiplies
 * unsigned magnitudes by signed activations into 16-bit pairs (at most
 * 2 * 64 * 127, so never saturating) and vpmaddwd widens them to 32 bits.
 * q8: AVX2 has no 16-bit permute, so eight levels at a time are gathered
 * from the 256-entry table as 32-bit words and multiplied in 32 bits. */
#if defined(__x86_64__)
#include <immintrin.h>

#include "matrix.h"
#include "qdot.h"

#define TARGET __attribute__((target("avx2")))
#define CHUNK_STRIDE (NMT_PANEL_ROWS * NMT_CHUNK_BYTES)

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

TARGET static inline q4_consts q4_setup(void)
{
	q4_consts k;
	k.magnitude = _mm256_broadcastsi128_si256(_mm_setr_epi8(64, 32, 16, 8, 4, 2, 1, 0, 64, 32, 16, 8, 4, 2, 1, 0));
	k.level = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)nmt_q4_levels));
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
		acc = q4_mac(acc, hi, _mm256_loadu_si256((const __m256i *)(xq + NMT_CHUNK_BYTES + 32 * half)), k);
	}
	return acc;
}

TARGET static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	q4_consts k = q4_setup();
	__m256i acc = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES)
		acc = q4_chunk(acc, row, xq, &k);
	return hsum(acc);
}

TARGET static void q4_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	q4_consts k = q4_setup();
	__m256i acc[NMT_PANEL_ROWS];
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		acc[r] = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES)
		for (int r = 0; r < NMT_PANEL_ROWS; r++)
			acc[r] = q4_chunk(acc[r], panel + r * NMT_CHUNK_BYTES, xq, &k);
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		out[r] = hsum(acc[r]);
}

/* ---- q8 ------------------------------------------------------------------ */

TARGET static inline __m256i q8_chunk(__m256i acc, const uint8_t *codes, const int8_t *xq, const int32_t *table)
{
	for (int j = 0; j < NMT_CHUNK_BYTES; j += 8) {
		__m256i idx = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(codes + j)));
		__m256i w = _mm256_i32gather_epi32(table, idx, 4);
		__m256i x = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(xq + j)));
		acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(w, x));
	}
	return acc;
}

TARGET static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	__m256i acc = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		acc = q8_chunk(acc, row, xq, nmt_q8_levels32);
	return hsum(acc);
}

TARGET static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	__m256i acc[NMT_PANEL_ROWS];
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		acc[r] = _mm256_setzero_si256();
	for (int ch = 0; ch < chunks; ch++, panel += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		for (int r = 0; r < NMT_PANEL_ROWS; r++)
			acc[r] = q8_chunk(acc[r], panel + r * NMT_CHUNK_BYTES, xq, nmt_q8_levels32);
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		out[r] = hsum(acc[r]);
}

const nmt_qdot nmt_qdot_avx2 = { "avx2", q8_dot, q4_dot, q8_panel, q4_panel, nmt_f32_rows_avx2 };
#endif
