#include "translator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "grow.h"
#include "segment.h"

/* Segments of a long line decoded together (segment.h): with the pieces
 * per segment, this bounds the memory a line of any length needs. */
#define SEGMENTS_PER_PASS 8

struct nmt_translator {
	const nmt_model *m;
	nmt_state state;
	spm_scratch *src_scratch, *tgt_scratch;
	int32_t *ids;                      /* the batch's source ids, each line's + EOS, one after the other */
	size_t ids_cap;
	int lines_cap;
	size_t *ids_off;                   /* [lines_cap] where each line's ids start */
	int *src_len;                      /* [lines_cap] ids per line, EOS included */
	const int32_t **src;               /* [lines_cap] the non-empty lines' ids, in order */
	int *batch_len;                    /* [lines_cap] and their lengths */
	nmt_hypothesis *hyps;              /* [lines_cap * NMT_MAX_BEAM] */
	int *n_hyps;                       /* [lines_cap] */
	char *text[NMT_MAX_BEAM];          /* detokenized n-best outputs */
	size_t text_cap[NMT_MAX_BEAM];
	/* a long line's segments: their ids with EOS, and the joined outputs */
	int32_t seg_ids[SEGMENTS_PER_PASS][NMT_SEGMENT_PIECES + 1];
	char *joined[NMT_MAX_BEAM];
	size_t joined_len[NMT_MAX_BEAM], joined_cap[NMT_MAX_BEAM];
};

nmt_translator *nmt_translator_new(const nmt_model *m)
{
	nmt_translator *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->m = m;
	t->src_scratch = spm_scratch_new();
	t->tgt_scratch = spm_scratch_new();
	if (!t->src_scratch || !t->tgt_scratch || nmt_state_init(&t->state, m) != 0) {
		nmt_translator_free(t);
		return NULL;
	}
	return t;
}

int nmt_translator_new_on(const nmt_model *m, int device, nmt_translator **out, char *err, size_t errlen)
{
	nmt_translator *t = nmt_translator_new(m);

	*out = NULL;
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	if (device == NMT_DEVICE_CUDA) {
		int rc = nmt_cuda_open(m, &t->state.dev_ops, &t->state.dev, err, errlen);
		if (rc != 0) {
			nmt_translator_free(t);
			return rc;
		}
	}
	*out = t;
	return 0;
}

void nmt_translator_free(nmt_translator *t)
{
	if (!t)
		return;
	if (t->state.dev)
		nmt_cuda_close(t->state.dev);
	if (t->state.m)
		nmt_state_free(&t->state);
	spm_scratch_free(t->src_scratch);
	spm_scratch_free(t->tgt_scratch);
	free(t->ids);
	free(t->ids_off);
	free(t->src_len);
	free(t->src);
	free(t->batch_len);
	free(t->hyps);
	free(t->n_hyps);
	for (int i = 0; i < NMT_MAX_BEAM; i++) {
		free(t->text[i]);
		free(t->joined[i]);
	}
	free(t);
}

static int reserve_lines(nmt_translator *t, int n)
{
	if (n <= t->lines_cap)
		return 0;
	size_t N = (size_t)n;
	if (nmt_grow(&t->ids_off, N, sizeof *t->ids_off) | nmt_grow(&t->src_len, N, sizeof *t->src_len) |
	    nmt_grow(&t->src, N, sizeof *t->src) | nmt_grow(&t->batch_len, N, sizeof *t->batch_len) |
	    nmt_grow(&t->hyps, N * NMT_MAX_BEAM, sizeof *t->hyps) | nmt_grow(&t->n_hyps, N, sizeof *t->n_hyps))
		return -1;
	t->lines_cap = n;
	return 0;
}

static int set_text(nmt_translator *t, int rank, const char *text, size_t len)
{
	if (len + 1 > t->text_cap[rank]) {
		char *p = realloc(t->text[rank], len + 1);
		if (!p)
			return -1;
		t->text[rank] = p;
		t->text_cap[rank] = len + 1;
	}
	memcpy(t->text[rank], text, len);
	t->text[rank][len] = '\0';
	return 0;
}

/* Tokenize line i, appending its ids and the source EOS at *used. */
static int source_ids(nmt_translator *t, int i, const char *line, size_t len, size_t *used)
{
	const int32_t *ids;
	size_t n;

	if (spm_encode(t->m->src_vocab, t->src_scratch, line, len, &ids, &n) != 0 || n >= (size_t)1 << 24)
		return -1;
	if (*used + n + 1 > t->ids_cap) {
		size_t cap = *used + n + 1 > 2 * t->ids_cap ? *used + n + 1 : 2 * t->ids_cap;
		if (nmt_grow(&t->ids, cap, sizeof *t->ids) != 0)
			return -1;
		t->ids_cap = cap;
	}
	memcpy(t->ids + *used, ids, n * sizeof *ids);
	t->ids[*used + n] = t->m->d.src_eos_id;
	t->ids_off[i] = *used;
	t->src_len[i] = (int)n + 1;
	*used += n + 1;
	return 0;
}

