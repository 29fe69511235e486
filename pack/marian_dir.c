/* A Marian model's folder (see marian_dir.h). Firefox Translations names a
 * model's files model.PAIR.intgemm.alphas.bin, lex.50.50.PAIR.s2t.bin,
 * vocab.PAIR.spm (or srcvocab.PAIR.spm and trgvocab.PAIR.spm), each
 * gzipped, with a metadata.json whose sourceLanguage and targetLanguage are
 * BCP 47 tags; PAIR is the two languages' codes run together (enfr). */
#include "marian_dir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/json.h"
#include "file.h"

/* A one-line message whatever the names hold: control bytes become '?'. */
__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	for (char *p = err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return -1;
}

static int starts_with(const char *s, size_t n, const char *head)
{
	size_t h = strlen(head);
	return n >= h && memcmp(s, head, h) == 0;
}

static int ends_with(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);
	return n >= t && memcmp(s + n - t, tail, t) == 0;
}

/* s[0..n) is HEAD TAIL (*mid_len 0) or HEAD "." MID TAIL, MID not empty. */
static int shaped(const char *s, size_t n, const char *head, const char *tail, const char **mid, size_t *mid_len)
{
	size_t h = strlen(head), t = strlen(tail);
	if (!starts_with(s, n, head) || !ends_with(s, n, tail) || n < h + t)
		return 0;
	*mid = s + h;
	*mid_len = 0;
	if (n == h + t)
		return 1;
	if (n < h + 2 + t || s[h] != '.')
		return 0;
	*mid = s + h + 1;
	*mid_len = n - h - 1 - t;
	return 1;
}

/* 4 to 6 lowercase ASCII letters: two 2- or 3-letter codes run together. */
static int is_pair(const char *s, size_t n)
{
	if (n < 4 || n > 6)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < 'a' || s[i] > 'z')
			return 0;
	return 1;
}

/* pair = the first (last: the last) dot-separated segment of mid, if it is one. */
static void take_pair(const char *mid, size_t n, int last, char pair[MARIAN_DIR_PAIR_MAX])
{
	const char *seg = mid;
	size_t len = n;
	for (size_t i = 0; i < n; i++)
		if (mid[i] == '.') {
			if (!last) {
				len = i;
				break;
			}
			seg = mid + i + 1;
			len = n - i - 1;
		}
	if (is_pair(seg, len)) {
		memcpy(pair, seg, len);
		pair[len] = '\0';
	}
}

marian_dir_role marian_dir_classify(const char *name, char pair[MARIAN_DIR_PAIR_MAX])
{
	static const struct {
		const char *head, *tail;
		marian_dir_role role;
	} named[] = {
		{ "model", ".intgemm.alphas.bin", MARIAN_DIR_MODEL_ALPHAS },
		{ "model", ".intgemm8.bin", MARIAN_DIR_MODEL_INTGEMM8 },
		{ "vocab", ".spm", MARIAN_DIR_VOCAB },
		{ "srcvocab", ".spm", MARIAN_DIR_SRCVOCAB },
		{ "trgvocab", ".spm", MARIAN_DIR_TRGVOCAB },
	};
	size_t n = strlen(name), mid_len;
	const char *mid;
	pair[0] = '\0';
	if (ends_with(name, n, ".gz"))
		n -= 3;
	if (n == 0 || name[0] == '.' || starts_with(name, n, "qualityModel."))
		return MARIAN_DIR_OTHER;
	if (n == strlen("metadata.json") && starts_with(name, n, "metadata.json"))
		return MARIAN_DIR_METADATA;
	if (starts_with(name, n, "lex.")) {   /* a shortlist, of the direction nmt reads or not */
		if (!shaped(name, n, "lex", ".s2t.bin", &mid, &mid_len))
			return MARIAN_DIR_OTHER;
		take_pair(mid, mid_len, 1, pair);
		return MARIAN_DIR_SHORTLIST;
	}
	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		if (shaped(name, n, named[i].head, named[i].tail, &mid, &mid_len)) {
			if (is_pair(mid, mid_len)) {
				memcpy(pair, mid, mid_len);
				pair[mid_len] = '\0';
			}
			return named[i].role;
		}
	if (ends_with(name, n, ".bin") || ends_with(name, n, ".npz")) {
		if (shaped(name, n, "model", name + n - 4, &mid, &mid_len))
			take_pair(mid, mid_len, 0, pair);
		return MARIAN_DIR_MODEL_OTHER;
	}
	return MARIAN_DIR_OTHER;
}

/* ---- choosing --------------------------------------------------------------- */

#define N_ROLES (MARIAN_DIR_METADATA + 1)

typedef struct {
	const char *name[2];   /* the first two found */
	char pair[MARIAN_DIR_PAIR_MAX];   /* the first's */
	size_t n;
} slot;

