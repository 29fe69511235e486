/* The repetition guard (text/guard.h) on the tiny model's target pieces:
 * which continuations it blocks, the limits a source sets, the check of a
 * finished translation, and the case classes its piece rules read
 * (text/cases.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "../text/guard.h"
#include "../engine/model.h"
#include "../text/cases.h"

static nmt_model *model;

static int setup(void **state)
{
	(void)state;
	char err[256];
	return engine_load_file("build/tiny.nmt", 1, &model, err, sizeof err) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	engine_unload(model);
	return 0;
}

/* The id of a piece of vocab, by its text. */
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

static int32_t tgt(const char *piece) { return id_of(model->tgt_vocab, piece); }

static text_guard_limits plain_limits(void)
{
	text_guard_limits lim;
	text_guard_limits_of(model->src_vocab, model->src_cases, NULL, 0, &lim);
	return lim;
}

static int blocks(const text_guard_limits *lim, const int32_t *hist, int n, int32_t next)
{
	text_guard_row g;
	text_piece_head h;
	text_guard_row_build(model->tgt_vocab, model->tgt_cases, lim, hist, n, &g);
	text_guard_head(model->tgt_vocab, next, &h);
	return text_guard_blocks(&g, next, &h);
}

static void test_a_piece_at_most_twice(void **state)
{
	(void)state;
	text_guard_limits lim = plain_limits();
	int32_t m = tgt("\xe2\x96\x81Mann"), f = tgt("\xe2\x96\x81" "Frau");
	int32_t hist[] = { f, m, m };
	assert_false(blocks(&lim, hist, 2, m));   /* "Frau Mann" + Mann */
	assert_true(blocks(&lim, hist, 3, m));    /* "Frau Mann Mann" + Mann */
	assert_false(blocks(&lim, hist, 3, f));
	assert_false(blocks(&lim, hist, 3, model->d.eos_id));
}

static void test_an_ngram_at_most_twice(void **state)
{
	(void)state;
	text_guard_limits lim = plain_limits();
	int32_t a = tgt("\xe2\x96\x81mit"), b = tgt("\xe2\x96\x81" "einem"), c = tgt("\xe2\x96\x81Mann");
	int32_t hist[] = { a, b, c, a, b, c, a, b };
	assert_false(blocks(&lim, hist, 6, a));   /* the third copy may start... */
	assert_false(blocks(&lim, hist, 7, b));
	assert_true(blocks(&lim, hist, 8, c));    /* ...but not complete */
	assert_false(blocks(&lim, hist, 8, a));
}

static void test_letters_within_a_word(void **state)
{
	(void)state;
	text_guard_limits lim = plain_limits();
	int32_t S = tgt("\xe2\x96\x81S"), r = tgt("hr"), e = tgt("en"), in = tgt("in");
	/* "Shrhrhr" + "hr": a fourth "hr" (a two-letter unit) */
	int32_t hist[] = { S, r, r, r };
	assert_true(blocks(&lim, hist, 4, r));
	assert_false(blocks(&lim, hist, 4, e));
	/* copies across word starts are no letter loop: "▁S hr ▁S hr ▁S hr"
	 * (the piece rule sees those) */
	int32_t words[] = { S, r, S, r, S, r };
	text_guard_row g;
	text_guard_row_build(model->tgt_vocab, model->tgt_cases, &lim, words, 6, &g);
	assert_int_equal(g.n_units, 0);
	/* "in in in" inside a word: "ininin" + "in" */
	int32_t ins[] = { S, in, in, in };
	assert_true(blocks(&lim, ins, 4, in));
}

static void test_case_does_not_hide_a_loop(void **state)
{
	(void)state;
	text_guard_limits lim = plain_limits();
	int32_t Ein = tgt("\xe2\x96\x81" "Ein"), ein = tgt("\xe2\x96\x81" "ein"), m = tgt("\xe2\x96\x81Mann");
	int32_t f = tgt("\xe2\x96\x81" "Frau");
	/* "Ein Mann ein Mann Ein" + Mann would be a third copy of "ein Mann" */
	int32_t hist[] = { Ein, m, ein, m, Ein }, other[] = { Ein, m, ein, m, ein };
	assert_false(blocks(&lim, hist, 3, m));   /* "Ein Mann ein" + Mann: two copies */
	assert_false(blocks(&lim, hist, 4, Ein)); /* the third may start... */
	assert_true(blocks(&lim, hist, 5, m));    /* ...but not complete */
	assert_true(blocks(&lim, other, 5, m));
	assert_false(blocks(&lim, hist, 5, f));
	/* and both spellings of the piece that would repeat are blocked */
	int32_t runs[] = { f, ein, Ein };
	assert_true(blocks(&lim, runs, 3, ein));
	assert_true(blocks(&lim, runs, 3, Ein));
	/* a finished translation is checked the same way */
	int32_t loop[] = { Ein, m, ein, m, Ein, m };
	assert_true(text_guard_violated(model->tgt_vocab, model->tgt_cases, &lim, loop, 6));
	/* a source that repeats itself in another case raises the limit */
	int32_t A = id_of(model->src_vocab, "\xe2\x96\x81" "A"), a = id_of(model->src_vocab, "\xe2\x96\x81" "a");
	int32_t man = id_of(model->src_vocab, "\xe2\x96\x81man");
	int32_t src[] = { A, man, a, man, a, man };
	text_guard_limits_of(model->src_vocab, model->src_cases, src, 6, &lim);
	assert_int_equal(lim.copies[2], 3);
	assert_false(text_guard_violated(model->tgt_vocab, model->tgt_cases, &lim, loop, 6));
}