/* Detokenize line i's hypotheses (none for an empty line) and emit them:
 * emit's value, or -1 and a message when memory runs out. */
static int emit_line(nmt_translator *t, const nmt_hypothesis *hyps, int n_hyps, int i, nmt_emit_fn emit,
		     void *ctx, char *err, size_t errlen)
{
	nmt_translation out[NMT_MAX_BEAM];

	if (n_hyps == 0) {   /* nothing but EOS: the empty line translates to the empty line */
		if (set_text(t, 0, "", 0) != 0)
			goto oom;
		out[0] = (nmt_translation){ .text = t->text[0], .len = 0, .logprob = 0, .score = 0 };
		return emit(ctx, i, out, 1);
	}
	for (int k = 0; k < n_hyps; k++) {
		const char *text;
		size_t len;
		if (spm_decode(t->m->tgt_vocab, t->tgt_scratch, hyps[k].ids, (size_t)hyps[k].len, &text, &len) != 0 ||
		    set_text(t, k, text, len) != 0)
			goto oom;
		out[k] = (nmt_translation){ .text = t->text[k], .len = len, .logprob = hyps[k].logprob,
					    .score = hyps[k].score };
	}
	return emit(ctx, i, out, n_hyps);
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Encode the prepared batch t->src and search it, here or on the device. */
static int run_model(nmt_translator *t, const nmt_search_options *o, char *err, size_t errlen)
{
	nmt_state *s = &t->state;
	if (!s->dev_ops) {
		nmt_encode(s, t->src);
		return nmt_search(s, o, t->hyps, t->n_hyps);
	}
	if (s->dev_ops->encode(s->dev, s, t->src) != 0 || nmt_search(s, o, t->hyps, t->n_hyps) != 0) {
		snprintf(err, errlen, "%s: %s", s->dev_ops->name, nmt_cuda_error(s->dev));
		return -1;
	}
	return 0;
}

/* Lines [first, last), none longer than a segment, decoded as one batch
 * and emitted in order. */
static int translate_run(nmt_translator *t, const nmt_search_options *o, int first, int last, nmt_emit_fn emit,
			 void *ctx, char *err, size_t errlen)
{
	int n_batch = 0;

	for (int i = first; i < last; i++)   /* the ids have stopped moving */
		if (t->src_len[i] > 1) {
			t->src[n_batch] = t->ids + t->ids_off[i];
			t->batch_len[n_batch++] = t->src_len[i];
		}
	if (n_batch > 0) {
		if (nmt_batch_prepare(&t->state, n_batch, t->src, t->batch_len, o) != 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (run_model(t, o, err, errlen) != 0)
			return -1;
	}
	for (int i = first, b = 0; i < last; i++) {
		int has_model_output = t->src_len[i] > 1;
		int rc = emit_line(t, has_model_output ? t->hyps + (size_t)b * o->nbest : NULL,
				   has_model_output ? t->n_hyps[b] : 0, i, emit, ctx, err, errlen);
		b += has_model_output;
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Append text to joined output k, after a space if both are non-empty. */
static int join(nmt_translator *t, int k, const char *text, size_t len)
{
	size_t sep = t->joined_len[k] > 0 && len > 0, need = t->joined_len[k] + sep + len + 1;
	if (need > t->joined_cap[k]) {
		size_t cap = need > 2 * t->joined_cap[k] ? need : 2 * t->joined_cap[k];
		char *p = realloc(t->joined[k], cap);
		if (!p)
			return -1;
		t->joined[k] = p;
		t->joined_cap[k] = cap;
	}
	if (sep)
		t->joined[k][t->joined_len[k]++] = ' ';
	memcpy(t->joined[k] + t->joined_len[k], text, len);
	t->joined_len[k] += len;
	t->joined[k][t->joined_len[k]] = '\0';
	return 0;
}

/* Decode the next pass of up to SEGMENTS_PER_PASS segments of ids[*pos..n)
 * and join their translations: rank k of the line is every segment's k-th
 * best (or its last, if it has fewer), with logprobs and scores added. */
static int translate_pass(nmt_translator *t, const nmt_search_options *o, const int32_t *ids, int n, int *pos,
			  float *logprob, float *score, int *n_out, char *err, size_t errlen)
{
	int n_seg = 0;
	while (n_seg < SEGMENTS_PER_PASS && *pos < n) {
		int len = nmt_segment_length(t->m->src_vocab, ids + *pos, n - *pos);
		memcpy(t->seg_ids[n_seg], ids + *pos, (size_t)len * sizeof *ids);
		t->seg_ids[n_seg][len] = t->m->d.src_eos_id;
		t->src[n_seg] = t->seg_ids[n_seg];
		t->batch_len[n_seg++] = len + 1;
		*pos += len;
	}
	if (nmt_batch_prepare(&t->state, n_seg, t->src, t->batch_len, o) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (run_model(t, o, err, errlen) != 0)
		return -1;
	for (int s = 0; s < n_seg; s++) {
		if (t->n_hyps[s] < 1)   /* (search always finishes one; never index before it) */
			continue;
		if (t->n_hyps[s] < *n_out)
			*n_out = t->n_hyps[s];
		for (int k = 0; k < o->nbest; k++) {
			const nmt_hypothesis *h = &t->hyps[(size_t)s * o->nbest + (k < t->n_hyps[s] ? k : t->n_hyps[s] - 1)];
			const char *text;
			size_t len;
			if (spm_decode(t->m->tgt_vocab, t->tgt_scratch, h->ids, (size_t)h->len, &text, &len) != 0 ||
			    join(t, k, text, len) != 0) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			logprob[k] += h->logprob;
			score[k] += h->score;
		}
	}
	return 0;
}

/* Line i, longer than one segment: translated segment by segment, a pass of
 * them at a time, then emitted as one line. */
static int translate_long(nmt_translator *t, const nmt_search_options *o, int i, nmt_emit_fn emit, void *ctx,
			  char *err, size_t errlen)
{
	const int32_t *ids = t->ids + t->ids_off[i];
	int n = t->src_len[i] - 1, pos = 0, n_out = o->nbest;
	float logprob[NMT_MAX_BEAM] = { 0 }, score[NMT_MAX_BEAM] = { 0 };
	nmt_translation out[NMT_MAX_BEAM];

	for (int k = 0; k < o->nbest; k++)
		t->joined_len[k] = 0;
	while (pos < n)
		if (translate_pass(t, o, ids, n, &pos, logprob, score, &n_out, err, errlen) != 0)
			return -1;
	for (int k = 0; k < n_out; k++)
		out[k] = (nmt_translation){ .text = t->joined[k], .len = t->joined_len[k], .logprob = logprob[k],
					    .score = score[k] };
	return emit(ctx, i, out, n_out);
}

int nmt_translator_batch(nmt_translator *t, const nmt_search_options *o, const char *const *lines,
			const size_t *lens, int n, nmt_emit_fn emit, void *ctx, char *err, size_t errlen)
{
	size_t used = 0;

	if (o->beam < 1 || o->beam > NMT_MAX_BEAM || o->nbest < 1 || o->nbest > o->beam) {
		snprintf(err, errlen, "beam must be 1..%d and nbest 1..beam", NMT_MAX_BEAM);
		return -1;
	}
	if (reserve_lines(t, n > SEGMENTS_PER_PASS ? n : SEGMENTS_PER_PASS) != 0)
		goto oom;
	for (int i = 0; i < n; i++)
		if (source_ids(t, i, lines[i], lens[i], &used) != 0)
			goto oom;
	/* runs of ordinary lines as batches, each long line on its own */
	for (int i = 0; i < n;) {
		int rc, j = i;
		if (t->src_len[i] - 1 > NMT_SEGMENT_PIECES) {
			rc = translate_long(t, o, i, emit, ctx, err, errlen);
			j = i + 1;
		} else {
			while (j < n && t->src_len[j] - 1 <= NMT_SEGMENT_PIECES)
				j++;
			rc = translate_run(t, o, i, j, emit, ctx, err, errlen);
		}
		if (rc != 0)
			return rc;
		i = j;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

typedef struct {
	nmt_translation *out;
	int *n_out;
} single_line;

static int copy_single(void *ctx, int i, const nmt_translation *tr, int n)
{
	single_line *s = ctx;
	(void)i;
	memcpy(s->out, tr, (size_t)n * sizeof *tr);
	*s->n_out = n;
	return 0;
}

int nmt_translator_line(nmt_translator *t, const nmt_search_options *o, const char *line, size_t len,
		  nmt_translation *out, int *n_out, char *err, size_t errlen)
{
	single_line s = { out, n_out };
	*n_out = 0;
	return nmt_translator_batch(t, o, &line, &len, 1, copy_single, &s, err, errlen);
}
