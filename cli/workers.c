#include "workers.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/model.h"

typedef struct {
	size_t len;
	int line;
} line_key;

struct nmt_workers {
	const nmt_model *model;
	int n_threads;
	int batch;                      /* sentences decoded together */
	nmt_translator **translators;   /* [0] made at once, the others when first needed */
	/* the lines being translated */
	const nmt_search_options *o;
	const nmt_line *in;
	nmt_line_output *out;
	int count;
	unsigned long first_line_no;
	line_key *keys;                 /* [cap] the lines' lengths, for sorting */
	int *order;                     /* [cap] line indices, shortest first */
	const char **texts;             /* [cap] the lines in that order */
	size_t *lens;                   /* [cap] */
	int cap;
	atomic_int next;                /* the next batch to take */
};

nmt_workers *nmt_workers_new(const nmt_model *m, int n_threads, int batch)
{
	nmt_workers *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->translators = calloc((size_t)n_threads, sizeof *w->translators);
	if (!w->translators) {
		free(w);
		return NULL;
	}
	w->model = m;
	w->n_threads = n_threads;
	w->batch = batch;
	if (!(w->translators[0] = nmt_translator_new(m))) {
		nmt_workers_free(w);
		return NULL;
	}
	return w;
}

void nmt_workers_free(nmt_workers *w)
{
	if (!w)
		return;
	for (int t = 0; t < w->n_threads; t++)
		nmt_translator_free(w->translators[t]);
	free(w->translators);
	free(w->keys);
	free(w->order);
	free(w->texts);
	free(w->lens);
	free(w);
}

/* Room for `extra` more bytes and a NUL in a line's output; 0 on success. */
static int reserve(nmt_line_output *out, size_t extra)
{
	if (out->len + extra < out->cap)
		return 0;
	size_t cap = out->cap ? out->cap : 256;
	while (cap <= out->len + extra)
		cap *= 2;
	char *text = realloc(out->text, cap);
	if (!text)
		return -1;
	out->text = text;
	out->cap = cap;
	return 0;
}

/* Append printf-style text (short: line numbers and scores). */
static int append(nmt_line_output *out, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp || reserve(out, (size_t)n) != 0)
		return -1;
	memcpy(out->text + out->len, tmp, (size_t)n + 1);
	out->len += (size_t)n;
	return 0;
}

/* A translation stays on one line whatever the vocabulary decodes to. */
static int append_text(nmt_line_output *out, const nmt_translation *tr)
{
	if (reserve(out, tr->len) != 0)
		return -1;
	for (size_t i = 0; i < tr->len; i++)
		out->text[out->len++] = tr->text[i] == '\n' || tr->text[i] == '\r' ? ' ' : tr->text[i];
	out->text[out->len] = '\0';
	return 0;
}

static int format_result(nmt_line_output *out, unsigned long line_no, const nmt_translation *tr, int n,
			 int nbest)
{
	if (nbest == 1)
		return append_text(out, &tr[0]) || append(out, "\n");
	for (int i = 0; i < n; i++)
		if (append(out, "%lu ||| ", line_no) || append_text(out, &tr[i]) ||
		    append(out, " ||| %.6f ||| %.6f\n", tr[i].score, tr[i].logprob))
			return -1;
	return 0;
}

typedef struct {
	nmt_workers *w;
	const int *lines;   /* the batch's line indices */
} batch_ctx;

/* Format line i of a batch into its output buffer. */
static int emit(void *ctx, int i, const nmt_translation *tr, int n)
{
	batch_ctx *b = ctx;
	int line = b->lines[i];
	nmt_line_output *out = &b->w->out[line];

	if (format_result(out, b->w->first_line_no + (unsigned long)line, tr, n, b->w->o->nbest) != 0) {
		snprintf(out->err, sizeof out->err, "out of memory");
		return -1;
	}
	out->failed = 0;
	return 0;
}

/* Translate batch `k`: lines order[k * batch ..] (of similar lengths),
 * decoded together. A line the batch did not reach keeps failed = 1 and the
 * batch's error. */
