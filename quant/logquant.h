/* Logarithmic weight quantization (docs/DESIGN.md §5; Aji & Heafield, Marian
 * 2019 §6): a weight is a sign and an exponent, w ~= +-s * 2^(-k), with one
 * float scale s per matrix row; and q4n, the same with a 4-bit table fitted
 * to trained weights instead of powers of two.
 *
 * A format is defined by its table of integer magnitudes, level[k] for code
 * k (descending, level[0] = the unit). The value of code (sign, k) in a row
 * with scale s is exactly  +-s * level[k] / level[0],  so a kernel can add up
 * level[k] * x_int in integers and rescale once at the end; the powers of two
 * live in the table, not in the arithmetic.
 *
 *   q8:  level[k] = round(4096 * 2^(-k/16)) for k = 0..126, level[127] = 0
 *        (a step of 2^(1/16), 6% apart, over a range of 2^-7.9; one code is zero)
 *   q4:  level[k] = 64 >> k for k = 0..6, level[7] = 0  (+-64 .. +-1 and zero:
 *        the int8 values a 16-entry table lookup yields, docs/DESIGN.md §5)
 *   q4n: 64, 48, 37, 28, 20, 13, 7, 0: the magnitudes that minimize trained
 *        weights' squared error at each row's best scale (Lloyd-Max on the
 *        general models' matrices, as NF4 and llama.cpp's IQ4_NL fit theirs),
 *        as integers no larger than q4's, so every q4 kernel runs it with the
 *        other table (half of q4's error: docs/RESULTS.md)
 *
 * A code is stored as sign << (bits - 1) | k, bits = quant_logq_code_bits, sign 1 = negative. How codes
 * are laid out for the kernels is the matrix layout's business, not this
 * file's. */
#ifndef QUANT_LOGQUANT_H
#define QUANT_LOGQUANT_H
#include <stdint.h>

typedef enum { QUANT_LOGQ_8, QUANT_LOGQ_4, QUANT_LOGQ_4N } quant_logq_format;

/* Bits of a code (8 or 4), codes per sign (128 or 16/2 = 8), and the
 * magnitude table of the format. */
int quant_logq_code_bits(quant_logq_format fmt);
int quant_logq_levels(quant_logq_format fmt);
const int16_t *quant_logq_table(quant_logq_format fmt);

/* Signed integer level of every q8 code byte, every q4 and q4n nibble. */
extern const int16_t quant_q8_levels[256];
extern const int8_t quant_q4_levels[16];
extern const int8_t quant_q4n_levels[16];

/* The value of one code in a row of scale s. */
float quant_logq_value(quant_logq_format fmt, float scale, uint8_t code);

/* Quantize one row of n weights into n codes (one per byte) and return the
 * row's scale: the one that minimizes the squared error, found by alternating
 * nearest-code assignment and the least-squares scale from several starting
 * points (each round cannot increase the error). A row of zeros gets scale 0. */
float quant_logq_quantize_row(quant_logq_format fmt, const float *w, int n, uint8_t *codes);

/* Squared error of a quantized row against the original weights. */
double quant_logq_row_error(quant_logq_format fmt, const float *w, int n, const uint8_t *codes, float scale);

#endif
