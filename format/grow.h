/* Growing an array with realloc: on failure the array stays as it was, so
 * the caller can report the error and still free everything. */
#ifndef FORMAT_GROW_H
#define FORMAT_GROW_H
#include <stdlib.h>

/* *pp (any T *) reallocated to n elements of `size` bytes (at least one, so
 * that realloc never frees); 0, or -1 with *pp unchanged. */
static inline int format_grow(void *pp, size_t n, size_t size)
{
	void **p = pp;
	void *q = realloc(*p, (n ? n : 1) * size);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

/* *pp (any T *, with room for *cap elements of `size` bytes) grown, when
 * need is more, to need or twice *cap, whichever is more, so that a run
 * of small growths costs amortized constant time; 0, or -1 with *pp and
 * *cap unchanged. */
static inline int format_reserve(void *pp, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = need > 2 * *cap ? need : 2 * *cap;
	if (format_grow(pp, c, size) != 0)
		return -1;
	*cap = c;
	return 0;
}

#endif
