/* Sessions: translating a batch of texts on one or more threads. The texts
 * are sorted by length and cut into batches of similar lengths, decoded
 * together; each thread has its own translator (its scratch allocated once
 * and grown only for a bigger batch than before); the model is shared
 * read-only. Batches are handed out as threads become free and each text's
 * translations are collected in its own slot, so the result is the same for
 * any thread count and batch size. A build without threads (NMT_NO_THREADS,
 * as for wasm32-wasi, which has none) runs every batch on the calling thread;
 * run_batches is the one place that differs. */
#include "api.h"

#if defined(__wasi__) && !defined(NMT_NO_THREADS)
#define NMT_NO_THREADS 1
#endif

#ifndef NMT_NO_THREADS
#include <pthread.h>
#endif
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../format/grow.h"
#include "../engine/translator.h"
#include "result.h"

typedef struct {
	size_t len;
	int text;
} text_key;

struct nmt_session {
	const nmt_model *model;
	engine_translator **translators; /* [n_translators]: [0] made at once, the others when first needed */
	int n_translators;
	engine_translator *gpu;         /* the one on the GPU, made when first asked for */

	/* the call being run */
	engine_search_options search;
	int batch;                      /* texts decoded together */
	int count;
	char err[sizeof ((nmt_error *)0)->message];   /* the first failure's message */
	nmt_status fail_code;           /* and its code */
	atomic_int failed;
	atomic_int next;                /* the next batch to take */

	/* per text, grown to the largest call so far */
	int cap, cap_out;
	api_text_out *out;              /* [cap_out] each text's translations, in input order */
	text_key *keys;                 /* [cap] lengths, for sorting */
	int *order;                     /* [cap] text indices, shortest first */
	const char **sorted;            /* [cap] the texts in that order */
	size_t *sorted_lens;            /* [cap] */
};

nmt_status nmt_session_new(const nmt_model *model, nmt_session **session, nmt_error *err)
{
	if (!session)
		return api_fail(err, NMT_ERR_ARGUMENT, "no place to put the session");
	*session = NULL;
	if (!model)
		return api_fail(err, NMT_ERR_ARGUMENT, "no model");
	if (model->metadata_only)
		return api_fail(err, NMT_ERR_ARGUMENT, "the model was opened for its metadata only (NMT_OPEN_METADATA)");
	nmt_session *s = calloc(1, sizeof *s);
	if (!s || !(s->translators = calloc(1, sizeof *s->translators)) ||
	    !(s->translators[0] = engine_translator_new(model))) {
		if (s)
			free(s->translators);
		free(s);
		return api_fail(err, NMT_ERR_NO_MEMORY, "out of memory");
	}
	s->model = model;
	s->n_translators = 1;
	*session = s;
	return api_ok(err);
}

void nmt_session_free(nmt_session *s)
{
	if (!s)
		return;
	for (int t = 0; t < s->n_translators; t++)
		engine_translator_free(s->translators[t]);
	engine_translator_free(s->gpu);
	for (int i = 0; i < s->cap_out; i++)
		api_text_out_free(&s->out[i]);
	free(s->translators);
	free(s->out);
	free(s->keys);
	free(s->order);
	free(s->sorted);
	free(s->sorted_lens);
	free(s);
}

/* Room for `count` texts; 0, or -1 if memory runs out. */
static int reserve_texts(nmt_session *s, int count)
{
	size_t n = (size_t)count;
	if (count > s->cap_out) {   /* outputs own their buffers: new ones start empty */
		if (format_grow(&s->out, n, sizeof *s->out) != 0)
			return -1;
		memset(s->out + s->cap_out, 0, (n - (size_t)s->cap_out) * sizeof *s->out);
		s->cap_out = count;
	}
	if (count > s->cap) {
		if (format_grow(&s->keys, n, sizeof *s->keys) | format_grow(&s->order, n, sizeof *s->order) |
		    format_grow(&s->sorted, n, sizeof *s->sorted) | format_grow(&s->sorted_lens, n, sizeof *s->sorted_lens))
			return -1;
		s->cap = count;
	}
	return 0;
}

