#include "workers.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/model.h"

struct nmt_workers {
	const nmt_model *model;
	int n_threads;
	nmt_translator **translators;   /* [0] made at once, the others when first needed */
	/* the batch being translated */
	const nmt_search_options *o;
	const nmt_line *in;
	nmt_line_output *out;
	int count;
	unsigned long first_line_no;
	atomic_int next;
};

nmt_workers *nmt_workers_new(const nmt_model *m, int n_threads)
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

static void translate_line(nmt_workers *w, nmt_translator *t, int i)
{
	nmt_translation tr[NMT_MAX_BEAM];
	nmt_line_output *out = &w->out[i];
	int n;

	out->len = 0;
	out->failed = 0;
	if (nmt_translate(t, w->o, w->in[i].text, w->in[i].len, tr, &n, out->err, sizeof out->err) != 0) {
		out->failed = 1;
		return;
	}
	if (format_result(out, w->first_line_no + (unsigned long)i, tr, n, w->o->nbest) != 0) {
		out->failed = 1;
		snprintf(out->err, sizeof out->err, "out of memory");
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
	for (int i; (i = atomic_fetch_add(&w->next, 1)) < w->count;)
		translate_line(w, w->translators[a->thread], i);
	return NULL;
}

void nmt_workers_run(nmt_workers *w, const nmt_search_options *o, const nmt_line *in, nmt_line_output *out,
		     int count, unsigned long first_line_no)
{
	pthread_t threads[w->n_threads];
	worker_arg args[w->n_threads];
	/* no more threads than lines: a single line (interactive use) runs here */
	int n = count < w->n_threads ? count : w->n_threads, started = 1;

	if (count <= 0)
		return;
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
}
