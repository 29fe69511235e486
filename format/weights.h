/* How a weight tensor is laid out in bytes, in the packed file and in memory
 * alike (the loader binds it in place): its format, the quantized panel
 * layout's sizes, and where a quantized tensor's row factors start. The one
 * description the packer writes and the loader checks (docs/FORMAT.md,
 * "Weights").
 *
 * Quantized layout (q8, q4, q4n): rows are grouped in panels of FORMAT_PANEL_ROWS
 * rows, each row cut into 64-byte chunks, and the chunks of a panel
 * interleaved: [r0 chunk0][r1 chunk0][r2 chunk0][r3 chunk0][r0 chunk1]...
 * A kernel streams a panel linearly while computing its rows together, and a
 * single row (a shortlist entry) is still its chunks at a fixed stride. A q8
 * chunk holds 64 codes of consecutive columns; a q4 chunk holds 128: byte j
 * has column j in its low nibble and column 64 + j in its high nibble.
 *
 * i8 layout: a weight is a signed byte, its integer value itself (linear,
 * two's complement, as Marian's intgemm8 and most int8 engines store it).
 * Rows are grouped in panels of FORMAT_I8_PANEL_ROWS = 16 and columns in
 * fours; a panel stores, for each group of four columns in turn, its 16 rows'
 * four bytes: 64 bytes = one AVX-512 register holding 16 rows x 4 columns,
 * which vpdpbusd multiplies by one input's four activations broadcast, and
 * which NEON's SDOT takes as four registers of 4 rows x 4 columns. Every
 * product then ends with each row's sum in its own lane: nothing to decode
 * and nothing to add across lanes (the log formats' chunks need both).
 * W[r][c] is at byte (r / 16) * 16 * padded_cols + (c / 4) * 64 + (r % 16) * 4
 * + c % 4.
 *
 * Columns are padded with zero codes to whole chunks (64 columns, 128 for
 * q4), rows with zero rows to whole panels. The codes are followed by one f32
 * factor per row, the value of integer level 1 (q8/q4: scale / level[0],
 * quant/logquant.h; i8: the row's scale). */
#ifndef FORMAT_WEIGHTS_H
#define FORMAT_WEIGHTS_H
#include <stddef.h>

/* A weight tensor's format; the values are the tensor directory's dtype
 * codes (format.h, FORMAT_T_DTYPE). */
typedef enum { FORMAT_F32 = 0, FORMAT_Q8 = 1, FORMAT_Q4 = 2, FORMAT_I8 = 3, FORMAT_Q4N = 4 } format_encoding;

/* The two 4-bit formats, q4 and q4n, share the layout and the kernels; only
 * their level tables differ (quant/logquant.h). */
#define FORMAT_IS_4BIT(f) ((f) == FORMAT_Q4 || (f) == FORMAT_Q4N)

#define FORMAT_PANEL_ROWS 4
#define FORMAT_I8_PANEL_ROWS 16
/* Rows of a panel of format f. */
#define FORMAT_PANEL_ROWS_OF(f) ((f) == FORMAT_I8 ? FORMAT_I8_PANEL_ROWS : FORMAT_PANEL_ROWS)
#define FORMAT_CHUNK_BYTES 64
/* Columns one chunk holds: 64 q8 or i8 codes, 128 q4 or q4n codes. A macro, so that
 * the GPU's device code shares it. */
#define FORMAT_CHUNK_COLS(f) (FORMAT_IS_4BIT(f) ? 2 * FORMAT_CHUNK_BYTES : FORMAT_CHUNK_BYTES)
/* q8 products are summed in int32: |level| <= 4096 times |x| <= 127 per
 * column keeps any row of up to this many columns from overflowing. */
#define FORMAT_Q8_MAX_COLS 4096
/* i8 products add (w + 128) * x, |w + 128| <= 255, |x| <= 127, in int32
 * (quant/q_avx512.c): this many columns at most. */
#define FORMAT_I8_MAX_COLS 65536

/* The format's name in the metadata and on command lines ("f32", "q8",
 * "q4", "i8"), and the format a name gives (-1 for an unknown one). */
const char *format_encoding_name(format_encoding format);
int format_encoding_parse(const char *name, format_encoding *format);
/* The formats' names as a command line's error message lists them. */
#define FORMAT_ENCODING_NAMES "f32, q8, q4, q4n and i8"

/* Columns rounded up to whole chunks (q8: 64, q4: 128); cols for f32. */
int format_matrix_padded_cols(format_encoding format, int cols);
/* Bytes of codes for a rows x cols quantized matrix in the panel layout. */
size_t format_matrix_code_bytes(format_encoding format, int rows, int cols);
/* Where a q8/q4 tensor's row factors start (its codes end on a 64-byte
 * boundary, so right after them). */
size_t format_tensor_factors_at(format_encoding format, int rows, int cols);
/* Bytes of a whole rows x cols tensor: f32 values, or codes then factors. */
size_t format_tensor_bytes(format_encoding format, int rows, int cols);

#endif