/* Room for `threads` translators (those beyond the first made later). */
static int reserve_translators(nmt_session *s, int threads)
{
	if (threads <= s->n_translators)
		return 0;
	if (format_grow(&s->translators, (size_t)threads, sizeof *s->translators) != 0)
		return -1;
	memset(s->translators + s->n_translators, 0, (size_t)(threads - s->n_translators) * sizeof *s->translators);
	s->n_translators = threads;
	return 0;
}

/* Shorter first; equal lengths in input order (qsort is not stable). */
static int by_length(const void *a, const void *b)
{
	const text_key *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->text > y->text) - (x->text < y->text);
}

/* Sort the texts into batches of similar length (bytes stand in for
 * tokens), so a batch's sentences finish at about the same step. */
static void sort_texts(nmt_session *s, const char *const *texts, const size_t *lens, int count)
{
	if (count == 0)   /* (the arrays may not exist yet) */
		return;
	for (int i = 0; i < count; i++)
		s->keys[i] = (text_key){ lens ? lens[i] : strlen(texts[i]), i };
	qsort(s->keys, (size_t)count, sizeof *s->keys, by_length);
	for (int i = 0; i < count; i++) {
		s->order[i] = s->keys[i].text;
		s->sorted[i] = texts[s->order[i]];
		s->sorted_lens[i] = s->keys[i].len;
	}
}

typedef struct {
	nmt_session *s;
	const int *texts;   /* the batch's text indices */
} batch_ctx;

/* Keep the translations of a batch's text i, in its text's slot. */
static int collect(void *ctx, int i, const nmt_translation *tr, int n)
{
	batch_ctx *b = ctx;
	return api_text_out_set(&b->s->out[b->texts[i]], tr, n);
}

/* Remember the first failure. Options were checked, so on the CPU running
 * out of memory is the one way a translation fails. */
static void record_failure(nmt_session *s, nmt_status code, const char *why)
{
	int expected = 0;
	if (atomic_compare_exchange_strong(&s->failed, &expected, 1)) {
		s->fail_code = code;
		snprintf(s->err, sizeof s->err, "%s", why);
	}
}

/* Translate batch k: texts order[k * batch ..], of similar lengths. */
static void translate_batch(nmt_session *s, engine_translator *t, int k)
{
	int first = k * s->batch, n = s->count - first < s->batch ? s->count - first : s->batch;
	batch_ctx ctx = { s, s->order + first };
	char why[sizeof s->err] = "out of memory";   /* what collect's failure means */

	if (engine_translator_batch(t, &s->search, s->sorted + first, s->sorted_lens + first, n, collect, &ctx, why,
				 sizeof why) != 0)
		record_failure(s, t == s->gpu ? NMT_ERR_DEVICE : NMT_ERR_NO_MEMORY, why);
}

typedef struct {
	nmt_session *s;
	engine_translator *t;
} worker_arg;

static void *worker(void *p)
{
	worker_arg *a = p;
	nmt_session *s = a->s;
	/* Longest batches first (the texts are sorted shortest first), so
	 * that the threads run out of work at about the same time. */
	int batches = (s->count + s->batch - 1) / s->batch;
	for (int k; !atomic_load(&s->failed) && (k = atomic_fetch_add(&s->next, 1)) < batches;)
		translate_batch(s, a->t, batches - 1 - k);
	return NULL;
}

/* Run the sorted batches on up to `threads` threads, this one included. A
 * translator that cannot be made or a thread that cannot be started only
 * means fewer hands: the others take its batches. Translators beyond the
 * first are made when a call first needs them, so a single text (the
 * interactive case) pays for one. */
