#include "detect.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/json.h"
#include "../text/langid.h"
#include "catalog.h"
#include "lines.h"
#include "options.h"
#include "output.h"

/* A profile file larger than this is not one (64 languages x 2^24 buckets
 * would be 1 GiB; the shipped one is 160 KB). */
#define MAX_PROFILE_BYTES (64u << 20)

typedef struct {
	int json;
	const char *langs;     /* --langs, or NULL */
	const char *profile;   /* --profile FILE, or NULL: the embedded one */
} detect_options;

static void usage(FILE *f)
{
	fprintf(f, "usage: nmt detect [--json] [--langs CODES] [--profile FILE] < text\n"
		   "Prints the language of each input line: its code, or \"und\" for a line\n"
		   "without letters or in a script none of the candidates is written in.\n"
		   "      --json           one JSON object per line: language, confidence and the\n"
		   "                       other candidates (\"alternatives\"), best first\n"
		   "      --langs CODES    the candidates, comma-separated (en,de,fr); by default the\n"
		   "                       source languages of the installed models (nmt models), or\n"
		   "                       every language of the profile if they are fewer than two\n"
		   "      --profile FILE   a language profile (train/langid.py) instead of the\n"
		   "                       embedded one\n"
		   "  -h, --help           this help\n");
}

static void parse_args(int argc, char **argv, detect_options *o)
{
	enum { OPT_JSON = 256, OPT_LANGS, OPT_PROFILE };
	static const struct option longs[] = {
		{ "json", no_argument, NULL, OPT_JSON },          { "langs", required_argument, NULL, OPT_LANGS },
		{ "profile", required_argument, NULL, OPT_PROFILE }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	*o = (detect_options){ 0 };
	opterr = 0;
	char refused[8];   /* a refused short option, for its error */
	while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: o->json = 1; break;
		case OPT_LANGS: o->langs = optarg; break;
		case OPT_PROFILE: o->profile = optarg; break;
		case 'h': usage(stdout); exit(0);
		case ':': error_die(2, "option %s needs a value (try nmt detect --help)",
			            cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		default: error_die(2, "unknown option %s (try nmt detect --help)",
			            cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		}
	}
	if (optind < argc)
		error_die(2, "unexpected argument \"%s\" (input is read from stdin; try nmt detect --help)",
			  argv[optind]);
}

/* The whole of a profile file, malloc'd. */
static unsigned char *read_profile(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		error_die(1, "%s: %s", path, strerror(errno));
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			if (cap > MAX_PROFILE_BYTES + 1 || !(buf = realloc(buf, cap)))
				error_die(1, "%s: %s", path,
					  buf ? "larger than any language profile" : "out of memory");
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		error_die(1, "%s: %s", path, strerror(errno));
	fclose(f);
	*len = n;
	return buf;
}

static void open_profile(const detect_options *o, text_langid *p, unsigned char **owned)
{
	char err[256];
	const unsigned char *buf = cli_langid_profile;
	size_t len = cli_langid_profile_size;
	*owned = NULL;
	if (o->profile)
		buf = *owned = read_profile(o->profile, &len);
	else if (len == 0)
		error_die(1, "no language profile is embedded in this build; give one with --profile FILE");
	if (text_langid_open(buf, len, p, err, sizeof err) != 0)
		error_die(1, "%s: %s", o->profile ? o->profile : "embedded profile", err);
}

static uint64_t parse_langs(const text_langid *p, const char *s)
{
	uint64_t mask = 0;
	for (;;) {
		size_t n = strcspn(s, ",");
		int i = n ? text_langid_find(p, s, n) : -1;
		if (i < 0) {
			char known[TEXT_LANGID_MAX_LANGS * TEXT_LANGID_CODE_SIZE] = "";
			for (int k = 0; k < p->n_langs; k++)
				strcat(strcat(known, k ? "," : ""), p->codes[k]);
			error_die(2, "--langs: the language profile has no language \"%.*s\" (it has %s)", (int)n, s,
				  known);
		}
		mask |= (uint64_t)1 << i;
		if (s[n] == '\0')
			return mask;
		s += n + 1;
	}
}

static int popcount64(uint64_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* The source languages of the installed models the profile knows, or all
 * of its languages if those are fewer than two (nothing to choose among). */
static uint64_t installed_langs(const text_langid *p)
{
	cli_catalog c;
	char *path = cli_catalog_search_path();
	if (!path || cli_catalog_scan(&c, path, 1, NULL) != 0)
		error_die(1, "out of memory");
	free(path);
	uint64_t mask = 0;
	for (int i = 0; i < c.n; i++) {
		int k = text_langid_find(p, c.entries[i].src, strlen(c.entries[i].src));
		if (k >= 0)
			mask |= (uint64_t)1 << k;
	}
	cli_catalog_free(&c);
	return popcount64(mask) >= 2 ? mask : text_langid_all(p);
}

static void write_lang(const char *code, double confidence)
{
	char num[32];
	cli_write_or_die("{\"language\":", 12);
	json_write_string(code, strlen(code), cli_put_to_stdout, NULL);
	cli_write_or_die(num, (size_t)snprintf(num, sizeof num, ",\"confidence\":%.4f", confidence));
}

static void write_json(const text_langid *p, const text_langid_guess *g, int n)
{
	write_lang(n ? p->codes[g[0].lang] : "und", n ? g[0].confidence : 0.0);
	cli_write_or_die(",\"alternatives\":[", 17);
	for (int i = 1; i < n; i++) {
		if (i > 1)
			cli_write_or_die(",", 1);
		write_lang(p->codes[g[i].lang], g[i].confidence);
		cli_write_or_die("}", 1);
	}
	cli_write_or_die("]}\n", 3);
}

static void detect_line(const text_langid *p, uint64_t candidates, int json, const char *line, size_t len)
{
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	int n = text_langid_classify(p, line, len, candidates, g);
	if (json) {
		write_json(p, g, n);
		return;
	}
	const char *code = n ? p->codes[g[0].lang] : "und";
	cli_write_or_die(code, strlen(code));
	cli_write_or_die("\n", 1);
}

/* Every line of stdin, answered as it arrives: the output is flushed
 * whenever no complete line is left to read, so a program that writes a
 * line into a pipe and waits gets its answer. */
static void detect_stream(const text_langid *p, uint64_t candidates, int json)
{
	cli_lines in;
	char *line;
	size_t len;
	cli_lines_init(&in, STDIN_FILENO);
	for (;;) {
		while (cli_lines_next(&in, &line, &len))
			detect_line(p, candidates, json, line, len);
		if (fflush(stdout) != 0)
			error_die(1, "error writing output: %s", strerror(errno));
		int rc = cli_lines_fill(&in);
		if (rc < 0)
			error_die(1, "error reading input: %s", strerror(errno));
		if (rc == 0 && in.start == in.end)
			break;
	}
	cli_lines_free(&in);
}

int cli_detect_main(int argc, char **argv)
{
	detect_options o;
	text_langid p;
	unsigned char *owned;
	parse_args(argc, argv, &o);
	open_profile(&o, &p, &owned);
	uint64_t candidates = o.langs ? parse_langs(&p, o.langs) : installed_langs(&p);
	detect_stream(&p, candidates, o.json);
	free(owned);
	return 0;
}
