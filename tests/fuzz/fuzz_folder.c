/* A Marian model's folder as model-pack --marian DIR and nmt install read
 * it (pack/marian_dir.h), on any bytes: up to the first NUL, the folder's
 * file names, one a line; after it, metadata.json's text (no NUL: none).
 * Whatever is chosen holds together: each chosen file is one of the names,
 * in the role its name gives; the pair is two codes' letters; the
 * languages are both codes nmt -l can name, or both absent, and agree with
 * the pair; every message is one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../pack/marian_dir.h"
#include "fuzz.h"

#define MAX_NAMES 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int one_line(const char *s)
{
	if (s[0] == '\0')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static int is_pair(const char *p)
{
	size_t n = strlen(p);
	return n == 0 || (n >= 4 && n <= 6 && strspn(p, "abcdefghijklmnopqrstuvwxyz") == n);
}

static int is_code(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < MARIAN_DIR_LANG_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* name is one of names[0..n) (the very pointer) and has one of the roles */
static int chosen(const char *name, char *const *names, size_t n, marian_dir_role a, marian_dir_role b)
{
	char pair[MARIAN_DIR_PAIR_MAX];
	int found = 0;
	for (size_t i = 0; i < n && !found; i++)
		found = names[i] == name;
	marian_dir_role r = found ? marian_dir_classify(name, pair) : MARIAN_DIR_OTHER;
	return found && (r == a || r == b);
}

static void primary(char *out, size_t cap, const char *code)
{
	size_t at = strlen(out);
	for (; *code && *code != '_' && at + 1 < cap; code++)
		out[at++] = (char)(*code >= 'A' && *code <= 'Z' ? *code - 'A' + 'a' : *code);
	out[at] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t names_len = nul ? (size_t)(nul - data) : size;
	char *text = malloc(names_len + 1), *names[MAX_NAMES];
	size_t n = 0;
	if (!text)
		return 0;
	memcpy(text, data, names_len);
	text[names_len] = '\0';
	for (char *save = NULL, *p = strtok_r(text, "\n", &save); p && n < MAX_NAMES; p = strtok_r(NULL, "\n", &save))
		names[n++] = p;
	for (size_t i = 0; i < n; i++) {
		char pair[MARIAN_DIR_PAIR_MAX];
		marian_dir_classify(names[i], pair);
		FUZZ_ASSERT(is_pair(pair));
	}
	marian_dir_choice c;
	char err[512];
	if (marian_dir_choose((const char *const *)names, n, &c, err, sizeof err) != 0) {
		FUZZ_ASSERT(one_line(err));
		free(text);
		return 0;
	}
	FUZZ_ASSERT(chosen(c.model, names, n, MARIAN_DIR_MODEL_ALPHAS, MARIAN_DIR_MODEL_INTGEMM8) ||
		    chosen(c.model, names, n, MARIAN_DIR_MODEL_OTHER, MARIAN_DIR_MODEL_OTHER));
	if (c.n_vocabs == 1)
		FUZZ_ASSERT(chosen(c.vocab[0], names, n, MARIAN_DIR_VOCAB, MARIAN_DIR_VOCAB) && !c.vocab[1]);
	else
		FUZZ_ASSERT(c.n_vocabs == 2 && chosen(c.vocab[0], names, n, MARIAN_DIR_SRCVOCAB, MARIAN_DIR_SRCVOCAB) &&
			    chosen(c.vocab[1], names, n, MARIAN_DIR_TRGVOCAB, MARIAN_DIR_TRGVOCAB));
	FUZZ_ASSERT(!c.shortlist || chosen(c.shortlist, names, n, MARIAN_DIR_SHORTLIST, MARIAN_DIR_SHORTLIST));
	FUZZ_ASSERT(!c.metadata || chosen(c.metadata, names, n, MARIAN_DIR_METADATA, MARIAN_DIR_METADATA));
	FUZZ_ASSERT(is_pair(c.pair));
	char src[MARIAN_DIR_LANG_MAX], tgt[MARIAN_DIR_LANG_MAX];
	const char *from;
	const char *meta = nul ? (const char *)nul + 1 : NULL;
	if (marian_dir_languages(c.pair, meta, nul ? size - names_len - 1 : 0, "metadata.json", src, tgt, &from, err,
				 sizeof err) != 0) {
		FUZZ_ASSERT(one_line(err) && src[0] == '\0' && tgt[0] == '\0');
	} else if (src[0] || tgt[0]) {
		FUZZ_ASSERT(is_code(src) && is_code(tgt) && one_line(from));
		char both[2 * MARIAN_DIR_LANG_MAX] = "";
		primary(both, sizeof both, src);
		primary(both, sizeof both, tgt);
		FUZZ_ASSERT(c.pair[0] == '\0' || strcmp(both, c.pair) == 0);
	} else {
		FUZZ_ASSERT(c.pair[0] == '\0');
	}
	free(text);
	return 0;
}
