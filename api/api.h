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
 * batch and thread counts and the device to use; model_alpha is the length
 * normalization that NMT_ALPHA_MODEL stands for. */
nmt_status api_options(const nmt_options *o, double model_alpha, engine_search_options *search, int *batch,
			   int *threads, int *device, nmt_error *err);

#ifdef ENGINE_PROFILE
/* A profile build's: the time and multiply-adds per stage of every
 * translator the session has made, summed into *sum (its clock reference
 * the first translator's); for the command line to print at exit. */
void api_session_profile(const nmt_session *s, engine_profile *sum);
#endif

#define API_MAX_BATCH 256
#define API_MAX_LENGTH (1 << 20)

#endif
