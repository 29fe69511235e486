/* nmt: translate stdin to stdout, one line in, one line out.
 *
 *   nmt [-m MODEL] [-b BEAM] [--nbest N] [-t THREADS] [--progress|-q] < input > output
 *   nmt info [--verify] [MODEL]
 *   nmt models
 *   nmt install [--force] FILE.nmt|DIR   (cli/install.c)
 *   nmt detect [--json] [--langs CODES] [--profile FILE] < text   (cli/detect.c)
 *   nmt serve [--host H] [--port P] [-t N] [-m MODEL]...   (server/serve.c)
 *
 * Errors are one line on stderr starting "nmt: ", exit status 1 (2 for bad
 * usage). Every input line gives exactly one output line (N with --nbest N),
 * in order, empty lines included. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nmt.h"
#include "common/json.h"
#include "common/number.h"
#include "cli/embedded.h"
#include "cli/auto.h"
#include "cli/catalog.h"
#include "cli/detect.h"
#include "cli/install.h"
#include "cli/lines.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/pivot.h"
#include "cli/profile.h"
#include "cli/progress.h"
#include "server/serve.h"

typedef struct {
	const char *model_path;
	const char *from, *to;   /* -l FROM-TO / --from --to: a model among the installed ones */
	char pair[64];
	int json;          /* one JSON object per input line */
	cli_progress_mode progress;
	nmt_options nmt;
} cli_options;

#define MAX_BATCH 256

static void usage(FILE *f)
{
	fprintf(f, "usage: nmt [options] < input > output\n"
	      "       nmt info [--verify] [MODEL]\n"
	      "       nmt models\n"
	      "       nmt install [--force] FILE.nmt|DIR   (a model for nmt -l; nmt install --help)\n"
	      "       nmt detect [--json] [--langs CODES] < text   (the language of each line)\n"
	      "       nmt serve [--host 127.0.0.1] [--port 5000] [-t N] [-m MODEL]... (nmt serve --help)\n"
	      "Translates stdin line by line with the embedded model or MODEL.\n"
	      "  -m, --model FILE     packed model (.nmt) to use instead of the embedded one\n"
	      "  -l, --langs SRC-TGT  the installed model from SRC to TGT (nmt models lists\n"
	      "                       them), or two chained through English; also\n"
	      "      --from SRC --to TGT\n"
	      "                       SRC auto: each line from the language nmt detect names\n"
	      "                       (a line in TGT, or without letters, is copied unchanged)\n"
	      "  -b, --beam N         beam size 1..8 (default 4; 1 = greedy)\n"
	      "      --nbest N        print the N best translations per line (N <= beam) as\n"
	      "                       \"LINE ||| TRANSLATION ||| SCORE ||| LOGPROB\"\n"
	      "      --alpha A        length normalization: score = logprob / length^A (default:\n"
	      "                       the model's own, chosen when it was made; else 0.6)\n"
	      "      --max-length N   at most N target tokens (default 1.5 * source + 10)\n"
	      "      --no-shortlist   score the whole target vocabulary, not the shortlist of\n"
	      "                       the model's vocabulary map\n"
	      "  -t, --threads N      translate on N threads (default: one per core)\n"
	      "      --batch N        decode up to N sentences of similar length together\n"
	      "                       (default 16 / beam); the output is the same for any N and -t\n"
	      "      --device D       cpu (default), or cuda: an NVIDIA GPU (a make CUDA=1 build)\n"
	      "      --split S        sentence (default): a line is a paragraph, translated sentence\n"
	      "                       by sentence; none: a line is one sentence\n"
	      "      --alignment      append \" ||| \" and the word alignment (\"0-0 1-2 2-1\": source\n"
	      "                       word - target word) to each translation\n"
	      "      --json           one JSON object per input line: translation, score, logprob,\n"
	      "                       words with their probabilities, alignment, n-best\n"
	      "      --html           lines are HTML fragments: the text is translated, the tags\n"
	      "                       go back around the words aligned to what they enclosed\n"
	      "      --no-protect     translate numbers, URLs, e-mail addresses, paths, quoted names\n"
	      "                       and the like as words (by default they come through verbatim)\n"
	      "      --no-repeat-guard  let a translation repeat pieces as the model scores them\n"
	      "                       (by default none loops: docs/INPUT.md)\n"
	      "      --no-case-fold   translate a sentence written in capitals as it is (by\n"
	      "                       default in sentence case, given back in capitals)\n"
	      "      --progress       show lines done, words/s and the time left on stderr (by\n"
	      "                       default only on a terminal, for a large input)\n"
	      "  -q, --quiet          never show progress\n"
	      "  -h, --help           this help\n"
	      "      --version        print the version\n");
}

