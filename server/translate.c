/* POST /translate: the worker slots that bound how many translations run
 * at once, the request's fields and LibreTranslate's checks on them, and
 * the answer in LibreTranslate's shape (translatedText, detectedLanguage,
 * alternatives). */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/pivot.h"

/* A free worker slot, waiting for one: at most -t translations at once. */
static server_worker *take_worker(server_state *s)
{
	pthread_mutex_lock(&s->lock);
	for (;;) {
		for (int i = 0; i < s->n_workers; i++)
			if (!s->workers[i].busy) {
				s->workers[i].busy = 1;
				pthread_mutex_unlock(&s->lock);
				return &s->workers[i];
			}
		pthread_cond_wait(&s->changed, &s->lock);
	}
}

static void give_worker(server_state *s, server_worker *w)
{
	pthread_mutex_lock(&s->lock);
	w->busy = 0;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

/* The session of model i in worker w, created when first used. */
static nmt_session *session_of(server_state *s, server_worker *w, int i, nmt_error *err)
{
	if (!w->sessions[i] && nmt_session_new(s->models[i].model, &w->sessions[i], err) != NMT_OK)
		return NULL;
	return w->sessions[i];
}

nmt_status server_translate_batch(server_state *s, const int chain[2], int hops, const nmt_options *o,
				  const char *const *texts, const size_t *lens, int count, nmt_result **r)
{
	nmt_error err = { 0 };
	nmt_result *mid = NULL;
	server_worker *w = take_worker(s);
	nmt_session *first = session_of(s, w, chain[0], &err);
	nmt_session *second = hops == 2 ? session_of(s, w, chain[1], &err) : NULL;
	nmt_status rc = !first || (hops == 2 && !second) ? NMT_ERR_NO_MEMORY
			: hops == 1 ? nmt_translate_batch(first, o, texts, lens, count, r, &err)
				    : cli_pivot_translate(first, second, o, texts, lens, count, &mid, r, &err);
	give_worker(s, w);
	nmt_result_free(mid);
	return rc;
}

typedef struct {
	const char *const *texts;
	const size_t *lens;
	int count;
	int html;
	long alternatives;                /* 0..SERVER_ALTERNATIVES_LIMIT */
	const server_detection *detected; /* source auto: the language found, else NULL */
} request_texts;

/* Append "alternatives": text i's other n-best translations, at most n,
 * each once and none equal to the best (LibreTranslate's filter_unique). */
static void alternatives_of(const nmt_result *r, int i, long n, server_buf *b)
{
	const nmt_translation *best = nmt_result_get(r, i, 0);
	int k_max = nmt_result_nbest(r, i), put = 0;
	server_buf_puts(b, "[");
	for (int k = 1; k < k_max && put < n; k++) {
		const nmt_translation *t = nmt_result_get(r, i, k);
		int seen = t->len == best->len && memcmp(t->text, best->text, t->len) == 0;
		for (int j = 1; j < k && !seen; j++) {
			const nmt_translation *u = nmt_result_get(r, i, j);
			seen = u->len == t->len && memcmp(u->text, t->text, t->len) == 0;
		}
		if (!seen) {
			server_buf_puts(b, put++ ? "," : "");
			server_buf_json_string(b, t->text, t->len);
		}
	}
	server_buf_puts(b, "]");
}

/* "detectedLanguage": the one detection, repeated for each text of an array. */
static void detected_json(const request_texts *q, int as_array, server_buf *b)
{
	server_buf_puts(b, as_array ? ",\"detectedLanguage\":[" : ",\"detectedLanguage\":");
	for (int i = 0; i < (as_array ? q->count : 1); i++) {
		server_buf_puts(b, i ? "," : "");
		server_detection_json(b, q->detected);
	}
	server_buf_puts(b, as_array ? "]" : "");
}

/* "alternatives": a list, or a list per text; empty ones without r. */
static void alternatives_json(const nmt_result *r, const request_texts *q, int as_array, server_buf *b)
{
	server_buf_puts(b, as_array ? ",\"alternatives\":[" : ",\"alternatives\":");
	for (int i = 0; i < q->count; i++) {
		server_buf_puts(b, i ? "," : "");
		if (r)
			alternatives_of(r, i, q->alternatives, b);
		else
			server_buf_puts(b, "[]");
	}
	server_buf_puts(b, as_array ? "]" : "");
}

/* The answer, in LibreTranslate's order: "translatedText" a string, or an
 * array when q was one; with source auto "detectedLanguage"; "alternatives"
 * when asked for. r NULL: the texts unchanged (source and target the same
 * language), without alternatives. */
static void translation_body(const nmt_result *r, const request_texts *q, int as_array, server_buf *b)
{
	server_buf_puts(b, as_array ? "{\"translatedText\":[" : "{\"translatedText\":");
	for (int i = 0; i < q->count; i++) {
		const nmt_translation *t = r ? nmt_result_get(r, i, 0) : NULL;
		server_buf_puts(b, i ? "," : "");
		server_buf_json_string(b, t ? t->text : q->texts[i], t ? t->len : q->lens[i]);
	}
	server_buf_puts(b, as_array ? "]" : "");
	if (q->detected)
		detected_json(q, as_array, b);
	if (q->alternatives > 0)
		alternatives_json(r, q, as_array, b);
	server_buf_puts(b, "}");
}

/* Translate and append the answer. 0, or the HTTP status of the failure
 * with *why set. Alternatives come from the n-best list: nbest one more
 * than asked for, the beam widened to hold them. */
static int translate(server_state *s, const int chain[2], int hops, const request_texts *q, int as_array, server_buf *b,
		     const char **why)
{
	nmt_options o = s->options;
	o.html = q->html;
	o.threads = 1;
	o.nbest = 1 + (int)q->alternatives;
	if (o.beam < o.nbest)
		o.beam = o.nbest;
	nmt_result *r = NULL;
	if (server_translate_batch(s, chain, hops, &o, q->texts, q->lens, q->count, &r) != NMT_OK) {
		*why = "translation failed";
		return 500;
	}
	translation_body(r, q, as_array, b);
	nmt_result_free(r);
	return 0;
}

/* source, target, format, q and alternatives: 0, or the status with *why */
static int read_fields(server_params *p, server_fields *f, char *why, size_t whylen)
{
	size_t len;
	if (server_read_languages(p, f) < 0 || server_param(p, "format", &f->format, &len) < 0) {
		snprintf(why, whylen, "Invalid request: malformed parameters");
		return 400;
	}
	int status = server_read_q(p, f, why, whylen);
	if (status != 0)
		return status;
	if (server_param_alternatives(p, &f->alternatives) != 0) {
		snprintf(why, whylen, "Invalid request: alternatives parameter is not a number");
		return 400;
	}
	return 0;
}

/* "... is not supported" naming the language no model serves, 0 when
 * there is a way from f->source to f->target (its models in chain), or
 * (*hops 0) both are the same served language, whose texts are answered
 * unchanged as LibreTranslate's identity translation answers them. */
int server_check_pair(const server_state *s, const server_fields *f, int chain[2], int *hops, char *why, size_t whylen)
{
	const char *codes[2 * SERVER_MAX_MODELS];
	int n = server_languages(s, codes), known_src = 0, known_tgt = 0;
	for (int i = 0; i < n; i++) {
		known_src |= strcmp(codes[i], f->source) == 0;
		known_tgt |= strcmp(codes[i], f->target) == 0;
	}
	if ((*hops = server_route(s, f->source, f->target, chain)) > 0 ||
	    (known_src && strcmp(f->source, f->target) == 0))
		return 0;
	if (f->auto_detect && known_src && known_tgt) {   /* LibreTranslate's words when no translator reads it */
		snprintf(why, whylen, "%.40s (%.40s) is not available as a target language from %.40s (%.40s)",
			 server_language_name(f->target), f->target, server_language_name(f->source), f->source);
		return 400;
	}
	const char *which = !known_src ? f->source : !known_tgt ? f->target : "this language pair";
	snprintf(why, whylen, "%.40s is not supported", which);
	return 400;
}

/* source auto: the language of the texts, as LibreTranslate finds it (all
 * of them together), becomes the source. */
int server_detect_source(const server_state *s, server_fields *f, char *why, size_t whylen)
{
	if (!s->has_langid) {
		snprintf(why, whylen, "language detection is not available: this build embeds no language profile");
		return 500;
	}
	server_detection *d = malloc((size_t)f->count * SERVER_DETECT_TOP * sizeof *d);
	if (!d) {
		snprintf(why, whylen, "out of memory");
		return 500;
	}
	server_detect_languages(s, f->texts, f->lens, f->count, f->is_array, d);
	f->detected = d[0];
	f->source = d[0].code;
	f->auto_detect = 1;
	free(d);
	return 0;
}

/* The checks LibreTranslate makes, in its order: 0, or the status with *why. */
static int check_fields(const server_state *s, server_fields *f, int chain[2], int *hops, char *why, size_t whylen)
{
	/* LibreTranslate's `if not q`: no q, an empty text or an empty list; so for the codes */
	int no_q = f->count == 0 || (!f->is_array && f->lens[0] == 0);
	const char *missing = no_q ? "q" : !f->source || !f->source[0] ? "source" : NULL;
	if (!missing && (!f->target || !f->target[0]))
		missing = "target";
	if (missing) {
		snprintf(why, whylen, "Invalid request: missing %s parameter", missing);
		return 400;
	}
	if (f->alternatives > SERVER_ALTERNATIVES_LIMIT) {
		snprintf(why, whylen, "Invalid request: alternatives parameter must be <= %d", SERVER_ALTERNATIVES_LIMIT);
		return 400;
	}
	if (f->format && strcmp(f->format, "text") != 0 && strcmp(f->format, "html") != 0) {
		snprintf(why, whylen, "Invalid request: format must be text or html, not %.40s", f->format);
		return 400;
	}
	if (strcmp(f->source, "auto") == 0) {
		int status = server_detect_source(s, f, why, whylen);
		if (status != 0)
			return status;
	}
	return server_check_pair(s, f, chain, hops, why, whylen);
}

int server_handle_translate(server_state *s, server_params *p, server_buf *out, char *why, size_t whylen)
{
	server_fields f = { 0 };
	int chain[2], hops = 0, status = server_check_access(s, p, why, whylen);
	if (status == 0)
		status = read_fields(p, &f, why, whylen);
	if (status == 0)
		status = check_fields(s, &f, chain, &hops, why, whylen);
	if (status != 0)
		return status;
	if (f.alternatives < 0)
		f.alternatives = 0;   /* LibreTranslate's max(0, n) */
	int html = f.format && strcmp(f.format, "html") == 0;
	request_texts q = { f.texts, f.lens, f.count, html, f.alternatives, f.auto_detect ? &f.detected : NULL };
	const char *fail = NULL;
	if (hops == 0)
		translation_body(NULL, &q, f.is_array, out);
	else if ((status = translate(s, chain, hops, &q, f.is_array, out, &fail)) != 0)
		snprintf(why, whylen, "%s", fail);
	return status;
}