static void test_the_source_raises_the_limits(void **state)
{
	(void)state;
	text_guard_limits lim;
	/* a source piece four times in a row allows four copies */
	int32_t src[8];
	int32_t w = id_of(model->src_vocab, "\xe2\x96\x81" "a");
	for (int i = 0; i < 8; i++)
		src[i] = i < 4 ? w : i;
	text_guard_limits_of(model->src_vocab, model->src_cases, src, 8, &lim);
	assert_int_equal(lim.copies[1], 4);
	assert_int_equal(lim.copies[2], 2);
	assert_true(lim.letters);
	int32_t m = tgt("\xe2\x96\x81Mann"), hist[] = { m, m, m, m };
	assert_false(blocks(&lim, hist, 3, m));
	assert_true(blocks(&lim, hist, 4, m));
}

static void test_a_translation_is_checked_whole(void **state)
{
	(void)state;
	text_guard_limits lim = plain_limits();
	int32_t m = tgt("\xe2\x96\x81Mann"), f = tgt("\xe2\x96\x81" "Frau");
	int32_t fine[] = { f, m, m, f, m, m }, looping[] = { f, m, f, m, f, m };
	assert_false(text_guard_violated(model->tgt_vocab, model->tgt_cases, &lim, fine, 6));
	assert_true(text_guard_violated(model->tgt_vocab, model->tgt_cases, &lim, looping, 6));
	assert_false(text_guard_violated(model->tgt_vocab, model->tgt_cases, &lim, looping, 5));
	assert_false(text_guard_violated(model->tgt_vocab, model->tgt_cases, &lim, NULL, 0));
}

/* The case classes (text/cases.h) on both vocabularies. */

static int class_size(const text_cases *c, int32_t id)
{
	int n = 0;
	int32_t k = id;
	do {
		assert_int_equal(text_cases_class(c, k), text_cases_class(c, id));
		k = text_cases_next(c, k);
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
	assert_int_equal(text_cases_class(model->tgt_cases, Ein), text_cases_class(model->tgt_cases, ein));
	assert_int_equal(text_cases_class(model->tgt_cases, ein), Ein < ein ? Ein : ein);  /* the smallest id */
	assert_int_not_equal(text_cases_class(model->tgt_cases, eine), text_cases_class(model->tgt_cases, ein));
	assert_int_equal(class_size(model->tgt_cases, Ein), 2);
	assert_int_equal(text_cases_next(model->tgt_cases, Ein), ein);
	assert_int_equal(text_cases_next(model->tgt_cases, ein), Ein);
}

/* Every class is one cycle, named by its smallest member, whose pieces
 * all read the same in small letters; control pieces stand alone. */
static void test_every_class_is_a_cycle(void **state)
{
	(void)state;
	const spm_model *v = model->src_vocab;
	const text_cases *c = model->src_cases;
	int n = spm_vocab_size(v), shared = 0;
	for (int32_t id = 0; id < n; id++) {
		int32_t cls = text_cases_class(c, id);
		assert_true(cls <= id);
		assert_int_equal(text_cases_class(c, cls), cls);
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
	assert_int_equal(text_cases_class(c, -1), -1);
	assert_int_equal(text_cases_next(c, n), n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_piece_at_most_twice),
		cmocka_unit_test(test_an_ngram_at_most_twice),
		cmocka_unit_test(test_letters_within_a_word),
		cmocka_unit_test(test_case_does_not_hide_a_loop),
		cmocka_unit_test(test_the_source_raises_the_limits),
		cmocka_unit_test(test_a_translation_is_checked_whole),
		cmocka_unit_test(test_twins_share_a_class),
		cmocka_unit_test(test_every_class_is_a_cycle),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
