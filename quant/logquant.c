/* The log-quantization formats and the quantizer (see logquant.h). Used by
 * model-pack and the tests; the engine only reads the tables. */
#include "logquant.h"

#include <math.h>
#include <stddef.h>

/* The formats' levels, indexed by the code (sign bit included), written out
 * so that the file format does not depend on a libm's rounding of
 * 2^(-k/16) and the kernels index constants. The first 128 q8 entries are
 * the magnitude table quant_logq_table returns. */
const int16_t quant_q8_levels[256] = {
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


const int8_t quant_q4_levels[16] = { 64, 32, 16, 8, 4, 2, 1, 0, -64, -32, -16, -8, -4, -2, -1, 0 };
const int8_t quant_q4n_levels[16] = { 64, 48, 37, 28, 20, 13, 7, 0, -64, -48, -37, -28, -20, -13, -7, 0 };

/* The 4-bit magnitudes as the int16 tables quant_logq_table returns. */
static const int16_t q4_table[8] = { 64, 32, 16, 8, 4, 2, 1, 0 };
static const int16_t q4n_table[8] = { 64, 48, 37, 28, 20, 13, 7, 0 };

int quant_logq_code_bits(quant_logq_format fmt)
{
	return fmt == QUANT_LOGQ_8 ? 8 : 4;
}

int quant_logq_levels(quant_logq_format fmt)
{
	return fmt == QUANT_LOGQ_8 ? 128 : 8;
}

const int16_t *quant_logq_table(quant_logq_format fmt)
{
	return fmt == QUANT_LOGQ_8 ? quant_q8_levels : fmt == QUANT_LOGQ_4N ? q4n_table : q4_table;
}

float quant_logq_value(quant_logq_format fmt, float scale, uint8_t code)
{
	const int16_t *level = quant_logq_table(fmt);
	int k = code & (quant_logq_levels(fmt) - 1);
	float v = scale * (float)level[k] / (float)level[0];
	return code >> (quant_logq_code_bits(fmt) - 1) & 1 ? -v : v;
}

/* The midpoints between neighbouring levels in units of the scale,
 * mid[k] = (level[k] + level[k + 1]) / (2 level[0]); a magnitude m >= mid[k]
 * is nearer to level k than to level k + 1. */
typedef struct {
	double mid[127];
	int n_levels;
} midpoints;

static void make_midpoints(quant_logq_format fmt, midpoints *mp)
{
	const int16_t *level = quant_logq_table(fmt);
	mp->n_levels = quant_logq_levels(fmt);
	for (int k = 0; k + 1 < mp->n_levels; k++)
		mp->mid[k] = (level[k] + level[k + 1]) / (2.0 * level[0]);
}

/* The code k whose magnitude is nearest to m (in units of the scale): the
 * number of midpoints above m, since they descend. A branch-free binary
 * search (the comparisons are unpredictable, and this runs for every weight
 * in every round of the scale search). */
static int nearest_level(const midpoints *mp, double m)
{
	const double *base = mp->mid;
	int len = mp->n_levels - 1;
	while (len > 1) {
		int half = len / 2;
		base = base[half - 1] > m ? base + half : base;
		len -= half;
	}
	return (int)(base - mp->mid) + (base[0] > m);
}

/* Assign every weight its nearest code for scale s; return the error. */
static double assign(quant_logq_format fmt, const midpoints *mp, const float *w, int n, double s, uint8_t *codes)
{
	const int16_t *level = quant_logq_table(fmt);
	unsigned negative = 1u << (quant_logq_code_bits(fmt) - 1);
	double err = 0;
	for (int i = 0; i < n; i++) {
		double a = fabs((double)w[i]);
		int k = nearest_level(mp, a / s);
		double d = a - s * level[k] / level[0];
		err += d * d;
		codes[i] = (uint8_t)((w[i] < 0 && level[k] != 0 ? negative : 0u) | (unsigned)k);
	}
	return err;
}

/* Least-squares scale for fixed codes: argmin_s sum (|w| - s*l)^2. */
static double best_scale(quant_logq_format fmt, const float *w, int n, const uint8_t *codes)
{
	const int16_t *level = quant_logq_table(fmt);
	int mask = quant_logq_levels(fmt) - 1;
	double num = 0, den = 0;
	for (int i = 0; i < n; i++) {
		double l = (double)level[codes[i] & mask] / level[0];
		num += fabs((double)w[i]) * l;
		den += l * l;
	}
	return den > 0 ? num / den : 0;
}

enum { STARTS = 8, ROUNDS = 30 };

float quant_logq_quantize_row(quant_logq_format fmt, const float *w, int n, uint8_t *codes)
{
	double amax = 0;
	for (int i = 0; i < n; i++)
		if (fabs((double)w[i]) > amax)
			amax = fabs((double)w[i]);
	if (amax == 0) {
		for (int i = 0; i < n; i++)
			codes[i] = (uint8_t)(quant_logq_levels(fmt) - 1); /* the zero code */
		return 0;
	}
	/* Starting points between amax and amax/2: the largest weights may be
	 * better clipped than fitted (most weights are far smaller). */
	midpoints mp;
	make_midpoints(fmt, &mp);
	double best_s = amax, best_err = INFINITY;
	for (int start = 0; start < STARTS; start++) {
		double s = amax * exp2(-(double)start / STARTS);
		double err = assign(fmt, &mp, w, n, s, codes);
		for (int round = 0; round < ROUNDS; round++) {
			double s2 = best_scale(fmt, w, n, codes);
			if (s2 <= 0 || s2 == s)
				break;
			double err2 = assign(fmt, &mp, w, n, s2, codes);
			if (err2 >= err)
				break;
			s = s2;
			err = err2;
		}
		if (err < best_err) {
			best_err = err;
			best_s = s;
		}
	}
	assign(fmt, &mp, w, n, best_s, codes);
	return (float)best_s;
}

double quant_logq_row_error(quant_logq_format fmt, const float *w, int n, const uint8_t *codes, float scale)
{
	double err = 0;
	for (int i = 0; i < n; i++) {
		double d = (double)w[i] - quant_logq_value(fmt, scale, codes[i]);
		err += d * d;
	}
	return err;
}
