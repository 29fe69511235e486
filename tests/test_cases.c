/* Case classes of a vocabulary's pieces (vocab/cases.h), on the tiny
 * model's SentencePiece vocabularies. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "../engine/model.h"
#include "../vocab/cases.h"

static nmt_model *model;

static int setup(void **state)
{
	(void)state;
	char err[256];
	return nmt_load_file("build/tiny.nmt", 1, &model, err, sizeof err) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	nmt_unload(model);
	return 0;
}

static int32_t id_of(const spm_model *vocab, const char *piece)
{
	for (int id = 0; id < spm_vocab_size(vocab); id++) {
		size_t len;
		const char *p = spm_piece(vocab, id, &len);
		if (p && len == strlen(piece) && memcmp(p, piece, len) == 0)
			return id;
	}
	fail_msg("no piece \"%s\"", piece);
	return -1;
}

static int class_size(const nmt_cases *c, int32_t id)
{
	int n = 0;
	int32_t k = id;
	do {
		assert_int_equal(nmt_cases_class(c, k), nmt_cases_class(c, id));
		k = nmt_cases_next(c, k);
		n++;
	} while (k != id && n <= 1000);
	return n;
}

static void test_twins_share_a_class(void **state)
{
	(void)state;
	const spm_model *v = model->tgt_vocab;
	int32_t Ein = id_of(v, "\xe2\x96\x81" "Ein"), ein = id_of(v, "\xe2\x96\x81" "ein");
	int32_t eine = id_of(v, "\xe2\x96\x81" "eine");
	assert_int_equal(nmt_cases_class(model->tgt_cases, Ein), nmt_cases_class(model->tgt_cases, ein));
	assert_int_equal(nmt_cases_class(model->tgt_cases, ein), Ein < ein ? Ein : ein);   /* the smallest id */
	assert_int_not_equal(nmt_cases_class(model->tgt_cases, eine), nmt_cases_class(model->tgt_cases, ein));
	assert_int_equal(class_size(model->tgt_cases, Ein), 2);
	assert_int_equal(nmt_cases_next(model->tgt_cases, Ein), ein);
	assert_int_equal(nmt_cases_next(model->tgt_cases, ein), Ein);
}

/* Every class is one cycle, named by its smallest member, whose pieces
 * all read the same in small letters; control pieces stand alone. */
static void test_every_class_is_a_cycle(void **state)
{
	(void)state;
	const spm_model *v = model->src_vocab;
	const nmt_cases *c = model->src_cases;
	int n = spm_vocab_size(v), shared = 0;
	for (int32_t id = 0; id < n; id++) {
		int32_t cls = nmt_cases_class(c, id);
		assert_true(cls <= id);
		assert_int_equal(nmt_cases_class(c, cls), cls);
		int size = class_size(c, id);
		assert_true(size >= 1 && size <= 4);   /* small, Capital, CAPITALS, and "ß"-like odds */
		shared += size > 1;
		size_t la, lb;
		const char *a = spm_piece(v, id, &la), *b = spm_piece(v, cls, &lb);
		assert_int_equal(la, lb);
		for (size_t i = 0; i < la; i++)
			assert_true(a[i] == b[i] || ((a[i] | 0x20) == (b[i] | 0x20) && (a[i] | 0x20) >= 'a' &&
						     (a[i] | 0x20) <= 'z') || (unsigned char)a[i] >= 0x80);
	}
	assert_true(shared > 10);
	assert_int_equal(class_size(c, spm_eos_id(v)), 1);
	assert_int_equal(class_size(c, spm_unk_id(v)), 1);
	assert_int_equal(nmt_cases_class(c, -1), -1);
	assert_int_equal(nmt_cases_next(c, n), n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twins_share_a_class),
		cmocka_unit_test(test_every_class_is_a_cycle),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
