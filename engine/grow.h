/* Growing an array with realloc: on failure the array stays as it was, so
 * the caller can report the error and still free everything. */
#ifndef NMT_ENGINE_GROW_H
#define NMT_ENGINE_GROW_H
#include <stdlib.h>

/* *pp (any T *) reallocated to n elements of `size` bytes (at least one, so
 * that realloc never frees); 0, or -1 with *pp unchanged. */
static inline int nmt_grow(void *pp, size_t n, size_t size)
{
	void **p = pp;
	void *q = realloc(*p, (n ? n : 1) * size);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

#endif
