/* nmt: translate stdin to stdout, one line in, one line out.
 *
 *   nmt [-m MODEL] [-b BEAM] [--nbest N] [-t THREADS] < input > output
 *   nmt info [--verify] MODEL
 *
 * Errors are one line on stderr starting "nmt: ", exit status 1 (2 for bad
 * usage). Every input line gives exactly one output line (N with --nbest N),
 * in order, empty lines included. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/embedded.h"
#include "engine/model.h"
#include "engine/translator.h"
#include "cli/lines.h"
#include "cli/workers.h"

#define NMT_VERSION "0.1.0"

typedef struct {
	const char *model_path;
	nmt_search_options search;
	int threads;
	int batch;
} cli_options;

/* Decoder rows (sentences x beam) decoded together unless --batch says
 * otherwise: 16 greedy sentences, 4 with beam 4. More rows were no faster
 * and cost ~0.45 MB per beam-4 sentence (docs/RESULTS.md, issue 5). */
#define DEFAULT_BATCH_ROWS 16
#define MAX_BATCH 256

_Noreturn static void die(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("nmt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: nmt [options] < input > output\n"
	      "       nmt info [--verify] MODEL\n"
	      "Translates stdin line by line with the embedded model or MODEL.\n"
	      "  -m, --model FILE     packed model (.nmt) to use instead of the embedded one\n"
	      "  -b, --beam N         beam size 1..8 (default 4; 1 = greedy)\n"
	      "      --nbest N        print the N best translations per line (N <= beam) as\n"
	      "                       \"LINE ||| TRANSLATION ||| SCORE ||| LOGPROB\"\n"
	      "      --alpha A        length normalization: score = logprob / length^A (default 0.6)\n"
	      "      --max-length N   at most N target tokens (default 1.5 * source + 10)\n"
	      "      --no-shortlist   score the whole target vocabulary, not the shortlist of\n"
	      "                       the model's vocabulary map\n"
	      "  -t, --threads N      translate on N threads (default: one per core)\n"
	      "      --batch N        decode up to N sentences of similar length together\n"
	      "                       (default %d / beam); the output is the same for any N and -t\n"
	      "  -h, --help           this help\n"
	      "      --version        print the version\n", DEFAULT_BATCH_ROWS);
}

static long parse_int(const char *s, const char *what, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v < lo || v > hi)
		die(2, "%s must be an integer in %ld..%ld, not \"%s\"", what, lo, hi, s);
	return v;
}

static double parse_alpha(const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *s == '\0' || *end != '\0' || !(v >= 0.0 && v <= 10.0))
		die(2, "--alpha must be a number in 0..10, not \"%s\"", s);
	return v;
}

#define MAX_THREADS 256

