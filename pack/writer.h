/* Writing the packed file (format/format.h, docs/FORMAT.md): sections are
 * collected in memory, then laid out 64-byte aligned with their checksums. */
#ifndef PACK_WRITER_H
#define PACK_WRITER_H
#include <stddef.h>
#include <stdint.h>

#include "../format/format.h"
#include "../format/weights.h"

typedef struct {
	char tag[FORMAT_SECTION_TAG_LEN + 1];
	uint8_t *data;      /* owned */
	size_t size;
	uint32_t flags;
} pack_section;

typedef struct {
	pack_section sections[FORMAT_MAX_SECTIONS];
	int n;
} pack_file;

/* Takes ownership of data (malloc'd) even on failure. */
int pack_add_section(pack_file *f, const char *tag, uint8_t *data, size_t size, uint32_t flags);
/* Write atomically: to PATH.tmp, then rename. */
int pack_write(const pack_file *f, const char *path, char *err, size_t errlen);
void pack_free(pack_file *f);

/* Tensors: a directory section and a weights section built side by side. */
typedef struct {
	uint8_t *dir;       /* count + entries */
	size_t dir_size;
	uint8_t *weights;
	size_t weights_size;
	uint32_t count;
} pack_tensors;

int pack_tensor_f32(pack_tensors *t, const char *name, int rows, int cols, const float *data);
/* Quantize a rows x cols matrix to q8, q4, q4n or i8 (FORMAT_Q8/Q4/Q4N/I8) and add it
 * in the kernels' layout. Returns -1 on allocation failure. */
int pack_tensor_quant(pack_tensors *t, const char *name, format_encoding format, int rows, int cols,
		      const float *data);
void pack_tensors_free(pack_tensors *t);

#endif
