/* Loops of the SIMD dot-product kernels over a panel's rows and over the
 * inputs of a multi-input call. They are unrolled completely so that the
 * arrays of accumulator registers they index stay in registers: without
 * it gcc keeps such an array on the stack, and every step of the kernel
 * waits for a store and a reload. Internal to quant/. */
#ifndef QUANT_QUNROLL_H
#define QUANT_QUNROLL_H
#include "matrix.h"
#include "qdot.h"

#define QUANT_FOR_PANEL_ROWS(r) _Pragma("GCC unroll 4") for (int r = 0; r < FORMAT_PANEL_ROWS; r++)
#define QUANT_FOR_INPUTS(b, nb) _Pragma("GCC unroll 4") for (int b = 0; b < (nb); b++)
/* the inputs of a block function (qdot.h's q*_block): up to QUANT_KBATCH */
#define QUANT_FOR_KBATCH(b, nb) _Pragma("GCC unroll 8") for (int b = 0; b < (nb); b++)
_Static_assert(QUANT_KBATCH <= 8, "QUANT_FOR_KBATCH unrolls eight inputs");

/* A q*_panel_multi (qdot.h) from a function doing one row against NB inputs
 * (an always-inline function of its ISA file, compiled with TARGET): each
 * row of the panel in turn, with the input count made a constant. */
#define QUANT_PANEL_MULTI(name, row_fn)                                                             \
	TARGET static void name(const uint8_t *panel, int chunks, const int8_t *xq, size_t stride,  \
				int nb, int32_t *out)                                              \
	{                                                                                         \
		for (int r = 0; r < FORMAT_PANEL_ROWS; r++) {                                        \
			const uint8_t *row = panel + r * FORMAT_CHUNK_BYTES;                          \
			switch (nb) {                                                             \
			case 1: row_fn(row, chunks, xq, stride, 1, out + r); break;               \
			case 2: row_fn(row, chunks, xq, stride, 2, out + r); break;               \
			case 3: row_fn(row, chunks, xq, stride, 3, out + r); break;               \
			default: row_fn(row, chunks, xq, stride, 4, out + r); break;              \
			}                                                                         \
		}                                                                                 \
	}

/* A q*_block (qdot.h) from a function doing one row against NB inputs,
 * writing out[b * ld] (an always-inline function of its ISA file, compiled
 * with TARGET): every row of the block in turn, the input count made a
 * constant, so that each decoded chunk serves all nb inputs. */
#define QUANT_BLOCK_BY_ROWS(name, row_fn)                                                                  \
	TARGET static void name(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, \
				int nb, int32_t *sums, size_t ld)                                                 \
	{                                                                                                    \
		for (int r = 0; r < panels * FORMAT_PANEL_ROWS; r++) {                                          \
			const uint8_t *row = codes + ((size_t)(r / FORMAT_PANEL_ROWS) * chunks * FORMAT_PANEL_ROWS + \
						      (size_t)(r % FORMAT_PANEL_ROWS)) * FORMAT_CHUNK_BYTES;         \
			switch (nb) {                                                                        \
			case 1: row_fn(row, chunks, xq, stride, 1, sums + r, ld); break;                     \
			case 2: row_fn(row, chunks, xq, stride, 2, sums + r, ld); break;                     \
			case 3: row_fn(row, chunks, xq, stride, 3, sums + r, ld); break;                     \
			case 4: row_fn(row, chunks, xq, stride, 4, sums + r, ld); break;                     \
			case 5: row_fn(row, chunks, xq, stride, 5, sums + r, ld); break;                     \
			case 6: row_fn(row, chunks, xq, stride, 6, sums + r, ld); break;                     \
			case 7: row_fn(row, chunks, xq, stride, 7, sums + r, ld); break;                     \
			default: row_fn(row, chunks, xq, stride, 8, sums + r, ld); break;                    \
			}                                                                                    \
		}                                                                                            \
	}

/* A q*_block / i8_block (qdot.h) from a function doing all the panels
 * against NB <= 4 inputs (an always-inline function of its ISA file,
 * compiled with TARGET): the inputs four at a time, the count made a
 * constant. */
#define QUANT_BLOCK_BY_FOURS(name, block_nb)                                                               \
	TARGET static void name(const uint8_t *codes, int panels, int chunks, const int8_t *xq, size_t stride, \
				int nb, int32_t *sums, size_t ld)                                                 \
	{                                                                                                    \
		for (; nb > 0; nb -= 4, xq += 4 * stride, sums += 4 * ld)                                     \
			switch (nb) {                                                                        \
			case 1: block_nb(codes, panels, chunks, xq, stride, 1, sums, ld); break;             \
			case 2: block_nb(codes, panels, chunks, xq, stride, 2, sums, ld); break;             \
			case 3: block_nb(codes, panels, chunks, xq, stride, 3, sums, ld); break;             \
			default: block_nb(codes, panels, chunks, xq, stride, 4, sums, ld); break;            \
			}                                                                                    \
	}

#endif
