/* See file_map.h. */
#include "file_map.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#if !defined(__wasi__)
#include <sys/mman.h>
#endif

#if defined(__wasi__)
void *file_map_open(int fd, size_t len, size_t align)
{
	size_t rounded = (len + align - 1) / align * align;
	unsigned char *buf = rounded >= len ? aligned_alloc(align, rounded) : NULL;

	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	for (size_t got = 0; got < len;) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			free(buf);
			return NULL;
		}
		got += (size_t)n;
	}
	return buf;
}

void file_map_close(void *p, size_t len)
{
	(void)len;
	free(p);
}
#else
void *file_map_open(int fd, size_t len, size_t align)
{
	(void)align;   /* a mapping starts on a page */
	void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

void file_map_close(void *p, size_t len)
{
	munmap(p, len);
}
#endif
