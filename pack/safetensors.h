/* Reading a safetensors checkpoint: u64 little-endian header length N, N
 * bytes of JSON {name: {"dtype", "shape", "data_offsets"}, "__metadata__":
 * {string: string}}, then the tensor bytes. Everything is validated at open:
 * shapes, sizes and offsets against the data. */
#ifndef PACK_SAFETENSORS_H
#define PACK_SAFETENSORS_H
#include <stddef.h>
#include <stdint.h>

/* I32 and I64 tensors are read and validated; st_to_f32 refuses them. */
typedef enum { ST_F32, ST_F16, ST_BF16, ST_I32, ST_I64 } st_dtype;

#define ST_MAX_DIMS 8

typedef struct {
	const char *name;
	st_dtype dtype;
	int ndim;
	int64_t shape[ST_MAX_DIMS];
	const void *data;     /* inside the file buffer; may be unaligned */
	size_t nbytes;
} st_tensor;

typedef struct st_file st_file;

int st_open(const char *path, st_file **out, char *err, size_t errlen);
/* buf must outlive the st_file. */
int st_open_mem(const void *buf, size_t len, st_file **out, char *err, size_t errlen);
void st_close(st_file *f);

size_t st_count(const st_file *f);
const st_tensor *st_at(const st_file *f, size_t i);
const st_tensor *st_find(const st_file *f, const char *name);   /* NULL if absent */
const char *st_meta(const st_file *f, const char *key);         /* NULL if absent */
int64_t st_numel(const st_tensor *t);
/* Convert to float32 (numel values into dst; F16 subnormals, inf and NaN
 * included). Reads byte by byte, so unaligned data is fine. -1 for I32/I64. */
int st_to_f32(const st_tensor *t, float *dst);

#endif
