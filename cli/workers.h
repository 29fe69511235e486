/* Translating lines on several threads. The lines are sorted by length and
 * cut into batches of similar lengths, decoded together; each worker has
 * its own translator (its scratch allocated once and grown only for a
 * bigger batch than before); the model is shared read-only. Batches are
 * handed out as workers become free, and each line's output is formatted
 * into its own buffer, so the caller writes them in input order and the
 * output is the same for any thread count and batch size. */
#ifndef NMT_CLI_WORKERS_H
#define NMT_CLI_WORKERS_H
#include <stddef.h>

#include "../engine/translator.h"

typedef struct {
	const char *text;
	size_t len;
} nmt_line;

/* One line's output: its formatted text ("TRANSLATION\n", or the n-best
 * lines), or an error message. */
typedef struct {
	char *text;
	size_t len, cap;
	int failed;
	char err[256];
} nmt_line_output;

typedef struct nmt_workers nmt_workers;

/* n_threads >= 1 workers over m, decoding up to `batch` >= 1 sentences
 * together; NULL if memory runs out. */
nmt_workers *nmt_workers_new(const nmt_model *m, int n_threads, int batch);
void nmt_workers_free(nmt_workers *w);

/* Translate in[0..count) into out[0..count) (out's buffers are reused from
 * call to call; zero-initialize them before the first). first_line_no
 * numbers the lines in n-best output. -1 if memory runs out before any
 * line was translated. */
int nmt_workers_run(nmt_workers *w, const nmt_search_options *o, const nmt_line *in, nmt_line_output *out,
		     int count, unsigned long first_line_no);

#endif