static int two(const slot *s, const char *what, char *err, size_t errlen)
{
	return fail(err, errlen, "two %s, %s and %s: a folder holds one model's files (or name them one by one)", what,
		    s->name[0], s->name[1]);
}

/* The pair every chosen file names, or a message naming two that differ. */
static int agree(marian_dir_choice *c, const slot *slots, const marian_dir_role *roles, int n, char *err,
		 size_t errlen)
{
	const slot *first = NULL;
	c->pair[0] = '\0';
	for (int i = 0; i < n; i++) {
		const slot *s = &slots[roles[i]];
		if (s->n == 0 || s->pair[0] == '\0')
			continue;
		if (!first)
			first = s;
		else if (strcmp(first->pair, s->pair) != 0)
			return fail(err, errlen, "the files name two language pairs: %s (%s) and %s (%s)", first->pair,
				    first->name[0], s->pair, s->name[0]);
	}
	if (first)
		memcpy(c->pair, first->pair, sizeof c->pair);
	return 0;
}

int marian_dir_choose(const char *const *names, size_t n, marian_dir_choice *c, char *err, size_t errlen)
{
	slot slots[N_ROLES];
	memset(slots, 0, sizeof slots);
	*c = (marian_dir_choice){ 0 };
	for (size_t i = 0; i < n; i++) {
		char pair[MARIAN_DIR_PAIR_MAX];
		slot *s = &slots[marian_dir_classify(names[i], pair)];
		if (s->n < 2)
			s->name[s->n] = names[i];
		if (s->n == 0)
			memcpy(s->pair, pair, sizeof pair);
		s->n++;
	}
	static const marian_dir_role tiers[] = { MARIAN_DIR_MODEL_ALPHAS, MARIAN_DIR_MODEL_INTGEMM8,
						 MARIAN_DIR_MODEL_OTHER };
	int tier = 0;
	while (tier < 3 && slots[tiers[tier]].n == 0)
		tier++;
	if (tier == 3)
		return fail(err, errlen, "no model: no model[.PAIR].intgemm.alphas.bin, model[.PAIR].intgemm8.bin, "
					 "*.bin or *.npz file (each may end in .gz)");
	const slot *m = &slots[tiers[tier]], *v = &slots[MARIAN_DIR_VOCAB], *sv = &slots[MARIAN_DIR_SRCVOCAB],
		   *tv = &slots[MARIAN_DIR_TRGVOCAB], *lex = &slots[MARIAN_DIR_SHORTLIST],
		   *meta = &slots[MARIAN_DIR_METADATA];
	if (m->n > 1)
		return two(m, "models", err, errlen);
	c->model = m->name[0];
	for (int t = tier + 1; t < 3 && !c->passed_over; t++)
		c->passed_over = slots[tiers[t]].name[0];
	if (v->n > 1)
		return two(v, "vocabularies", err, errlen);
	if (sv->n > 1)
		return two(sv, "source vocabularies", err, errlen);
	if (tv->n > 1)
		return two(tv, "target vocabularies", err, errlen);
	if (v->n && (sv->n || tv->n))
		return fail(err, errlen, "both a shared vocabulary, %s, and %s: one or the other", v->name[0],
			    sv->n ? sv->name[0] : tv->name[0]);
	if (v->n == 0 && sv->n == 0 && tv->n == 0)
		return fail(err, errlen, "no vocabulary: no vocab[.PAIR].spm, nor srcvocab[.PAIR].spm and "
					 "trgvocab[.PAIR].spm (each may end in .gz)");
	if (v->n == 0 && sv->n != tv->n)
		return fail(err, errlen, "%s without a %s vocabulary (%s[.PAIR].spm)", sv->n ? sv->name[0] : tv->name[0],
			    sv->n ? "target" : "source", sv->n ? "trgvocab" : "srcvocab");
	if (lex->n > 1)
		return two(lex, "shortlists", err, errlen);
	if (meta->n > 1)
		return two(meta, "metadata files", err, errlen);
	c->n_vocabs = v->n ? 1 : 2;
	c->vocab[0] = v->n ? v->name[0] : sv->name[0];
	c->vocab[1] = v->n ? NULL : tv->name[0];
	c->shortlist = lex->name[0];
	c->metadata = meta->name[0];
	const marian_dir_role named[] = { tiers[tier], MARIAN_DIR_VOCAB, MARIAN_DIR_SRCVOCAB, MARIAN_DIR_TRGVOCAB,
					  MARIAN_DIR_SHORTLIST };
	return agree(c, slots, named, (int)(sizeof named / sizeof *named), err, errlen);
}

/* ---- the languages ---------------------------------------------------------- */

/* A BCP 47 tag (zh-Hans) as the code nmt records (zh_Hans): a letter, then
 * letters, digits, '-' or '_', at most MARIAN_DIR_LANG_MAX - 1 bytes. */
