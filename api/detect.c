/* nmt_detect: text/langid.c over the language profile embedded in the
 * library (cli/langid_profile.S, linked into libnmt.a and libnmt.so). */
#include <stdio.h>
#include <string.h>

#include "../cli/detect.h"
#include "../text/langid.h"
#include "api.h"

/* The candidates as the profile's mask: all of its languages for none. */
static nmt_status candidate_mask(const text_langid *p, const char *const *candidates, int n, uint64_t *mask,
				 nmt_error *err)
{
	if (n == 0) {
		*mask = text_langid_all(p);
		return NMT_OK;
	}
	*mask = 0;
	for (int i = 0; i < n; i++) {
		int k = candidates[i] ? text_langid_find(p, candidates[i], strlen(candidates[i])) : -1;
		if (k < 0)
			return api_fail(err, NMT_ERR_ARGUMENT, "the language profile has no language \"%s\"",
					candidates[i] ? candidates[i] : "(null)");
		*mask |= (uint64_t)1 << k;
	}
	return NMT_OK;
}

nmt_status nmt_detect(const char *text, size_t len, const char *const *candidates, int n_candidates, nmt_detection *out,
		      int max_out, int *n_out, nmt_error *err)
{
	text_langid p;
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	char why[256];
	uint64_t mask;
	if (n_out)
		*n_out = 0;
	if ((!text && len) || n_candidates < 0 || (n_candidates && !candidates) || max_out < 0 || (max_out && !out) ||
	    !n_out)
		return api_fail(err, NMT_ERR_ARGUMENT, "nmt_detect: NULL or negative argument");
	if (cli_langid_profile_size == 0)
		return api_fail(err, NMT_ERR_UNSUPPORTED, "no language profile is embedded in this build");
	if (text_langid_open(cli_langid_profile, cli_langid_profile_size, &p, why, sizeof why) != 0)
		return api_fail(err, NMT_ERR_FORMAT, "embedded language profile: %s", why);
	nmt_status rc = candidate_mask(&p, candidates, n_candidates, &mask, err);
	if (rc != NMT_OK)
		return rc;
	int n = text_langid_classify(&p, text ? text : "", len, mask, g);
	for (int i = 0; i < n && i < max_out; i++) {
		snprintf(out[i].language, sizeof out[i].language, "%s", p.codes[g[i].lang]);
		out[i].confidence = g[i].confidence;
	}
	*n_out = n < max_out ? n : max_out;
	return api_ok(err);
}
