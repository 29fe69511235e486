/* Language detection as LibreTranslate answers it (POST /detect, and
 * source auto in /translate): nmt detect's classifier (text/langid.h) with
 * the profile embedded in the binary, among the served languages it knows,
 * shaped like LibreTranslate's detect_languages (docs/SERVER.md). */
#include "server_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/detect.h"

/* Only guesses of at least this confidence after the first (langdetect
 * leaves out what is below 0.1). */
#define DETECT_FLOOR 0.1

/* Characters, as Python's len() counts them: UTF-8 lead bytes. */
static size_t characters(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

void server_open_langid(server_state *s)
{
	char err[256];
	const char *codes[2 * SERVER_MAX_MODELS];
	if (cli_langid_profile_size == 0 ||
	    text_langid_open(cli_langid_profile, cli_langid_profile_size, &s->langid, err, sizeof err) != 0)
		return;
	s->has_langid = 1;
	int n = server_languages(s, codes);
	for (int i = 0; i < n; i++) {
		int k = text_langid_find(&s->langid, codes[i], strlen(codes[i]));
		if (k >= 0)
			s->detect_langs |= (uint64_t)1 << k;
	}
}

/* One text's guesses into out: at most SERVER_DETECT_TOP, confidence
 * rounded to a whole percent; "en" at 0 for a text without one (no
 * letter, or a script no candidate writes). Returns how many. */
static int guesses(const server_state *s, const char *text, size_t len, server_detection *out)
{
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	int k = text_langid_classify(&s->langid, text, len, s->detect_langs, g), n = 0;
	double chars = (double)characters(text, len);
	if (k == 0)
		out[n++] = (server_detection){ "en", 0.0, chars };
	for (int j = 0; j < k && j < SERVER_DETECT_TOP && (j == 0 || g[j].confidence >= DETECT_FLOOR); j++)
		out[n++] = (server_detection){ s->langid.codes[g[j].lang], rint(g[j].confidence * 100), chars };
	return n;
}

/* For a batch (q an array): one entry a language, in order of first
 * appearance, its confidence the mean over the texts it was guessed for
 * and its length their sum. Returns the entries left. */
static int merge_languages(server_detection *d, int n)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		int j = 0, times = 1;
		while (j < m && strcmp(d[j].code, d[i].code) != 0)
			j++;
		if (j < m)
			continue;
		server_detection sum = d[i];
		for (int k = i + 1; k < n; k++)
			if (strcmp(d[k].code, sum.code) == 0) {
				sum.confidence += d[k].confidence;
				sum.length += d[k].length;
				times++;
			}
		sum.confidence /= times;
		d[m++] = sum;
	}
	return m;
}

/* Best first by confidence times length; an insertion sort, stable as
 * Python's sort is, so equal scores keep their order. */
static void sort_by_score(server_detection *d, int n)
{
	for (int i = 1; i < n; i++) {
		server_detection x = d[i];
		int j = i;
		for (; j > 0 && d[j - 1].confidence * d[j - 1].length < x.confidence * x.length; j--)
			d[j] = d[j - 1];
		d[j] = x;
	}
}

int server_detect_languages(const server_state *s, const char *const *texts, const size_t *lens, int count, int batch,
			    server_detection *out)
{
	int n = 0;
	double total = 0;
	for (int i = 0; i < count; i++)
		n += guesses(s, texts[i], lens[i], out + n);
	for (int i = 0; i < n; i++)
		total += out[i].length;
	if (batch)
		n = merge_languages(out, n);
	if (total > 0)   /* with no character in any text every score is 0 */
		sort_by_score(out, n);
	return n;
}

/* A confidence (0..100) as Python writes a float: the fewest decimals, at
 * least one, that read back as it (90.0, 49.5, 33.333333333333336). */
static void confidence_json(server_buf *b, double v)
{
	char num[48];
	for (int decimals = 1; decimals <= 17; decimals++) {
		snprintf(num, sizeof num, "%.*f", decimals, v);
		if (strtod(num, NULL) == v)
			break;
	}
	server_buf_puts(b, num);
}

void server_detection_json(server_buf *b, const server_detection *d)
{
	server_buf_puts(b, "{\"confidence\":");
	confidence_json(b, d->confidence);
	server_buf_puts(b, ",\"language\":");
	server_buf_json_string(b, d->code, strlen(d->code));
	server_buf_puts(b, "}");
}

/* POST /detect: LibreTranslate's list of the languages q may be in, best
 * first: [{"confidence": 0..100, "language": code}, ...], at most three for
 * a string (one entry a language, over all texts, for an array), after the
 * same access check as /translate. */
int server_handle_detect(const server_state *s, server_params *p, server_buf *out, char *why, size_t whylen)
{
	server_fields f = { 0 };
	int status = server_check_access(s, p, why, whylen);
	if (status == 0)
		status = server_read_q(p, &f, why, whylen);
	if (status != 0)
		return status;
	if (f.count == 0 || (!f.is_array && f.lens[0] == 0)) {
		snprintf(why, whylen, "Invalid request: missing q parameter");
		return 400;
	}
	if (!s->has_langid) {
		snprintf(why, whylen, "language detection is not available: this build embeds no language profile");
		return 500;
	}
	server_detection *d = malloc((size_t)f.count * SERVER_DETECT_TOP * sizeof *d);
	if (!d) {
		snprintf(why, whylen, "out of memory");
		return 500;
	}
	int n = server_detect_languages(s, f.texts, f.lens, f.count, f.is_array, d);
	server_buf_puts(out, "[");
	for (int i = 0; i < n; i++) {
		server_buf_puts(out, i ? "," : "");
		server_detection_json(out, &d[i]);
	}
	server_buf_puts(out, "]");
	free(d);
	return 0;
}
