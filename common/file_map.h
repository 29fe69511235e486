/* A whole file in memory, read-only: mapped where the system maps files
 * (mmap), read into an aligned heap buffer where it does not (wasm32-wasi
 * has no mmap). The model loader's one platform difference lives here. */
#ifndef COMMON_FILE_MAP_H
#define COMMON_FILE_MAP_H
#include <stddef.h>

/* The first len bytes of the open file fd, aligned to at least `align`
 * bytes (a power of two, at most a page), or NULL with errno set (0: the
 * file was shorter than len). fd stays open. */
void *file_map_open(int fd, size_t len, size_t align);
/* What file_map_open returned, len bytes. */
void file_map_close(void *p, size_t len);

#endif