#ifdef NMT_NO_THREADS
static void run_batches(nmt_session *s, int threads)
{
	(void)threads;   /* one pair of hands: this thread's */
	atomic_store(&s->next, 0);
	atomic_store(&s->failed, 0);
	worker(&(worker_arg){ s, s->translators[0] });
}
#else
static void run_batches(nmt_session *s, int threads)
{
	int batches = (s->count + s->batch - 1) / s->batch;
	int n = batches < threads ? batches : threads, started = 1;
	pthread_t tid[NMT_MAX_THREADS];
	worker_arg args[NMT_MAX_THREADS];

	atomic_store(&s->next, 0);
	atomic_store(&s->failed, 0);
	args[0] = (worker_arg){ s, s->translators[0] };
	while (started < n &&
	       (s->translators[started] || (s->translators[started] = engine_translator_new(s->model)))) {
		args[started] = (worker_arg){ s, s->translators[started] };
		if (pthread_create(&tid[started], NULL, worker, &args[started]) != 0)
			break;
		started++;
	}
	worker(&args[0]);
	for (int t = 1; t < started; t++)
		pthread_join(tid[t], NULL);
}
#endif

/* Every batch on the GPU, driven from this thread. */
static nmt_status run_on_gpu(nmt_session *s, nmt_error *err)
{
	if (!s->gpu) {
		char why[sizeof err->message];
		int rc = engine_translator_new_on(s->model, NMT_DEVICE_CUDA, &s->gpu, why, sizeof why);
		if (rc != 0)
			return api_fail(err, (nmt_status)rc, "%s", why);
	}
	worker_arg arg = { s, s->gpu };
	atomic_store(&s->next, 0);
	atomic_store(&s->failed, 0);
	worker(&arg);
	return NMT_OK;
}

nmt_status nmt_translate_batch(nmt_session *s, const nmt_options *options, const char *const *texts,
			       const size_t *lengths, int count, nmt_result **result, nmt_error *err)
{
	int threads, device;
	nmt_status rc;

	if (!result)
		return api_fail(err, NMT_ERR_ARGUMENT, "no place to put the result");
	*result = NULL;
	if (!s)
		return api_fail(err, NMT_ERR_ARGUMENT, "no session");
	if (count < 0 || (count > 0 && !texts))
		return api_fail(err, NMT_ERR_ARGUMENT, "no texts");
	for (int i = 0; i < count; i++)
		if (!texts[i])
			return api_fail(err, NMT_ERR_ARGUMENT, "text %d is NULL", i);
	if ((rc = api_options(options, s->model->alpha, &s->search, &s->batch, &threads, &device, err)) != NMT_OK)
		return rc;
	if (reserve_texts(s, count) != 0 || reserve_translators(s, threads) != 0)
		return api_fail(err, NMT_ERR_NO_MEMORY, "out of memory");
	s->count = count;
	sort_texts(s, texts, lengths, count);
	if (device == NMT_DEVICE_CUDA) {
		if ((rc = run_on_gpu(s, err)) != NMT_OK)
			return rc;
	} else if (count > 0)
		run_batches(s, threads);
	if (atomic_load(&s->failed))
		return api_fail(err, s->fail_code, "%s", s->err);
	if (!(*result = api_result_build(s->out, count)))
		return api_fail(err, NMT_ERR_NO_MEMORY, "out of memory");
	return api_ok(err);
}

#ifdef ENGINE_PROFILE
static void add_profile(engine_profile *sum, const engine_translator *t, int first)
{
	const engine_profile *p = engine_translator_profile(t);
	if (first) {
		sum->tick0 = p->tick0;
		sum->ns0 = p->ns0;
	}
	for (int i = 0; i < ENGINE_STAGE_COUNT; i++) {
		sum->ticks[i] += p->ticks[i];
		sum->macs[i] += p->macs[i];
	}
}

void api_session_profile(const nmt_session *s, engine_profile *sum)
{
	memset(sum, 0, sizeof *sum);
	add_profile(sum, s->translators[0], 1);
	for (int t = 1; t < s->n_translators; t++)
		if (s->translators[t])
			add_profile(sum, s->translators[t], 0);
	if (s->gpu)
		add_profile(sum, s->gpu, 0);
}
#endif

nmt_status nmt_translate(nmt_session *s, const nmt_options *options, const char *text, nmt_result **result,
			 nmt_error *err)
{
	return nmt_translate_batch(s, options, &text, NULL, 1, result, err);
}
