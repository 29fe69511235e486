/* The public API (nmt.h) as a program embedding nmt sees it: opening models
 * from files and buffers, every error code with its message, options,
 * single and batch translation against the PyTorch reference's outputs
 * (tests/fixtures/tiny/expected.txt), results that do not depend on batch
 * size, thread count or the thread a session runs on, and results' bounds.
 * Run under ASan/UBSan by `make test SANITIZE=1`, which also checks that
 * everything allocated is freed. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../nmt.h"

/* make test ARCH=aarch64 runs this under qemu-user, where a dynamically
 * linked glibc program's pthread_create never returns (qemu 7.2, glibc
 * 2.36): there the tests stay on one thread, and threads are tested through
 * the static nmt (musl) by the end-to-end tests. */
#ifdef NMT_TEST_NO_THREADS
#define MAX_TEST_THREADS 1
#else
#define MAX_TEST_THREADS 3
#endif

#define MODEL_PATH "build/tiny.nmt"
#define EXPECTED_PATH "tests/fixtures/tiny/expected.txt"
#define MAX_SENT 32

/* The fixture's sentences and the reference's translations of them. */
typedef struct {
	char text[MAX_SENT][256];
	char greedy[MAX_SENT][512];
	char beam4[MAX_SENT][NMT_MAX_BEAM][512];
	int n_beam4[MAX_SENT];
	int n;
	nmt_model *model;
} fixture;

static void read_expected(fixture *f)
{
	FILE *in = fopen(EXPECTED_PATH, "r");
	char line[2048];
	assert_non_null(in);
	while (fgets(line, sizeof line, in)) {
		line[strcspn(line, "\n")] = '\0';
		char *field[6] = { 0 }, *p = line;
		int n = 0;
		while (n < 6 && (field[n++] = strsep(&p, "\t")))
			;
		if (strcmp(field[0], "sent") == 0) {
			int i = atoi(field[1]);
			assert_true(i >= 0 && i < MAX_SENT);
			snprintf(f->text[i], sizeof f->text[i], "%s", field[2]);
			f->n = i + 1 > f->n ? i + 1 : f->n;
		} else if (strcmp(field[0], "text") == 0) {   /* text SENT BEAM RANK TRANSLATION */
			int i = atoi(field[1]), beam = atoi(field[2]), rank = atoi(field[3]);
			const char *tr = field[4] ? field[4] : "";
			if (beam == 1)
				snprintf(f->greedy[i], sizeof f->greedy[i], "%s", tr);
			else if (beam == 4 && rank < NMT_MAX_BEAM) {
				snprintf(f->beam4[i][rank], sizeof f->beam4[i][rank], "%s", tr);
				f->n_beam4[i] = rank + 1 > f->n_beam4[i] ? rank + 1 : f->n_beam4[i];
			}
		}
	}
	fclose(in);
}

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	nmt_error err;
	assert_non_null(f);
	read_expected(f);
	assert_true(f->n >= 10);
	assert_int_equal(nmt_model_open(MODEL_PATH, 0, &f->model, &err), NMT_OK);
	assert_int_equal(err.code, NMT_OK);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	nmt_model_close(f->model);
	free(f);
	return 0;
}

/* The whole file in memory, at `offset` bytes past a 64-byte boundary. */
static char *read_file(const char *path, size_t offset, size_t *len)
{
	FILE *in = fopen(path, "rb");
	assert_non_null(in);
	fseek(in, 0, SEEK_END);
	*len = (size_t)ftell(in);
	fseek(in, 0, SEEK_SET);
	char *buf = aligned_alloc(64, (*len + offset + 63) / 64 * 64);
	assert_non_null(buf);
	assert_int_equal(fread(buf + offset, 1, *len, in), *len);
	fclose(in);
	return buf;
}

static const char *const SOME[] = { "A dog runs along the beach.", "", "Two men are talking.",
				    "A girl in a red coat.", "   ", "Ein Hund?" };
#define N_SOME ((int)(sizeof SOME / sizeof *SOME))

