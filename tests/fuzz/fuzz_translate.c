/* A whole translation with the tiny fixture model and its small vocabulary
 * map (build/tiny_vmap_small.nmt, made by `make test`): any bytes as lines,
 * with options from the first two bytes (the first's high bits: sentence
 * splitting, protected spans, the repetition guard and the capitals rule).
 * Every line must be emitted exactly once,
 * in order, with 1..nbest NUL-terminated translations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model.h"
#include "../../engine/translator.h"
#include "fuzz.h"

#define MODEL_PATH "build/tiny_vmap_small.nmt"
#define MAX_LINES 16

static nmt_model *model;
static engine_translator *translator;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char err[256];
	if (engine_load_file(MODEL_PATH, 1, &model, err, sizeof err) != 0 ||
	    !(translator = engine_translator_new(model))) {
		fprintf(stderr, "fuzz_translate: %s (make test builds it; run from the repository root)\n", err);
		exit(1);
	}
	return 0;
}

typedef struct {
	int next, nbest;
} emitted;

static int check_line(void *ctx, int i, const nmt_translation *tr, int n)
{
	emitted *e = ctx;
	FUZZ_ASSERT(i == e->next);
	FUZZ_ASSERT(n >= 1 && n <= e->nbest);
	for (int k = 0; k < n; k++)
		FUZZ_ASSERT(tr[k].text && tr[k].text[tr[k].len] == '\0');
	e->next++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	engine_search_options o = { .beam = 1 + data[0] % 4, .alpha = (data[1] >> 4) / 8.0,
				 .use_shortlist = data[1] & 1, .max_len = (data[1] >> 1 & 7) * 5 };
	o.nbest = 1 + (data[0] >> 2) % o.beam;
	o.split = data[0] >> 4 & 1;
	o.protect = data[0] >> 5 & 1;
	o.guard = data[0] >> 6 & 1;
	o.case_fold = data[0] >> 7 & 1;
	const char *lines[MAX_LINES];
	size_t lens[MAX_LINES];
	int n = 0;
	const char *text = (const char *)data + 2, *end = (const char *)data + size;
	while (text < end && n < MAX_LINES) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		const char *stop = nl ? nl : end;
		lines[n] = text;
		lens[n++] = (size_t)(stop - text);
		text = nl ? nl + 1 : end;
	}
	emitted e = { 0, o.nbest };
	char err[256];
	FUZZ_ASSERT(engine_translator_batch(translator, &o, lines, lens, n, check_line, &e, err, sizeof err) == 0);
	FUZZ_ASSERT(e.next == n);
	return 0;
}
