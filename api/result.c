#include "result.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../format/grow.h"

/* Laid out in one block: this header, first[count + 1] (text i's
 * translations are tr[first[i] .. first[i + 1])), tr[], the words'
 * log-probabilities, then the texts and alignments. */
struct nmt_result {
	int count;
	int *first;
	nmt_translation *tr;
};

int api_text_out_set(api_text_out *o, const nmt_translation *tr, int n)
{
	size_t need = 0, words = 0;
	for (int k = 0; k < n; k++) {
		need += tr[k].len + 1 + (tr[k].alignment ? strlen(tr[k].alignment) + 1 : 0);
		words += (size_t)tr[k].n_words;
	}
	if (format_reserve(&o->buf, &o->cap, need, 1) != 0 || format_reserve(&o->lp, &o->lp_cap, words, sizeof *o->lp) != 0)
		return -1;
	o->len = 0;
	o->lp_len = 0;
	for (int k = 0; k < n; k++) {
		memcpy(o->buf + o->len, tr[k].text, tr[k].len);
		o->len += tr[k].len;
		o->buf[o->len++] = '\0';
		if (tr[k].alignment) {
			size_t a = strlen(tr[k].alignment) + 1;
			memcpy(o->buf + o->len, tr[k].alignment, a);
			o->len += a;
		}
		if (tr[k].n_words > 0)
			memcpy(o->lp + o->lp_len, tr[k].word_logprob, (size_t)tr[k].n_words * sizeof *o->lp);
		o->lp_len += (size_t)tr[k].n_words;
		o->tr[k] = tr[k];
		o->tr[k].text = NULL;
	}
	o->n = n;
	return 0;
}

void api_text_out_free(api_text_out *o)
{
	free(o->buf);
	free(o->lp);
	o->buf = NULL;
	o->lp = NULL;
	o->len = o->cap = o->lp_len = o->lp_cap = 0;
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

nmt_result *api_result_build(const api_text_out *outs, int count)
{
	size_t n_tr = 0, text_bytes = 0, n_lp = 0;
	for (int i = 0; i < count; i++) {
		n_tr += (size_t)outs[i].n;
		text_bytes += outs[i].len;
		n_lp += outs[i].lp_len;
	}
	size_t first_at = round_up(sizeof(nmt_result), alignof(int));
	size_t tr_at = round_up(first_at + ((size_t)count + 1) * sizeof(int), alignof(nmt_translation));
	size_t lp_at = round_up(tr_at + n_tr * sizeof(nmt_translation), alignof(float));
	size_t text_at = lp_at + n_lp * sizeof(float);
	char *block = malloc(text_at + text_bytes);
	if (!block)
		return NULL;

	nmt_result *r = (nmt_result *)block;
	r->count = count;
	r->first = (int *)(block + first_at);
	r->tr = (nmt_translation *)(block + tr_at);
	float *lp = (float *)(block + lp_at);
	char *text = block + text_at;
	int t = 0;
	for (int i = 0; i < count; i++) {
		r->first[i] = t;
		if (outs[i].len > 0)
			memcpy(text, outs[i].buf, outs[i].len);
		if (outs[i].lp_len > 0)
			memcpy(lp, outs[i].lp, outs[i].lp_len * sizeof *lp);
		for (int k = 0; k < outs[i].n; k++, t++) {   /* each text and its NUL, its alignment */
			r->tr[t] = outs[i].tr[k];
			r->tr[t].text = text;
			text += outs[i].tr[k].len + 1;
			if (outs[i].tr[k].alignment) {
				r->tr[t].alignment = text;
				text += strlen(text) + 1;
			}
			r->tr[t].word_logprob = lp;
			lp += outs[i].tr[k].n_words;
		}
	}
	r->first[count] = t;
	return r;
}

int nmt_result_count(const nmt_result *r)
{
	return r ? r->count : 0;
}

int nmt_result_nbest(const nmt_result *r, int i)
{
	if (!r || i < 0 || i >= r->count)
		return 0;
	return r->first[i + 1] - r->first[i];
}

const nmt_translation *nmt_result_get(const nmt_result *r, int i, int k)
{
	if (k < 0 || k >= nmt_result_nbest(r, i))
		return NULL;
	return &r->tr[r->first[i] + k];
}

const char *nmt_result_text(const nmt_result *r, int i, int k)
{
	const nmt_translation *tr = nmt_result_get(r, i, k);
	return tr ? tr->text : NULL;
}

void nmt_result_free(nmt_result *r)
{
	free(r);
}
