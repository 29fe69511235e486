/* nmt: translate stdin to stdout, one line in, one line out.
 *
 *   nmt [-m MODEL] [-b BEAM] [--nbest N] < input > output
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

#define NMT_VERSION "0.1.0"

typedef struct {
	const char *model_path;
	nmt_search_options search;
} cli_options;

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
	fputs("usage: nmt [options] < input > output\n"
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
	      "  -h, --help           this help\n"
	      "      --version        print the version\n", f);
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

static void parse_args(int argc, char **argv, cli_options *o)
{
	enum { OPT_NBEST = 256, OPT_ALPHA, OPT_MAXLEN, OPT_VERSION, OPT_NO_SHORTLIST };
	static const struct option longs[] = {
		{ "model", required_argument, NULL, 'm' },   { "beam", required_argument, NULL, 'b' },
		{ "nbest", required_argument, NULL, OPT_NBEST }, { "alpha", required_argument, NULL, OPT_ALPHA },
		{ "max-length", required_argument, NULL, OPT_MAXLEN }, { "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "no-shortlist", no_argument, NULL, OPT_NO_SHORTLIST }, { NULL, 0, NULL, 0 },
	};
	int c;

	*o = (cli_options){ .search = { .use_shortlist = 1, .beam = 4, .nbest = 1, .alpha = 0.6 } };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:b:h", longs, NULL)) != -1) {
		switch (c) {
		case 'm': o->model_path = optarg; break;
		case 'b': o->search.beam = (int)parse_int(optarg, "--beam", 1, NMT_MAX_BEAM); break;
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

/* A translation must stay on one line whatever the vocabulary decodes to. */
static void put_line_text(const char *text, size_t len, FILE *out)
{
	for (size_t i = 0; i < len; i++)
		fputc(text[i] == '\n' || text[i] == '\r' ? ' ' : text[i], out);
}

static void write_result(FILE *out, unsigned long line_no, const nmt_translation *tr, int n, int nbest)
{
	if (nbest == 1) {
		put_line_text(tr[0].text, tr[0].len, out);
		fputc('\n', out);
		return;
	}
	for (int i = 0; i < n; i++) {
		fprintf(out, "%lu ||| ", line_no);
		put_line_text(tr[i].text, tr[i].len, out);
		fprintf(out, " ||| %.6f ||| %.6f\n", tr[i].score, tr[i].logprob);
	}
}

/* Flush per line unless stdout is a regular file, so a program that writes
 * a line into a pipe and waits for the answer gets it. */
static int stdout_is_interactive(void)
{
	struct stat st;
	return fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode);
}

static void translate_stream(const nmt_model *m, const nmt_search_options *o)
{
	nmt_translator *t = nmt_translator_new(m);
	nmt_translation tr[NMT_MAX_BEAM];
	int flush_each = stdout_is_interactive();
	char *line = NULL, err[256];
	size_t cap = 0;
	ssize_t len;
	unsigned long line_no = 0;
	int n;

	if (!t)
		die(1, "out of memory");
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (nmt_translate(t, o, line, (size_t)len, tr, &n, err, sizeof err) != 0)
			die(1, "line %lu: %s", line_no + 1, err);
		write_result(stdout, line_no++, tr, n, o->nbest);
		if (flush_each && fflush(stdout) != 0)
			break;
	}
	if (ferror(stdin))
		die(1, "error reading input: %s", strerror(errno));
	if (fflush(stdout) != 0 || ferror(stdout))
		die(1, "error writing output: %s", strerror(errno));
	free(line);
	nmt_translator_free(t);
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
	translate_stream(m, &o.search);
	nmt_model_close(m);
	return 0;
}
