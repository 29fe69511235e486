/* Reading a whole input file into memory, as every reader of model-pack does. */
#ifndef PACK_FILE_H
#define PACK_FILE_H
#include <stddef.h>
#include <stdint.h>

/* *buf (malloc'd, the caller frees it) receives the file's *len bytes; 0,
 * or -1 with a one-line message. A file whose name ends in .gz, or that
 * starts with gzip's magic, is decompressed (common/inflate.h) and *buf holds
 * the plain bytes; a damaged one is an error naming the file. */
int pack_read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen);

#endif
