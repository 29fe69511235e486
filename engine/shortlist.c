/* The batch's shortlists (engine.h's engine_shortlist_state): each sentence's
 * output vocabulary from the vocabulary map (vmap.h), and for q8/q4 its
 * own rows of the output layer gathered once for the whole batch. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "../format/grow.h"

/* Grow array p to n elements; a failure sets the caller's `failed`. */
#define GROW(p, n) (failed |= format_grow(&(p), (n), sizeof *(p)))

int engine_shortlist_init(engine_shortlist_state *sl, const nmt_model *m)
{
	memset(sl, 0, sizeof *sl);
	sl->marks = calloc((size_t)m->d.tgt_vocab, 1);
	return sl->marks ? 0 : -1;
}

void engine_shortlist_free(engine_shortlist_state *sl)
{
	free(sl->ids);
	free(sl->marks);
	free(sl->gathered);
	free(sl->gathered_f);
	memset(sl, 0, sizeof *sl);
}

/* Remove the sorted ids `shared` (all of which it holds) from the sorted
 * list ids[0..n), in place; returns how many are left. */
static int remove_shared(int32_t *ids, int n, const int32_t *shared, int n_shared)
{
	int k = 0, j = 0;
	for (int i = 0; i < n; i++) {
		if (j < n_shared && ids[i] == shared[j])
			j++;
		else
			ids[k++] = ids[i];
	}
	return k;
}

static int in_sorted(const int32_t *ids, int n, int32_t id)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;   /* where id is, or would go */
}

/* The model's padding (model.h, shortlist_pad) of a list of n ids whose
 * first Z are the shared ones: the smallest missing ids from pad_from on
 * go into the sentence's own part, in order. Returns the new length. */
static int pad_shortlist(const nmt_model *m, int32_t *list, int Z, int n)
{
	int32_t *own = list + Z;
	int n_own = n - Z;
	for (int32_t id = m->shortlist_pad_from; m->shortlist_pad > 1 && n % m->shortlist_pad != 0 && id < m->d.tgt_vocab;
	     id++) {
		int at_shared = in_sorted(list, Z, id), at = in_sorted(own, n_own, id);
		if ((at_shared < Z && list[at_shared] == id) || (at < n_own && own[at] == id))
			continue;
		memmove(own + at + 1, own + at, (size_t)(n_own - at) * sizeof *own);
		own[at] = id;
		n_own++;
		n++;
	}
	return n;
}

/* Sentence i's shortlist into out (room for n_shared + Vt ids): the shared
 * ids, then its own in id order, the whole list in id order when
 * n_shared == 0. Returns its length. */
static int build_shortlist(engine_state *s, const int32_t *src, int i, int32_t *out)
{
	const nmt_model *m = s->m;
	int Z = s->sl.n_shared;
	int n = engine_vmap_shortlist(&m->vmap, src, s->sent[i].src_len - 1, m->d.eos_id, m->d.tgt_vocab,
				   s->sl.marks, out + Z);
	if (Z == 0)
		return pad_shortlist(m, out, 0, n);
	memcpy(out, m->shared_ids, (size_t)Z * sizeof *out);
	return pad_shortlist(m, out, Z, Z + remove_shared(out + Z, n, m->shared_ids, Z));
}

#ifndef NDEBUG
/* Whether a shortlist holds only target ids, its shared part and its own
 * each in increasing order (what the search's tie rule relies on). */
static int in_order(const int32_t *ids, int n_shared, int n, int vocab)
{
	for (int k = 0; k < n; k++)
		if (ids[k] < 0 || ids[k] >= vocab || (k > 0 && k != n_shared && ids[k] <= ids[k - 1]))
			return 0;
	return 1;
}
#endif

/* Build every sentence's shortlist into s->sl.ids, one after the
 * other; 0 on success. */
static int build_shortlists(engine_state *s, const int32_t *const *src)
{
	int failed = 0;
	const nmt_model *m = s->m;
	size_t used = 0;

	for (int i = 0; i < s->n_sents; i++) {
		if (used + (size_t)s->sl.n_shared + (size_t)m->d.tgt_vocab > s->sl.cap_ids) {
			size_t cap = used + (size_t)s->sl.n_shared + (size_t)m->d.tgt_vocab;
			if (cap < 2 * s->sl.cap_ids)
				cap = 2 * s->sl.cap_ids;
			GROW(s->sl.ids, cap);
			if (failed)
				return -1;
			s->sl.cap_ids = cap;
		}
		engine_sentence *st = &s->sent[i];
		st->shortlist_len = build_shortlist(s, src[i], i, s->sl.ids + used);
		assert(in_order(s->sl.ids + used, s->sl.n_shared, st->shortlist_len, m->d.tgt_vocab));
		used += (size_t)st->shortlist_len;
	}
	used = 0;   /* the array has stopped moving: point into it */
	for (int i = 0; i < s->n_sents; i++) {
		s->sent[i].shortlist = s->sl.ids + used;
		used += (size_t)s->sent[i].shortlist_len;
	}
	return 0;
}

/* Gather each shortlist's own rows (past the shared ones, which the model
 * holds gathered) of the (q8/q4) output layer and their biases, once for
 * the whole batch; 0 on success. */
static int gather_output_rows(engine_state *s)
{
	int failed = 0;
	const nmt_model *m = s->m;
	size_t bytes = 0, floats = 0;

	for (int i = 0; i < s->n_sents; i++) {
		bytes += quant_matrix_gather_bytes(&m->tgt_emb, s->sent[i].shortlist_len - s->sl.n_shared);
		floats += 2 * (size_t)(s->sent[i].shortlist_len - s->sl.n_shared);
	}
	if (bytes > s->sl.cap_gathered) {
		GROW(s->sl.gathered, bytes);
		if (failed)
			return -1;
		s->sl.cap_gathered = bytes;
	}
	if (floats > s->sl.cap_gathered_f) {
		GROW(s->sl.gathered_f, floats);
		if (failed)
			return -1;
		s->sl.cap_gathered_f = floats;
	}
	bytes = floats = 0;
	for (int i = 0; i < s->n_sents; i++) {
		engine_sentence *st = &s->sent[i];
		int n = st->shortlist_len - s->sl.n_shared;
		const int32_t *own = st->shortlist + s->sl.n_shared;
		float *factors = s->sl.gathered_f + floats, *bias = factors + n;
		quant_matrix_gather(&m->tgt_emb, own, n, s->sl.gathered + bytes, factors, &st->out_w);
		for (int k = 0; k < n; k++)
			bias[k] = m->out_bias[own[k]];
		st->out_bias = bias;
		bytes += quant_matrix_gather_bytes(&m->tgt_emb, n);
		floats += 2 * (size_t)n;
	}
	return 0;
}

int engine_shortlists_build(engine_state *s, const int32_t *const *src)
{
	if (build_shortlists(s, src) != 0)
		return -1;
	s->logit_stride = 1;
	for (int i = 0; i < s->n_sents; i++)
		if (s->sent[i].shortlist_len > s->logit_stride)
			s->logit_stride = s->sent[i].shortlist_len;
	/* Gathered, a sentence's rows run on the panel kernels, whose beam rows
	 * share each decoded weight, and which beat one dot product per row
	 * even for a single row (greedy q4: 5% faster overall). f32 rows are
	 * read in place anyway. */
	return s->m->tgt_emb.format != FORMAT_F32 ? gather_output_rows(s) : 0;
}
