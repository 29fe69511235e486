/* The packer's vocabulary map against the text it was made from: whatever
 * model-pack drops or merges, every sentence's shortlist must be exactly the
 * 0-grams, EOS and the union of the text's lists of the sentence's n-grams. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/vmap.h"
#include "../pack/vmap_pack.h"

enum { VS = 40, VT = 400, EOS = 2, N_ZERO = 12, N_BIGRAMS = 300, N_TRIGRAMS = 120, LIST = 8 };

typedef struct {
	int32_t src[3];
	int n;
	int32_t ids[LIST];
} text_entry;

typedef struct {
	text_entry e[VS + N_BIGRAMS + N_TRIGRAMS];
	int n_entries;
	int32_t zero[N_ZERO];
	uint64_t n_ids;   /* ids over all lists of the text */
} text_map;

static uint32_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return (rng_state >> 8) % n;
}

static const text_entry *find(const text_map *t, const int32_t *src, int n)
{
	for (int i = 0; i < t->n_entries; i++)
		if (t->e[i].n == n && memcmp(t->e[i].src, src, (size_t)n * sizeof *src) == 0)
			return &t->e[i];
	return NULL;
}

/* A target id for an n-gram's list: often one its first part (or a 0-gram)
 * already has, so that the packer has something to drop. */
static int32_t pick_target(const text_map *t, const int32_t *src)
{
	const text_entry *first = find(t, src, 1);
	switch (rnd(4)) {
	case 0: return first ? first->ids[rnd(LIST)] : (int32_t)rnd(VT);
	case 1: return t->zero[rnd(N_ZERO)];
	default: return (int32_t)rnd(VT);
	}
}

static void add_entry(text_map *t, const int32_t *src, int n)
{
	if (find(t, src, n))
		return;
	text_entry *e = &t->e[t->n_entries++];
	memcpy(e->src, src, (size_t)n * sizeof *src);
	e->n = n;
	for (int k = 0; k < LIST; k++)
		e->ids[k] = pick_target(t, src);
	t->n_ids += LIST;
}

static void make_text_map(text_map *t, const char *path)
{
	memset(t, 0, sizeof *t);
	for (int k = 0; k < N_ZERO; k++)
		t->zero[k] = (int32_t)rnd(VT);
	for (int32_t w = 0; w < VS; w++)
		add_entry(t, &w, 1);
	for (int i = 0; i < N_BIGRAMS; i++) {
		int32_t src[2] = { (int32_t)rnd(VS), (int32_t)rnd(VS) };
		add_entry(t, src, 2);
	}
	for (int i = 0; i < N_TRIGRAMS; i++) {   /* trigrams extend bigrams the map has */
		const text_entry *b = &t->e[VS + (int)rnd(N_BIGRAMS / 2)];
		int32_t src[3] = { b->src[0], b->src[1], (int32_t)rnd(VS) };
		if (b->n == 2)
			add_entry(t, src, 3);
	}
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	fprintf(out, "# test map\n");
	for (int k = 0; k < N_ZERO; k++)
		fprintf(out, "%s%d", k ? " " : "\t", t->zero[k]);
	fprintf(out, "\n");
	for (int i = 0; i < t->n_entries; i++) {
		const text_entry *e = &t->e[i];
		for (int j = 0; j < e->n; j++)
			fprintf(out, "%s%d", j ? " " : "", e->src[j]);
		for (int k = 0; k < LIST; k++)
			fprintf(out, "%c%d", k ? ' ' : '\t', e->ids[k]);
		fprintf(out, "\n");
	}
	fclose(out);
}

/* The shortlist straight from the text: marks[id] = 1 for every member. */
static int text_shortlist(const text_map *t, const int32_t *src, int len, uint8_t *marks)
{
	memset(marks, 0, VT);
	for (int k = 0; k < N_ZERO; k++)
		marks[t->zero[k]] = 1;
	marks[EOS] = 1;
	for (int n = 1; n <= 3; n++)
		for (int i = 0; i + n <= len; i++) {
			const text_entry *e = find(t, src + i, n);
			for (int k = 0; e && k < LIST; k++)
				marks[e->ids[k]] = 1;
		}
	int count = 0;
	for (int id = 0; id < VT; id++)
		count += marks[id];
	return count;
}

/* A sentence that often repeats an n-gram of the map, so that bigrams and
 * trigrams are actually looked up. */
static int make_sentence(const text_map *t, int32_t *src)
{
	int len = 1 + (int)rnd(14);
	for (int i = 0; i < len;) {
		const text_entry *e = &t->e[rnd((uint32_t)t->n_entries)];
		if (rnd(2) && i + e->n <= len) {
			memcpy(src + i, e->src, (size_t)e->n * sizeof *src);
			i += e->n;
		} else {
			src[i++] = (int32_t)rnd(VS);
		}
	}
	return len;
}

static void test_packed_shortlists_equal_the_texts(void **state)
{
	(void)state;
	static text_map t;
	char path[] = "/tmp/nmt-test-vmap-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	make_text_map(&t, path);

	uint8_t *section;
	size_t size;
	char err[256];
	assert_int_equal(pack_vmap(path, VS, VT, &section, &size, err, sizeof err), 0);
	unlink(path);
	engine_vmap v;
	assert_int_equal(engine_vmap_open(section, size, VT, &v, err, sizeof err), 0);
	/* the redundant targets are gone: the payload (a count per list, then
	 * the ids) is smaller than the text's ids alone */
	assert_true(v.n_payload < t.n_ids);

	uint8_t want[VT], marks[VT] = { 0 };
	int32_t src[16], out[VT];
	for (int s = 0; s < 2000; s++) {
		int len = make_sentence(&t, src);
		int n_want = text_shortlist(&t, src, len, want);
		int n = engine_vmap_shortlist(&v, src, len, EOS, VT, marks, out);
		assert_int_equal(n, n_want);
		for (int k = 0; k < n; k++)
			assert_true(want[out[k]]);
	}
	free(section);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packed_shortlists_equal_the_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
