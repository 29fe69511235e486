/* Embedding nmt in a multi-threaded program: one model, opened once and
 * shared; one session per thread. Reads lines from stdin, lets THREADS
 * threads translate them (line i goes to thread i % THREADS, one line at a
 * time, greedy), and prints the translations in input order.
 *
 *   ./threads MODEL THREADS < input
 */
#include <nmt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 10000
#define MAX_THREADS 16

typedef struct {
	const nmt_model *model;    /* shared, read-only */
	char **lines;
	char **out;
	int n_lines, first, step;
	nmt_error err;
	int failed;
} job;

static void *translate_lines(void *p)
{
	job *j = p;
	nmt_session *session;
	nmt_options options;
	nmt_options_init(&options);
	options.beam = 1;
	if (nmt_session_new(j->model, &session, &j->err) != NMT_OK) {
		j->failed = 1;
		return NULL;
	}
	for (int i = j->first; i < j->n_lines && !j->failed; i += j->step) {
		nmt_result *r;
		if (nmt_translate(session, &options, j->lines[i], &r, &j->err) != NMT_OK) {
			j->failed = 1;
			break;
		}
		j->out[i] = strdup(nmt_result_text(r, 0, 0));
		nmt_result_free(r);
		if (!j->out[i])
			j->failed = 1;
	}
	nmt_session_free(session);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc == 3 ? atoi(argv[2]) : 0;
	if (threads < 1 || threads > MAX_THREADS) {
		fprintf(stderr, "usage: threads MODEL THREADS(1..%d) < input\n", MAX_THREADS);
		return 2;
	}
	nmt_model *model;
	nmt_error err;
	if (nmt_model_open(argv[1], 0, &model, &err) != NMT_OK) {
		fprintf(stderr, "threads: %s\n", err.message);
		return 1;
	}

	static char *lines[MAX_LINES], *out[MAX_LINES];
	char buf[4096];
	int n = 0;
	while (n < MAX_LINES && fgets(buf, sizeof buf, stdin)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (!(lines[n++] = strdup(buf)))
			return 1;
	}

	pthread_t tid[MAX_THREADS];
	job jobs[MAX_THREADS];
	int status = 0;
	for (int t = 0; t < threads; t++) {
		jobs[t] = (job){ .model = model, .lines = lines, .out = out, .n_lines = n, .first = t, .step = threads };
		if (pthread_create(&tid[t], NULL, translate_lines, &jobs[t]) != 0)
			return 1;
	}
	for (int t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		if (jobs[t].failed) {
			fprintf(stderr, "threads: %s\n", jobs[t].err.message);
			status = 1;
		}
	}
	for (int i = 0; i < n && status == 0; i++)
		printf("%s\n", out[i]);
	for (int i = 0; i < n; i++) {
		free(lines[i]);
		free(out[i]);
	}
	nmt_model_close(model);
	return status;
}
