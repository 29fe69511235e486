/* A Marian model file's items: numpy's .npz (a zip of stored .npy arrays,
 * as Marian writes it) or Marian's own binary .bin. Every offset, size and
 * shape is checked against the file at open; the items then point into the
 * caller's buffer, which must outlive the file. Marian stores a matrix
 * [rows, cols] row-major for x · W (rows = inputs). */
#ifndef PACK_MARIAN_FILE_H
#define PACK_MARIAN_FILE_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
	MF_F32,       /* float32 */
	MF_I8,        /* int8 (a .npz char array: the model's YAML config) */
	MF_INTGEMM8,  /* a .bin intgemm8 matrix: int8 values, then its float multiplier */
} mf_type;

#define MF_MAX_DIMS 4
#define MF_NAME_MAX 128

typedef struct {
	char name[MF_NAME_MAX];
	mf_type type;
	int ndim;
	int64_t shape[MF_MAX_DIMS];
	const uint8_t *data;   /* inside the caller's buffer; may be unaligned */
	size_t nbytes;
} mf_item;

typedef struct {
	mf_item *items;
	size_t n;
} mf_file;

/* 0, or -1 with a one-line message. */
int mf_open_npz(const uint8_t *buf, size_t len, mf_file *f, char *err, size_t errlen);
int mf_open_bin(const uint8_t *buf, size_t len, mf_file *f, char *err, size_t errlen);
void mf_close(mf_file *f);

/* The item named `name`, or NULL. */
const mf_item *mf_find(const mf_file *f, const char *name);
/* Whether the n bytes at s are printable ASCII, as every name a message
 * may quote must be (a message is one line). */
int mf_printable(const char *s, size_t n);
/* Elements of an item (the product of its shape). */
int64_t mf_numel(const mf_item *it);

#endif
