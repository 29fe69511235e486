/* What the library's API files share: filling in an nmt_error, and the
 * options checked and turned into the engine's search options. */
#ifndef API_API_H
#define API_API_H
#include "../nmt.h"
#include "../engine/engine.h"

/* Fill err (if not NULL) with code and a printf-style message; return code. */
nmt_status api_fail(nmt_error *err, nmt_status code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Mark err (if not NULL) as no error; return NMT_OK. */
nmt_status api_ok(nmt_error *err);

/* Check o (NULL: the defaults) and fill in the engine's search options, the
 * batch and thread counts and the device to use. */
nmt_status api_options(const nmt_options *o, engine_search_options *search, int *batch, int *threads,
			   int *device, nmt_error *err);

#define API_MAX_BATCH 256
#define API_MAX_LENGTH (1 << 20)

#endif
