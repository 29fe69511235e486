#include "api.h"

#include <math.h>

void nmt_options_init(nmt_options *o)
{
	*o = (nmt_options){ .beam = 4, .nbest = 1, .max_length = 0, .alpha = NMT_ALPHA_MODEL, .shortlist = 1,
			    .threads = 1, .batch = 0, .device = NMT_DEVICE_CPU,
			    .split = NMT_SPLIT_SENTENCE, .alignment = 0, .html = 0, .repeat_guard = 1,
			    .protect_spans = 1, .case_fold = 1 };
}

/* Decoder rows (texts x beam) decoded together by default: 16 greedy texts,
 * 4 with beam 4. More rows were no faster and cost ~0.45 MB per beam-4 text
 * (docs/RESULTS.md, "Speed"). */
#define DEFAULT_BATCH_ROWS 16

nmt_status api_options(const nmt_options *given, double model_alpha, engine_search_options *search, int *batch,
			   int *threads, int *device, nmt_error *err)
{
	nmt_options o;
	if (given)
		o = *given;
	else
		nmt_options_init(&o);
	if (o.beam < 1 || o.beam > NMT_MAX_BEAM)
		return api_fail(err, NMT_ERR_ARGUMENT, "beam must be 1..%d, not %d", NMT_MAX_BEAM, o.beam);
	if (o.nbest < 1 || o.nbest > o.beam)
		return api_fail(err, NMT_ERR_ARGUMENT, "nbest must be 1..beam (%d), not %d", o.beam, o.nbest);
	if (o.max_length < 0 || o.max_length > API_MAX_LENGTH)
		return api_fail(err, NMT_ERR_ARGUMENT, "max_length must be 0..%d, not %d", API_MAX_LENGTH,
				    o.max_length);
	if (o.alpha == NMT_ALPHA_MODEL)
		o.alpha = model_alpha;
	else if (!(o.alpha >= 0.0 && o.alpha <= 10.0))   /* NaN fails too */
		return api_fail(err, NMT_ERR_ARGUMENT, "alpha must be 0..10 or NMT_ALPHA_MODEL, not %g", o.alpha);
	if (o.threads < 1 || o.threads > NMT_MAX_THREADS)
		return api_fail(err, NMT_ERR_ARGUMENT, "threads must be 1..%d, not %d", NMT_MAX_THREADS,
				    o.threads);
	if (o.batch < 0 || o.batch > API_MAX_BATCH)
		return api_fail(err, NMT_ERR_ARGUMENT, "batch must be 0..%d, not %d", API_MAX_BATCH, o.batch);
	if (o.device != NMT_DEVICE_CPU && o.device != NMT_DEVICE_CUDA)
		return api_fail(err, NMT_ERR_ARGUMENT, "device must be NMT_DEVICE_CPU or NMT_DEVICE_CUDA, not %d",
				    o.device);
	if (o.split != NMT_SPLIT_NONE && o.split != NMT_SPLIT_SENTENCE)
		return api_fail(err, NMT_ERR_ARGUMENT, "split must be NMT_SPLIT_NONE or NMT_SPLIT_SENTENCE, not %d",
				    o.split);
	*search = (engine_search_options){ .use_shortlist = o.shortlist != 0, .beam = o.beam, .nbest = o.nbest,
					.alpha = o.alpha, .max_len = o.max_length,
					.split = o.split == NMT_SPLIT_SENTENCE, .guard = o.repeat_guard != 0,
					.attention = o.alignment != 0, .protect = o.protect_spans != 0,
					.html = o.html != 0, .case_fold = o.case_fold != 0 };
	*batch = o.batch ? o.batch : DEFAULT_BATCH_ROWS / o.beam > 1 ? DEFAULT_BATCH_ROWS / o.beam : 1;
	*threads = o.device == NMT_DEVICE_CUDA ? 1 : o.threads;
	*device = o.device;
	return api_ok(err);
}