static int tag_to_code(const char *tag, size_t n, char code[MARIAN_DIR_LANG_MAX])
{
	code[0] = '\0';
	if (n == 0 || n >= MARIAN_DIR_LANG_MAX || (unsigned char)tag[0] >= 0x80 || !isalpha((unsigned char)tag[0]))
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)tag[i];
		if (ch >= 0x80 || !(isalnum(ch) || ch == '-' || ch == '_')) {
			code[0] = '\0';
			return -1;
		}
		code[i] = ch == '-' ? '_' : (char)ch;
	}
	code[n] = '\0';
	return 0;
}

/* The code's first subtag, lowercased, appended to out (cap bytes in all). */
static void append_primary(char *out, size_t cap, const char *code)
{
	size_t at = strlen(out);
	for (; *code && *code != '_' && at + 1 < cap; code++)
		out[at++] = (char)tolower((unsigned char)*code);
	out[at] = '\0';
}

static int split_pair(const char *pair, char src[MARIAN_DIR_LANG_MAX], char tgt[MARIAN_DIR_LANG_MAX], char *err,
		      size_t errlen)
{
	size_t n = strlen(pair), cut = n / 2;
	if (n == 5) {
		int en_first = strncmp(pair, "en", 2) == 0, en_last = strcmp(pair + 3, "en") == 0;
		if (en_first == en_last)
			return fail(err, errlen, "the pair %s in the file names splits into two language codes more than "
						 "one way: give --src-lang and --tgt-lang (or a metadata.json)", pair);
		cut = en_first ? 2 : 3;
	}
	memcpy(src, pair, cut);
	src[cut] = '\0';
	memcpy(tgt, pair + cut, n - cut + 1);
	return 0;
}

int marian_dir_languages(const char *pair, const char *meta, size_t meta_len, const char *meta_name,
			 char src[MARIAN_DIR_LANG_MAX], char tgt[MARIAN_DIR_LANG_MAX], const char **from, char *err,
			 size_t errlen)
{
	src[0] = tgt[0] = '\0';
	*from = "none in the file names or a metadata.json";
	if (meta) {
		json_object o;
		char why[192];
		if (json_parse_object(meta, meta_len, &o, why, sizeof why) != 0)
			return fail(err, errlen, "%s: %s", meta_name, why);
		const json_member *s = json_get(&o, "sourceLanguage"), *t = json_get(&o, "targetLanguage");
		int rc = 0;
		if (s || t) {
			char both[2 * MARIAN_DIR_LANG_MAX] = "";
			if (!s || !t || s->kind != JSON_STRING || t->kind != JSON_STRING)
				rc = fail(err, errlen, "%s: sourceLanguage and targetLanguage must both be strings", meta_name);
			else if (tag_to_code(s->str, s->str_len, src) != 0 || tag_to_code(t->str, t->str_len, tgt) != 0)
				rc = fail(err, errlen, "%s: \"%.32s\" is not a language tag nmt can record (a letter, then "
						       "letters, digits or '-', at most %d)", meta_name,
					  src[0] ? t->str : s->str, MARIAN_DIR_LANG_MAX - 1);
			if (rc == 0) {
				append_primary(both, sizeof both, src);
				append_primary(both, sizeof both, tgt);
				if (*pair && strcmp(both, pair) != 0)
					rc = fail(err, errlen, "%s says %s -> %s, but the files are named for %s", meta_name,
						  src, tgt, pair);
				*from = *pair ? "from metadata.json; the file names agree" : "from metadata.json";
			}
			if (rc != 0)
				src[0] = tgt[0] = '\0';
		}
		json_object_free(&o);
		if (rc != 0 || s || t)
			return rc;
	}
	if (*pair) {
		if (split_pair(pair, src, tgt, err, errlen) != 0)
			return -1;
		*from = "from the file names";
	}
	return 0;
}

/* ---- the folder --------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of dir (symbolic links followed), by name; hidden ones left out. */
static int list_files(const char *dir, char ***names, size_t *n, char *err, size_t errlen)
{
	DIR *dd = opendir(dir);
	*names = NULL;
	*n = 0;
	if (!dd)
		return fail(err, errlen, "cannot open the folder %s: %s", dir, strerror(errno));
	size_t cap = 0;
	int rc = 0;
	for (struct dirent *de; rc == 0 && (de = readdir(dd)) != NULL;) {
		if (de->d_name[0] == '.')
			continue;
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		char *path = malloc(len);
		struct stat st;
		if (!path) {
			rc = fail(err, errlen, "out of memory");
			break;
		}
		snprintf(path, len, "%s/%s", dir, de->d_name);
		int regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);
		free(path);
		if (!regular)
			continue;
		if (*n == cap) {
			char **grown = realloc(*names, (cap = cap ? 2 * cap : 16) * sizeof **names);
			if (!grown) {
				rc = fail(err, errlen, "out of memory");
				break;
			}
			*names = grown;
		}
		if (!((*names)[*n] = strdup(de->d_name)))
			rc = fail(err, errlen, "out of memory");
		else
			(*n)++;
	}
	closedir(dd);
	if (rc == 0 && *n > 1)
		qsort(*names, *n, sizeof **names, by_name);
	return rc;
}

