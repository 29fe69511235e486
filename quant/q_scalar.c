/* Portable scalar dot products for q8 and q4: the reference every SIMD
 * implementation must match exactly (qdot.h). */
#include "matrix.h"
#include "qdot.h"

/* The level tables of logquant.c with the sign applied, indexed by the code:
 * written out so that kernels index constants (tests/test_quant.c checks
 * them against nmt_q_level). */
const int16_t nmt_q8_levels[256] = {
	4096, 3922, 3756, 3597, 3444, 3298, 3158, 3025, 2896, 2774, 2656, 2543, 2435, 2332, 2233, 2139,
	2048, 1961, 1878, 1798, 1722, 1649, 1579, 1512, 1448, 1387, 1328, 1272, 1218, 1166, 1117, 1069,
	1024, 981, 939, 899, 861, 825, 790, 756, 724, 693, 664, 636, 609, 583, 558, 535,
	512, 490, 470, 450, 431, 412, 395, 378, 362, 347, 332, 318, 304, 292, 279, 267,
	256, 245, 235, 225, 215, 206, 197, 189, 181, 173, 166, 159, 152, 146, 140, 134,
	128, 123, 117, 112, 108, 103, 99, 95, 91, 87, 83, 79, 76, 73, 70, 67,
	64, 61, 59, 56, 54, 52, 49, 47, 45, 43, 41, 40, 38, 36, 35, 33,
	32, 31, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 0,
	-4096, -3922, -3756, -3597, -3444, -3298, -3158, -3025, -2896, -2774, -2656, -2543, -2435, -2332, -2233, -2139,
	-2048, -1961, -1878, -1798, -1722, -1649, -1579, -1512, -1448, -1387, -1328, -1272, -1218, -1166, -1117, -1069,
	-1024, -981, -939, -899, -861, -825, -790, -756, -724, -693, -664, -636, -609, -583, -558, -535,
	-512, -490, -470, -450, -431, -412, -395, -378, -362, -347, -332, -318, -304, -292, -279, -267,
	-256, -245, -235, -225, -215, -206, -197, -189, -181, -173, -166, -159, -152, -146, -140, -134,
	-128, -123, -117, -112, -108, -103, -99, -95, -91, -87, -83, -79, -76, -73, -70, -67,
	-64, -61, -59, -56, -54, -52, -49, -47, -45, -43, -41, -40, -38, -36, -35, -33,
	-32, -31, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, 0,
};

const int8_t nmt_q4_levels[16] = { 64, 32, 16, 8, 4, 2, 1, 0, -64, -32, -16, -8, -4, -2, -1, 0 };

#define CHUNK_STRIDE (NMT_PANEL_ROWS * NMT_CHUNK_BYTES)

static int32_t q8_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += NMT_CHUNK_BYTES)
		for (int j = 0; j < NMT_CHUNK_BYTES; j++)
			sum += nmt_q8_levels[row[j]] * xq[j];
	return sum;
}

static int32_t q4_dot(const uint8_t *row, int chunks, const int8_t *xq)
{
	int32_t sum = 0;
	for (int ch = 0; ch < chunks; ch++, row += CHUNK_STRIDE, xq += 2 * NMT_CHUNK_BYTES)
		for (int j = 0; j < NMT_CHUNK_BYTES; j++)
			sum += nmt_q4_levels[row[j] & 0x0F] * xq[j] + nmt_q4_levels[row[j] >> 4] * xq[NMT_CHUNK_BYTES + j];
	return sum;
}

static void q8_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		out[r] = q8_dot(panel + r * NMT_CHUNK_BYTES, chunks, xq);
}

static void q4_panel(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out)
{
	for (int r = 0; r < NMT_PANEL_ROWS; r++)
		out[r] = q4_dot(panel + r * NMT_CHUNK_BYTES, chunks, xq);
}

const nmt_qdot nmt_qdot_scalar = { "scalar", q8_dot, q4_dot, q8_panel, q4_panel };