static double parse_alpha(const char *s)
{
	double v;
	if (number_parse_double(s, 0.0, 10.0, &v) != 0)
		error_die(2, "--alpha must be a number in 0..10, not \"%s\"", s);
	return v;
}

static int parse_split(const char *s)
{
	if (strcmp(s, "sentence") == 0)
		return NMT_SPLIT_SENTENCE;
	if (strcmp(s, "none") == 0)
		return NMT_SPLIT_NONE;
	error_die(2, "--split must be sentence or none, not \"%s\"", s);
}

static int parse_device(const char *s)
{
	if (strcmp(s, "cpu") == 0)
		return NMT_DEVICE_CPU;
	if (strcmp(s, "cuda") == 0)
		return NMT_DEVICE_CUDA;
	error_die(2, "--device must be cpu or cuda, not \"%s\"", s);
}

/* A language code as models name them: letters, digits, '_' (zh_Hant). */
static const char *parse_lang(const char *s, const char *what)
{
	size_t n = strlen(s);
	if (n == 0 || n > 15 || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n)
		error_die(2, "%s must be a language code such as en or de, not \"%s\"", what, s);
	return s;
}

static void parse_pair(const char *s, cli_options *o)
{
	const char *dash = strchr(s, '-');
	if (!dash || strlen(s) >= sizeof o->pair)
		error_die(2, "-l must be SRC-TGT, such as en-de, not \"%s\"", s);
	memcpy(o->pair, s, strlen(s) + 1);
	o->pair[dash - s] = '\0';
	o->from = parse_lang(o->pair, "-l");
	o->to = parse_lang(o->pair + (dash - s) + 1, "-l");
}

