/* Language identification (text/langid.h) on any bytes. The first byte
 * chooses: even, the rest is a profile file, which is opened (refused with
 * a message, or accepted and then used on a few texts); odd, the rest is a
 * text, classified with a small valid profile among the candidates the
 * first byte's other bits pick. Either way: no crash, no read outside the
 * buffers, and a text's guesses are its candidates, once each, best first,
 * with confidences in 0..1 that sum to 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../text/langid.h"
#include "fuzz.h"

#define LANGS 4
#define BUCKETS 64
#define SIZE (TEXT_LANGID_HEADER + LANGS * TEXT_LANGID_LANG_RECORD + BUCKETS * LANGS)

static unsigned char profile[SIZE];

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

/* en, de (Latin), el (Greek), ru (Cyrillic); 64 buckets, orders 1..3. */
static void make_profile(void)
{
	static const char *const codes[LANGS] = { "en", "de", "el", "ru" };
	static const unsigned char scripts[LANGS] = { TEXT_SCRIPT_LATIN, TEXT_SCRIPT_LATIN, TEXT_SCRIPT_GREEK,
						      TEXT_SCRIPT_CYRILLIC };
	float scale = 0.07f;
	uint32_t bits;
	memcpy(profile, "NMTLANGP", 8);
	put32(profile + 8, 1);
	put32(profile + 12, LANGS);
	put32(profile + 16, BUCKETS);
	profile[20] = 1;
	profile[21] = 3;
	memcpy(&bits, &scale, sizeof bits);
	put32(profile + 24, bits);
	for (int i = 0; i < LANGS; i++) {
		unsigned char *r = profile + TEXT_LANGID_HEADER + i * TEXT_LANGID_LANG_RECORD;
		memcpy(r, codes[i], strlen(codes[i]));
		r[12] = scripts[i];
	}
	for (int i = 0; i < BUCKETS * LANGS; i++)
		profile[SIZE - BUCKETS * LANGS + i] = (unsigned char)(i * 97 % 256);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	make_profile();
	return 0;
}

static void check_guesses(const text_langid *p, const char *text, size_t len, uint64_t candidates)
{
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	int n = text_langid_classify(p, text, len, candidates, g);
	candidates &= text_langid_all(p);
	FUZZ_ASSERT(n == 0 || n == __builtin_popcountll(candidates));
	uint64_t seen = 0;
	double sum = 0;
	for (int i = 0; i < n; i++) {
		FUZZ_ASSERT(g[i].lang >= 0 && g[i].lang < p->n_langs && (candidates >> g[i].lang & 1));
		FUZZ_ASSERT(!(seen >> g[i].lang & 1));
		seen |= (uint64_t)1 << g[i].lang;
		FUZZ_ASSERT(g[i].confidence >= 0 && g[i].confidence <= 1);
		FUZZ_ASSERT(i == 0 || g[i - 1].confidence >= g[i].confidence);
		sum += g[i].confidence;
	}
	FUZZ_ASSERT(n == 0 || fabs(sum - 1) < 1e-9);
}

static void check_profile(const uint8_t *data, size_t size)
{
	/* a copy of exactly the file, so a read past its end is caught */
	unsigned char *copy = malloc(size ? size : 1);
	char err[256] = "";
	text_langid p;
	if (!copy)
		return;
	memcpy(copy, data, size);
	if (text_langid_open(copy, size, &p, err, sizeof err) != 0) {
		FUZZ_ASSERT(strncmp(err, "language profile: ", 18) == 0);
	} else {
		static const char *const texts[] = { "", "Hello world", "Καλημέρα κόσμε", "Привет", "你好", "a\xFF\xC3" };
		for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
			check_guesses(&p, texts[i], strlen(texts[i]), text_langid_all(&p));
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if ((data[0] & 1) == 0) {
		check_profile(data + 1, size - 1);
		return 0;
	}
	text_langid p;
	char err[256];
	FUZZ_ASSERT(text_langid_open(profile, sizeof profile, &p, err, sizeof err) == 0);
	char *text = malloc(size - 1 + 1), *out = malloc(size - 1 + 2);
	if (text && out) {
		memcpy(text, data + 1, size - 1);
		check_guesses(&p, text, size - 1, data[0] >> 1);
		size_t n = text_langid_normalize(text, size - 1, out);
		FUZZ_ASSERT(n >= 1 && n <= size - 1 + 2 && out[0] == ' ');
	}
	free(text);
	free(out);
	return 0;
}
