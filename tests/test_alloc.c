/* Resource bounds: with malloc, calloc and realloc counted (this binary is
 * linked with --wrap for them, Makefile), the decode loop allocates
 * nothing, and a translator that has seen its largest batch allocates
 * nothing more however many lines follow, so memory cannot grow with the
 * length of the input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../engine/model.h"
#include "../engine/translator.h"

#define MODEL_PATH "build/tiny_vmap_small.nmt"

static int counting;
static long allocations;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
	allocations += counting;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	allocations += counting;
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	allocations += counting;
	return __real_realloc(p, n);
}

static const char *const lines[] = {
	"A man in a red shirt is riding a bike down the street.",
	"Two dogs.",
	"",
	"A group of people stand in front of an old building while a woman sings.",
	"   ",
	"Children play.",
};
enum { N_LINES = sizeof lines / sizeof *lines };

static int ignore(void *ctx, int i, const nmt_translation *tr, int n)
{
	(void)ctx;
	(void)i;
	(void)tr;
	(void)n;
	return 0;
}

static void translate_all(engine_translator *t, const engine_search_options *o, int rounds)
{
	size_t lens[N_LINES];
	char err[256];
	for (int i = 0; i < N_LINES; i++)
		lens[i] = strlen(lines[i]);
	for (int r = 0; r < rounds; r++)
		assert_int_equal(engine_translator_batch(t, o, (const char *const *)lines, lens, N_LINES, ignore, NULL, err,
						     sizeof err), 0);
}

/* engine_encode and engine_search (every decoder step) allocate nothing: the
 * batch's buffers were sized by engine_batch_prepare. */
static void decode_loop_allocates_nothing(const char *path)
{
	nmt_model *m;
	engine_state s;
	char err[256];
	assert_int_equal(engine_load_file(path, 1, &m, err, sizeof err), 0);
	assert_int_equal(engine_state_init(&s, m), 0);
	int32_t a[] = { 5, 9, 11, 40, 3, m->d.src_eos_id }, b[] = { 7, 8, m->d.src_eos_id };
	const int32_t *src[] = { a, b };
	int len[] = { 6, 3 };
	for (int beam = 1; beam <= 4; beam += 3) {
		engine_search_options o = { .use_shortlist = 1, .beam = beam, .nbest = beam, .alpha = 0.6 };
		engine_hypothesis out[2 * NMT_MAX_BEAM];
		int n_out[2];
		assert_int_equal(engine_batch_prepare(&s, 2, src, len, &o), 0);
		allocations = 0;
		counting = 1;
		engine_encode(&s, src);
		engine_search(&s, &o, out, n_out);
		counting = 0;
		assert_int_equal(allocations, 0);
		assert_true(n_out[0] >= 1 && n_out[1] >= 1);
	}
	engine_state_free(&s);
	engine_unload(m);
}

/* After one round over the lines (and a line long enough to be segmented),
 * a hundred more rounds allocate nothing at all. */
static void translator_steady_state_allocates_nothing(const char *path)
{
	nmt_model *m;
	char err[256];
	assert_int_equal(engine_load_file(path, 1, &m, err, sizeof err), 0);
	/* the counting works: making a translator allocates */
	allocations = 0;
	counting = 1;
	engine_translator *t = engine_translator_new(m);
	counting = 0;
	assert_non_null(t);
	assert_true(allocations > 0);
	static char long_line[6000];
	for (size_t i = 0; i + 1 < sizeof long_line; i++)
		long_line[i] = "a dog runs. "[i % 12];
	for (int beam = 1; beam <= 4; beam += 3) {
		engine_search_options o = { .use_shortlist = 1, .beam = beam, .nbest = beam, .alpha = 0.6 };
		nmt_translation tr[NMT_MAX_BEAM];
		int n;
		assert_int_equal(engine_translator_line(t, &o, long_line, strlen(long_line), tr, &n, err, sizeof err), 0);
		translate_all(t, &o, 1);
		allocations = 0;
		counting = 1;
		translate_all(t, &o, 100);
		assert_int_equal(engine_translator_line(t, &o, long_line, strlen(long_line), tr, &n, err, sizeof err), 0);
		counting = 0;
		assert_int_equal(allocations, 0);
	}
	engine_translator_free(t);
	engine_unload(m);
}

/* Both families: the GRU (the tiny parity model) and the SSRU (an imported
 * Marian fixture). */
#define SSRU_PATH "build/marian_all.nmt"
static void test_decode_loop_allocates_nothing(void **state) { (void)state; decode_loop_allocates_nothing(MODEL_PATH); }
static void test_decode_loop_allocates_nothing_ssru(void **state) { (void)state; decode_loop_allocates_nothing(SSRU_PATH); }
static void test_translator_steady_state_allocates_nothing(void **state)
{
	(void)state;
	translator_steady_state_allocates_nothing(MODEL_PATH);
}
static void test_translator_steady_state_allocates_nothing_ssru(void **state)
{
	(void)state;
	translator_steady_state_allocates_nothing(SSRU_PATH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_loop_allocates_nothing),
		cmocka_unit_test(test_decode_loop_allocates_nothing_ssru),
		cmocka_unit_test(test_translator_steady_state_allocates_nothing),
		cmocka_unit_test(test_translator_steady_state_allocates_nothing_ssru),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