static void parse_args(int argc, char **argv, cli_options *o)
{
	enum { OPT_NBEST = 256, OPT_ALPHA, OPT_MAXLEN, OPT_VERSION, OPT_NO_SHORTLIST, OPT_BATCH, OPT_DEVICE,
	       OPT_SPLIT, OPT_NO_GUARD, OPT_ALIGNMENT, OPT_JSON, OPT_NO_PROTECT, OPT_HTML, OPT_PROGRESS, OPT_FROM,
	       OPT_TO, OPT_NO_CASE_FOLD };
	static const struct option longs[] = {
		{ "model", required_argument, NULL, 'm' },   { "beam", required_argument, NULL, 'b' },
		{ "nbest", required_argument, NULL, OPT_NBEST }, { "alpha", required_argument, NULL, OPT_ALPHA },
		{ "max-length", required_argument, NULL, OPT_MAXLEN }, { "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "no-shortlist", no_argument, NULL, OPT_NO_SHORTLIST }, { "threads", required_argument, NULL, 't' },
		{ "batch", required_argument, NULL, OPT_BATCH }, { "device", required_argument, NULL, OPT_DEVICE },
		{ "split", required_argument, NULL, OPT_SPLIT }, { "no-repeat-guard", no_argument, NULL, OPT_NO_GUARD },
		{ "alignment", no_argument, NULL, OPT_ALIGNMENT }, { "json", no_argument, NULL, OPT_JSON },
		{ "no-protect", no_argument, NULL, OPT_NO_PROTECT }, { "html", no_argument, NULL, OPT_HTML },
		{ "progress", no_argument, NULL, OPT_PROGRESS }, { "quiet", no_argument, NULL, 'q' },
		{ "langs", required_argument, NULL, 'l' }, { "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO }, { "no-case-fold", no_argument, NULL, OPT_NO_CASE_FOLD },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (cli_options){ 0 };
	nmt_options_init(&o->nmt);
	o->nmt.threads = cli_default_threads();
	opterr = 0;
	char refused[8];   /* a refused short option, for its error */
	while ((c = getopt_long(argc, argv, ":m:b:t:l:hq", longs, NULL)) != -1) {
		switch (c) {
		case 'm': o->model_path = optarg; break;
		case 'b': o->nmt.beam = (int)cli_option_long("nmt", optarg, "--beam", 1, NMT_MAX_BEAM); break;
		case 't': o->nmt.threads = (int)cli_option_long("nmt", optarg, "--threads", 1, NMT_MAX_THREADS); break;
		case OPT_BATCH: o->nmt.batch = (int)cli_option_long("nmt", optarg, "--batch", 1, MAX_BATCH); break;
		case OPT_NBEST: o->nmt.nbest = (int)cli_option_long("nmt", optarg, "--nbest", 1, NMT_MAX_BEAM); break;
		case OPT_ALPHA: o->nmt.alpha = parse_alpha(optarg); break;
		case OPT_NO_SHORTLIST: o->nmt.shortlist = 0; break;
		case OPT_MAXLEN:
			o->nmt.max_length = (int)cli_option_long("nmt", optarg, "--max-length", 1, 1 << 20);
			break;
		case OPT_DEVICE: o->nmt.device = parse_device(optarg); break;
		case OPT_SPLIT: o->nmt.split = parse_split(optarg); break;
		case OPT_NO_GUARD: o->nmt.repeat_guard = 0; break;
		case OPT_ALIGNMENT: o->nmt.alignment = 1; break;
		case OPT_JSON: o->json = 1; break;
		case OPT_NO_PROTECT: o->nmt.protect_spans = 0; break;
		case OPT_NO_CASE_FOLD: o->nmt.case_fold = 0; break;
		case OPT_HTML: o->nmt.html = 1; break;
		case OPT_PROGRESS: o->progress = CLI_PROGRESS_ON; break;
		case 'q': o->progress = CLI_PROGRESS_OFF; break;
		case 'l': parse_pair(optarg, o); break;
		case OPT_FROM: o->from = parse_lang(optarg, "--from"); break;
		case OPT_TO: o->to = parse_lang(optarg, "--to"); break;
		case 'h': usage(stdout); exit(0);
		case OPT_VERSION: printf("nmt %s\n", nmt_version()); exit(0);
		case ':': error_die(2, "option %s needs a value (try --help)",
			            cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		default: error_die(2, "unknown option %s (try --help)",
			            cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		}
	}
	if (optind < argc)
		error_die(2, "unexpected argument \"%s\" (input is read from stdin; try --help)", argv[optind]);
	if (o->nmt.nbest > o->nmt.beam)
		error_die(2, "--nbest %d is larger than the beam (%d)", o->nmt.nbest, o->nmt.beam);
	if ((o->from != NULL) != (o->to != NULL))
		error_die(2, "--from and --to go together (or -l SRC-TGT)");
	if (o->from && o->model_path)
		error_die(2, "-m and -l (--from/--to) both choose the model: give one");
	if (o->from && strcmp(o->from, "auto") == 0 && (o->json || o->nmt.nbest > 1 || o->nmt.alignment))
		error_die(2, "-l auto-%s translates plain text: not with --json, --nbest or --alignment", o->to);
}

static nmt_model *load_model(const char *path, unsigned flags)
{
	nmt_model *m;
	nmt_error err;

	if (path) {
		if (nmt_model_open(path, flags, &m, &err) != NMT_OK)
			error_die(1, "%s", err.message);
		return m;
	}
	if (nmt_embedded_model_size == 0)
		error_die(1, "no model is embedded in this build; give one with -m FILE");
	if (nmt_model_open_buffer(nmt_embedded_model, nmt_embedded_model_size, flags, &m, &err) != NMT_OK)
		error_die(1, "embedded model: %s", err.message);
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
 * the session together (which sorts it into batches for its threads). */
#define CHUNK_LINES 256

/* A translation stays on one line whatever the vocabulary decodes to. */
static void write_translation(const nmt_translation *tr)
{
	for (size_t i = 0, start = 0; i <= tr->len; i++)
		if (i == tr->len || tr->text[i] == '\n' || tr->text[i] == '\r') {
			cli_write_or_die(tr->text + start, i - start);
			if (i < tr->len)
				cli_write_or_die(" ", 1);
			start = i + 1;
		}
}

static void print_or_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vprintf(fmt, ap);
	va_end(ap);
	if (rc < 0)
		error_die(1, "error writing output: %s", strerror(errno));
}

static void write_json_string(const char *s, size_t len)
{
	json_write_string(s, len, cli_put_to_stdout, NULL);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* One translation's JSON fields: text, score, logprob, its words with the
 * model's probability of each, and the alignment if there is one. */
static void write_json_fields(const nmt_translation *tr, const char *alignment)
{
	cli_write_or_die("\"translation\":", 14);
	write_json_string(tr->text, tr->len);
	print_or_die(",\"score\":%.6f,\"logprob\":%.6f,\"words\":[", tr->score, tr->logprob);
	size_t i = 0;
	for (int w = 0; w < tr->n_words; w++) {
		while (i < tr->len && is_blank(tr->text[i]))
			i++;
		size_t start = i;
		while (i < tr->len && !is_blank(tr->text[i]))
			i++;
		print_or_die("%s{\"word\":", w ? "," : "");
		write_json_string(tr->text + start, i - start);
		print_or_die(",\"prob\":%.4f}", exp(tr->word_logprob[w]));
	}
	cli_write_or_die("]", 1);
	if (alignment) {
		cli_write_or_die(",\"alignment\":", 13);
		write_json_string(alignment, strlen(alignment));
	}
}

/* The alignment to print for translation k of text i: the pivot's chained
 * one where there is one (align, NMT_MAX_BEAM per text), else the model's. */
static const char *alignment_of(const nmt_result *r, char *const *align, int i, int k)
{
	return align ? align[i * NMT_MAX_BEAM + k] : nmt_result_get(r, i, k)->alignment;
}

/* Text i as one JSON object on one line: the best translation's fields,
 * and with --nbest an "nbest" array of every translation's. */
static void write_json_line(const nmt_result *r, char *const *align, int i, int nbest)
{
	cli_write_or_die("{", 1);
	write_json_fields(nmt_result_get(r, i, 0), alignment_of(r, align, i, 0));
	if (nbest > 1) {
		cli_write_or_die(",\"nbest\":[", 10);
		for (int k = 0; k < nmt_result_nbest(r, i); k++) {
			cli_write_or_die(k ? ",{" : "{", k ? 2 : 1);
			write_json_fields(nmt_result_get(r, i, k), alignment_of(r, align, i, k));
			cli_write_or_die("}", 1);
		}
		cli_write_or_die("]", 1);
	}
	cli_write_or_die("}\n", 2);
}

/* A batch's translations in input order: one line per input line, or with
 * --nbest N, "LINE ||| TRANSLATION ||| SCORE ||| LOGPROB" lines; with
 * --alignment the alignment follows the translation (" ||| A"). */
static void write_result(const nmt_result *r, char *const *align, unsigned long first_line_no, const cli_options *o,
			 int flush_each)
{
	int nbest = o->nmt.nbest;
	for (int i = 0; i < nmt_result_count(r); i++) {
		if (o->json) {
			write_json_line(r, align, i, nbest);
			continue;
		}
		for (int k = 0; k < nmt_result_nbest(r, i) && (k == 0 || nbest > 1); k++) {
			const nmt_translation *tr = nmt_result_get(r, i, k);
			if (nbest > 1)
				print_or_die("%lu ||| ", first_line_no + (unsigned long)i);
			write_translation(tr);
			const char *alignment = alignment_of(r, align, i, k);
			if (alignment)
				print_or_die(" ||| %s", alignment);
			if (nbest > 1)
				print_or_die(" ||| %.6f ||| %.6f", tr->score, tr->logprob);
			cli_write_or_die("\n", 1);
		}
	}
	if (flush_each && fflush(stdout) != 0)
		error_die(1, "error writing output: %s", strerror(errno));
}

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* stdin's size if it is a regular file (what an ETA needs), else -1 */
static long long input_size(void)
{
	struct stat st;
	return fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

static long long count_words(const char *text, size_t len)
{
	long long n = 0;
	for (size_t i = 0; i < len; i++)
		n += !is_blank(text[i]) && (i == 0 || is_blank(text[i - 1]));
	return n;
}

/* Translate a batch with one model, or with two through the pivot: the
 * first's best translations are the second's input, and with --alignment
 * *align receives the chained alignments (NMT_MAX_BEAM per text). */
static nmt_status translate_chain(nmt_session *const *s, int n, const nmt_options *o, const char *const *lines,
				  const size_t *lens, int count, nmt_result **out, char ***align, nmt_error *err)
{
	*align = NULL;
	if (n == 1)
		return nmt_translate_batch(s[0], o, lines, lens, count, out, err);
	nmt_result *mid;
	nmt_status rc = cli_pivot_translate(s[0], s[1], o, lines, lens, count, &mid, out, err);
	if (rc == NMT_OK && o->alignment) {
		if (!(*align = calloc((size_t)count * NMT_MAX_BEAM, sizeof **align)))
			error_die(1, "out of memory");
		for (int i = 0; i < count; i++)
			for (int k = 0; k < nmt_result_nbest(*out, i); k++) {
				const char *a = nmt_result_get(mid, i, 0)->alignment, *b = nmt_result_get(*out, i, k)->alignment;
				if (!(a && b && ((*align)[i * NMT_MAX_BEAM + k] = cli_compose_alignment(a, b))))
					error_die(1, "out of memory");
			}
	}
	nmt_result_free(mid);
	return rc;
}

static void free_alignments(char **align, int count)
{
	for (int i = 0; align && i < count * NMT_MAX_BEAM; i++)
		free(align[i]);
	free(align);
}

/* Lines i.. that are in the same language as line i (langs[i]); their number. */
static int same_language_run(const int *langs, int i, int count)
{
	int j = i + 1;
	while (j < count && langs[j] == langs[i])
		j++;
	return j - i;
}

/* -l auto-TGT: each run of consecutive lines in one language is translated
 * together, with that language's models; a line that needs no translation
 * (in TGT, or without letters) is written as it is. */
static void translate_auto(cli_auto *a, const cli_options *cli, const char *const *lines, const size_t *lens,
			   int count, unsigned long line_no, int flush_each)
{
	int langs[CHUNK_LINES];
	nmt_session *s[2];
	nmt_error err;
	for (int i = 0; i < count; i++)
		langs[i] = cli_auto_language(a, lines[i], lens[i]);
	for (int i = 0, run; i < count; i += run) {
		run = same_language_run(langs, i, count);
		if (langs[i] < 0) {
			for (int k = i; k < i + run; k++) {
				cli_write_or_die(lines[k], lens[k]);
				cli_write_or_die("\n", 1);
			}
			continue;
		}
		int n;
		nmt_result *r;
		char **align;
		unsigned long first = line_no + (unsigned long)i + 1, last = line_no + (unsigned long)(i + run);
		if (cli_auto_sessions(a, langs[i], &cli->nmt, s, &n, &err) != NMT_OK)
			error_die(1, "lines %lu-%lu (%s): %s", first, last, a->profile.codes[langs[i]], err.message);
		if (translate_chain(s, n, &cli->nmt, lines + i, lens + i, run, &r, &align, &err) != NMT_OK)
			error_die(1, "lines %lu-%lu: %s", first, last, err.message);
		write_result(r, align, first - 1, cli, 0);
		nmt_result_free(r);
		free_alignments(align, run);
	}
	if (flush_each && fflush(stdout) != 0)
		error_die(1, "error writing output: %s", strerror(errno));
}

/* A chunk of lines through the session(s), or with a (-l auto-TGT) each
 * line through its own language's. */
static void translate_chunk(nmt_session *const *sessions, int n_models, cli_auto *a, const cli_options *cli,
			    const char *const *lines, const size_t *lens, int count, unsigned long line_no,
			    int flush_each)
{
	nmt_result *r;
	char **align;
	nmt_error err;
	if (a) {
		translate_auto(a, cli, lines, lens, count, line_no, flush_each);
		return;
	}
	if (translate_chain(sessions, n_models, &cli->nmt, lines, lens, count, &r, &align, &err) != NMT_OK)
		error_die(1, "lines %lu-%lu: %s", line_no + 1, line_no + (unsigned long)count, err.message);
	write_result(r, align, line_no, cli, flush_each);
	nmt_result_free(r);
	free_alignments(align, count);
}

/* Translate stdin as it arrives: whatever complete lines are buffered (at
 * most CHUNK_LINES) form a batch, so a line sent alone through a pipe is
 * answered at once and a file is translated in full batches. */
static void translate_stream(nmt_model *const *models, int n_models, cli_auto *a, const cli_options *cli)
{
	const nmt_options *o = &cli->nmt;
	static const char *lines[CHUNK_LINES];
	static size_t lens[CHUNK_LINES];
	int flush_each = stdout_is_interactive(), count = 0;
	unsigned long line_no = 0;
	nmt_session *sessions[2];
	nmt_error err;
	cli_lines in;

	for (int i = 0; i < n_models; i++) {
		if (nmt_session_new(models[i], &sessions[i], &err) != NMT_OK)
			error_die(1, "%s", err.message);
		/* an empty batch first: options and device are checked before any input */
		nmt_result *none;
		if (nmt_translate_batch(sessions[i], o, NULL, NULL, 0, &none, &err) != NMT_OK)
			error_die(1, "%s", err.message);
		nmt_result_free(none);
	}
	cli_progress progress;
	cli_progress_init(&progress, cli->progress, isatty(STDERR_FILENO), input_size(), now_seconds(), stderr);
	cli_lines_init(&in, STDIN_FILENO);
	for (;;) {
		char *text;
		size_t len;
		while (count < CHUNK_LINES && cli_lines_next(&in, &text, &len)) {
			lines[count] = text;
			lens[count++] = len;
		}
		if (count > 0) {
			translate_chunk(sessions, n_models, a, cli, lines, lens, count, line_no, flush_each);
			long long bytes = 0, words = 0;
			for (int i = 0; i < count; i++) {
				bytes += (long long)lens[i] + 1;
				words += count_words(lines[i], lens[i]);
			}
			cli_progress_add(&progress, bytes, count, words, now_seconds());
			line_no += (unsigned long)count;
			count = 0;
			continue;
		}
		int rc = cli_lines_fill(&in);
		if (rc < 0)
			error_die(1, "error reading input: %s", strerror(errno));
		if (rc == 0 && in.start == in.end)
			break;
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		error_die(1, "error writing output: %s", strerror(errno));
	cli_progress_finish(&progress, now_seconds());
	cli_lines_free(&in);
#ifdef ENGINE_PROFILE
	cli_profile_print(sessions, n_models, stderr);
#endif
	for (int i = 0; i < n_models; i++)
		nmt_session_free(sessions[i]);
}

static int cmd_info(int argc, char **argv)
{
	int verify = 0, i = 2;
	if (i < argc && strcmp(argv[i], "--verify") == 0) {
		verify = 1;
		i++;
	}
	if (i + 1 < argc)
		error_die(2, "usage: nmt info [--verify] [MODEL]");
	/* no MODEL: the embedded one */
	const char *path = i < argc ? argv[i] : NULL;
	nmt_model *m = load_model(path, verify ? NMT_OPEN_VERIFY : 0);
	printf("file: %s (%zu bytes)\n", path ? path : "(embedded)", nmt_model_file_size(m));
	printf("format version: %u\n", nmt_model_format_version(m));
	for (int s = 0; s < nmt_model_section_count(m); s++) {
		nmt_section_info info;
		if (nmt_model_section(m, s, &info) == NMT_OK)
			printf("section %-10s %12llu bytes%s\n", info.tag, (unsigned long long)info.size,
			       info.checksum_verified ? "" : " (checksum not verified)");
	}
	size_t meta_len;
	const char *meta = nmt_model_metadata(m, &meta_len);
	fwrite(meta, 1, meta_len, stdout);
	if (verify)
		printf("verify: all section checksums OK\n");
	nmt_model_close(m);
	if (fflush(stdout) != 0)
		error_die(1, "error writing output: %s", strerror(errno));
	return 0;
}

/* why holds the file's name (the open error says which file) */
static void warn_skipped(const char *path, const char *why)
{
	(void)path;
	fprintf(stderr, "nmt: skipped: %s\n", why);
}

static void scan_catalog(cli_catalog *c, void (*warn)(const char *, const char *))
{
	char *path = cli_catalog_search_path();
	if (!path || cli_catalog_scan(c, path, 1, warn) != 0)
		error_die(1, "out of memory");
	free(path);
}

/* nmt models: every installed model, then the pairs only a pivot offers. */
static int cmd_models(int argc, char **argv)
{
	(void)argv;
	if (argc > 2)
		error_die(2, "usage: nmt models");
	cli_catalog c;
	scan_catalog(&c, warn_skipped);
	printf("%-8s %-17s %-6s %10s  %s\n", "langs", "family", "format", "bytes", "file");
	for (int i = 0; i < c.n; i++) {
		const cli_catalog_entry *e = &c.entries[i];
		char pair[40];
		snprintf(pair, sizeof pair, "%s-%s", e->src, e->tgt);
		printf("%-8s %-17s %-6s %10zu  %s\n", pair, e->arch, e->quant, e->size, e->path ? e->path : "(embedded)");
	}
	for (int i = 0; i < c.n; i++)
		for (int j = 0; j < c.n; j++) {
			const cli_catalog_entry *a = &c.entries[i], *b = &c.entries[j];
			if (strcmp(a->tgt, CLI_PIVOT_LANG) == 0 && strcmp(b->src, CLI_PIVOT_LANG) == 0 &&
			    strcmp(a->src, b->tgt) != 0 && !cli_catalog_find(&c, a->src, b->tgt) &&
			    cli_catalog_find(&c, a->src, a->tgt) == a && cli_catalog_find(&c, b->src, b->tgt) == b)
				printf("%s-%s via %s (pivot)\n", a->src, b->tgt, CLI_PIVOT_LANG);
		}
	cli_catalog_free(&c);
	if (fflush(stdout) != 0)
		error_die(1, "error writing output: %s", strerror(errno));
	return 0;
}

static nmt_model *open_entry(const cli_catalog_entry *e)
{
	nmt_model *m;
	nmt_error err;
	if (cli_catalog_open(e, &m, &err) != NMT_OK)
		error_die(1, "%s", err.message);
	return m;
}

/* The models -l FROM-TO runs: the first installed one for the pair, or
 * FROM-en then en-TO. Returns how many (1 or 2). Files that are not models
 * are passed over quietly here; nmt models names them. */
static int choose_models(const cli_options *o, nmt_model **models)
{
	cli_catalog c;
	scan_catalog(&c, NULL);
	const cli_catalog_entry *direct = cli_catalog_find(&c, o->from, o->to);
	const cli_catalog_entry *first = cli_catalog_find(&c, o->from, CLI_PIVOT_LANG);
	const cli_catalog_entry *second = cli_catalog_find(&c, CLI_PIVOT_LANG, o->to);
	int n = 0;
	if (direct)
		models[n++] = open_entry(direct);
	else if (first && second) {
		models[n++] = open_entry(first);
		models[n++] = open_entry(second);
	}
	cli_catalog_free(&c);
	if (n == 0)
		error_die(1, "no installed model translates %s to %s, directly or through %s (nmt models lists them)",
			  o->from, o->to, CLI_PIVOT_LANG);
	return n;
}

/* -l auto-TGT: the installed models into TGT, each opened when a line first needs it. */
static int translate_auto_stream(const cli_options *o)
{
	cli_auto a;
	char err[256];
	char *path = cli_catalog_search_path();
	if (!path)
		error_die(1, "out of memory");
	if (cli_auto_open(&a, o->to, cli_langid_profile, cli_langid_profile_size, path, err, sizeof err) != 0)
		error_die(1, "%s", err);
	free(path);
	translate_stream(NULL, 0, &a, o);
	cli_auto_close(&a);
	return 0;
}

int main(int argc, char **argv)
{
	cli_options o;

	if (argc >= 2 && strcmp(argv[1], "info") == 0)
		return cmd_info(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "models") == 0)
		return cmd_models(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "detect") == 0)
		return cli_detect_main(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "serve") == 0) {
#ifdef NMT_NO_SERVER   /* the WebAssembly build: no sockets, server/ left out */
		error_die(2, "serve is not available in this build");
#else
		return server_main(argc - 1, argv + 1);
#endif
	}
	if (argc >= 2 && strcmp(argv[1], "install") == 0)
		return cli_install_main(argc - 1, argv + 1);
	parse_args(argc, argv, &o);
	if (o.from && strcmp(o.from, "auto") == 0)
		return translate_auto_stream(&o);
	nmt_model *models[2];
	int n = 1;
	if (o.from)
		n = choose_models(&o, models);
	else
		models[0] = load_model(o.model_path, 0);
	translate_stream(models, n, NULL, &o);
	for (int i = 0; i < n; i++)
		nmt_model_close(models[i]);
	return 0;
}
