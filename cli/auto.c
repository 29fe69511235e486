#include "auto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"

static int entry_index(const cli_catalog *c, const cli_catalog_entry *e)
{
	return e ? (int)(e - c->entries) : -1;
}

/* The route from language `src` into tgt: a direct model, else two through
 * the pivot; 0 when there is none. */
static int find_route(const cli_catalog *c, const char *src, const char *tgt, int route[2])
{
	const cli_catalog_entry *direct = cli_catalog_find(c, src, tgt);
	const cli_catalog_entry *first = cli_catalog_find(c, src, CLI_PIVOT_LANG);
	const cli_catalog_entry *second = cli_catalog_find(c, CLI_PIVOT_LANG, tgt);
	route[0] = route[1] = -1;
	if (direct)
		route[0] = entry_index(c, direct);
	else if (first && second) {
		route[0] = entry_index(c, first);
		route[1] = entry_index(c, second);
	}
	return route[0] >= 0;
}

/* Every profile language some installed model's source names and that has
 * a route into tgt; the number of them. */
static int find_routes(cli_auto *a, const char *tgt)
{
	int found = 0;
	for (int k = 0; k < TEXT_LANGID_MAX_LANGS; k++)
		a->route[k][0] = a->route[k][1] = -1;
	for (int i = 0; i < a->catalog.n; i++) {
		const char *src = a->catalog.entries[i].src;
		int k = text_langid_find(&a->profile, src, strlen(src));
		if (k < 0 || a->route[k][0] >= 0 || strcmp(src, tgt) == 0)
			continue;
		if (find_route(&a->catalog, src, tgt, a->route[k])) {
			a->candidates |= (uint64_t)1 << k;
			found++;
		}
	}
	return found;
}

int cli_auto_open(cli_auto *a, const char *tgt, const void *profile, size_t len, const char *search_path, char *err,
		  size_t errlen)
{
	memset(a, 0, sizeof *a);
	if (len == 0)
		return error_set(err, errlen,
				 "no language profile is embedded in this build, so -l auto-%s cannot "
				 "detect languages",
				 tgt);
	if (text_langid_open(profile, len, &a->profile, err, errlen) != 0)
		return -1;
	if (cli_catalog_scan(&a->catalog, search_path, 1, NULL) != 0)
		return error_set(err, errlen, "out of memory");
	if (find_routes(a, tgt) == 0) {
		cli_catalog_free(&a->catalog);
		return error_set(err, errlen,
				 "no installed model whose language the profile knows translates into %s, directly "
				 "or through %s (nmt models lists them)",
				 tgt, CLI_PIVOT_LANG);
	}
	int t = text_langid_find(&a->profile, tgt, strlen(tgt));
	if (t >= 0)
		a->candidates |= (uint64_t)1 << t;
	size_t n = (size_t)(a->catalog.n > 0 ? a->catalog.n : 1);
	a->models = calloc(n, sizeof *a->models);
	a->sessions = calloc(n, sizeof *a->sessions);
	if (!a->models || !a->sessions) {
		cli_auto_close(a);
		return error_set(err, errlen, "out of memory");
	}
	return 0;
}

int cli_auto_language(const cli_auto *a, const char *line, size_t len)
{
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	if (text_langid_classify(&a->profile, line, len, a->candidates, g) == 0)
		return -1;
	return a->route[g[0].lang][0] >= 0 ? g[0].lang : -1;
}

/* Entry i's model and session, opened if they are not yet. */
static nmt_status open_entry(cli_auto *a, int i, const nmt_options *o, nmt_error *err)
{
	if (a->sessions[i])
		return NMT_OK;
	nmt_status rc = cli_catalog_open(&a->catalog.entries[i], &a->models[i], err);
	if (rc == NMT_OK)
		rc = nmt_session_new(a->models[i], &a->sessions[i], err);
	nmt_result *none;
	if (rc == NMT_OK && (rc = nmt_translate_batch(a->sessions[i], o, NULL, NULL, 0, &none, err)) == NMT_OK)
		nmt_result_free(none);
	return rc;
}

nmt_status cli_auto_sessions(cli_auto *a, int lang, const nmt_options *o, nmt_session **s, int *n, nmt_error *err)
{
	*n = 0;
	for (int k = 0; k < 2 && a->route[lang][k] >= 0; k++) {
		nmt_status rc = open_entry(a, a->route[lang][k], o, err);
		if (rc != NMT_OK)
			return rc;
		s[(*n)++] = a->sessions[a->route[lang][k]];
	}
	return NMT_OK;
}

void cli_auto_close(cli_auto *a)
{
	for (int i = 0; i < a->catalog.n && a->sessions; i++) {
		nmt_session_free(a->sessions[i]);
		nmt_model_close(a->models[i]);
	}
	free(a->sessions);
	free(a->models);
	cli_catalog_free(&a->catalog);
	memset(a, 0, sizeof *a);
}
