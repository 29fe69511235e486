/* Errors are one-line messages written into a caller's buffer; functions that
 * fail return -1. This is the one helper that writes them. */
#ifndef NMT_ERROR_H
#define NMT_ERROR_H
#include <stddef.h>

/* printf into err (if errlen > 0) and return -1, so `return nmt_fail(...)` reads naturally. */
int nmt_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