/* One worker per online core, within 1..MAX_THREADS. */
static int default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static void parse_args(int argc, char **argv, cli_options *o)
{
	enum { OPT_NBEST = 256, OPT_ALPHA, OPT_MAXLEN, OPT_VERSION, OPT_NO_SHORTLIST, OPT_BATCH };
	static const struct option longs[] = {
		{ "model", required_argument, NULL, 'm' },   { "beam", required_argument, NULL, 'b' },
		{ "nbest", required_argument, NULL, OPT_NBEST }, { "alpha", required_argument, NULL, OPT_ALPHA },
		{ "max-length", required_argument, NULL, OPT_MAXLEN }, { "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "no-shortlist", no_argument, NULL, OPT_NO_SHORTLIST }, { "threads", required_argument, NULL, 't' },
		{ "batch", required_argument, NULL, OPT_BATCH }, { NULL, 0, NULL, 0 },
	};
	int c;

	*o = (cli_options){ .search = { .use_shortlist = 1, .beam = 4, .nbest = 1, .alpha = 0.6 },
			    .threads = default_threads(), .batch = 0 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:b:t:h", longs, NULL)) != -1) {
		switch (c) {
		case 'm': o->model_path = optarg; break;
		case 'b': o->search.beam = (int)parse_int(optarg, "--beam", 1, NMT_MAX_BEAM); break;
		case 't': o->threads = (int)parse_int(optarg, "--threads", 1, MAX_THREADS); break;
		case OPT_BATCH: o->batch = (int)parse_int(optarg, "--batch", 1, MAX_BATCH); break;
		case OPT_NBEST: o->search.nbest = (int)parse_int(optarg, "--nbest", 1, NMT_MAX_BEAM); break;
		case OPT_ALPHA: o->search.alpha = parse_alpha(optarg); break;
		case OPT_NO_SHORTLIST: o->search.use_shortlist = 0; break;
		case OPT_MAXLEN: o->search.max_len = (int)parse_int(optarg, "--max-length", 1, 1 << 20); break;
		case 'h': usage(stdout); exit(0);
		case OPT_VERSION: printf("nmt %s\n", NMT_VERSION); exit(0);
		case ':': die(2, "option %s needs a value (try --help)", argv[optind - 1]);
		default: die(2, "unknown option %s (try --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument \"%s\" (input is read from stdin; try --help)", argv[optind]);
	if (o->search.nbest > o->search.beam)
		die(2, "--nbest %d is larger than the beam (%d)", o->search.nbest, o->search.beam);
	if (o->batch == 0)
		o->batch = DEFAULT_BATCH_ROWS / o->search.beam > 1 ? DEFAULT_BATCH_ROWS / o->search.beam : 1;
}

static nmt_model *load_model(const char *path, int verify_all)
{
	nmt_model *m;
	char err[512];

	if (path) {
		if (nmt_model_open_file(path, verify_all, &m, err, sizeof err) != 0)
			die(1, "%s", err);
		return m;
	}
	if (nmt_embedded_model_size == 0)
		die(1, "no model is embedded in this build; give one with -m FILE");
	if (nmt_model_open_memory(nmt_embedded_model, nmt_embedded_model_size, verify_all, &m,
				  err, sizeof err) != 0)
		die(1, "embedded model: %s", err);
	return m;
}

/* Flush per line unless stdout is a regular file, so a program that writes
 * a line into a pipe and waits for the answer gets it. */
static int stdout_is_interactive(void)
{
	struct stat st;
	return fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode);
}

/* Lines read at a time: what is already there, up to this many, goes to
 * the workers together (who cut it into batches). */
#define CHUNK_LINES 256

/* Write a batch's outputs in input order; die at the first failed line. */
static void write_batch(const nmt_line_output *out, int count, unsigned long first_line_no, int flush_each)
{
	for (int i = 0; i < count; i++) {
		if (out[i].failed)
			die(1, "line %lu: %s", first_line_no + (unsigned long)i + 1, out[i].err);
		if (fwrite(out[i].text, 1, out[i].len, stdout) != out[i].len)
			die(1, "error writing output: %s", strerror(errno));
	}
	if (flush_each && fflush(stdout) != 0)
		die(1, "error writing output: %s", strerror(errno));
}

/* Translate stdin as it arrives: whatever complete lines are buffered (at
 * most CHUNK_LINES) form a batch, so a line sent alone through a pipe is
 * answered at once and a file is translated in full batches. */
static void translate_stream(const nmt_model *m, const nmt_search_options *o, int threads, int batch)
{
	nmt_workers *w = nmt_workers_new(m, threads, batch);
	static nmt_line lines[CHUNK_LINES];
	static nmt_line_output out[CHUNK_LINES];
	int flush_each = stdout_is_interactive(), count = 0;
	unsigned long line_no = 0;
	nmt_lines in;

	if (!w)
		die(1, "out of memory");
	nmt_lines_init(&in, STDIN_FILENO);
	for (;;) {
		char *text;
		size_t len;
		while (count < CHUNK_LINES && nmt_lines_next(&in, &text, &len))
			lines[count++] = (nmt_line){ text, len };
		if (count > 0) {
			if (nmt_workers_run(w, o, lines, out, count, line_no) != 0)
				die(1, "out of memory");
			write_batch(out, count, line_no, flush_each);
			line_no += (unsigned long)count;
			count = 0;
			continue;
		}
		int rc = nmt_lines_fill(&in);
		if (rc < 0)
			die(1, "error reading input: %s", strerror(errno));
		if (rc == 0 && in.start == in.end)
			break;
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die(1, "error writing output: %s", strerror(errno));
	for (int i = 0; i < CHUNK_LINES; i++)
		free(out[i].text);
	nmt_lines_free(&in);
	nmt_workers_free(w);
}

static int cmd_info(int argc, char **argv)
{
	int verify = 0, i = 2;
	if (i < argc && strcmp(argv[i], "--verify") == 0) {
		verify = 1;
		i++;
	}
	if (i + 1 != argc)
		die(2, "usage: nmt info [--verify] MODEL");
	nmt_model *m = load_model(argv[i], verify);
	printf("file: %s (%zu bytes)\n", argv[i], m->map_len);
	printf("format version: %u\n", m->view.version);
	for (uint32_t s = 0; s < m->view.n_sections; s++)
		printf("section %-10s %12llu bytes%s\n", m->view.sections[s].tag,
		       (unsigned long long)m->view.sections[s].size,
		       (m->view.sections[s].flags & NMT_SECTION_BULK) && !verify ? " (checksum not verified)" : "");
	fwrite(m->meta, 1, m->meta_len, stdout);
	if (verify)
		printf("verify: all section checksums OK\n");
	nmt_model_close(m);
	if (fflush(stdout) != 0)
		die(1, "error writing output: %s", strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	cli_options o;

	if (argc >= 2 && strcmp(argv[1], "info") == 0)
		return cmd_info(argc, argv);
	parse_args(argc, argv, &o);
	nmt_model *m = load_model(o.model_path, 0);
	translate_stream(m, &o.search, o.threads, o.batch);
	nmt_model_close(m);
	return 0;
}
