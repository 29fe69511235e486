#include "pivot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../text/align.h"

typedef struct {
	long from, to;
} pair;

/* The pairs of an alignment string; *n of them in a malloc'd array. */
static pair *parse(const char *s, int *n)
{
	int cap = 1;
	for (const char *c = s; *c; c++)
		cap += *c == ' ';
	pair *p = malloc((size_t)cap * sizeof *p);
	*n = 0;
	while (p && *s) {
		const char *end;
		long a, b;
		if (text_align_pair(s, &a, &b, &end) == 0 && *n < cap && (*end == ' ' || *end == '\0'))
			p[(*n)++] = (pair){ a, b };
		s = strchr(s, ' ');
		if (!s)
			break;
		s++;
	}
	return p;
}

static int by_pair(const void *x, const void *y)
{
	const pair *a = x, *b = y;
	return a->from != b->from ? (a->from > b->from) - (a->from < b->from) : (a->to > b->to) - (a->to < b->to);
}

char *cli_compose_alignment(const char *first, const char *second)
{
	int n1, n2, n = 0;
	pair *a = parse(first, &n1), *b = parse(second, &n2), *out = NULL;
	char *text = NULL;
	if (!a || !b || !(out = malloc(((size_t)n1 * (size_t)n2 + 1) * sizeof *out)))
		goto done;
	for (int i = 0; i < n1; i++)
		for (int j = 0; j < n2; j++)
			if (a[i].to == b[j].from)
				out[n++] = (pair){ a[i].from, b[j].to };
	qsort(out, (size_t)n, sizeof *out, by_pair);
	text = malloc((size_t)n * 42 + 1);
	if (!text)
		goto done;
	size_t at = 0;
	text[0] = '\0';
	for (int i = 0; i < n; i++)
		if (i == 0 || by_pair(&out[i], &out[i - 1]) != 0)
			at += (size_t)sprintf(text + at, "%s%ld-%ld", at ? " " : "", out[i].from, out[i].to);
done:
	free(a);
	free(b);
	free(out);
	return text;
}

nmt_status cli_pivot_translate(nmt_session *first, nmt_session *second, const nmt_options *options,
			       const char *const *texts, const size_t *lens, int count, nmt_result **mid,
			       nmt_result **out, nmt_error *err)
{
	nmt_options one = *options;
	one.nbest = 1;
	*out = NULL;
	nmt_status rc = nmt_translate_batch(first, &one, texts, lens, count, mid, err);
	if (rc != NMT_OK)
		return rc;
	const char **inner = malloc((size_t)(count > 0 ? count : 1) * sizeof *inner);
	size_t *inner_lens = malloc((size_t)(count > 0 ? count : 1) * sizeof *inner_lens);
	if (!inner || !inner_lens) {
		rc = NMT_ERR_NO_MEMORY;
		snprintf(err->message, sizeof err->message, "out of memory");
		err->code = rc;
	} else {
		for (int i = 0; i < count; i++) {
			inner[i] = nmt_result_get(*mid, i, 0)->text;
			inner_lens[i] = nmt_result_get(*mid, i, 0)->len;
		}
		rc = nmt_translate_batch(second, options, inner, inner_lens, count, out, err);
	}
	free(inner);
	free(inner_lens);
	if (rc != NMT_OK) {
		nmt_result_free(*mid);
		*mid = NULL;
	}
	return rc;
}
