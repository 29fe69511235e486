/* nmt serve (see serve.h): one thread accepts connections; each connection
 * gets a thread of its own that reads requests (keep-alive), and a request
 * that translates borrows one of the -t worker slots, each holding a session
 * per model, so at most -t translations run at once. Limits: the head's
 * size, the body's size, open connections, and a deadline for each request
 * from its first byte; whatever breaks one gets a 4xx/5xx answer and the
 * connection closes, while every other connection goes on. */
#include "serve.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../cli/catalog.h"
#include "../cli/detect.h"
#include "../cli/pivot.h"
#include "buf.h"
#include "form.h"
#include "http.h"
#include "multipart.h"
#include "page.h"
#include "spec.h"
#include "../common/error.h"
#include "../common/json.h"
#include "../common/number.h"
#include "../text/langid.h"

#define MAX_MODELS 32
/* LibreTranslate's default --alternatives-limit */
#define ALTERNATIVES_LIMIT 3

typedef struct {
	nmt_model *model;
	char src[16], tgt[16];
} served_model;

/* A worker slot: one session per model, used by one request at a time. */
typedef struct {
	nmt_session *sessions[MAX_MODELS];
	int busy;
} worker;

typedef struct {
	served_model models[MAX_MODELS];
	int n_models;
	worker workers[NMT_MAX_THREADS];
	int n_workers;
	nmt_options options;          /* beam and the rest, as nmt's defaults */
	size_t max_head, max_body;
	int max_connections, timeout_ms, idle_ms, quiet;
	pthread_mutex_t lock;
	pthread_cond_t changed;       /* a worker freed, or a connection closed */
	int connections;
	int stopping;                 /* SIGTERM/SIGINT: answer what is in flight, then exit */
	char **api_keys;              /* --api-keys: a request must name one of them */
	int n_api_keys;
	text_langid langid;           /* the embedded language profile (cli/detect.h) */
	int has_langid;               /* 0: none embedded, /detect and source auto answer 500 */
	uint64_t detect_langs;        /* the candidates: the served languages the profile knows */
} server;

typedef struct {
	server *srv;
	int fd;
} connection;

/* The signal handler's only way out: a byte into this pipe, which the
 * accept loop polls. A signal is process-wide, so this is the one piece of
 * static state. */
static int stop_pipe[2] = { -1, -1 };

static void on_stop_signal(int sig)
{
	(void)sig;
	char c = 1;
	ssize_t rc = write(stop_pipe[1], &c, 1);
	(void)rc;
}

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

