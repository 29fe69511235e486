/* Where over-long sentences are cut (text/segment.h), with the tiny
 * model's source vocabulary: not at all when they fit, else before the
 * latest word in the second half of the window, else at the limit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/model.h"
#include "../text/segment.h"

static nmt_model *model;
static spm_scratch *scratch;

static int setup(void **state)
{
	(void)state;
	char err[256];
	if (engine_load_file("build/tiny.nmt", 1, &model, err, sizeof err) != 0)
		return -1;
	scratch = spm_scratch_new();
	return scratch ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	spm_scratch_free(scratch);
	engine_unload(model);
	return 0;
}

/* The source ids of text repeated to at least min_ids pieces. */
static const int32_t *encode_repeated(const char *unit, int min_ids, size_t *n)
{
	static char text[1 << 16];
	size_t len = 0, u = strlen(unit);
	const int32_t *ids;
	do {
		assert_true(len + u < sizeof text);
		memcpy(text + len, unit, u);
		len += u;
		assert_int_equal(spm_encode(model->src_vocab, scratch, text, len, &ids, n), 0);
	} while (*n < (size_t)min_ids);
	return ids;
}

static int piece_starts_word(int32_t id)
{
	size_t len;
	const char *p = spm_piece(model->src_vocab, id, &len);
	return len >= 3 && memcmp(p, "\xe2\x96\x81", 3) == 0;
}

static void test_short_input_is_one_segment(void **state)
{
	(void)state;
	size_t n;
	const int32_t *ids = encode_repeated("a dog runs. ", 10, &n);   /* (sentences are text/split.h's) */
	assert_int_equal(text_segment_length(model->src_vocab, ids, (int)n), (int)n);
}

static void test_cut_before_a_word(void **state)
{
	(void)state;
	size_t n;
	const int32_t *ids = encode_repeated("men dogs park football ", 500, &n);
	int k = text_segment_length(model->src_vocab, ids, (int)n);
	assert_true(k >= TEXT_SEGMENT_PIECES / 2 && k <= TEXT_SEGMENT_PIECES);
	assert_true(piece_starts_word(ids[k]));
	for (int j = k + 1; j <= TEXT_SEGMENT_PIECES; j++)
		assert_false(piece_starts_word(ids[j]));
}

static void test_cut_inside_a_giant_word(void **state)
{
	(void)state;
	size_t n;
	const int32_t *ids = encode_repeated("xq", 500, &n);   /* one word, no space */
	assert_int_equal(text_segment_length(model->src_vocab, ids, (int)n), TEXT_SEGMENT_PIECES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_input_is_one_segment),
		cmocka_unit_test(test_cut_before_a_word),
		cmocka_unit_test(test_cut_inside_a_giant_word),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