static char *join(const char *dir, const char *name)
{
	if (!name)
		return NULL;
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = malloc(len);
	if (p)
		snprintf(p, len, "%s/%s", dir, name);
	return p;
}

int marian_dir_find(const char *dir, const char *src_lang, const char *tgt_lang, marian_dir *d, char *err,
		    size_t errlen)
{
	char **names, why[512];
	size_t n;
	marian_dir_choice c;
	int rc = -1;
	*d = (marian_dir){ 0 };
	names = NULL;
	n = 0;
	if (!(d->dir = strdup(dir))) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	for (size_t len = strlen(d->dir); len > 1 && d->dir[len - 1] == '/';)
		d->dir[--len] = '\0';   /* enfr/ is enfr */
	dir = d->dir;
	if (list_files(dir, &names, &n, err, errlen) != 0)
		goto done;
	if (marian_dir_choose((const char *const *)names, n, &c, why, sizeof why) != 0) {
		fail(err, errlen, "%s: %s", dir, why);
		goto done;
	}
	d->n_vocabs = c.n_vocabs;
	if (!(d->model = join(dir, c.model)) || !(d->vocab[0] = join(dir, c.vocab[0])) ||
	    (c.vocab[1] && !(d->vocab[1] = join(dir, c.vocab[1]))) || (c.shortlist && !(d->shortlist = join(dir, c.shortlist))) ||
	    (c.metadata && !(d->metadata = join(dir, c.metadata))) ||
	    (c.passed_over && !(d->passed_over = join(dir, c.passed_over)))) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	for (const char *l = src_lang; l; l = l == src_lang ? tgt_lang : NULL)
		if (strlen(l) >= MARIAN_DIR_LANG_MAX) {
			fail(err, errlen, "a language code has at most %d bytes, not \"%s\"", MARIAN_DIR_LANG_MAX - 1, l);
			goto done;
		}
	const char *from = "given";
	if (!src_lang || !tgt_lang) {
		uint8_t *meta = NULL;
		size_t meta_len = 0;
		if (d->metadata && pack_read_file(d->metadata, &meta, &meta_len, err, errlen) != 0)
			goto done;
		d->metadata_read = d->metadata != NULL;
		int bad = marian_dir_languages(c.pair, (const char *)meta, meta_len, c.metadata, d->src, d->tgt, &from,
					       why, sizeof why);
		free(meta);
		if (bad) {
			fail(err, errlen, "%s: %s", dir, why);
			goto done;
		}
	}
	if (src_lang)
		snprintf(d->src, sizeof d->src, "%s", src_lang);
	if (tgt_lang)
		snprintf(d->tgt, sizeof d->tgt, "%s", tgt_lang);
	if (!src_lang != !tgt_lang)
		snprintf(d->langs_from, sizeof d->langs_from, "%s given, the %s %s", src_lang ? "the source" : "the target",
			 src_lang ? "target" : "source", from);
	else
		snprintf(d->langs_from, sizeof d->langs_from, "%s", from);
	rc = 0;
done:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc != 0)
		marian_dir_free(d);
	return rc;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

void marian_dir_print(const marian_dir *d, FILE *f)
{
	fprintf(f, "found in %s:\n  model              %s", d->dir, base(d->model));
	if (d->passed_over)
		fprintf(f, " (chosen over %s)", base(d->passed_over));
	if (d->n_vocabs == 1)
		fprintf(f, "\n  vocabulary         %s (source and target)\n", base(d->vocab[0]));
	else
		fprintf(f, "\n  source vocabulary  %s\n  target vocabulary  %s\n", base(d->vocab[0]), base(d->vocab[1]));
	fprintf(f, "  shortlist          %s\n", d->shortlist ? base(d->shortlist) : "none (every output word is scored)");
	fprintf(f, "  metadata           %s%s\n", d->metadata ? base(d->metadata) : "none",
		d->metadata && !d->metadata_read ? " (not read: the languages are given)" : "");
	fprintf(f, "  languages          %s -> %s (%s)\n", d->src[0] ? d->src : "und", d->tgt[0] ? d->tgt : "und",
		d->langs_from);
}

void marian_dir_free(marian_dir *d)
{
	free(d->dir);
	free(d->model);
	free(d->vocab[0]);
	free(d->vocab[1]);
	free(d->shortlist);
	free(d->metadata);
	free(d->passed_over);
	*d = (marian_dir){ 0 };
}