/* Two results hold the same translations, scores included. */
static void assert_same_result(const nmt_result *a, const nmt_result *b)
{
	assert_int_equal(nmt_result_count(a), nmt_result_count(b));
	for (int i = 0; i < nmt_result_count(a); i++) {
		assert_int_equal(nmt_result_nbest(a, i), nmt_result_nbest(b, i));
		for (int k = 0; k < nmt_result_nbest(a, i); k++) {
			const nmt_translation *x = nmt_result_get(a, i, k), *y = nmt_result_get(b, i, k);
			assert_string_equal(x->text, y->text);
			assert_int_equal(x->len, strlen(x->text));
			assert_true(x->score == y->score && x->logprob == y->logprob);
		}
	}
}

static nmt_result *translate_some(const nmt_model *m, const nmt_options *o)
{
	nmt_session *s;
	nmt_result *r;
	nmt_error err;
	assert_int_equal(nmt_session_new(m, &s, &err), NMT_OK);
	assert_int_equal(nmt_translate_batch(s, o, SOME, NULL, N_SOME, &r, &err), NMT_OK);
	nmt_session_free(s);
	return r;
}

static void test_open_errors(void **state)
{
	(void)state;
	nmt_model *m = (nmt_model *)1;
	nmt_error err;

	assert_int_equal(nmt_model_open("build/no-such-model.nmt", 0, &m, &err), NMT_ERR_IO);
	assert_null(m);
	assert_int_equal(err.code, NMT_ERR_IO);
	assert_non_null(strstr(err.message, "no-such-model.nmt"));
	assert_null(strchr(err.message, '\n'));
	assert_int_equal(nmt_model_open("tests", 0, &m, &err), NMT_ERR_IO);
	assert_int_equal(nmt_model_open(EXPECTED_PATH, 0, &m, &err), NMT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "not an nmt model"));
	assert_int_equal(nmt_model_open(NULL, 0, &m, &err), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_model_open(MODEL_PATH, 0, NULL, &err), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_model_open(MODEL_PATH, 0x80, &m, &err), NMT_ERR_ARGUMENT);
	assert_null(m);
	/* err may be NULL: the code alone */
	assert_int_equal(nmt_model_open("build/no-such-model.nmt", 0, &m, NULL), NMT_ERR_IO);

	size_t len;
	char *buf = read_file(MODEL_PATH, 0, &len);
	assert_int_equal(nmt_model_open_buffer(buf, 100, 0, &m, &err), NMT_ERR_FORMAT);
	assert_int_equal(nmt_model_open_buffer(NULL, len, 0, &m, &err), NMT_ERR_ARGUMENT);
	buf[40000] ^= 0x55;   /* inside the weights, a bulk section: only a full verification sees it */
	assert_int_equal(nmt_model_open_buffer(buf, len, NMT_OPEN_VERIFY, &m, &err), NMT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "checksum"));
	assert_int_equal(nmt_model_open_buffer(buf, len, 0, &m, &err), NMT_OK);
	nmt_model_close(m);
	free(buf);
	nmt_model_close(NULL);
}

static void test_status_strings(void **state)
{
	(void)state;
	const nmt_status all[] = { NMT_OK, NMT_ERR_ARGUMENT, NMT_ERR_IO, NMT_ERR_FORMAT, NMT_ERR_NO_MEMORY,
				   NMT_ERR_UNSUPPORTED, NMT_ERR_DEVICE };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		const char *s = nmt_status_string(all[i]);
		assert_non_null(s);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(s, nmt_status_string(all[j]));
	}
	assert_string_equal(nmt_status_string(NMT_ERR_NO_MEMORY), "out of memory");
	assert_non_null(nmt_status_string((nmt_status)42));
	assert_string_equal(nmt_version(), NMT_VERSION);
}

/* A buffer at any alignment opens (copied when not 64-byte aligned) and
 * translates exactly as the mapped file does. */
