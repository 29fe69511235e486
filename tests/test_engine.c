/* Parity of the C engine with the PyTorch reference (train/model.py,
 * train/search.py) on the tiny fixture model: logits within 1e-4, greedy and
 * beam-4 n-best outputs identical, scores within 1e-3, and the whole
 * text-to-text path. The fixture is tests/fixtures/tiny/expected.txt
 * (train/make_fixture.py); build/tiny.nmt is packed from it by `make test`. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../engine/topk.h"
#include "../engine/translator.h"
#include "../family/ssru/ssru.h"
#include "../quant/vecmath.h"

#define MODEL_PATH "build/tiny.nmt"
#define EXPECTED_PATH "tests/fixtures/tiny/expected.txt"
#define MAX_SENT 16
#define MAX_TOK 256
#define ALPHA 0.6   /* train/make_fixture.py ALPHA */

typedef struct {
	int32_t ids[MAX_TOK];
	int len;
	float logprob, score;
	char text[1024];
} expected_hyp;

typedef struct {
	char text[512];
	int32_t src[MAX_TOK];
	int src_len;
	expected_hyp greedy;
	expected_hyp beam4[4];
	int n_beam4;
	expected_hyp beam8[8];
	int n_beam8;
} expected_sentence;

typedef struct {
	nmt_model *model;
	expected_sentence sent[MAX_SENT];
	int n_sent;
} fixture;

static int parse_ids(char *s, int32_t *ids)
{
	int n = 0;
	for (char *tok = strtok(s, " "); tok && n < MAX_TOK; tok = strtok(NULL, " "))
		ids[n++] = (int32_t)atoi(tok);
	return n;
}

static expected_hyp *hyp_slot(expected_sentence *e, int beam, int rank)
{
	if (beam == 1)
		return &e->greedy;
	if (beam == 8) {
		if (rank + 1 > e->n_beam8)
			e->n_beam8 = rank + 1;
		return &e->beam8[rank];
	}
	if (rank + 1 > e->n_beam4)
		e->n_beam4 = rank + 1;
	return &e->beam4[rank];
}

/* Fields are TAB-separated: kind, sentence, then kind-specific fields. */
static void parse_line(fixture *f, char *line)
{
	char *field[8] = { 0 };
	int n = 0;
	for (char *p = line; n < 8; n++) {
		field[n] = p;
		char *tab = strchr(p, '\t');
		if (!tab || n == 6) { n++; break; }
		*tab = '\0';
		p = tab + 1;
	}
	int i = atoi(field[1]);
	assert_true(i >= 0 && i < MAX_SENT);
	if (i + 1 > f->n_sent)
		f->n_sent = i + 1;
	expected_sentence *e = &f->sent[i];
	if (strcmp(field[0], "sent") == 0) {
		snprintf(e->text, sizeof e->text, "%s", field[2]);
	} else if (strcmp(field[0], "src") == 0) {
		e->src_len = parse_ids(field[2], e->src);
	} else if (strcmp(field[0], "hyp") == 0) {
		expected_hyp *h = hyp_slot(e, atoi(field[2]), atoi(field[3]));
		h->logprob = strtof(field[4], NULL);
		h->score = strtof(field[5], NULL);
		h->len = field[6] ? parse_ids(field[6], h->ids) : 0;
	} else if (strcmp(field[0], "text") == 0) {
		expected_hyp *h = hyp_slot(e, atoi(field[2]), atoi(field[3]));
		snprintf(h->text, sizeof h->text, "%s", field[4] ? field[4] : "");
	}
}

