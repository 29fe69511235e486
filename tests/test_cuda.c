/* The CUDA path (make CUDA=1) against the CPU engine: the tiny model in
 * each weight format, with and without a vocabulary map, greedy and beam 4
 * with 4-best lists, a batch of all the fixture's sentences plus an empty
 * line and one long enough to be cut into segments. Translations must be
 * identical and scores equal to 1e-4 (the GPU runs the CPU's own element
 * math; only logf may differ in the last bit). On a machine without an
 * NVIDIA GPU or driver, every test is skipped with the reason. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../nmt.h"

#define MAX_TEXTS 40

#ifdef NMT_TEST_CUDA_EMULATED
#define SCORE_TOLERANCE 0.0f
#else
#define SCORE_TOLERANCE 1e-4f
#endif

static const char *texts[MAX_TEXTS];
static int n_texts;
static char long_text[8192];

/* The fixture's source sentences, an empty line and a long one. */
static int setup(void **state)
{
	static char lines[MAX_TEXTS][512];
	FILE *in = fopen("tests/fixtures/tiny/expected.txt", "r");
	char line[2048];
	(void)state;
	if (!in)
		return -1;
	while (n_texts < MAX_TEXTS - 2 && fgets(line, sizeof line, in)) {
		char *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
		if (strncmp(line, "sent\t", 5) != 0 || !tab2)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(lines[n_texts], sizeof lines[n_texts], "%s", tab2 + 1);
		texts[n_texts] = lines[n_texts];
		n_texts++;
	}
	fclose(in);
	texts[n_texts++] = "";
	for (size_t k = 0; k + 30 < sizeof long_text; k += 29)
		memcpy(long_text + k, "a dog runs along the beach . ", 29);
	texts[n_texts++] = long_text;
	return 0;
}

static nmt_result *translate(nmt_model *m, int device, int beam, int nbest, nmt_error *err)
{
	nmt_session *s;
	nmt_result *r = NULL;
	nmt_options o;
	nmt_options_init(&o);
	o.device = device;
	o.beam = beam;
	o.nbest = nbest;
	assert_int_equal(nmt_session_new(m, &s, err), NMT_OK);
	nmt_translate_batch(s, &o, texts, NULL, n_texts, &r, err);
	nmt_session_free(s);
	return r;
}

static void compare(const char *path)
{
	nmt_model *m;
	nmt_error err;
	assert_int_equal(nmt_model_open(path, 0, &m, &err), NMT_OK);
	for (int beam = 1; beam <= 4; beam += 3) {
		nmt_result *gpu = translate(m, NMT_DEVICE_CUDA, beam, beam, &err);
		if (!gpu) {
			nmt_model_close(m);
			if (err.code == NMT_ERR_UNSUPPORTED) {
				printf("GPU test skipped: %s\n", err.message);
				skip();
			}
			fail_msg("%s: %s", path, err.message);
		}
		nmt_result *cpu = translate(m, NMT_DEVICE_CPU, beam, beam, &err);
		assert_non_null(cpu);
		assert_int_equal(nmt_result_count(gpu), n_texts);
		for (int i = 0; i < n_texts; i++) {
			assert_int_equal(nmt_result_nbest(gpu, i), nmt_result_nbest(cpu, i));
			for (int k = 0; k < nmt_result_nbest(cpu, i); k++) {
				const nmt_translation *g = nmt_result_get(gpu, i, k), *c = nmt_result_get(cpu, i, k);
				assert_string_equal(g->text, c->text);
				assert_true(fabsf(g->score - c->score) <= SCORE_TOLERANCE &&
					    fabsf(g->logprob - c->logprob) <= SCORE_TOLERANCE);
			}
		}
		nmt_result_free(gpu);
		nmt_result_free(cpu);
	}
	nmt_model_close(m);
}

static void test_f32(void **state) { (void)state; compare("build/tiny.nmt"); }
static void test_q8(void **state) { (void)state; compare("build/tiny.q8.nmt"); }
static void test_q4(void **state) { (void)state; compare("build/tiny.q4.nmt"); }
static void test_q4n(void **state) { (void)state; compare("build/tiny.q4n.nmt"); }
static void test_i8(void **state) { (void)state; compare("build/tiny.i8.nmt"); }
static void test_shortlist(void **state) { (void)state; compare("build/tiny_vmap_small.nmt"); }

/* A model of another family: the GPU path refuses it with the reason. */
static void test_other_family(void **state)
{
	(void)state;
	nmt_model *m;
	nmt_error err;
	assert_int_equal(nmt_model_open("build/marian_all.nmt", 0, &m, &err), NMT_OK);
	assert_null(translate(m, NMT_DEVICE_CUDA, 1, 1, &err));
	assert_int_equal(err.code, NMT_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "gru-fc-1"));
	nmt_model_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f32),
		cmocka_unit_test(test_q8),
		cmocka_unit_test(test_q4),
		cmocka_unit_test(test_q4n),
		cmocka_unit_test(test_i8),
		cmocka_unit_test(test_shortlist),
		cmocka_unit_test(test_other_family),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
