/* What the library's API files share: filling in an nmt_error, and the
 * options checked and turned into the engine's search options. */
#ifndef NMT_API_H
#define NMT_API_H
#include "../nmt.h"
#include "../engine/engine.h"

/* Fill err (if not NULL) with code and a printf-style message; return code. */
nmt_status nmt_api_fail(nmt_error *err, nmt_status code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Mark err (if not NULL) as no error; return NMT_OK. */
nmt_status nmt_api_ok(nmt_error *err);

/* Check o (NULL: the defaults) and fill in the engine's search options, the
 * batch and thread counts and the device to use. */
nmt_status nmt_api_options(const nmt_options *o, nmt_search_options *search, int *batch, int *threads,
			   int *device, nmt_error *err);

#define NMT_API_MAX_BATCH 256
#define NMT_API_MAX_LENGTH (1 << 20)

#endif