static void translate_batch(nmt_workers *w, nmt_translator *t, int k)
{
	int first = k * w->batch, n = w->count - first < w->batch ? w->count - first : w->batch;
	batch_ctx ctx = { w, w->order + first };
	char err[sizeof w->out->err];

	for (int i = 0; i < n; i++) {
		nmt_line_output *out = &w->out[ctx.lines[i]];
		out->len = 0;
		out->failed = 1;
		out->err[0] = '\0';
	}
	if (nmt_translate_batch(t, w->o, w->texts + first, w->lens + first, n, emit, &ctx, err, sizeof err) == 0)
		return;
	for (int i = 0; i < n; i++) {
		nmt_line_output *out = &w->out[ctx.lines[i]];
		if (out->failed && out->err[0] == '\0')
			snprintf(out->err, sizeof out->err, "%s", err);
	}
}

typedef struct {
	nmt_workers *w;
	int thread;
} worker_arg;

static void *worker(void *p)
{
	worker_arg *a = p;
	nmt_workers *w = a->w;
	/* Longest batches first (the lines are sorted shortest first), so
	 * that the threads run out of work at about the same time. */
	int batches = (w->count + w->batch - 1) / w->batch;
	for (int k; (k = atomic_fetch_add(&w->next, 1)) < batches;)
		translate_batch(w, w->translators[a->thread], batches - 1 - k);
	return NULL;
}

/* Shorter first; equal lengths in input order (qsort is not stable). */
static int by_length(const void *a, const void *b)
{
	const line_key *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* Sort the lines into batches of similar length (bytes stand in for
 * tokens), so a batch's sentences finish at about the same step. */
static int make_batches(nmt_workers *w, const nmt_line *in, int count)
{
	if (count > w->cap) {
		int *order = realloc(w->order, (size_t)count * sizeof *order);
		if (order)
			w->order = order;
		line_key *keys = realloc(w->keys, (size_t)count * sizeof *keys);
		if (keys)
			w->keys = keys;
		const char **texts = realloc(w->texts, (size_t)count * sizeof *texts);
		if (texts)
			w->texts = texts;
		size_t *lens = realloc(w->lens, (size_t)count * sizeof *lens);
		if (lens)
			w->lens = lens;
		if (!order || !keys || !texts || !lens)
			return -1;
		w->cap = count;
	}
	for (int i = 0; i < count; i++)
		w->keys[i] = (line_key){ in[i].len, i };
	qsort(w->keys, (size_t)count, sizeof *w->keys, by_length);
	for (int i = 0; i < count; i++) {
		w->order[i] = w->keys[i].line;
		w->texts[i] = in[w->order[i]].text;
		w->lens[i] = in[w->order[i]].len;
	}
	return 0;
}

int nmt_workers_run(nmt_workers *w, const nmt_search_options *o, const nmt_line *in, nmt_line_output *out,
		    int count, unsigned long first_line_no)
{
	int batches = (count + w->batch - 1) / w->batch;
	pthread_t threads[w->n_threads];
	worker_arg args[w->n_threads];
	/* no more threads than batches: a single line (interactive use) runs here */
	int n = batches < w->n_threads ? batches : w->n_threads, started = 1;

	if (count <= 0)
		return 0;
	if (make_batches(w, in, count) != 0)
		return -1;
	w->o = o;
	w->in = in;
	w->out = out;
	w->count = count;
	w->first_line_no = first_line_no;
	atomic_store(&w->next, 0);
	for (int t = 0; t < n; t++)
		args[t] = (worker_arg){ w, t };
	/* A translator that cannot be made or a thread that cannot be started
	 * only means fewer hands: the others take its lines. Translators beyond
	 * the first are made when a batch first needs them, so a single line
	 * (interactive use, a one-line input) pays for one. */
	while (started < n &&
	       (w->translators[started] || (w->translators[started] = nmt_translator_new(w->model))) &&
	       pthread_create(&threads[started], NULL, worker, &args[started]) == 0)
		started++;
	worker(&args[0]);
	for (int t = 1; t < started; t++)
		pthread_join(threads[t], NULL);
	return 0;
}
