#include "install.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/weights.h"
#include "../nmt.h"
#include "../pack/marian_dir.h"
#include "../pack/marian_import.h"
#include "../pack/writer.h"
#include "catalog.h"
#include "options.h"
#include "output.h"

/* A folder is packed i8 unless --quant says otherwise: an imported Marian
 * model scores as f32 does in i8 at a quarter of the size, twice as fast as
 * in q8 (docs/RESULTS.md, "Imported Marian models"), and Firefox's models
 * are linear 8-bit integers already. */
#define DEFAULT_QUANT FORMAT_I8

typedef struct {
	int force, quant_given;
	format_encoding quant;
	const char *src_lang, *tgt_lang;
	const char *path;
} install_options;

static void usage(FILE *f)
{
	fprintf(f, "usage: nmt install [--force] FILE.nmt\n"
		   "       nmt install [--force] [--quant f32|q8|q4|q4n|i8] [--src-lang L] [--tgt-lang L] DIR\n"
		   "Installs a model into ~/%s, where nmt models and nmt -l SRC-TGT find it,\n"
		   "as SRC-TGT.nmt after its languages. A packed FILE.nmt is checked (opened, checksums\n"
		   "verified) and copied; DIR, a Marian model's folder as Firefox Translations\n"
		   "publishes them (model.*.intgemm.alphas.bin, vocab.*.spm, lex.*.s2t.bin,\n"
		   "metadata.json, gzipped or not), is packed on the way (model-pack --marian DIR).\n"
		   "      --force          replace an installed model of the same name\n"
		   "      --quant F        DIR's weight format: f32, q8, q4, q4n or i8 (default)\n"
		   "      --src-lang L, --tgt-lang L   DIR's languages, when its file names and\n"
		   "                       metadata.json do not give them\n"
		   "  -h, --help           this help\n",
		CLI_CATALOG_USER_DIR);
}