static void test_open_buffer_any_alignment(void **state)
{
	fixture *f = *state;
	nmt_options o;
	nmt_options_init(&o);
	nmt_result *want = translate_some(f->model, &o);
	for (size_t offset = 0; offset < 64; offset += 21) {
		size_t len;
		char *buf = read_file(MODEL_PATH, offset, &len);
		nmt_model *m;
		nmt_error err;
		assert_int_equal(nmt_model_open_buffer(buf + offset, len, NMT_OPEN_VERIFY, &m, &err), NMT_OK);
		nmt_result *got = translate_some(m, &o);
		assert_same_result(want, got);
		nmt_result_free(got);
		nmt_model_close(m);
		free(buf);
	}
	nmt_result_free(want);
}

static void test_model_info(void **state)
{
	fixture *f = *state;
	size_t len;
	const char *meta = nmt_model_metadata(f->model, &len);
	char value[64];
	nmt_section_info info;

	assert_true(len > 0 && memchr(meta, '=', len));
	assert_int_equal(nmt_model_metadata_value(f->model, "quant", value, sizeof value), NMT_OK);
	assert_string_equal(value, "f32");
	assert_int_equal(nmt_model_metadata_value(f->model, "no-such-key", value, sizeof value), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_model_metadata_value(f->model, "quant", value, 3), NMT_ERR_ARGUMENT);
	assert_true(nmt_model_file_size(f->model) > 100000);
	assert_int_equal(nmt_model_format_version(f->model), 3);
	int n = nmt_model_section_count(f->model), saw_bulk = 0;
	assert_true(n >= 5);
	for (int i = 0; i < n; i++) {
		assert_int_equal(nmt_model_section(f->model, i, &info), NMT_OK);
		assert_true(strlen(info.tag) > 0 && info.size > 0);
		saw_bulk |= !info.checksum_verified;
	}
	assert_true(saw_bulk);   /* "weights", opened without NMT_OPEN_VERIFY */
	assert_int_equal(nmt_model_section(f->model, n, &info), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_model_section(f->model, -1, &info), NMT_ERR_ARGUMENT);
}

/* A model opened for its metadata gives the same metadata and sections
 * as a full open, and cannot translate. */
static void test_open_metadata_only(void **state)
{
	fixture *f = *state;
	nmt_model *m;
	nmt_session *s = (nmt_session *)1;
	nmt_error err;
	size_t len, full_len;

	assert_int_equal(nmt_model_open(MODEL_PATH, NMT_OPEN_METADATA, &m, &err), NMT_OK);
	const char *meta = nmt_model_metadata(m, &len), *full = nmt_model_metadata(f->model, &full_len);
	assert_int_equal(len, full_len);
	assert_memory_equal(meta, full, len);
	assert_int_equal(nmt_model_section_count(m), nmt_model_section_count(f->model));
	assert_int_equal(nmt_model_file_size(m), nmt_model_file_size(f->model));
	assert_int_equal(nmt_session_new(m, &s, &err), NMT_ERR_ARGUMENT);
	assert_null(s);
	assert_non_null(strstr(err.message, "metadata only"));
	nmt_model_close(m);

	/* Both flags together: the checksums are still checked. */
	char *buf = read_file(MODEL_PATH, 0, &len);
	buf[40000] ^= 0x55;
	assert_int_equal(nmt_model_open_buffer(buf, len, NMT_OPEN_METADATA | NMT_OPEN_VERIFY, &m, &err), NMT_ERR_FORMAT);
	assert_int_equal(nmt_model_open_buffer(buf, len, NMT_OPEN_METADATA, &m, &err), NMT_OK);
	nmt_model_close(m);
	free(buf);
}

