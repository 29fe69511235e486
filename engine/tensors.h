/* Binding a packed file's tensors by name (docs/FORMAT.md, "tensors"):
 * every family's weights are found here, their shapes checked against what
 * the family's dimensions imply and their bytes against the weights
 * section, then used in place. */
#ifndef ENGINE_TENSORS_H
#define ENGINE_TENSORS_H
#include <stddef.h>
#include <stdint.h>

#include "../format/format.h"
#include "../quant/matrix.h"

typedef struct {
	const uint8_t *dir;         /* directory entries */
	uint32_t count;
	const format_section *weights;
} engine_tensor_dir;

/* The tensor directory and weights sections of a parsed file, checked. */
int engine_tensor_dir_open(const format_file_view *v, engine_tensor_dir *td, char *err, size_t errlen);
/* A tensor of exactly rows x cols f32 values (vectors are 1 x n). */
int engine_bind_f32(const engine_tensor_dir *td, const char *name, int rows, int cols, const float **data,
		 char *err, size_t errlen);
/* A matrix: f32, or q8/q4 codes followed by row factors (format/weights.h). */
int engine_bind_matrix(const engine_tensor_dir *td, const char *name, int rows, int cols, quant_matrix *w,
		    char *err, size_t errlen);

#endif
