/* The dot products each ISA implements: for q8, q4, q4n and i8, integer dot products
 * of quantized weight rows with int8 activations; for f32, float dot
 * products in the fixed summation order of f32_scalar.c. For q8 and q4 (the formats and their
 * layout are logquant.h and matrix.h; the driver around them, quantizing
 * inputs and rescaling outputs, is q_matmul.c and the same for every ISA).
 *
 * `row` points at a row's first chunk; its next chunks follow
 * FORMAT_PANEL_ROWS * FORMAT_CHUNK_BYTES bytes apart. `xq` holds the activations,
 * padded with zeros to whole chunks. The sums are exact, so every
 * implementation must return the same integers as the scalar one. */
#ifndef QUANT_QDOT_H
#define QUANT_QDOT_H
#include <stddef.h>
#include <stdint.h>

#include "ew.h"
#include "logquant.h"
#include "matrix.h"

typedef struct quant_qdot {
	const char *name;
	int32_t (*q8)(const uint8_t *row, int chunks, const int8_t *xq);
	int32_t (*q4)(const uint8_t *row, int chunks, const int8_t *xq);
	/* All FORMAT_PANEL_ROWS rows of a panel (panel = its row 0): out[r]. */
	void (*q8_panel)(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out);
	void (*q4_panel)(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out);
	/* Optional (NULL: the driver calls the panel functions once per input):
	 * the panel against nb <= QUANT_PANEL_INPUTS inputs, input b at
	 * xq + b * x_stride, out[b * FORMAT_PANEL_ROWS + r]. Decoding each weight
	 * once for all the inputs is what makes beam and batch steps cheaper
	 * than that many single products. */
	void (*q8_panel_multi)(const uint8_t *panel, int chunks, const int8_t *xq, size_t x_stride, int nb,
			       int32_t *out);
	void (*q4_panel_multi)(const uint8_t *panel, int chunks, const int8_t *xq, size_t x_stride, int nb,
			       int32_t *out);
	/* f32: out[r] = w[r] . x over cols columns, r < FORMAT_PANEL_ROWS, every
	 * result bit-identical to quant_f32_rows_scalar's. */
	void (*f32_rows)(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out);
	/* the element-wise kernels for the same instruction set */
	const struct quant_ew *ew;
	/* Optional (NULL: the driver calls the panel functions): `panels`
	 * consecutive panels of a q4 matrix from `codes` against nb <=
	 * QUANT_KBATCH inputs, sums[b * ld + r] for r < panels * FORMAT_PANEL_ROWS.
	 * One call for a block of rows spares the driver a call and a copy per
	 * panel, and lets the ISA take as many inputs per decoded weight as its
	 * registers hold. */
	void (*q4_block)(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t x_stride, int nb,
			 int32_t *sums, size_t ld);
	/* The same for q8 (optional too). */
	void (*q8_block)(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t x_stride, int nb,
			 int32_t *sums, size_t ld);
	/* i8 (every implementation has it): `panels` consecutive panels of
	 * FORMAT_I8_PANEL_ROWS rows in the i8 layout (format/weights.h), each
	 * row `chunks` x 64 columns, against nb <= QUANT_KBATCH inputs,
	 * sums[b * ld + r] for r < panels * FORMAT_I8_PANEL_ROWS. The layout
	 * puts each row's sum in its own lane, so there is no panel function:
	 * one panel is a block of one. */
	void (*i8_block)(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t x_stride, int nb,
			 int32_t *sums, size_t ld);
	/* q4n's, as q4's above (q4n_panel_multi and q4n_block optional): the
	 * same code with the other level table (logquant.h). */
	int32_t (*q4n)(const uint8_t *row, int chunks, const int8_t *xq);
	void (*q4n_panel)(const uint8_t *panel, int chunks, const int8_t *xq, int32_t *out);
	void (*q4n_panel_multi)(const uint8_t *panel, int chunks, const int8_t *xq, size_t x_stride, int nb,
				int32_t *out);
	void (*q4n_block)(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t x_stride, int nb,
			  int32_t *sums, size_t ld);
} quant_qdot;

/* Inputs one q*_panel_multi call takes at most. */
#define QUANT_PANEL_INPUTS 4

/* The f32 kernels are written for panels of four rows. */
_Static_assert(FORMAT_PANEL_ROWS == 4, "f32_rows kernels assume four rows");

void quant_f32_rows_scalar(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out);
#if defined(__x86_64__)
void quant_f32_rows_avx2(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out);
void quant_f32_rows_avx512(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out);
#endif
#if defined(__wasm_simd128__)
void quant_f32_rows_wasm(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out);
#endif
#if defined(__aarch64__)
void quant_f32_rows_neon(const float *const w[FORMAT_PANEL_ROWS], const float *x, int cols, float *out);
#endif

extern const quant_qdot quant_qdot_scalar;
#if defined(__x86_64__)
extern const quant_qdot quant_qdot_avx512_vbmi, quant_qdot_avx512, quant_qdot_avx2;
#endif
#if defined(__aarch64__)
extern const quant_qdot quant_qdot_neon, quant_qdot_neon_dotprod;
#endif
#if defined(__wasm_simd128__)
extern const quant_qdot quant_qdot_wasm;   /* "wasm-simd128": q_wasm.c */
#endif

/* The implementation to use: `name` ("scalar", "avx2", "avx512",
 * "avx512-vbmi", "neon", "neon-dotprod", "wasm-simd128") forces one, NULL or
 * "" picks the best this CPU runs. NULL if the forced one is unknown or the
 * CPU lacks it. */
const quant_qdot *quant_qdot_select(const char *name);


#endif