static void test_bad_options(void **state)
{
	fixture *f = *state;
	nmt_session *s;
	nmt_result *r = (nmt_result *)1;
	nmt_error err;
	nmt_options o;
	const char *text = "A dog.";

	assert_int_equal(nmt_session_new(f->model, &s, &err), NMT_OK);
	struct { const char *field; int value; } bad[] = {
		{ "beam", 0 }, { "beam", 9 }, { "nbest", 0 }, { "nbest", 5 }, { "max_length", -1 },
		{ "threads", 0 }, { "threads", 257 }, { "batch", -1 }, { "batch", 257 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		nmt_options_init(&o);
		int *p = strcmp(bad[i].field, "beam") == 0    ? &o.beam
			 : strcmp(bad[i].field, "nbest") == 0 ? &o.nbest
			 : strcmp(bad[i].field, "threads") == 0 ? &o.threads
			 : strcmp(bad[i].field, "batch") == 0 ? &o.batch
							      : &o.max_length;
		*p = bad[i].value;
		assert_int_equal(nmt_translate(s, &o, text, &r, &err), NMT_ERR_ARGUMENT);
		assert_null(r);
		assert_non_null(strstr(err.message, bad[i].field));
	}
	nmt_options_init(&o);
	o.alpha = -0.5;
	assert_int_equal(nmt_translate(s, &o, text, &r, &err), NMT_ERR_ARGUMENT);
	o.alpha = 10.5;
	assert_int_equal(nmt_translate(s, &o, text, &r, &err), NMT_ERR_ARGUMENT);
	o.alpha = 0.0 / 0.0;
	assert_int_equal(nmt_translate(s, &o, text, &r, &err), NMT_ERR_ARGUMENT);
	nmt_options_init(&o);
	assert_int_equal(nmt_translate(NULL, &o, text, &r, &err), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_translate(s, &o, NULL, &r, &err), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_translate(s, &o, text, NULL, &err), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_translate_batch(s, &o, NULL, NULL, 2, &r, &err), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_translate_batch(s, &o, &text, NULL, -1, &r, &err), NMT_ERR_ARGUMENT);
	/* after all that, the session still translates */
	assert_int_equal(nmt_translate(s, NULL, text, &r, &err), NMT_OK);
	assert_int_equal(nmt_result_count(r), 1);
	nmt_result_free(r);
	nmt_session_free(s);
	assert_int_equal(nmt_session_new(NULL, &s, &err), NMT_ERR_ARGUMENT);
	assert_null(s);
	nmt_session_free(NULL);
	nmt_result_free(NULL);
}

/* Through the API, the same translations as the PyTorch reference. */
static void test_matches_reference(void **state)
{
	fixture *f = *state;
	nmt_session *s;
	nmt_result *r;
	nmt_error err;
	nmt_options o;
	const char *texts[MAX_SENT];

	for (int i = 0; i < f->n; i++)
		texts[i] = f->text[i];
	assert_int_equal(nmt_session_new(f->model, &s, &err), NMT_OK);
	nmt_options_init(&o);
	o.beam = 1;
	o.repeat_guard = 0;   /* the reference search has none */
	o.case_fold = 0;      /* and translates "THE CAT!" as written */
	assert_int_equal(nmt_translate_batch(s, &o, texts, NULL, f->n, &r, &err), NMT_OK);
	assert_int_equal(nmt_result_count(r), f->n);
	for (int i = 0; i < f->n; i++) {
		assert_int_equal(nmt_result_nbest(r, i), 1);
		assert_string_equal(nmt_result_text(r, i, 0), f->greedy[i]);
	}
	nmt_result_free(r);
	o.beam = 4;
	o.nbest = 4;
	for (int i = 0; i < f->n; i++) {
		assert_int_equal(nmt_translate(s, &o, texts[i], &r, &err), NMT_OK);
		assert_int_equal(nmt_result_nbest(r, 0), f->n_beam4[i]);
		for (int k = 0; k < f->n_beam4[i]; k++)
			assert_string_equal(nmt_result_text(r, 0, k), f->beam4[i][k]);
		for (int k = 1; k < f->n_beam4[i]; k++)
			assert_true(nmt_result_get(r, 0, k - 1)->score >= nmt_result_get(r, 0, k)->score);
		nmt_result_free(r);
	}
	nmt_session_free(s);
}

/* A result's bounds; lengths given explicitly; an empty batch. */
static void test_result_access(void **state)
{
	fixture *f = *state;
	nmt_session *s;
	nmt_result *r;
	nmt_error err;
	nmt_options o;
	const char *texts[] = { "A dog runs along the beach.XXXX", "Two men" };
	size_t lens[] = { 27, 7 };

	nmt_options_init(&o);
	o.nbest = 2;
	assert_int_equal(nmt_session_new(f->model, &s, &err), NMT_OK);
	/* an empty batch first, as nmt does to check its options: nothing is
	 * allocated yet (UBSan watched a NULL reach qsort here) */
	assert_int_equal(nmt_translate_batch(s, &o, NULL, NULL, 0, &r, &err), NMT_OK);
	assert_int_equal(nmt_result_count(r), 0);
	nmt_result_free(r);
	assert_int_equal(nmt_translate_batch(s, &o, texts, lens, 2, &r, &err), NMT_OK);
	assert_int_equal(nmt_result_count(r), 2);
	assert_null(nmt_result_get(r, 2, 0));
	assert_null(nmt_result_get(r, -1, 0));
	assert_null(nmt_result_get(r, 0, 2));
	assert_null(nmt_result_text(r, 0, -1));
	assert_int_equal(nmt_result_nbest(r, 5), 0);
	nmt_result *one;
	assert_int_equal(nmt_translate(s, &o, "A dog runs along the beach.", &one, &err), NMT_OK);
	assert_string_equal(nmt_result_text(r, 0, 0), nmt_result_text(one, 0, 0));
	assert_string_equal(nmt_result_text(r, 0, 1), nmt_result_text(one, 0, 1));
	nmt_result_free(one);
	nmt_result_free(r);

	assert_int_equal(nmt_translate_batch(s, &o, NULL, NULL, 0, &r, &err), NMT_OK);
	assert_int_equal(nmt_result_count(r), 0);
	assert_null(nmt_result_text(r, 0, 0));
	nmt_result_free(r);
	/* an empty text translates to the empty string */
	assert_int_equal(nmt_translate(s, &o, "", &r, &err), NMT_OK);
	assert_string_equal(nmt_result_text(r, 0, 0), "");
	nmt_result_free(r);
	nmt_session_free(s);
}

/* The same translations for any batch size and thread count, and from one
 * session reused across calls of different sizes. */
static void test_batch_and_threads_change_nothing(void **state)
{
	fixture *f = *state;
	nmt_options o;
	nmt_options_init(&o);
	o.nbest = 3;
	nmt_result *want = translate_some(f->model, &o);
	nmt_session *s;
	nmt_error err;
	assert_int_equal(nmt_session_new(f->model, &s, &err), NMT_OK);
	for (int threads = 1; threads <= MAX_TEST_THREADS; threads++)
		for (int batch = 1; batch <= 7; batch += 3) {
			nmt_result *r;
			o.threads = threads;
			o.batch = batch;
			assert_int_equal(nmt_translate_batch(s, &o, SOME, NULL, N_SOME, &r, &err), NMT_OK);
			assert_same_result(want, r);
			nmt_result_free(r);
			assert_int_equal(nmt_translate(s, &o, SOME[0], &r, &err), NMT_OK);
			assert_string_equal(nmt_result_text(r, 0, 0), nmt_result_text(want, 0, 0));
			nmt_result_free(r);
		}
	nmt_session_free(s);
	nmt_result_free(want);
}

/* One model, one session per thread, all at once. */
typedef struct {
	const nmt_model *model;
	const nmt_result *want;
	int ok;
} thread_job;

static void *translate_in_thread(void *p)
{
	thread_job *j = p;
	nmt_options o;
	nmt_options_init(&o);
	o.nbest = 3;
	nmt_session *s;
	j->ok = nmt_session_new(j->model, &s, NULL) == NMT_OK;
	for (int round = 0; j->ok && round < 3; round++) {
		nmt_result *r;
		j->ok = nmt_translate_batch(s, &o, SOME, NULL, N_SOME, &r, NULL) == NMT_OK;
		for (int i = 0; j->ok && i < N_SOME; i++)
			for (int k = 0; k < nmt_result_nbest(j->want, i); k++)
				j->ok &= strcmp(nmt_result_text(r, i, k), nmt_result_text(j->want, i, k)) == 0;
		nmt_result_free(r);
	}
	nmt_session_free(s);
	return NULL;
}

static void test_sessions_on_threads_share_a_model(void **state)
{
	fixture *f = *state;
	if (MAX_TEST_THREADS == 1) {
		printf("threads skipped: pthread_create does not return under qemu-user\n");
		skip();
	}
	nmt_options o;
	nmt_options_init(&o);
	o.nbest = 3;
	nmt_result *want = translate_some(f->model, &o);
	pthread_t tid[4];
	thread_job job[4];
	for (int t = 0; t < 4; t++) {
		job[t] = (thread_job){ f->model, want, 0 };
		assert_int_equal(pthread_create(&tid[t], NULL, translate_in_thread, &job[t]), 0);
	}
	for (int t = 0; t < 4; t++) {
		pthread_join(tid[t], NULL);
		assert_true(job[t].ok);
	}
	nmt_result_free(want);
}

/* A device the build or the machine lacks is a clear error, and the
 * session still translates on the CPU afterwards; an unknown device is an
 * invalid argument. */
static void test_devices(void **state)
{
	fixture *f = *state;
	nmt_session *s;
	nmt_result *r;
	nmt_error err;
	nmt_options o;
	nmt_options_init(&o);
	assert_int_equal(o.device, NMT_DEVICE_CPU);
	assert_int_equal(nmt_session_new(f->model, &s, &err), NMT_OK);
	o.device = NMT_DEVICE_CUDA;
	nmt_status rc = nmt_translate(s, &o, "A dog.", &r, &err);
	if (rc == NMT_OK) {   /* a CUDA build on a machine with a GPU */
		nmt_result_free(r);
	} else {
		assert_int_equal(rc, NMT_ERR_UNSUPPORTED);
		assert_null(r);
		assert_non_null(strstr(err.message, "CUDA"));
	}
	o.device = 7;
	assert_int_equal(nmt_translate(s, &o, "A dog.", &r, &err), NMT_ERR_ARGUMENT);
	assert_non_null(strstr(err.message, "device"));
	o.device = NMT_DEVICE_CPU;
	assert_int_equal(nmt_translate(s, &o, "A dog.", &r, &err), NMT_OK);
	nmt_result_free(r);
	nmt_session_free(s);
}

/* A newline inside a text is read as a space: the text is one line. */
static void test_newline_inside_text(void **state)
{
	fixture *f = *state;
	nmt_session *s;
	nmt_result *a, *b;
	nmt_options o;
	nmt_options_init(&o);
	assert_int_equal(nmt_session_new(f->model, &s, NULL), NMT_OK);
	assert_int_equal(nmt_translate(s, &o, "Two men\nare talking.", &a, NULL), NMT_OK);
	assert_int_equal(nmt_translate(s, &o, "Two men are talking.", &b, NULL), NMT_OK);
	assert_same_result(a, b);
	nmt_result_free(a);
	nmt_result_free(b);
	nmt_session_free(s);
}

static int words_in(const char *text)
{
	int n = 0;
	for (const char *p = text; *p; p++)
		n += *p != ' ' && (p == text || p[-1] == ' ');
	return n;
}

/* Every translation has its words' log-probabilities (their sum at least
 * the translation's, which adds the end of sentence); with the alignment
 * option, one pair "S-T" per target word, every S a word of the source
 * text and every T a word of the translation, in order of S then T; and
 * nothing else changes. */
static void test_words_and_alignments(void **state)
{
	fixture *f = *state;
	nmt_session *s;
	nmt_result *plain, *aligned;
	nmt_options o;
	const char *texts[MAX_SENT + 1];
	for (int i = 0; i < f->n; i++)
		texts[i] = f->text[i];
	texts[f->n] = "A dog runs. Two  men talk!";   /* two sentences, a double space */
	int n = f->n + 1;

	nmt_options_init(&o);
	o.beam = 4;
	o.nbest = 3;
	assert_int_equal(nmt_session_new(f->model, &s, NULL), NMT_OK);
	assert_int_equal(nmt_translate_batch(s, &o, texts, NULL, n, &plain, NULL), NMT_OK);
	o.alignment = 1;
	assert_int_equal(nmt_translate_batch(s, &o, texts, NULL, n, &aligned, NULL), NMT_OK);
	for (int i = 0; i < n; i++) {
		assert_int_equal(nmt_result_nbest(plain, i), nmt_result_nbest(aligned, i));
		for (int k = 0; k < nmt_result_nbest(plain, i); k++) {
			const nmt_translation *p = nmt_result_get(plain, i, k), *a = nmt_result_get(aligned, i, k);
			assert_string_equal(p->text, a->text);
			assert_null(p->alignment);
			assert_non_null(a->alignment);
			assert_int_equal(p->n_words, words_in(p->text));
			assert_int_equal(a->n_words, p->n_words);
			float sum = 0;
			for (int w = 0; w < p->n_words; w++) {
				assert_true(p->word_logprob[w] <= 0);
				assert_true(p->word_logprob[w] == a->word_logprob[w]);
				sum += p->word_logprob[w];
			}
			assert_true(sum >= p->logprob - 1e-3f);
			int pairs = 0, last_s = -1, last_t = -1, src, tgt, used;
			for (const char *q = a->alignment; sscanf(q, "%d-%d%n", &src, &tgt, &used) == 2; q += used, pairs++) {
				assert_true(src >= 0 && src < words_in(texts[i]) && tgt >= 0 && tgt < a->n_words);
				assert_true(src > last_s || (src == last_s && tgt > last_t));
				last_s = src;
				last_t = tgt;
			}
			assert_int_equal(pairs, a->n_words);
		}
	}
	nmt_result_free(plain);
	nmt_result_free(aligned);
	nmt_session_free(s);
}

/* nmt_detect over the embedded profile: known sentences among given
 * candidates, best first with confidences summing to 1; "und" (no guess)
 * for a text without letters; unknown candidates and NULLs refused. */
static void test_detect(void **state)
{
	(void)state;
	nmt_detection d[8];
	nmt_error err;
	int n = -1;
	const char *ende[] = { "en", "de" }, *bad[] = { "en", "xx-not-a-code" };
	const char *de = "Ein Hund rennt am Strand entlang.";
	nmt_status rc = nmt_detect(de, strlen(de), ende, 2, d, 8, &n, &err);
	if (rc == NMT_ERR_UNSUPPORTED) {
		skip();   /* a build without a profile (LANGID_PROFILE=) */
	}
	assert_int_equal(rc, NMT_OK);
	assert_int_equal(n, 2);
	assert_string_equal(d[0].language, "de");
	assert_string_equal(d[1].language, "en");
	assert_true(d[0].confidence >= d[1].confidence);
	assert_true(d[0].confidence + d[1].confidence > 0.999 && d[0].confidence + d[1].confidence < 1.001);
	/* every language of the profile, but only as many as asked for */
	const char *en = "A dog runs along the beach.";
	assert_int_equal(nmt_detect(en, strlen(en), NULL, 0, d, 1, &n, &err), NMT_OK);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].language, "en");
	assert_int_equal(nmt_detect("123 !?", 6, ende, 2, d, 8, &n, &err), NMT_OK);
	assert_int_equal(n, 0);
	assert_int_equal(nmt_detect(en, strlen(en), bad, 2, d, 8, &n, &err), NMT_ERR_ARGUMENT);
	assert_non_null(strstr(err.message, "xx-not-a-code"));
	assert_int_equal(nmt_detect(en, strlen(en), ende, 2, d, 8, NULL, &err), NMT_ERR_ARGUMENT);
	assert_int_equal(nmt_detect(NULL, 3, ende, 2, d, 8, &n, NULL), NMT_ERR_ARGUMENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_status_strings),
		cmocka_unit_test(test_open_buffer_any_alignment),
		cmocka_unit_test(test_model_info),
		cmocka_unit_test(test_open_metadata_only),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_matches_reference),
		cmocka_unit_test(test_result_access),
		cmocka_unit_test(test_batch_and_threads_change_nothing),
		cmocka_unit_test(test_sessions_on_threads_share_a_model),
		cmocka_unit_test(test_newline_inside_text),
		cmocka_unit_test(test_words_and_alignments),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_detect),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