/* A code nmt -l can name: letters, digits, '_' (zh_Hant), at most 15. */
static int is_code(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < MARIAN_DIR_LANG_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static void parse_args(int argc, char **argv, install_options *o)
{
	enum { OPT_FORCE = 256, OPT_QUANT, OPT_SRC, OPT_TGT };
	static const struct option longs[] = {
		{ "force", no_argument, NULL, OPT_FORCE }, { "quant", required_argument, NULL, OPT_QUANT },
		{ "src-lang", required_argument, NULL, OPT_SRC }, { "tgt-lang", required_argument, NULL, OPT_TGT },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c;
	*o = (install_options){ .quant = DEFAULT_QUANT };
	opterr = 0;
	char refused[8];   /* a refused short option, for its error */
	while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
		switch (c) {
		case OPT_FORCE: o->force = 1; break;
		case OPT_QUANT:
			o->quant_given = 1;
			if (format_encoding_parse(optarg, &o->quant) != 0)
				error_die(2, "--quant %s: the formats are " FORMAT_ENCODING_NAMES, optarg);
			break;
		case OPT_SRC:
		case OPT_TGT:
			if (!is_code(optarg))
				error_die(2, "%s must be a language code such as en or de, not \"%s\"",
					  c == OPT_SRC ? "--src-lang" : "--tgt-lang", optarg);
			*(c == OPT_SRC ? &o->src_lang : &o->tgt_lang) = optarg;
			break;
		case 'h': usage(stdout); exit(0);
		case ':': error_die(2, "option %s needs a value (try nmt install --help)",
			            cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		default: error_die(2, "unknown option %s (try nmt install --help)",
			            cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		}
	}
	if (argc - optind != 1)
		error_die(2, "usage: nmt install [--force] [--quant F] [--src-lang L] [--tgt-lang L] FILE.nmt|DIR");
	o->path = argv[optind];
}

/* dir and its parents, as mkdir -p makes them */
static void make_dirs(const char *dir)
{
	char *p = strdup(dir);
	if (!p)
		error_die(1, "out of memory");
	for (char *q = p + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			mkdir(p, 0755);
			*q = '/';
		}
	struct stat st;
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		error_die(1, "cannot create %s: %s", p, strerror(errno));
	if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
		error_die(1, "cannot create %s: %s", p,
			  stat(p, &st) != 0 ? strerror(errno) : "a file of that name is there");
	free(p);
}

static _Noreturn void refuse(const char *dest)
{
	error_die(1, "%s is installed already (nmt install --force replaces it)", dest);
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* Copy src into the new file tmp, flushed to the disk. */
static void copy_file(const char *src, const char *tmp)
{
	static char buf[1 << 16];
	int in = open(src, O_RDONLY), out = in < 0 ? -1 : open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	const char *failed = NULL;
	int e = 0;
	if (in < 0 || out < 0) {
		e = errno;
		failed = in < 0 ? src : tmp;
	}
	for (ssize_t got; !failed && (got = read(in, buf, sizeof buf)) != 0;) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			failed = src;
			break;
		}
		for (ssize_t done = 0, w; !failed && done < got; done += w)
			if ((w = write(out, buf + done, (size_t)(got - done))) < 0) {
				if (errno == EINTR) {
					w = 0;
					continue;
				}
				e = errno;
				failed = tmp;
			}
	}
	if (!failed && fsync(out) != 0) {
		e = errno;
		failed = tmp;
	}
	if (out >= 0 && close(out) != 0 && !failed) {
		e = errno;
		failed = tmp;
	}
	if (in >= 0)
		close(in);
	if (failed) {
		if (out >= 0)
			unlink(tmp);
		error_die(1, "cannot copy %s: %s: %s", src, failed, strerror(e));
	}
}

/* tmp becomes dest: replacing it with --force (rename), else only if there
 * is none (link, which fails on an existing name; on a file system without
 * hard links, a check and a rename). */
static void put_in_place(const char *tmp, const char *dest, int force)
{
	if (!force) {
		if (link(tmp, dest) == 0) {
			unlink(tmp);
			return;
		}
		if (errno == EEXIST || exists(dest)) {
			unlink(tmp);
			refuse(dest);
		}
	}
	if (rename(tmp, dest) != 0) {
		int e = errno;
		unlink(tmp);
		error_die(1, "cannot write %s: %s", dest, strerror(e));
	}
}

typedef struct {
	char src[MARIAN_DIR_LANG_MAX], tgt[MARIAN_DIR_LANG_MAX], arch[32], quant[16];
	size_t size;
} model_facts;

static void value(const nmt_model *m, const char *key, char *out, size_t size)
{
	if (nmt_model_metadata_value(m, key, out, size) != NMT_OK)
		snprintf(out, size, "und");
}

/* Open path as nmt will, every checksum verified, and read what naming and
 * reporting it needs. */
static nmt_status read_model(const char *path, model_facts *f, nmt_error *err)
{
	nmt_model *m;
	nmt_status rc = nmt_model_open(path, NMT_OPEN_VERIFY, &m, err);
	if (rc != NMT_OK)
		return rc;
	value(m, "src_lang", f->src, sizeof f->src);
	value(m, "tgt_lang", f->tgt, sizeof f->tgt);
	value(m, "arch", f->arch, sizeof f->arch);
	value(m, "quant", f->quant, sizeof f->quant);
	f->size = nmt_model_file_size(m);
	nmt_model_close(m);
	return NMT_OK;
}

static char *path_of(const char *dir, const char *prefix, const char *src, const char *tgt, const char *suffix)
{
	size_t n = strlen(dir) + strlen(prefix) + strlen(src) + strlen(tgt) + strlen(suffix) + 8;
	char *p = malloc(n);
	if (!p)
		error_die(1, "out of memory");
	snprintf(p, n, "%s/%s%s-%s.nmt%s", dir, prefix, src, tgt, suffix);
	return p;
}

/* Where it went, and a note when nmt -l would still take another model. */
static void report(const char *dest, const model_facts *f)
{
	printf("installed %s -> %s (%s, %s, %zu bytes) as %s\n", f->src, f->tgt, f->arch, f->quant, f->size, dest);
	if (fflush(stdout) != 0)
		error_die(1, "error writing output: %s", strerror(errno));
	cli_catalog c;
	char *search = cli_catalog_search_path();
	if (!search || cli_catalog_scan(&c, search, 0, NULL) != 0)
		error_die(1, "out of memory");
	free(search);
	const cli_catalog_entry *e = cli_catalog_find(&c, f->src, f->tgt);
	struct stat a, b;
	if (e && e->path && stat(e->path, &a) == 0 && stat(dest, &b) == 0 && (a.st_dev != b.st_dev || a.st_ino != b.st_ino))
		fprintf(stderr, "nmt: note: nmt -l %s-%s takes %s, which comes first in the search path (nmt models)\n",
			f->src, f->tgt, e->path);
	cli_catalog_free(&c);
}

/* SRC-TGT.nmt in dir, and the temporary name it is written under first
 * (hidden, and not ending in .nmt, so no catalog ever reads it). */
static void names_in(const char *dir, const char *src, const char *tgt, char **dest, char **tmp)
{
	char pid[32];
	snprintf(pid, sizeof pid, ".%ld", (long)getpid());
	*dest = path_of(dir, "", src, tgt, "");
	*tmp = path_of(dir, ".", src, tgt, pid);
}

static void install_file(const install_options *o, const char *dir)
{
	model_facts f;
	nmt_error err;
	char *dest, *tmp;
	if (o->quant_given || o->src_lang || o->tgt_lang)
		error_die(2, "--quant, --src-lang and --tgt-lang go with a folder; "
			     "a packed model is installed as it was packed");
	if (read_model(o->path, &f, &err) != NMT_OK)
		error_die(1, "%s", err.message);
	if (strcmp(f.src, "und") == 0 || strcmp(f.tgt, "und") == 0)
		error_die(1, "%s names no languages (src_lang, tgt_lang), so nmt -l could not find it: pack it with "
			     "--src-lang and --tgt-lang", o->path);
	if (!is_code(f.src) || !is_code(f.tgt))
		error_die(1, "%s: its languages \"%s\" and \"%s\" are not codes nmt -l can name", o->path, f.src,
			  f.tgt);
	names_in(dir, f.src, f.tgt, &dest, &tmp);
	if (!o->force && exists(dest))
		refuse(dest);
	make_dirs(dir);
	copy_file(o->path, tmp);
	put_in_place(tmp, dest, o->force);
	report(dest, &f);
	free(dest);
	free(tmp);
}

/* The folder's files packed into out with the languages found, by the
 * packer's own import (pack/marian_import.c, linked into nmt so that the
 * one binary installs a Firefox folder by itself). */
static void pack_folder(const marian_dir *d, const install_options *o, const char *out)
{
	char err[512];
	pack_file packed = { .n = 0 };
	marian_import_files f = { .model = d->model, .vocabs = { d->vocab[0], d->vocab[1] },
				  .n_vocabs = d->n_vocabs, .shortlist = d->shortlist, .src_lang = d->src,
				  .tgt_lang = d->tgt, .quant = o->quant };
	if (marian_import(&f, &packed, err, sizeof err) != 0 || pack_write(&packed, out, err, sizeof err) != 0) {
		pack_free(&packed);
		unlink(out);
		error_die(1, "%s", err);
	}
	pack_free(&packed);
}

static void install_folder(const install_options *o, const char *dir)
{
	marian_dir d;
	model_facts f;
	nmt_error e;
	char err[512], *dest, *tmp;
	if (marian_dir_find(o->path, o->src_lang, o->tgt_lang, &d, err, sizeof err) != 0)
		error_die(1, "%s", err);
	if (!d.src[0] || !d.tgt[0])
		error_die(1, "%s: no languages in the file names or a metadata.json: give --src-lang and --tgt-lang",
			  o->path);
	if (!is_code(d.src) || !is_code(d.tgt))
		error_die(1,
			  "%s: the languages %s and %s are not codes nmt -l can name: give --src-lang and --tgt-lang",
			  o->path, d.src, d.tgt);
	names_in(dir, d.src, d.tgt, &dest, &tmp);
	if (!o->force && exists(dest))
		refuse(dest);
	marian_dir_print(&d, stderr);
	make_dirs(dir);
	pack_folder(&d, o, tmp);
	if (read_model(tmp, &f, &e) != NMT_OK) {
		unlink(tmp);
		error_die(1, "%s: the packed model does not open: %s", o->path, e.message);
	}
	put_in_place(tmp, dest, o->force);
	report(dest, &f);
	marian_dir_free(&d);
	free(dest);
	free(tmp);
}

int cli_install_main(int argc, char **argv)
{
	install_options o;
	struct stat st;
	parse_args(argc, argv, &o);
	if (stat(o.path, &st) != 0)
		error_die(1, "cannot open %s: %s", o.path, strerror(errno));
	char *dir = cli_catalog_user_dir();
	if (!dir)
		error_die(1, "HOME is not set, so there is no ~/%s to install into", CLI_CATALOG_USER_DIR);
	if (S_ISDIR(st.st_mode))
		install_folder(&o, dir);
	else if (S_ISREG(st.st_mode))
		install_file(&o, dir);
	else
		error_die(1, "%s is neither a model file nor a folder", o.path);
	free(dir);
	return 0;
}
