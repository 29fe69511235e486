/* Language identification (text/langid.h): the profile parser refuses
 * every truncated or corrupt file with a message, the script decides where
 * it can, and the shipped profile (cli/langid_profile.S) names the language
 * of known sentences among the candidates it is given, with confidences
 * that sum to 1, best first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../cli/detect.h"
#include "../text/langid.h"

#define TINY_BUCKETS 16
#define TINY_LANGS 3
#define TINY_SIZE (TEXT_LANGID_HEADER + TINY_LANGS * TEXT_LANGID_LANG_RECORD + TINY_BUCKETS * TINY_LANGS)

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

/* A valid profile of three languages: "xx" (Latin), "el" (Greek), "ru"
 * (Cyrillic), 16 buckets, orders 1..2. */
static void tiny_profile(unsigned char *b)
{
	static const char *const codes[TINY_LANGS] = { "xx", "el", "ru" };
	static const unsigned char scripts[TINY_LANGS] = { TEXT_SCRIPT_LATIN, TEXT_SCRIPT_GREEK, TEXT_SCRIPT_CYRILLIC };
	float scale = 0.05f;
	uint32_t bits;
	memset(b, 0, TINY_SIZE);
	memcpy(b, "NMTLANGP", 8);
	put32(b + 8, 1);
	put32(b + 12, TINY_LANGS);
	put32(b + 16, TINY_BUCKETS);
	b[20] = 1;
	b[21] = 2;
	memcpy(&bits, &scale, sizeof bits);
	put32(b + 24, bits);
	for (int i = 0; i < TINY_LANGS; i++) {
		unsigned char *r = b + TEXT_LANGID_HEADER + i * TEXT_LANGID_LANG_RECORD;
		memcpy(r, codes[i], strlen(codes[i]));
		r[12] = scripts[i];
	}
	for (int i = 0; i < TINY_BUCKETS * TINY_LANGS; i++)
		b[TINY_SIZE - TINY_BUCKETS * TINY_LANGS + i] = (unsigned char)(i * 37 % 251);
}

static void test_opens_a_valid_profile(void **state)
{
	(void)state;
	unsigned char b[TINY_SIZE];
	text_langid p;
	char err[200];
	tiny_profile(b);
	assert_int_equal(text_langid_open(b, sizeof b, &p, err, sizeof err), 0);
	assert_int_equal(p.n_langs, TINY_LANGS);
	assert_int_equal(p.shape.buckets, TINY_BUCKETS);
	assert_int_equal(p.shape.min_order, 1);
	assert_int_equal(p.shape.max_order, 2);
	assert_string_equal(p.codes[1], "el");
	assert_int_equal(text_langid_find(&p, "ru", 2), 2);
	assert_int_equal(text_langid_find(&p, "r", 1), -1);
	assert_true(p.table == b + TINY_SIZE - TINY_BUCKETS * TINY_LANGS);
}

static void test_refuses_truncated_and_longer_files(void **state)
{
	(void)state;
	unsigned char b[TINY_SIZE + 1];
	text_langid p;
	char err[200];
	tiny_profile(b);
	for (size_t n = 0; n < TINY_SIZE; n++) {
		err[0] = '\0';
		assert_int_equal(text_langid_open(b, n, &p, err, sizeof err), -1);
		assert_non_null(strstr(err, "language profile: "));
	}
	assert_int_equal(text_langid_open(b, TINY_SIZE + 1, &p, err, sizeof err), -1);
	assert_non_null(strstr(err, "but its header makes it"));
}

/* The tiny profile with byte `at` set to `value` must be refused with a
 * message containing `why`. */
static void refused(size_t at, unsigned value, const char *why)
{
	unsigned char b[TINY_SIZE];
	text_langid p;
	char err[200] = "";
	tiny_profile(b);
	b[at] = (unsigned char)value;
	assert_int_equal(text_langid_open(b, sizeof b, &p, err, sizeof err), -1);
	if (!strstr(err, why))
		fail_msg("byte %zu = 0x%02x: \"%s\", wanted \"%s\"", at, value, err, why);
}

static void test_refuses_corrupt_fields(void **state)
{
	(void)state;
	size_t lang0 = TEXT_LANGID_HEADER, lang1 = lang0 + TEXT_LANGID_LANG_RECORD;
	refused(0, 'X', "magic");
	refused(8, 2, "format version 2");
	refused(12, 0, "0 languages");
	refused(12, 65, "65 languages");
	refused(16, 24, "24 buckets");
	refused(16, 8, "8 buckets");
	refused(18, 0xFF, "buckets");
	refused(20, 0, "orders 0..2");
	refused(20, 3, "orders 3..2");
	refused(21, 9, "orders 1..9");
	refused(27, 0x7F, "scale");   /* 2.7e38 */
	refused(27, 0xBF, "scale");   /* negative */
	refused(22, 1, "reserved");
	refused(31, 1, "reserved");
	refused(lang0, 0, "no code");
	refused(lang0 + 1, '-', "byte 0x2d");
	refused(lang0 + 5, 'a', "byte 0x61");   /* a letter after the NUL */
	refused(lang0 + 12, TEXT_SCRIPT_COUNT, "script");
	refused(lang0 + 15, 1, "padding");

	unsigned char b[TINY_SIZE];
	text_langid p;
	char err[200] = "";
	tiny_profile(b);
	memcpy(b + lang1, "xx", 2);
	assert_int_equal(text_langid_open(b, sizeof b, &p, err, sizeof err), -1);
	assert_non_null(strstr(err, "language xx appears twice"));
}