static int setup(void **state)
{
	static fixture f;
	char err[256], *line = NULL;
	size_t cap = 0;
	ssize_t len;

	memset(&f, 0, sizeof f);
	if (engine_load_file(MODEL_PATH, 1, &f.model, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	FILE *in = fopen(EXPECTED_PATH, "r");
	if (!in)
		return -1;
	while ((len = getline(&line, &cap, in)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (strncmp(line, "logits\t", 7) != 0)
			parse_line(&f, line);
	}
	free(line);
	fclose(in);
	*state = &f;
	return f.n_sent > 0 ? 0 : -1;
}

static int teardown(void **state)
{
	fixture *f = *state;
	engine_unload(f->model);
	return 0;
}

/* Set up a batch of sentences first..first+n-1 of the fixture and encode it. */
static void prepare(engine_state *s, const fixture *f, int first, int n, const engine_search_options *o)
{
	const int32_t *src[MAX_SENT];
	int len[MAX_SENT];
	for (int i = 0; i < n; i++) {
		src[i] = f->sent[first + i].src;
		len[i] = f->sent[first + i].src_len;
	}
	assert_int_equal(engine_batch_prepare(s, n, src, len, o), 0);
	engine_encode(s, src);
}

/* Every "logits" record: feed the recorded previous token, compare all Vt logits. */
static void test_logits_match_reference(void **state)
{
	fixture *f = *state;
	engine_state s;
	FILE *in = fopen(EXPECTED_PATH, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int V = f->model->d.tgt_vocab, checked = 0;
	double worst = 0.0;

	assert_non_null(in);
	assert_int_equal(engine_state_init(&s, f->model), 0);
	while ((len = getline(&line, &cap, in)) > 0) {
		if (strncmp(line, "logits\t", 7) != 0)
			continue;
		char *p = line + 7, *end;
		int i = (int)strtol(p, &end, 10);
		int step = (int)strtol(end, &end, 10);
		int32_t prev = (int32_t)strtol(end, &end, 10);
		if (step == 0) {
			engine_search_options o = { .beam = 1, .nbest = 1, .alpha = ALPHA };
			prepare(&s, f, i, 1, &o);
			memcpy(s.gru.dec.h, s.gru.enc.h0, (size_t)f->model->gru.dims.dec_hidden * sizeof(float));
		} else {
			memcpy(s.gru.dec.h, s.gru.dec.h_next, (size_t)f->model->gru.dims.dec_hidden * sizeof(float));
		}
		s.row_sent[0] = 0;
		s.row_prev[0] = prev;
		engine_decode_step(&s, 1);
		for (int v = 0; v < V; v++) {
			double want = strtod(end, &end);
			double diff = fabs(want - s.logits[v]);
			if (diff > worst)
				worst = diff;
		}
		checked++;
	}
	free(line);
	fclose(in);
	engine_state_free(&s);
	printf("logit parity: %d steps x %d logits, max |C - PyTorch| = %.3g\n", checked, V, worst);
	assert_true(checked >= 10);
	assert_true(worst <= 1e-4);
}

static void check_hyp(const expected_hyp *want, const engine_hypothesis *got)
{
	assert_int_equal(got->len, want->len);
	assert_memory_equal(got->ids, want->ids, (size_t)want->len * sizeof(int32_t));
	assert_true(fabsf(got->logprob - want->logprob) <= 1e-3f);
	assert_true(fabsf(got->score - want->score) <= 1e-3f);
}

/* Each sentence alone, then all of them as one batch, then in batches of
 * three: a sentence's result must not depend on its batch. */
static void run_search(fixture *f, int beam, int nbest, void (*check)(const expected_sentence *,
								      const engine_hypothesis *, int))
{
	engine_state s;
	engine_search_options o = { .beam = beam, .nbest = nbest, .alpha = ALPHA, .max_len = 0 };
	engine_hypothesis out[MAX_SENT * NMT_MAX_BEAM];
	int n[MAX_SENT];
	int batch_sizes[] = { 1, f->n_sent, 3 };

	assert_int_equal(engine_state_init(&s, f->model), 0);
	for (int b = 0; b < 3; b++)
		for (int first = 0; first < f->n_sent; first += batch_sizes[b]) {
			int count = f->n_sent - first < batch_sizes[b] ? f->n_sent - first : batch_sizes[b];
			prepare(&s, f, first, count, &o);
			engine_search(&s, &o, out, n);
			for (int i = 0; i < count; i++)
				check(&f->sent[first + i], out + i * nbest, n[i]);
		}
	engine_state_free(&s);
}

static void check_greedy(const expected_sentence *e, const engine_hypothesis *out, int n)
{
	assert_int_equal(n, 1);
	check_hyp(&e->greedy, &out[0]);
}

static void check_beam4(const expected_sentence *e, const engine_hypothesis *out, int n)
{
	assert_int_equal(n, e->n_beam4);
	for (int r = 0; r < n; r++)
		check_hyp(&e->beam4[r], &out[r]);
}

static void check_beam8(const expected_sentence *e, const engine_hypothesis *out, int n)
{
	assert_int_equal(n, e->n_beam8);
	for (int r = 0; r < n; r++)
		check_hyp(&e->beam8[r], &out[r]);
}

static void test_greedy_matches_reference(void **state)
{
	run_search(*state, 1, 1, check_greedy);
}

static void test_beam4_nbest_matches_reference(void **state)
{
	run_search(*state, 4, 4, check_beam4);
}

/* Wide beams finish hypotheses at many steps, which exercises the parent
 * links of rows that move up when a sibling ends. */
static void test_beam8_nbest_matches_reference(void **state)
{
	run_search(*state, 8, 8, check_beam8);
}

/* A scripted model behind the device interface (engine.h's engine_device_ops),
 * to drive the search's bookkeeping: a row's state is a hash of its
 * prefix, its logits a function of that hash, with EOS likelier as the
 * prefix grows, so that hypotheses end at many different steps. */
typedef struct {
	uint32_t hash[MAX_SENT * NMT_MAX_BEAM], next[MAX_SENT * NMT_MAX_BEAM];
	int step, vocab;
	float eos_rise;   /* EOS's logit grows by this much per step */
	float logits[MAX_TOK];
} scripted;

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v + 0x9E3779B9u + (h << 6) + (h >> 2);
	h *= 0x85EBCA6Bu;
	return h ^ (h >> 13);
}

static int scripted_step(void *dev, engine_state *s, int n)
{
	scripted *d = dev;
	int V = d->vocab, eos = s->m->d.eos_id;
	for (int i0 = 0, i1; i0 < n; i0 = i1) {
		int sent = s->row_sent[i0];
		engine_sentence *st = &s->sent[sent];
		int count = 0, k = s->beam - st->n_fin;
		for (i1 = i0; i1 < i0 + st->n_live; i1++) {
			for (int v = 0; v < V; v++)
				d->logits[v] = (float)(mix(d->hash[i1], (uint32_t)v) % 4000) / 500.0f;
			d->logits[d->hash[i1] % (uint32_t)V] += 6.0f;   /* a confident continuation */
			d->logits[eos] += d->eos_rise * (float)d->step;
			quant_vec_log_softmax(d->logits, V);
			for (int v = 0; v < V; v++)
				engine_topk_offer(s->cand + (size_t)sent * NMT_MAX_BEAM, &count, k,
					       st->live_score[i1 - i0] + d->logits[v], (i1 - i0) * s->m->d.tgt_vocab + v);
		}
		s->n_cand[sent] = count;
	}
	d->step++;
	return 0;
}

/* The next step's rows: each continues from carry_from's prefix with its
 * sentence's chosen token. */
static int scripted_carry(void *dev, engine_state *s, int n)
{
	scripted *d = dev;
	int j = 0;
	for (int i = 0; i < s->n_sents; i++)
		for (int k = 0; k < s->sent[i].n_live; k++, j++)
			d->next[j] = mix(d->hash[s->carry_from[j]], (uint32_t)s->sent[i].prev[k]);
	assert_int_equal(j, n);
	memcpy(d->hash, d->next, sizeof d->hash);
	return 0;
}

static const engine_device_ops scripted_ops = { "scripted", NULL, scripted_step, scripted_carry, NULL, NULL };

/* The scripted search of the fixture's sentences (seed varies the model):
 * the n-best lists into out/n, the decoder rows run returned. */
static long scripted_search(fixture *f, uint32_t seed, double alpha, int beam, int nbest, engine_hypothesis *out,
			    int *n, engine_state *s)
{
	static scripted d;
	engine_search_options o = { .beam = beam, .nbest = nbest, .alpha = alpha, .max_len = 0 };
	memset(&d, 0, sizeof d);
	d.eos_rise = (float)(seed % 4) * 0.15f;
	d.vocab = s->m->d.tgt_vocab < 12 ? s->m->d.tgt_vocab : 12;
	for (int i = 0; i < MAX_SENT * NMT_MAX_BEAM; i++)
		d.hash[i] = mix(seed, (uint32_t)i);
	prepare(s, f, 0, f->n_sent, &o);
	s->dev_ops = &scripted_ops;
	s->dev = &d;
	s->rows_decoded = 0;
	assert_int_equal(engine_search(s, &o, out, n), 0);
	s->dev_ops = NULL;
	s->dev = NULL;
	return s->rows_decoded;
}

/* Fewer than `beam` best asked for: the search stops a sentence once no
 * live hypothesis can end among them (search.c's decided). The n best are
 * still the first n of the full search's list (n = beam, where nothing can
 * stop early), ids, log-probabilities and scores alike, and the early stop
 * happens: fewer decoder rows. */
static void test_fewer_best_stop_early(void **state)
{
	fixture *f = *state;
	engine_state s;
	static engine_hypothesis full[MAX_SENT * NMT_MAX_BEAM], part[MAX_SENT * NMT_MAX_BEAM];
	static int32_t full_ids[MAX_SENT * NMT_MAX_BEAM][MAX_TOK];
	int n_full[MAX_SENT], n_part[MAX_SENT];
	long rows_full = 0, rows_part = 0;

	assert_int_equal(engine_state_init(&s, f->model), 0);
	for (uint32_t seed = 1; seed <= 24; seed++)
		for (int beam = 2; beam <= NMT_MAX_BEAM; beam += 2) {
			double alpha = (double)(seed % 3);   /* 0, 1, 2: long hypotheses from neutral to favoured */
			long rf = scripted_search(f, seed, alpha, beam, beam, full, n_full, &s);
			for (int i = 0; i < f->n_sent * beam; i++)   /* the ids live in the state */
				if (i % beam < n_full[i / beam])
					memcpy(full_ids[i], full[i].ids, (size_t)full[i].len * sizeof(int32_t));
			for (int nbest = 1; nbest < beam; nbest++) {
				long rp = scripted_search(f, seed, alpha, beam, nbest, part, n_part, &s);
				for (int i = 0; i < f->n_sent; i++) {
					assert_int_equal(n_part[i], n_full[i] < nbest ? n_full[i] : nbest);
					for (int r = 0; r < n_part[i]; r++) {
						const engine_hypothesis *a = &full[i * beam + r], *b = &part[i * nbest + r];
						assert_int_equal(a->len, b->len);
						assert_memory_equal(full_ids[i * beam + r], b->ids, (size_t)a->len * sizeof(int32_t));
						assert_true(a->logprob == b->logprob && a->score == b->score);
					}
				}
				assert_true(rp <= rf);
				rows_full += rf;
				rows_part += rp;
			}
		}
	print_message("scripted searches: %ld decoder rows with n-best = beam, %ld with fewer best\n", rows_full,
		      rows_part);
	assert_true(rows_part < rows_full);
	engine_state_free(&s);
}

/* Text in, text out: tokenizer, engine and detokenizer together. */
static void test_translate_text_matches_reference(void **state)
{
	fixture *f = *state;
	engine_translator *t = engine_translator_new(f->model);
	nmt_translation tr[NMT_MAX_BEAM];
	char err[128];
	int n;

	assert_non_null(t);
	for (int i = 0; i < f->n_sent; i++) {
		const expected_sentence *e = &f->sent[i];
		engine_search_options greedy = { .beam = 1, .nbest = 1, .alpha = ALPHA };
		assert_int_equal(engine_translator_line(t, &greedy, e->text, strlen(e->text), tr, &n, err, sizeof err), 0);
		assert_string_equal(tr[0].text, e->greedy.text);
		engine_search_options beam = { .beam = 4, .nbest = 4, .alpha = ALPHA };
		assert_int_equal(engine_translator_line(t, &beam, e->text, strlen(e->text), tr, &n, err, sizeof err), 0);
		assert_int_equal(n, e->n_beam4);
		for (int r = 0; r < n; r++)
			assert_string_equal(tr[r].text, e->beam4[r].text);
	}
	engine_translator_free(t);
}

/* The repetition guard (guard.h) on the random model, which loops often:
 * the guarded search never breaks a rule, and the translator changes
 * exactly the translations that did (searching those again with it). */
static void test_repeat_guard(void **state)
{
	fixture *f = *state;
	engine_translator *t = engine_translator_new(f->model);
	nmt_translation tr[NMT_MAX_BEAM];
	engine_state s;
	engine_hypothesis out[MAX_SENT * NMT_MAX_BEAM];
	int n[MAX_SENT], changed = 0, kept = 0;
	char err[128];

	assert_non_null(t);
	assert_int_equal(engine_state_init(&s, f->model), 0);
	for (int beam = 1; beam <= 4; beam += 3) {
		engine_search_options o = { .beam = beam, .nbest = beam, .alpha = ALPHA, .guard = 1 };
		prepare(&s, f, 0, f->n_sent, &o);
		engine_search(&s, &o, out, n);
		for (int i = 0; i < f->n_sent; i++) {
			const expected_sentence *e = &f->sent[i];
			text_guard_limits lim;
			text_guard_limits_of(f->model->src_vocab, f->model->src_cases, e->src, e->src_len - 1, &lim);
			for (int k = 0; k < n[i]; k++) {
				const engine_hypothesis *h = &out[i * beam + k];
				assert_false(text_guard_violated(f->model->tgt_vocab, f->model->tgt_cases, &lim, h->ids, h->len));
			}
			/* the translator: the reference's n-best unless one of them loops */
			int loops = 0, n_ref = beam == 1 ? 1 : e->n_beam4;
			for (int k = 0; k < n_ref; k++) {
				const expected_hyp *r = beam == 1 ? &e->greedy : &e->beam4[k];
				loops |= text_guard_violated(f->model->tgt_vocab, f->model->tgt_cases, &lim, r->ids, r->len);
			}
			int got;
			assert_int_equal(engine_translator_line(t, &o, e->text, strlen(e->text), tr, &got, err, sizeof err), 0);
			const char *best = beam == 1 ? e->greedy.text : e->beam4[0].text;
			if (loops)
				changed += strcmp(tr[0].text, best) != 0;
			else {
				assert_string_equal(tr[0].text, best);
				kept++;
			}
		}
	}
	print_message("repetition guard: %d looping best translations changed, %d others kept\n", changed, kept);
	assert_true(changed > 0);
	engine_state_free(&s);
	engine_translator_free(t);
}

/* The search's own contract, beyond the fixture: n-best sorted by score,
 * max_len honoured, an empty line gives an empty translation. */
static void test_search_contract(void **state)
{
	fixture *f = *state;
	engine_translator *t = engine_translator_new(f->model);
	nmt_translation tr[NMT_MAX_BEAM];
	char err[128];
	int n;

	assert_non_null(t);
	for (int beam = 1; beam <= NMT_MAX_BEAM; beam++) {
		engine_search_options o = { .beam = beam, .nbest = beam, .alpha = ALPHA, .max_len = 3 };
		const char *line = f->sent[1].text;
		assert_int_equal(engine_translator_line(t, &o, line, strlen(line), tr, &n, err, sizeof err), 0);
		assert_true(n >= 1 && n <= beam);
		for (int r = 1; r < n; r++)
			assert_true(tr[r - 1].score >= tr[r].score);
	}
	engine_search_options o = { .beam = 4, .nbest = 1, .alpha = ALPHA };
	assert_int_equal(engine_translator_line(t, &o, "", 0, tr, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(tr[0].text, "");
	engine_search_options bad = { .beam = 9, .nbest = 1, .alpha = ALPHA };
	assert_int_equal(engine_translator_line(t, &bad, "a", 1, tr, &n, err, sizeof err), -1);
	engine_translator_free(t);
}

/* max_len bounds the number of target tokens. */
static void test_max_len_bounds_output(void **state)
{
	fixture *f = *state;
	engine_state s;
	engine_hypothesis out[NMT_MAX_BEAM];
	int n;

	assert_int_equal(engine_state_init(&s, f->model), 0);
	for (int max_len = 1; max_len <= 5; max_len++) {
		engine_search_options o = { .beam = 4, .nbest = 4, .alpha = ALPHA, .max_len = max_len };
		prepare(&s, f, 3, 1, &o);
		engine_search(&s, &o, out, &n);
		for (int r = 0; r < n; r++)
			assert_true(out[r].len <= max_len);
	}
	assert_int_equal(engine_default_max_len(1), 12); /* ceil(1.5 + 10) */
	assert_int_equal(engine_default_max_len(10), 25);
	engine_state_free(&s);
}

/* A shortlist holding the whole vocabulary must change nothing: same texts
 * as the reference through the gathered output layer. */
static void test_full_shortlist_changes_nothing(void **state)
{
	fixture *f = *state;
	nmt_model *m;
	char err[256];
	nmt_translation tr[NMT_MAX_BEAM];
	int n;

	assert_int_equal(engine_load_file("build/tiny_vmap_full.nmt", 1, &m, err, sizeof err), 0);
	assert_true(m->has_vmap);
	engine_translator *t = engine_translator_new(m);
	assert_non_null(t);
	for (int i = 0; i < f->n_sent; i++) {
		const expected_sentence *e = &f->sent[i];
		engine_search_options o = { .use_shortlist = 1, .beam = 4, .nbest = 4, .alpha = ALPHA };
		assert_int_equal(engine_translator_line(t, &o, e->text, strlen(e->text), tr, &n, err, sizeof err), 0);
		assert_int_equal(n, e->n_beam4);
		for (int r = 0; r < n; r++)
			assert_string_equal(tr[r].text, e->beam4[r].text);
	}
	engine_translator_free(t);
	engine_unload(m);
}

/* With the small map, the shortlist is exactly 0-grams + EOS + the targets of
 * the sentence's unigrams and bigrams, and every output token comes from it. */
static void test_small_shortlist_restricts_output(void **state)
{
	fixture *f = *state;
	nmt_model *m;
	engine_state s;
	char err[256];
	engine_hypothesis out[NMT_MAX_BEAM];
	int n;

	assert_int_equal(engine_load_file("build/tiny_vmap_small.nmt", 1, &m, err, sizeof err), 0);
	assert_int_equal(m->vmap.max_n, 2);
	assert_int_equal(engine_state_init(&s, m), 0);
	for (int i = 0; i < f->n_sent; i++) {
		const expected_sentence *e = &f->sent[i];
		int V = m->d.tgt_vocab, len = e->src_len - 1;
		uint8_t want[512] = { 0 };
		for (int k = 0; k < 20; k++)
			want[3 + 7 * k] = 1;
		want[m->d.eos_id] = 1;
		for (int j = 0; j < len; j++)
			for (int g = 1; g <= 2 && j + g <= len; g++) {
				int sum = 0;
				for (int q = j; q < j + g; q++)
					sum += e->src[q];
				for (int k = 0; k < 5; k++)
					want[(sum * 31 + 17 * k) % V] = 1;
			}
		engine_search_options o = { .use_shortlist = 1, .beam = 4, .nbest = 4, .alpha = ALPHA };
		const int32_t *src = e->src;
		assert_int_equal(engine_batch_prepare(&s, 1, &src, &e->src_len, &o), 0);
		const engine_sentence *st = &s.sent[0];
		int expect_len = 0;
		for (int id = 0; id < V; id++)
			expect_len += want[id];
		assert_int_equal(st->shortlist_len, expect_len);
		/* the model's shared ids (the 0-grams and EOS) first, then the
		 * sentence's own, each part in increasing id order, no id twice */
		assert_int_equal(s.sl.n_shared, m->n_shared);
		assert_int_equal(m->n_shared, 21);
		uint8_t seen[512] = { 0 };
		for (int k = 0; k < st->shortlist_len; k++) {
			int32_t id = st->shortlist[k];
			assert_true(want[id]);
			assert_false(seen[id]);
			seen[id] = 1;
			if (k < m->n_shared)
				assert_int_equal(id, m->shared_ids[k]);
			if (k != 0 && k != m->n_shared)
				assert_true(id > st->shortlist[k - 1]);
		}
		for (int id = 0; id < V; id++)
			assert_int_equal(s.sl.marks[id], 0);
		engine_encode(&s, &src);
		engine_search(&s, &o, out, &n);
		for (int r = 0; r < n; r++)
			for (int k = 0; k < out[r].len; k++)
				assert_true(want[out[r].ids[k]]);
	}
	engine_state_free(&s);
	engine_unload(m);
}

/* Greedy's shortcut picks what offering every value to a one-place k-best
 * list picks: logits a few ulps apart (ties, and values that the
 * log-softmax's subtractions round alike, where the lower position must
 * win though its logit is smaller), NaNs, infinities, any length. */
static void test_greedy_pick_equals_topk(void **state)
{
	(void)state;
	float x[700];
	unsigned seed = 12345;
	int rounded_alike = 0;
	for (int trial = 0; trial < 3000; trial++) {
		int V = 1 + trial % 700;
		float max = -INFINITY;
		for (int v = 0; v < V; v++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 16;
			x[v] = 7.0f;
			for (unsigned k = 0; k < r % 4; k++)
				x[v] = nextafterf(x[v], 8.0f);
			if (r % 5 == 0)
				x[v] -= 2.0f;
			if (r % 97 == 0)
				x[v] = NAN;
			if (r % 89 == 0)
				x[v] = -INFINITY;
			if (x[v] > max)
				max = x[v];
		}
		float log_sum = 0.25f * (float)(trial % 400), live = -0.37f * (float)(trial % 11);
		engine_candidate best[1];
		int count = 0;
		for (int v = 0; v < V; v++)
			engine_topk_offer(best, &count, 1, live + ((x[v] - max) - log_sum), v);
		int got = engine_topk_greedy(x, V, max, log_sum, live);
		if (!isfinite(max)) {
			assert_int_equal(got, -1);
			continue;
		}
		assert_int_equal(got, best[0].flat);
		rounded_alike += x[got] < max;
	}
	assert_true(rounded_alike > 100); /* the test reaches the subtle case */
}

/* The SSRU family's position table and the positions past it give what
 * the formula computed on the fly gives (x * sqrt(d), then + sin, + cos),
 * bit for bit, so a translation does not depend on the table. */
static void test_ssru_positions_match_formula(void **state)
{
	(void)state;
	enum { D = 256, HALF = D / 2 };
	ssru_weights w = { 0 };
	assert_int_equal(ssru_positions_build(&w, D), 0);
	assert_int_equal(w.pos_len, SSRU_POS_TABLE_FLOATS / D);
	float scale = sqrtf((float)D), inc = logf(10000.0f) / (float)(HALF - 1);
	for (int p = 0; p < w.pos_len + 40; p++) {
		float got[D], want[D];
		for (int k = 0; k < D; k++)
			got[k] = want[k] = (float)((k * 37 + p * 11) % 101) / 50.0f - 1.0f;
		ssru_scale_add_position(&w, got, D, scale, p);
		for (int k = 0; k < D; k++)
			want[k] *= scale;
		for (int i = 0; i < HALF; i++) {
			float v = (float)p * expf((float)i * -inc);
			want[i] += sinf(v);
			want[HALF + i] += cosf(v);
		}
		assert_memory_equal(got, want, sizeof got);
	}
	ssru_positions_free(&w);
	assert_null(w.pos_table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_logits_match_reference),
		cmocka_unit_test(test_greedy_matches_reference),
		cmocka_unit_test(test_beam4_nbest_matches_reference),
		cmocka_unit_test(test_beam8_nbest_matches_reference),
		cmocka_unit_test(test_fewer_best_stop_early),
		cmocka_unit_test(test_translate_text_matches_reference),
		cmocka_unit_test(test_search_contract),
		cmocka_unit_test(test_max_len_bounds_output),
		cmocka_unit_test(test_full_shortlist_changes_nothing),
		cmocka_unit_test(test_small_shortlist_restricts_output),
		cmocka_unit_test(test_greedy_pick_equals_topk),
		cmocka_unit_test(test_repeat_guard),
		cmocka_unit_test(test_ssru_positions_match_formula),
	};
	return cmocka_run_group_tests_name("engine", tests, setup, teardown);
}