_Noreturn static void usage_error(const char *fmt, const char *arg)
{
	fputs("nmt: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

/* ---- answers ---------------------------------------------------------------- */

static int send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The page's headers (GET /): HTML, and a Content-Security-Policy that
 * lets it run only its own inline script and style and talk only to this
 * server (no other origin, no frames, no forms sent anywhere). */
#define PAGE_HEADERS                                                                                          \
	"Content-Type: text/html; charset=utf-8\r\n"                                                          \
	"Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " \
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n"                \
	"X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n"
#define JSON_HEADERS "Content-Type: application/json\r\n"

/* An answer with the given headers (JSON_HEADERS or PAGE_HEADERS). */
static int respond_as(int fd, int status, const char *headers, const char *body, size_t body_len, int keep_alive)
{
	server_buf b = { 0 };
	server_buf_printf(&b,
		       "HTTP/1.1 %d %s\r\n%sContent-Length: %zu\r\n"
		       "Access-Control-Allow-Origin: *\r\n"
		       "Access-Control-Allow-Headers: Content-Type, Authorization, Accept, Origin, X-Requested-With\r\n"
		       "Access-Control-Allow-Methods: GET, POST, OPTIONS\r\nConnection: %s\r\n\r\n",
		       status, http_reason(status), headers, body_len, keep_alive ? "keep-alive" : "close");
	server_buf_add(&b, body, body_len);
	int rc = b.failed ? -1 : send_all(fd, b.data, b.len);
	server_buf_free(&b);
	return rc;
}

static int respond(int fd, int status, const char *body, size_t body_len, int keep_alive)
{
	return respond_as(fd, status, JSON_HEADERS, body, body_len, keep_alive);
}

/* LibreTranslate's error body: {"error": "..."} */
static int respond_error(int fd, int status, const char *message, int keep_alive)
{
	server_buf b = { 0 };
	server_buf_puts(&b, "{\"error\":");
	server_buf_json_string(&b, message, strlen(message));
	server_buf_puts(&b, "}");
	int rc = b.failed ? -1 : respond(fd, status, b.data, b.len, keep_alive);
	server_buf_free(&b);
	return rc;
}

/* ---- languages ----------------------------------------------------------------- */

static const char *language_name(const char *code)
{
	static const char *const names[][2] = {
		{ "ar", "Arabic" }, { "cs", "Czech" },      { "de", "German" },    { "en", "English" },
		{ "es", "Spanish" }, { "et", "Estonian" },  { "fr", "French" },    { "is", "Icelandic" },
		{ "it", "Italian" }, { "nb", "Norwegian Bokmål" }, { "nl", "Dutch" }, { "pl", "Polish" },
		{ "pt", "Portuguese" }, { "ru", "Russian" }, { "uk", "Ukrainian" }, { "zh", "Chinese" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(names[i][0], code) == 0)
			return names[i][1];
	return code;
}

static int find_model(const server *s, const char *src, const char *tgt)
{
	for (int i = 0; i < s->n_models; i++)
		if (strcmp(s->models[i].src, src) == 0 && strcmp(s->models[i].tgt, tgt) == 0)
			return i;
	return -1;
}

/* The models from src to tgt: one, or two through English. 0 if none. */
static int route(const server *s, const char *src, const char *tgt, int chain[2])
{
	if (strcmp(src, tgt) == 0)
		return 0;
	if ((chain[0] = find_model(s, src, tgt)) >= 0)
		return 1;
	chain[0] = find_model(s, src, CLI_PIVOT_LANG);
	chain[1] = find_model(s, CLI_PIVOT_LANG, tgt);
	return chain[0] >= 0 && chain[1] >= 0 ? 2 : 0;
}

/* Every language a model reads or writes, each once, in order of appearance. */
static int languages(const server *s, const char *codes[2 * MAX_MODELS])
{
	int n = 0;
	for (int i = 0; i < s->n_models; i++)
		for (int side = 0; side < 2; side++) {
			const char *c = side ? s->models[i].tgt : s->models[i].src;
			int seen = 0;
			for (int k = 0; k < n && !seen; k++)
				seen = strcmp(codes[k], c) == 0;
			if (!seen)
				codes[n++] = c;
		}
	return n;
}

/* GET /languages: [{"code","name","targets":[...]}] for every language a
 * model reads or writes, as LibreTranslate lists them, with the languages
 * each translates into (directly or through the pivot; maybe none). */
static void languages_body(const server *s, server_buf *b)
{
	const char *codes[2 * MAX_MODELS];
	int n = languages(s, codes), chain[2];
	server_buf_puts(b, "[");
	for (int i = 0; i < n; i++) {
		server_buf_puts(b, i ? ",{\"code\":" : "{\"code\":");
		server_buf_json_string(b, codes[i], strlen(codes[i]));
		server_buf_puts(b, ",\"name\":");
		server_buf_json_string(b, language_name(codes[i]), strlen(language_name(codes[i])));
		server_buf_puts(b, ",\"targets\":[");
		for (int k = 0, t = 0; k < n; k++)
			if (route(s, codes[i], codes[k], chain) > 0) {
				server_buf_puts(b, t++ ? "," : "");
				server_buf_json_string(b, codes[k], strlen(codes[k]));
			}
		server_buf_puts(b, "]}");
	}
	server_buf_puts(b, "]");
}

/* ---- language detection ------------------------------------------------------------- */

/* At most this many guesses for a text, and only those of at least this
 * confidence after the first (LibreTranslate's Detector: langdetect's top
 * 3, which leaves out what is below 0.1). */
#define DETECT_TOP 3
#define DETECT_FLOOR 0.1

/* A language LibreTranslate's detect_languages gives: its code, the
 * confidence in 0..100, and the characters of the texts it was found in. */
typedef struct {
	const char *code;
	double confidence;
	double length;
} detection;

/* Characters, as Python's len() counts them: UTF-8 lead bytes. */
static size_t characters(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

/* The served languages the profile knows, as a candidate mask; 0 if none
 * is embedded. */
static void open_langid(server *s)
{
	char err[256];
	const char *codes[2 * MAX_MODELS];
	if (cli_langid_profile_size == 0 ||
	    text_langid_open(cli_langid_profile, cli_langid_profile_size, &s->langid, err, sizeof err) != 0)
		return;
	s->has_langid = 1;
	int n = languages(s, codes);
	for (int i = 0; i < n; i++) {
		int k = text_langid_find(&s->langid, codes[i], strlen(codes[i]));
		if (k >= 0)
			s->detect_langs |= (uint64_t)1 << k;
	}
}

/* LibreTranslate's detect_languages over texts[0..count): each text's
 * guesses (at most DETECT_TOP, confidence rounded to a whole percent; "en"
 * at 0 for a text without one), then for a batch (q an array) one entry a
 * language, its confidence the mean over the texts it was guessed for and
 * its length their sum; sorted by confidence times length, best first
 * (stable). Writes out[] (room for count * DETECT_TOP) and returns how
 * many; out holds at least one. */
static int detect_languages(const server *s, const char *const *texts, const size_t *lens, int count, int batch,
			    detection *out)
{
	int n = 0;
	double total = 0;
	for (int i = 0; i < count; i++) {
		text_langid_guess g[TEXT_LANGID_MAX_LANGS];
		int k = text_langid_classify(&s->langid, texts[i], lens[i], s->detect_langs, g);
		double len = (double)characters(texts[i], lens[i]);
		if (k == 0)
			out[n++] = (detection){ "en", 0.0, len };
		for (int j = 0; j < k && j < DETECT_TOP && (j == 0 || g[j].confidence >= DETECT_FLOOR); j++)
			out[n++] = (detection){ s->langid.codes[g[j].lang], rint(g[j].confidence * 100), len };
	}
	for (int i = 0; i < n; i++)
		total += out[i].length;
	if (batch) {   /* one entry a language, in order of first appearance */
		int m = 0;
		for (int i = 0; i < n; i++) {
			int j = 0, times = 1;
			while (j < m && strcmp(out[j].code, out[i].code) != 0)
				j++;
			if (j < m)
				continue;
			detection d = out[i];
			for (int k = i + 1; k < n; k++)
				if (strcmp(out[k].code, d.code) == 0) {
					d.confidence += out[k].confidence;
					d.length += out[k].length;
					times++;
				}
			d.confidence /= times;
			out[m++] = d;
		}
		n = m;
	}
	for (int i = 1; i < n && total > 0; i++) {   /* insertion sort: stable, as Python's sort */
		detection d = out[i];
		int j = i;
		for (; j > 0 && out[j - 1].confidence * out[j - 1].length < d.confidence * d.length; j--)
			out[j] = out[j - 1];
		out[j] = d;
	}
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

/* {"confidence":90.0,"language":"de"} */
static void detection_json(server_buf *b, const detection *d)
{
	server_buf_puts(b, "{\"confidence\":");
	confidence_json(b, d->confidence);
	server_buf_puts(b, ",\"language\":");
	server_buf_json_string(b, d->code, strlen(d->code));
	server_buf_puts(b, "}");
}

/* ---- translating ----------------------------------------------------------------- */

static worker *take_worker(server *s)
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

static void give_worker(server *s, worker *w)
{
	pthread_mutex_lock(&s->lock);
	w->busy = 0;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

/* The session of model i in worker w, created when first used. */
static nmt_session *session_of(server *s, worker *w, int i, nmt_error *err)
{
	if (!w->sessions[i] && nmt_session_new(s->models[i].model, &w->sessions[i], err) != NMT_OK)
		return NULL;
	return w->sessions[i];
}

typedef struct {
	const char *const *texts;
	const size_t *lens;
	int count;
	int html;
	long alternatives;             /* 0..ALTERNATIVES_LIMIT */
	const detection *detected;     /* source auto: the language found, else NULL */
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

/* The answer, in LibreTranslate's order: "translatedText" a string, or an
 * array when q was one; with source auto "detectedLanguage", the one
 * detection (repeated for each text when q was an array); "alternatives"
 * when asked for (a list, or a list per text). r NULL: the texts
 * unchanged (source and target the same language), without alternatives. */
static void translation_body(const nmt_result *r, const request_texts *q, int as_array, server_buf *b)
{
	server_buf_puts(b, as_array ? "{\"translatedText\":[" : "{\"translatedText\":");
	for (int i = 0; i < q->count; i++) {
		const nmt_translation *t = r ? nmt_result_get(r, i, 0) : NULL;
		server_buf_puts(b, i ? "," : "");
		server_buf_json_string(b, t ? t->text : q->texts[i], t ? t->len : q->lens[i]);
	}
	server_buf_puts(b, as_array ? "]" : "");
	if (q->detected) {
		server_buf_puts(b, as_array ? ",\"detectedLanguage\":[" : ",\"detectedLanguage\":");
		for (int i = 0; i < (as_array ? q->count : 1); i++) {
			server_buf_puts(b, i ? "," : "");
			detection_json(b, q->detected);
		}
		server_buf_puts(b, as_array ? "]" : "");
	}
	if (q->alternatives > 0) {
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
	server_buf_puts(b, "}");
}

/* Translate and append the answer. 0, or the HTTP status of the failure
 * with *why set. Alternatives come from the n-best list: nbest one more
 * than asked for, the beam widened to hold them. */
static int translate(server *s, const int chain[2], int hops, const request_texts *q, int as_array, server_buf *b,
		     const char **why)
{
	nmt_options o = s->options;
	o.html = q->html;
	o.threads = 1;
	o.nbest = 1 + (int)q->alternatives;
	if (o.beam < o.nbest)
		o.beam = o.nbest;
	nmt_error err = { 0 };
	nmt_result *r = NULL, *mid = NULL;
	worker *w = take_worker(s);
	nmt_session *first = session_of(s, w, chain[0], &err), *second = hops == 2 ? session_of(s, w, chain[1], &err) : NULL;
	nmt_status rc = !first || (hops == 2 && !second) ? NMT_ERR_NO_MEMORY
			: hops == 1 ? nmt_translate_batch(first, &o, q->texts, q->lens, q->count, &r, &err)
				    : cli_pivot_translate(first, second, &o, q->texts, q->lens, q->count, &mid, &r, &err);
	give_worker(s, w);
	nmt_result_free(mid);
	if (rc != NMT_OK) {
		*why = "translation failed";
		return 500;
	}
	translation_body(r, q, as_array, b);
	nmt_result_free(r);
	return 0;
}

/* ---- parameters ----------------------------------------------------------------- */

/* Where a request's parameters come from, as LibreTranslate reads them: a
 * JSON body alone, or else the query string and then a form or multipart
 * body (Flask's request.values). */
typedef enum { BODY_NONE, BODY_JSON, BODY_FORM, BODY_MULTIPART } body_kind;

#define MAX_OWNED 8

typedef struct {
	const char *query, *body, *boundary;
	size_t query_len, body_len;
	body_kind kind;
	json_object json;
	char *owned[MAX_OWNED];   /* decoded values, freed with the params */
	int n_owned;
} params;

static void params_free(params *p)
{
	json_object_free(&p->json);
	for (int i = 0; i < p->n_owned; i++)
		free(p->owned[i]);
}

/* 0, or the status with *why: the body's kind from its Content-Type (a body
 * without one is read as JSON, as before query strings were read). */
static int params_open(const http_request *r, const char *head, const char *body, size_t len, params *p, char *why,
		       size_t whylen)
{
	*p = (params){ .query = head + r->query_at, .query_len = r->query_len, .boundary = r->boundary };
	p->body = body;
	p->body_len = len;
	if (strcmp(r->content_type, "application/x-www-form-urlencoded") == 0) {
		p->kind = BODY_FORM;
	} else if (strcmp(r->content_type, "multipart/form-data") == 0) {
		p->kind = BODY_MULTIPART;
		if (!r->boundary[0]) {
			snprintf(why, whylen, "Invalid request: multipart/form-data without a boundary");
			return 400;
		}
	} else if (strcmp(r->content_type, "application/json") == 0 || (r->content_type[0] == '\0' && len > 0)) {
		p->kind = BODY_JSON;
		return json_parse_object(body, len, &p->json, why, whylen) != 0 ? 400 : 0;
	} else if (r->content_type[0] != '\0') {
		snprintf(why, whylen,
			 "Unsupported content type %.64s (use application/json, a form or multipart/form-data)",
			 r->content_type);
		return 415;
	}
	return 0;
}

/* A copy of v[0..n), NUL-terminated and owned by p; NULL when out of room. */
static char *params_keep(params *p, const char *v, size_t n)
{
	char *c = p->n_owned < MAX_OWNED ? malloc(n + 1) : NULL;
	if (!c)
		return NULL;
	memcpy(c, v, n);
	c[n] = '\0';
	return p->owned[p->n_owned++] = c;
}

/* A form-encoded field from s[0..n) (the query string or a form body). */
static int form_field(params *p, const char *s, size_t n, const char *name, const char **v, size_t *len)
{
	char *got;
	int rc = form_get(s, n, name, &got, len);
	if (rc == 1 && p->n_owned < MAX_OWNED)
		*v = p->owned[p->n_owned++] = got;
	else if (rc == 1)
		free(got), rc = -1;
	return rc;
}

/* The string parameter name: 1 with *v (NUL-terminated, *len bytes), 0 if
 * absent, -1 if the query or body is malformed (or memory ran out). In
 * JSON, a member that is not a string counts as absent. */
static int param(params *p, const char *name, const char **v, size_t *len)
{
	if (p->kind == BODY_JSON) {
		const json_member *m = json_get(&p->json, name);
		if (!m || m->kind != JSON_STRING)
			return 0;
		*v = m->str;
		*len = m->str_len;
		return 1;
	}
	int rc = form_field(p, p->query, p->query_len, name, v, len);
	if (rc != 0 || p->kind == BODY_NONE)
		return rc;
	if (p->kind == BODY_FORM)
		return form_field(p, p->body, p->body_len, name, v, len);
	const char *raw;
	if ((rc = server_multipart_get(p->body, p->body_len, p->boundary, name, &raw, len)) == 1 &&
	    !(*v = params_keep(p, raw, *len)))
		rc = -1;
	return rc;
}

/* A whole number as Python's int() reads one (LibreTranslate's
 * alternatives): optional spaces and sign, digits; 0 or -1. */
static int whole_number(const char *s, size_t n, long *out)
{
	char buf[24];
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		n--;
	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\n'))
		s++, n--;
	if (n == 0 || n >= sizeof buf || (n > 1 && s[0] == '+' && s[1] == '-'))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return number_parse_long(buf[0] == '+' ? buf + 1 : buf, -100000000, 100000000, out);
}

/* The alternatives parameter: 0 absent (or JSON null) or read into *n, -1
 * not a number. A JSON number is truncated as int() truncates 2.5; a string
 * must hold a whole number. */
static int param_alternatives(params *p, long *n)
{
	*n = 0;
	if (p->kind == BODY_JSON) {
		const json_member *m = json_get(&p->json, "alternatives");
		if (m && m->kind == JSON_OTHER && m->raw && m->raw_len >= 4 && memcmp(m->raw, "null", 4) == 0)
			return 0;
		if (m && m->kind == JSON_OTHER && m->raw) {
			char buf[32];
			char *end;
			if (m->raw_len >= sizeof buf || !strchr("-0123456789", m->raw[0]))
				return -1;
			memcpy(buf, m->raw, m->raw_len);
			buf[m->raw_len] = '\0';
			double d = strtod(buf, &end);
			if (d > 1e8 || d < -1e8)
				return -1;
			*n = (long)d;
			return 0;
		}
		if (!m)
			return 0;
		if (m->kind != JSON_STRING)
			return -1;
		return whole_number(m->str, m->str_len, n);
	}
	const char *v;
	size_t len;
	int rc = param(p, "alternatives", &v, &len);
	return rc < 0 ? -1 : rc == 0 ? 0 : whole_number(v, len, n);
}

/* ---- access ----------------------------------------------------------------------- */

/* 1 if key equals one of the --api-keys; every listed key is compared in
 * full, so that the time taken says nothing about how much of one matched. */
static int key_listed(const server *s, const char *key, size_t len)
{
	int listed = 0;
	for (int i = 0; i < s->n_api_keys; i++) {
		size_t n = strlen(s->api_keys[i]);
		unsigned char diff = n != len;
		for (size_t k = 0; k < n; k++)
			diff |= (unsigned char)(s->api_keys[i][k] ^ (k < len ? key[k] : 0));
		listed |= diff == 0;
	}
	return listed;
}

/* LibreTranslate's access check with --api-keys: no key is a 400 asking for
 * one, a key not listed a 403. 0 when the request may go on. */
static int check_access(const server *s, params *p, char *why, size_t whylen)
{
	const char *key;
	size_t len;
	if (s->n_api_keys == 0)
		return 0;
	int rc = param(p, "api_key", &key, &len);
	if (rc < 0) {
		snprintf(why, whylen, "Invalid request: malformed parameters");
		return 400;
	}
	if (rc == 0 || len == 0) {
		snprintf(why, whylen, "Please contact the server operator to get an API key");
		return 400;
	}
	if (!key_listed(s, key, len)) {
		snprintf(why, whylen, "Invalid API key");
		return 403;
	}
	return 0;
}

/* ---- /translate ------------------------------------------------------------------- */

/* The request's fields, from any of the parameter sources. */
typedef struct {
	const char *source, *target, *format;
	const char *const *texts;
	const size_t *lens;
	int count, is_array;
	long alternatives;
	const char *q_text;      /* q when it is one string */
	size_t q_len;
	char src[16], tgt[16];   /* source and target as LibreTranslate reads codes */
	detection detected;      /* source auto: the language found (source then names it) */
	int auto_detect;
} fields;

/* A language code as LibreTranslate's iso2model reads it: lowercased, and
 * its alias (zh-Hans) for the code nmt's models use (zh). Codes too long
 * for any model stay as given, to be named in "... is not supported". */
static const char *language_code(const char *code, char out[16])
{
	size_t n = strlen(code);
	if (n >= 16)
		return code;
	for (size_t i = 0; i <= n; i++)
		out[i] = (char)tolower((unsigned char)code[i]);
	if (strcmp(out, "zh-hans") == 0)
		strcpy(out, "zh");
	return out;
}

/* q: a string, or in JSON an array of strings. 0, or the status with *why. */
static int read_q(params *p, fields *f, char *why, size_t whylen)
{
	const json_member *q = p->kind == BODY_JSON ? json_get(&p->json, "q") : NULL;
	if (q && q->kind == JSON_STRINGS) {
		f->texts = (const char *const *)q->items;
		f->lens = q->item_lens;
		f->count = q->n_items;
		f->is_array = 1;
	} else if (q && q->kind != JSON_STRING) {
		snprintf(why, whylen, "Invalid request: q must be a string or an array of strings");
		return 400;
	} else if (param(p, "q", &f->q_text, &f->q_len) < 0) {
		snprintf(why, whylen, "Invalid request: malformed parameters");
		return 400;
	}
	if (f->q_text) {
		f->texts = &f->q_text;
		f->lens = &f->q_len;
		f->count = 1;
	}
	return 0;
}

/* 0, or the status with *why */
static int read_fields(params *p, fields *f, char *why, size_t whylen)
{
	static const char *const names[] = { "source", "target", "format" };
	const char **dest[] = { &f->source, &f->target, &f->format };
	size_t len;
	for (int i = 0; i < 3; i++)
		if (param(p, names[i], dest[i], &len) < 0)
			goto malformed;
	if (f->source)
		f->source = language_code(f->source, f->src);
	if (f->target)
		f->target = language_code(f->target, f->tgt);
	int status = read_q(p, f, why, whylen);
	if (status != 0)
		return status;
	if (param_alternatives(p, &f->alternatives) != 0) {
		snprintf(why, whylen, "Invalid request: alternatives parameter is not a number");
		return 400;
	}
	return 0;
malformed:
	snprintf(why, whylen, "Invalid request: malformed parameters");
	return 400;
}

/* "... is not supported" naming the language no model serves, 0 when
 * there is a way from f->source to f->target (its models in chain), or
 * (*hops 0) both are the same served language, whose texts are answered
 * unchanged as LibreTranslate's identity translation answers them. */
static int check_pair(const server *s, const fields *f, int chain[2], int *hops, char *why, size_t whylen)
{
	const char *codes[2 * MAX_MODELS];
	int n = languages(s, codes), known_src = 0, known_tgt = 0;
	for (int i = 0; i < n; i++) {
		known_src |= strcmp(codes[i], f->source) == 0;
		known_tgt |= strcmp(codes[i], f->target) == 0;
	}
	if ((*hops = route(s, f->source, f->target, chain)) > 0 || (known_src && strcmp(f->source, f->target) == 0))
		return 0;
	if (f->auto_detect && known_src && known_tgt) {   /* LibreTranslate's words when no translator reads it */
		snprintf(why, whylen, "%.40s (%.40s) is not available as a target language from %.40s (%.40s)",
			 language_name(f->target), f->target, language_name(f->source), f->source);
		return 400;
	}
	const char *which = !known_src ? f->source : !known_tgt ? f->target : "this language pair";
	snprintf(why, whylen, "%.40s is not supported", which);
	return 400;
}

/* source auto: the language of the texts, as LibreTranslate finds it (all
 * of them together), becomes the source. 0, or the status with *why. */
static int detect_source(const server *s, fields *f, char *why, size_t whylen)
{
	if (!s->has_langid) {
		snprintf(why, whylen, "language detection is not available: this build embeds no language profile");
		return 500;
	}
	detection *d = malloc((size_t)f->count * DETECT_TOP * sizeof *d);
	if (!d) {
		snprintf(why, whylen, "out of memory");
		return 500;
	}
	detect_languages(s, f->texts, f->lens, f->count, f->is_array, d);
	f->detected = d[0];
	f->source = d[0].code;
	f->auto_detect = 1;
	free(d);
	return 0;
}

/* The checks LibreTranslate makes, in its order: 0, or the status with *why. */
static int check_fields(const server *s, fields *f, int chain[2], int *hops, char *why, size_t whylen)
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
	if (f->alternatives > ALTERNATIVES_LIMIT) {
		snprintf(why, whylen, "Invalid request: alternatives parameter must be <= %d", ALTERNATIVES_LIMIT);
		return 400;
	}
	if (f->format && strcmp(f->format, "text") != 0 && strcmp(f->format, "html") != 0) {
		snprintf(why, whylen, "Invalid request: format must be text or html, not %.40s", f->format);
		return 400;
	}
	if (strcmp(f->source, "auto") == 0) {
		int status = detect_source(s, f, why, whylen);
		if (status != 0)
			return status;
	}
	return check_pair(s, f, chain, hops, why, whylen);
}

/* POST /translate */
static int handle_translate(server *s, params *p, server_buf *out, char *why, size_t whylen)
{
	fields f = { 0 };
	int chain[2], hops = 0, status = check_access(s, p, why, whylen);
	if (status == 0)
		status = read_fields(p, &f, why, whylen);
	if (status == 0)
		status = check_fields(s, &f, chain, &hops, why, whylen);
	if (status == 0) {
		if (f.alternatives < 0)
			f.alternatives = 0;   /* LibreTranslate's max(0, n) */
		int html = f.format && strcmp(f.format, "html") == 0;
		request_texts q = { f.texts, f.lens, f.count, html, f.alternatives, f.auto_detect ? &f.detected : NULL };
		const char *fail = NULL;
		if (hops == 0)
			translation_body(NULL, &q, f.is_array, out);
		else if ((status = translate(s, chain, hops, &q, f.is_array, out, &fail)) != 0)
			snprintf(why, whylen, "%s", fail);
	}
	return status;
}

/* POST /detect: LibreTranslate's list of the languages q may be in, best
 * first: [{"confidence": 0..100, "language": code}, ...], at most three for
 * a string (one entry a language, over all texts, for an array), after the
 * same access check as /translate. */
static int handle_detect(const server *s, params *p, server_buf *out, char *why, size_t whylen)
{
	fields f = { 0 };
	int status = check_access(s, p, why, whylen);
	if (status == 0)
		status = read_q(p, &f, why, whylen);
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
	detection *d = malloc((size_t)f.count * DETECT_TOP * sizeof *d);
	if (!d) {
		snprintf(why, whylen, "out of memory");
		return 500;
	}
	int n = detect_languages(s, f.texts, f.lens, f.count, f.is_array, d);
	server_buf_puts(out, "[");
	for (int i = 0; i < n; i++) {
		server_buf_puts(out, i ? "," : "");
		detection_json(out, &d[i]);
	}
	server_buf_puts(out, "]");
	free(d);
	return 0;
}

/* POST /suggest: LibreTranslate's answer on a server whose suggestions
 * are off, after the same access check as /translate. */
static int handle_suggest(const server *s, params *p, char *why, size_t whylen)
{
	int status = check_access(s, p, why, whylen);
	if (status == 0) {
		snprintf(why, whylen, "Suggestions are disabled on this server.");
		status = 403;
	}
	return status;
}

/* GET /frontend/settings: LibreTranslate's fields with nmt's values: as
 * charLimit the body limit (no text of more characters than the body has
 * bytes can arrive; not -1, LibreTranslate's "no limit", which GNOME
 * Dialect 2.1 takes for a limit and crashes on as one types), no
 * suggestions, no files, and the first model's pair as the default
 * languages. */
static void settings_body(const server *s, server_buf *b)
{
	const char *src = s->models[0].src, *tgt = s->models[0].tgt;
	server_buf_printf(b,
			  "{\"charLimit\":%zu,\"frontendTimeout\":500,\"apiKeys\":%s,\"keyRequired\":%s,"
			  "\"suggestions\":false,\"filesTranslation\":false,\"supportedFilesFormat\":[],"
			  "\"language\":{\"source\":{\"code\":",
			  s->max_body, s->n_api_keys ? "true" : "false", s->n_api_keys ? "true" : "false");
	server_buf_json_string(b, src, strlen(src));
	server_buf_puts(b, ",\"name\":");
	server_buf_json_string(b, language_name(src), strlen(language_name(src)));
	server_buf_puts(b, "},\"target\":{\"code\":");
	server_buf_json_string(b, tgt, strlen(tgt));
	server_buf_puts(b, ",\"name\":");
	server_buf_json_string(b, language_name(tgt), strlen(language_name(tgt)));
	server_buf_puts(b, "}}}");
}

/* The routes: path, method, and what answers it. */
typedef enum {
	ROUTE_LANGUAGES, ROUTE_TRANSLATE, ROUTE_DETECT, ROUTE_SUGGEST, ROUTE_HEALTH, ROUTE_SETTINGS, ROUTE_SPEC,
	ROUTE_PAGE, ROUTE_INDEX
} route_id;

static const struct {
	const char *path, *method;
} routes[] = {
	[ROUTE_LANGUAGES] = { "/languages", "GET" },  [ROUTE_TRANSLATE] = { "/translate", "POST" },
	[ROUTE_DETECT] = { "/detect", "POST" },
	[ROUTE_SUGGEST] = { "/suggest", "POST" },     [ROUTE_HEALTH] = { "/health", "GET" },
	[ROUTE_SETTINGS] = { "/frontend/settings", "GET" }, [ROUTE_SPEC] = { "/spec", "GET" },
	[ROUTE_PAGE] = { "/", "GET" },                [ROUTE_INDEX] = { "/index.html", "GET" },
};

/* Answer a request that is not OPTIONS into out: its status, with *why
 * for an error; *page set when out is the page (HTML), not JSON. */
static int dispatch(server *s, const http_request *r, const char *head, const char *body, size_t body_len,
		    server_buf *out, int *page, char *why, size_t whylen)
{
	int id = -1;
	for (int i = 0; i < (int)(sizeof routes / sizeof *routes) && id < 0; i++)
		if (strcmp(r->path, routes[i].path) == 0)
			id = i;
	if (id < 0)
		return 404;
	/* POST /languages too, as LibreTranslate's earlier releases took it (clients
	 * written then, e.g. older libretranslatepy, still post it) */
	if (strcmp(r->method, routes[id].method) != 0 && !(id == ROUTE_LANGUAGES && strcmp(r->method, "POST") == 0))
		return 405;
	if (id == ROUTE_LANGUAGES) {
		languages_body(s, out);
	} else if (id == ROUTE_HEALTH) {
		server_buf_puts(out, "{\"status\":\"ok\"}");
	} else if (id == ROUTE_SETTINGS) {
		settings_body(s, out);
	} else if (id == ROUTE_SPEC) {
		server_buf_puts(out, server_spec_json);
	} else if (id == ROUTE_PAGE || id == ROUTE_INDEX) {
		server_buf_add(out, server_page, server_page_size);
		*page = 1;
	} else {
		params p;
		int status = params_open(r, head, body, body_len, &p, why, whylen);
		if (status == 0)
			status = id == ROUTE_TRANSLATE ? handle_translate(s, &p, out, why, whylen)
				 : id == ROUTE_DETECT  ? handle_detect(s, &p, out, why, whylen)
						       : handle_suggest(s, &p, why, whylen);
		params_free(&p);
		return status;
	}
	return 0;
}

/* ---- connections ----------------------------------------------------------------- */

/* Wait until fd is readable or the deadline passes (or the server stops
 * while idle): 1 readable, 0 timed out, -1 stopping. */
static int wait_readable(server *s, int fd, long long deadline, int idle)
{
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = poll(&p, 1, (int)(left < 200 ? left : 200));
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return 0;
		if (idle && __atomic_load_n(&s->stopping, __ATOMIC_SEQ_CST))
			return -1;
	}
}

/* Read until buf holds `want` bytes: 1 done, 0 peer closed or deadline, -1 stopping. */
static int read_until(server *s, connection *c, server_buf *in, size_t want, long long deadline, int idle, int *timed_out)
{
	char chunk[16384];
	while (in->len < want) {
		int ready = wait_readable(s, c->fd, deadline, idle && in->len == 0);
		if (ready <= 0) {
			*timed_out = ready == 0;
			return ready;
		}
		size_t room = want - in->len < sizeof chunk ? want - in->len : sizeof chunk;
		ssize_t k = recv(c->fd, chunk, room, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		server_buf_add(in, chunk, (size_t)k);
		if (in->failed)
			return 0;
		if (want == (size_t)-1)   /* reading a head: one read at a time */
			return 1;
	}
	return 1;
}

/* One request on c; 1 to keep the connection open, 0 to close it. */
static int serve_request(server *s, connection *c, server_buf *in)
{
	long long start = now_ms(), deadline = start + s->idle_ms;
	http_request r;
	long head;
	int timed_out = 0;
	while ((head = http_parse_head(in->data ? in->data : "", in->len, s->max_head, &r)) == 0) {
		int got = read_until(s, c, in, (size_t)-1, deadline, 1, &timed_out);
		if (got <= 0) {
			if (timed_out && in->len > 0)
				respond_error(c->fd, 408, "Request Timeout: the request did not arrive in time", 0);
			return 0;
		}
		if (in->len > 0 && deadline == start + s->idle_ms)
			deadline = now_ms() + s->timeout_ms;   /* the request has begun */
	}
	if (head < 0) {
		int status = (int)-head;
		respond_error(c->fd, status, status == 431 ? "Request header too large" : status == 501
				? "Transfer-Encoding is not supported: send Content-Length" : status == 505
				? "HTTP version not supported" : "Bad Request: malformed HTTP", 0);
		return 0;
	}
	size_t body_len = r.content_length > 0 ? (size_t)r.content_length : 0;
	if (r.content_length > (long long)s->max_body) {
		char why[96];
		snprintf(why, sizeof why, "Request body too large (at most %zu bytes)", s->max_body);
		respond_error(c->fd, 413, why, 0);
		return 0;
	}
	if (read_until(s, c, in, (size_t)head + body_len, deadline, 0, &timed_out) <= 0) {
		if (timed_out)
			respond_error(c->fd, 408, "Request Timeout: the body did not arrive in time", 0);
		return 0;
	}
	int keep = r.keep_alive && !__atomic_load_n(&s->stopping, __ATOMIC_SEQ_CST);
	const char *body = in->data + head;
	server_buf out = { 0 };
	char why[256] = "";
	int status = 200, page = 0;
	if (strcmp(r.method, "OPTIONS") == 0)
		status = 204;
	else if ((status = dispatch(s, &r, in->data, body, body_len, &out, &page, why, sizeof why)) == 0)
		status = 200;
	int rc;
	if (out.failed) {
		rc = respond_error(c->fd, 500, "out of memory", 0);
		keep = 0;
	} else if (status == 200 || status == 204) {
		rc = respond_as(c->fd, status, page ? PAGE_HEADERS : JSON_HEADERS, out.data ? out.data : "", out.len, keep);
	} else {
		rc = respond_error(c->fd, status, why[0] ? why : http_reason(status), keep);
	}
	server_buf_free(&out);
	/* what follows this request (a pipelined next one) stays in the buffer */
	size_t used = (size_t)head + body_len;
	memmove(in->data, in->data + used, in->len - used);
	in->len -= used;
	return rc == 0 && keep;
}

static void *connection_main(void *arg)
{
	connection *c = arg;
	server *s = c->srv;
	server_buf in = { 0 };
	while (serve_request(s, c, &in))
		;
	server_buf_free(&in);
	close(c->fd);
	pthread_mutex_lock(&s->lock);
	s->connections--;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	free(c);
	return NULL;
}

static void start_connection(server *s, int fd)
{
	struct timeval send_limit = { .tv_sec = s->timeout_ms / 1000, .tv_usec = 0 };
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_limit, sizeof send_limit);
	pthread_mutex_lock(&s->lock);
	int full = s->connections >= s->max_connections;
	if (!full)
		s->connections++;
	pthread_mutex_unlock(&s->lock);
	if (full) {
		respond_error(fd, 503, "Too many connections: try again later", 0);
		close(fd);
		return;
	}
	connection *c = malloc(sizeof *c);
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 1 << 20);
	if (c) {
		*c = (connection){ s, fd };
		if (pthread_create(&t, &attr, connection_main, c) == 0) {
			pthread_attr_destroy(&attr);
			return;
		}
	}
	pthread_attr_destroy(&attr);
	free(c);
	respond_error(fd, 503, "Service Unavailable: out of resources", 0);
	close(fd);
	pthread_mutex_lock(&s->lock);
	s->connections--;
	pthread_mutex_unlock(&s->lock);
}

/* ---- setting up ------------------------------------------------------------------- */

/* The listening socket on a numeric address (IPv4, IPv6, or "localhost"):
 * no name lookup, which would pull a resolver into the static binary for
 * an address a server is given by number anyway. */
static int listen_on(const char *host, int port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	const char *h = strcmp(host, "localhost") == 0 ? "127.0.0.1" : host;
	int v6 = strchr(h, ':') != NULL;
	if ((v6 ? inet_pton(AF_INET6, h, &a6.sin6_addr) : inet_pton(AF_INET, h, &a4.sin_addr)) != 1) {
		fprintf(stderr, "nmt: serve: --host %s is not a numeric IPv4 or IPv6 address\n", host);
		return -1;
	}
	int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
	struct sockaddr *addr = v6 ? (struct sockaddr *)&a6 : (struct sockaddr *)&a4;
	socklen_t len = v6 ? sizeof a6 : sizeof a4;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 || bind(fd, addr, len) != 0 ||
	    listen(fd, 128) != 0 || getsockname(fd, addr, &len) != 0) {
		fprintf(stderr, "nmt: serve: cannot listen on %s port %d: %s\n", host, port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The port a listening socket got (what --port 0 chose). */
static int bound_port(int fd)
{
	struct sockaddr_in6 a;
	socklen_t len = sizeof a;
	if (getsockname(fd, (struct sockaddr *)&a, &len) != 0)
		return -1;
	return ntohs(a.sin6_family == AF_INET6 ? a.sin6_port : ((struct sockaddr_in *)&a)->sin_port);
}

static void add_model(server *s, nmt_model *m)
{
	if (s->n_models == MAX_MODELS)
		usage_error("serve: at most %s models", "32");
	served_model *sm = &s->models[s->n_models++];
	sm->model = m;
	if (nmt_model_metadata_value(m, "src_lang", sm->src, sizeof sm->src) != NMT_OK)
		strcpy(sm->src, "und");
	if (nmt_model_metadata_value(m, "tgt_lang", sm->tgt, sizeof sm->tgt) != NMT_OK)
		strcpy(sm->tgt, "und");
}

static void open_models(server *s, char **paths, int n_paths)
{
	nmt_error err;
	nmt_model *m;
	for (int i = 0; i < n_paths; i++) {
		if (nmt_model_open(paths[i], 0, &m, &err) != NMT_OK) {
			fprintf(stderr, "nmt: %s\n", err.message);
			exit(1);
		}
		add_model(s, m);
	}
	if (n_paths > 0)
		return;
	cli_catalog c;   /* no -m: every installed model, and the embedded one */
	char *path = cli_catalog_search_path();
	if (!path || cli_catalog_scan(&c, path, 1, NULL) != 0) {
		fprintf(stderr, "nmt: out of memory\n");
		exit(1);
	}
	free(path);
	for (int i = 0; i < c.n && s->n_models < MAX_MODELS; i++)
		if (find_model(s, c.entries[i].src, c.entries[i].tgt) < 0 && cli_catalog_open(&c.entries[i], &m, &err) == NMT_OK)
			add_model(s, m);
	cli_catalog_free(&c);
	if (s->n_models == 0) {
		fprintf(stderr, "nmt: serve: no model to serve (give -m MODEL)\n");
		exit(1);
	}
}

/* --api-keys FILE: one key a line (surrounding spaces and empty lines
 * ignored). Exits with a message when it cannot be read or lists none. */
static void read_api_keys(server *s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		error_exit("nmt: serve", 1, "--api-keys %s: %s", path, strerror(errno));
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		char *k = line;
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		while (isspace((unsigned char)*k))
			k++;
		if (!*k)
			continue;
		char **grown = realloc(s->api_keys, (size_t)(s->n_api_keys + 1) * sizeof *grown);
		char *key = strdup(k);
		if (!grown || !key)
			error_exit("nmt: serve", 1, "out of memory");
		s->api_keys = grown;
		s->api_keys[s->n_api_keys++] = key;
	}
	fclose(f);
	if (s->n_api_keys == 0)
		error_exit("nmt: serve", 1, "--api-keys %s lists no key", path);
}

static long number_arg(const char *s, const char *what, long lo, long hi)
{
	long v;
	if (number_parse_long(s, lo, hi, &v) != 0)
		error_exit("nmt: serve", 2, "%s must be an integer in %ld..%ld, not \"%s\"", what, lo, hi, s);
	return v;
}

static void serve_usage(FILE *f)
{
	fputs("usage: nmt serve [--host 127.0.0.1] [--port 5000] [-t N] [-m MODEL]... [options]\n"
	      "Answers LibreTranslate's API: POST /translate (q, source or auto, target, format, alternatives,\n"
	      "api_key), POST /detect (q, api_key), GET /languages, /health, /frontend/settings, /spec,\n"
	      "POST /suggest; a translation page at GET /.\n"
	      "  -m, --model FILE     a model to serve (repeatable; default: every installed model)\n"
	      "  -t, --threads N      translations at once (default: one per core)\n"
	      "  -b, --beam N         beam size (default 4)\n"
	      "      --max-body N     largest request body in bytes (default 1048576)\n"
	      "      --max-connections N  connections at once (default 64)\n"
	      "      --timeout S      seconds a request may take to arrive (default 10)\n"
	      "      --api-keys FILE  accept only requests whose api_key is a line of FILE\n"
	      "  -q, --quiet          no line on stderr when listening\n",
	      f);
}

int server_main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "host", required_argument, NULL, 'H' },     { "port", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },  { "model", required_argument, NULL, 'm' },
		{ "beam", required_argument, NULL, 'b' },     { "max-body", required_argument, NULL, 'B' },
		{ "max-connections", required_argument, NULL, 'C' }, { "timeout", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },          { "help", no_argument, NULL, 'h' },
		{ "api-keys", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	static server s;   /* large (the worker table); one per process */
	const char *host = "127.0.0.1";
	int port = 5000;
	char *paths[MAX_MODELS];
	int n_paths = 0, c;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	nmt_options_init(&s.options);
	s.n_workers = cores < 1 ? 1 : cores > NMT_MAX_THREADS ? NMT_MAX_THREADS : (int)cores;
	s.max_head = 16384;
	s.max_body = 1 << 20;
	s.max_connections = 64;
	s.timeout_ms = 10000;
	s.idle_ms = 15000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:t:b:qh", longs, NULL)) != -1) {
		switch (c) {
		case 'H': host = optarg; break;
		case 'p': port = (int)number_arg(optarg, "--port", 0, 65535); break;
		case 't': s.n_workers = (int)number_arg(optarg, "--threads", 1, NMT_MAX_THREADS); break;
		case 'b': s.options.beam = (int)number_arg(optarg, "--beam", 1, NMT_MAX_BEAM); break;
		case 'B': s.max_body = (size_t)number_arg(optarg, "--max-body", 1, 1L << 30); break;
		case 'C': s.max_connections = (int)number_arg(optarg, "--max-connections", 1, 100000); break;
		case 'T': s.timeout_ms = 1000 * (int)number_arg(optarg, "--timeout", 1, 3600); break;
		case 'q': s.quiet = 1; break;
		case 'K': read_api_keys(&s, optarg); break;
		case 'm':
			if (n_paths == MAX_MODELS)
				usage_error("serve: at most %s models", "32");
			paths[n_paths++] = optarg;
			break;
		case 'h': serve_usage(stdout); return 0;
		case ':': usage_error("serve: option %s needs a value (try nmt serve --help)", argv[optind - 1]);
		default: usage_error("serve: unknown option %s (try nmt serve --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("serve: unexpected argument \"%s\"", argv[optind]);
	open_models(&s, paths, n_paths);
	open_langid(&s);
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.changed, NULL);
	int fd = listen_on(host, port);
	if (fd < 0 || pipe(stop_pipe) != 0)
		return 1;
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (!s.quiet)
		fprintf(stderr, "nmt: serving %d model%s on http://%s:%d with %d thread%s\n", s.n_models,
			s.n_models == 1 ? "" : "s", host, bound_port(fd), s.n_workers, s.n_workers == 1 ? "" : "s");
	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = stop_pipe[0], .events = POLLIN } };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		int client = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
		if (client >= 0)
			start_connection(&s, client);
	}
	/* stopping: no new connections; those open finish the request they are in */
	close(fd);
	pthread_mutex_lock(&s.lock);
	__atomic_store_n(&s.stopping, 1, __ATOMIC_SEQ_CST);
	while (s.connections > 0)
		pthread_cond_wait(&s.changed, &s.lock);
	pthread_mutex_unlock(&s.lock);
	for (int w = 0; w < s.n_workers; w++)
		for (int i = 0; i < s.n_models; i++)
			nmt_session_free(s.workers[w].sessions[i]);
	for (int i = 0; i < s.n_models; i++)
		nmt_model_close(s.models[i].model);
	for (int i = 0; i < s.n_api_keys; i++)
		free(s.api_keys[i]);
	free(s.api_keys);
	if (!s.quiet)
		fprintf(stderr, "nmt: serve: stopped\n");
	return 0;
}