static const text_langid *shipped(void)
{
	static text_langid p;
	char err[200];
	if (cli_langid_profile_size == 0)
		return NULL;
	assert_int_equal(text_langid_open(cli_langid_profile, cli_langid_profile_size, &p, err, sizeof err), 0);
	return &p;
}

static uint64_t mask_of(const text_langid *p, const char *const *codes, int n)
{
	uint64_t m = 0;
	for (int i = 0; i < n; i++) {
		int k = text_langid_find(p, codes[i], strlen(codes[i]));
		assert_true(k >= 0);
		m |= (uint64_t)1 << k;
	}
	return m;
}

static const char *best(const text_langid *p, const char *text, uint64_t candidates)
{
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	return text_langid_classify(p, text, strlen(text), candidates, g) > 0 ? p->codes[g[0].lang] : "und";
}

static void test_known_sentences(void **state)
{
	(void)state;
	const text_langid *p = shipped();
	if (!p)
		skip();
	static const char *const cases[][2] = {
		{ "en", "The weather is nice today." },      { "de", "Wo ist der Bahnhof?" },
		{ "fr", "Je voudrais un café, s'il vous plaît." }, { "es", "¿Dónde está la biblioteca?" },
		{ "cs", "Muž jede na kole po ulici." },      { "de", "ÜBER DIE BRÜCKE GEHEN WIR HEUTE." },
		{ "en", "I think so." },                     { "fr", "Il fait très froid." },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		assert_string_equal(best(p, cases[i][1], text_langid_all(p)), cases[i][0]);
}

static void test_only_candidates_are_answered(void **state)
{
	(void)state;
	const text_langid *p = shipped();
	if (!p)
		skip();
	static const char *const en_fr[] = { "en", "fr" };
	uint64_t m = mask_of(p, en_fr, 2);
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	const char *german = "Der Hund läuft über die Wiese.";
	assert_int_equal(text_langid_classify(p, german, strlen(german), m, g), 2);
	for (int i = 0; i < 2; i++)
		assert_true(m >> g[i].lang & 1);
	/* a single candidate in the text's script is the answer, whatever the text */
	static const char *const cs[] = { "cs" };
	assert_string_equal(best(p, "The weather is nice today.", mask_of(p, cs, 1)), "cs");
}

static void test_confidences_sum_to_one_best_first(void **state)
{
	(void)state;
	const text_langid *p = shipped();
	if (!p)
		skip();
	static const char *const texts[] = { "Hola", "a", "Das ist gut.", "voiture rouge", "x y z" };
	for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
		text_langid_guess g[TEXT_LANGID_MAX_LANGS];
		int n = text_langid_classify(p, texts[t], strlen(texts[t]), text_langid_all(p), g);
		assert_int_equal(n, p->n_langs);
		double sum = 0;
		for (int i = 0; i < n; i++) {
			assert_true(g[i].confidence >= 0 && g[i].confidence <= 1);
			assert_true(i == 0 || g[i - 1].confidence >= g[i].confidence);
			sum += g[i].confidence;
		}
		assert_true(fabs(sum - 1) < 1e-9);
	}
}

static void test_script_first_and_no_letters(void **state)
{
	(void)state;
	unsigned char b[TINY_SIZE];
	text_langid p;
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	char err[200];
	tiny_profile(b);
	assert_int_equal(text_langid_open(b, sizeof b, &p, err, sizeof err), 0);
	uint64_t all = text_langid_all(&p);
	assert_string_equal(best(&p, "Καλημέρα, κόσμε", all), "el");
	assert_string_equal(best(&p, "Привет, мир", all), "ru");
	assert_string_equal(best(&p, "Hello there", all), "xx");
	/* Greek with only Latin and Cyrillic candidates, Chinese, no letters: none */
	assert_string_equal(best(&p, "Καλημέρα", all & ~(uint64_t)2), "und");
	assert_string_equal(best(&p, "你好世界", all), "und");
	assert_string_equal(best(&p, "", all), "und");
	assert_string_equal(best(&p, "12:30 -- !!", all), "und");
	assert_int_equal(text_langid_classify(&p, "Καλημέρα", 16, all, g), 3);
	assert_int_equal(g[0].lang, 1);
	assert_true(g[0].confidence == 1.0 && g[1].confidence == 0.0 && g[2].confidence == 0.0);
	assert_int_equal(text_langid_script(0x4F60), TEXT_SCRIPT_HAN);
	assert_int_equal(text_langid_script('a'), TEXT_SCRIPT_LATIN);
}

static void test_normalized_form(void **state)
{
	(void)state;
	static const char text[] = "Ça va, MARIE? 12 Über\xFF";
	char out[sizeof text + 2];
	size_t n = text_langid_normalize(text, sizeof text - 1, out);
	assert_int_equal(n, strlen(" ça va marie über "));
	assert_memory_equal(out, " ça va marie über ", n);
	assert_int_equal(text_langid_normalize("", 0, out), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opens_a_valid_profile),
		cmocka_unit_test(test_refuses_truncated_and_longer_files),
		cmocka_unit_test(test_refuses_corrupt_fields),
		cmocka_unit_test(test_known_sentences),
		cmocka_unit_test(test_only_candidates_are_answered),
		cmocka_unit_test(test_confidences_sum_to_one_best_first),
		cmocka_unit_test(test_script_first_and_no_letters),
		cmocka_unit_test(test_normalized_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
