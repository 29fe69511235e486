/* nmt serve's modules share this header (docs/SERVER.md): the server's
 * state, built once by server_main (serve.c) and handed to every
 * connection, and what each module offers the others:
 *
 *   respond.c     answers: the status line, CORS headers, {"error": ...}
 *   params.c      a request's parameters (JSON, query, form, multipart), the API key check
 *   languages.c   language names and codes, which models make a way from one to another, /languages
 *   detect.c      language detection as LibreTranslate answers it, /detect
 *   translate.c   the worker slots, /translate's fields, checks and answer
 *   translate_file.c  /translate_file and /download_file: files translated whole
 *   files.c       the translated files, kept in memory until downloaded or expired
 *   routes.c      the route table and the small routes (/health, /frontend/settings, /spec, /, /suggest)
 *   connection.c  reading requests from a connection and answering them, a thread each
 *   serve.c       server_main: options, models, the API key file, the accept loop
 *
 * Everything mutable lives in the server struct (the stop signal's pipe
 * aside), guarded by its lock. */
#ifndef SERVER_SERVER_INTERNAL_H
#define SERVER_SERVER_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/json.h"
#include "../nmt.h"
#include "../text/langid.h"
#include "buf.h"
#include "http.h"

#define SERVER_MAX_MODELS 32
/* LibreTranslate's default --alternatives-limit */
#define SERVER_ALTERNATIVES_LIMIT 3

typedef struct {
	nmt_model *model;
	char src[16], tgt[16];
} server_model;

/* A worker slot: one session per model, used by one request at a time. */
typedef struct {
	nmt_session *sessions[SERVER_MAX_MODELS];
	int busy;
} server_worker;

/* The translated files (files.c): at most SERVER_FILES_MAX of them and
 * max_bytes in all, each for SERVER_FILES_TTL_MS; the oldest go first. */
#define SERVER_FILES_MAX 64
#define SERVER_FILES_MIN_BYTES ((size_t)64 << 20)   /* max_bytes: this, or twice --max-body if more */
#define SERVER_FILES_TTL_MS (30 * 60 * 1000)        /* LibreTranslate removes its files after 30 minutes */
#define SERVER_FILE_ID_BYTES 16                     /* the random part of a name: 128 bits */
#define SERVER_FILE_DOWNLOAD_MAX 127                /* the longest name a download is saved under */
#define SERVER_FILE_NAME_MAX (2 * SERVER_FILE_ID_BYTES + 1 + SERVER_FILE_DOWNLOAD_MAX + 1)

typedef struct {
	char name[SERVER_FILE_NAME_MAX];   /* 32 random hex digits, '.', the name it is saved under */
	char *data;
	size_t len;
	int html;                          /* text/html, else text/plain */
	long long created_ms;              /* server_now_ms() when kept */
} server_file;

typedef struct {
	pthread_mutex_t lock;
	server_file files[SERVER_FILES_MAX];   /* oldest first */
	int n;
	size_t bytes, max_bytes;
} server_files;

typedef struct {
	server_model models[SERVER_MAX_MODELS];
	int n_models;
	server_worker workers[NMT_MAX_THREADS];
	int n_workers;
	nmt_options options;          /* beam and the rest, as nmt's defaults */
	size_t max_head, max_body;
	int max_connections, timeout_ms, idle_ms, quiet;
	pthread_mutex_t lock;
	pthread_cond_t changed;       /* a worker freed, or a connection closed */
	int connections;
	int threads_in;               /* connection threads that may still touch the server (atomic):
	                               * it is freed once none does */
	int stopping;                 /* SIGTERM/SIGINT: answer what is in flight, then exit */
	char **api_keys;              /* --api-keys: a request must name one of them */
	int n_api_keys;
	text_langid langid;           /* the embedded language profile (cli/detect.h) */
	int has_langid;               /* 0: none embedded, /detect and source auto answer 500 */
	uint64_t detect_langs;        /* the candidates: the served languages the profile knows */
	server_files files;           /* POST /translate_file's results */
	char address[80];             /* host:port listened on, for a request without a Host header */
} server_state;

/* At most this many guesses for a text (LibreTranslate's langdetect top 3). */
#define SERVER_DETECT_TOP 3

/* A language LibreTranslate's detect_languages gives: its code, the
 * confidence in 0..100, and the characters of the texts it was found in. */
typedef struct {
	const char *code;
	double confidence;
	double length;
} server_detection;

/* A request as the routes see it. */
typedef struct {
	const server_http_request *http;
	const char *head;             /* the head's bytes, where the query string lies */
	const char *body;
	size_t body_len;
} server_request;

/* Room for the header lines of an answer (server_dispatch's headers). */
#define SERVER_HEADERS_MAX 512

/* ---- respond.c ---- */

/* The page's headers (GET /): HTML, and a Content-Security-Policy that
 * lets it run only its own inline script and style and talk only to this
 * server (no other origin, no frames, no forms sent anywhere). */
#define SERVER_PAGE_HEADERS                                                                                   \
	"Content-Type: text/html; charset=utf-8\r\n"                                                          \
	"Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " \
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n"                \
	"X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n"
#define SERVER_JSON_HEADERS "Content-Type: application/json\r\n"

/* Send an answer: the status, the given header lines (each ending in
 * CRLF), Content-Length, the CORS headers, Connection, then the body.
 * 0, or -1 when the peer is gone. */
int server_respond(int fd, int status, const char *headers, const char *body, size_t body_len, int keep_alive);
/* LibreTranslate's error answer: the status and {"error": message}. */
int server_respond_error(int fd, int status, const char *message, int keep_alive);

/* ---- params.c ---- */

/* Where a request's parameters come from, as LibreTranslate reads them: a
 * JSON body alone, or else the query string and then a form or multipart
 * body (Flask's request.values). */
typedef enum { SERVER_BODY_NONE, SERVER_BODY_JSON, SERVER_BODY_FORM, SERVER_BODY_MULTIPART } server_body_kind;

#define SERVER_MAX_OWNED 8

typedef struct {
	const char *query, *body, *boundary;
	size_t query_len, body_len;
	server_body_kind kind;
	json_object json;
	char *owned[SERVER_MAX_OWNED];   /* decoded values, freed with the params */
	int n_owned;
} server_params;

/* 0, or the status with *why: the body's kind from its Content-Type (a body
 * without one is read as JSON, as before query strings were read). p is to
 * be freed with server_params_free either way. */
int server_params_open(const server_http_request *r, const char *head, const char *body, size_t len, server_params *p,
		       char *why, size_t whylen);
void server_params_free(server_params *p);
/* The string parameter name: 1 with *v (NUL-terminated, *len bytes), 0 if
 * absent, -1 if the query or body is malformed (or memory ran out). In
 * JSON, a member that is not a string counts as absent. */
int server_param(server_params *p, const char *name, const char **v, size_t *len);
/* The alternatives parameter: 0 absent (or JSON null) or read into *n, -1
 * not a number. */
int server_param_alternatives(server_params *p, long *n);
/* LibreTranslate's access check with --api-keys: no key is a 400 asking for
 * one, a key not listed a 403. 0 when the request may go on. */
int server_check_access(const server_state *s, server_params *p, char *why, size_t whylen);

/* A request's texts and languages, from any of the parameter sources. */
typedef struct {
	const char *source, *target, *format;
	const char *const *texts;
	const size_t *lens;
	int count, is_array;
	long alternatives;
	const char *q_text;        /* q when it is one string */
	size_t q_len;
	char src[16], tgt[16];     /* source and target as LibreTranslate reads codes */
	server_detection detected; /* source auto: the language found (source then names it) */
	int auto_detect;
} server_fields;

/* q: a string, or in JSON an array of strings. 0, or the status with *why. */
int server_read_q(server_params *p, server_fields *f, char *why, size_t whylen);
/* source and target (each may be absent), as LibreTranslate reads language
 * codes (server_language_code, into f->src and f->tgt): 0, or -1 if the
 * parameters are malformed. */
int server_read_languages(server_params *p, server_fields *f);

/* ---- languages.c ---- */

/* English name of a language code, or the code itself when unknown. */
const char *server_language_name(const char *code);
/* A language code as LibreTranslate's iso2model reads it (lowercased,
 * zh-Hans for zh), written into out; a code too long stays as given. */
const char *server_language_code(const char *code, char out[16]);
/* The model from src to tgt, or -1. */
int server_find_model(const server_state *s, const char *src, const char *tgt);
/* The models from src to tgt: one, or two through English. 0 if none. */
int server_route(const server_state *s, const char *src, const char *tgt, int chain[2]);
/* Every language a model reads or writes, each once, in order of appearance. */
int server_languages(const server_state *s, const char *codes[2 * SERVER_MAX_MODELS]);
/* 1 if a model reads or writes the language code. */
int server_language_served(const server_state *s, const char *code);
/* GET /languages */
void server_languages_body(const server_state *s, server_buf *b);

/* ---- detect.c ---- */

/* Open the embedded language profile with the served languages it knows as
 * the candidates; without one, s->has_langid stays 0. */
void server_open_langid(server_state *s);
/* LibreTranslate's detect_languages over texts[0..count) (batch: q was an
 * array): writes out[] (room for count * SERVER_DETECT_TOP) and returns how
 * many, best first; out holds at least one. */
int server_detect_languages(const server_state *s, const char *const *texts, const size_t *lens, int count, int batch,
			    server_detection *out);
/* {"confidence":90.0,"language":"de"} */
void server_detection_json(server_buf *b, const server_detection *d);

/* ---- translate.c ---- */

/* Translate texts[0..count) along chain (hops models: one, or two through
 * English) with options o, on a worker slot (waiting for one), into *r. */
nmt_status server_translate_batch(server_state *s, const int chain[2], int hops, const nmt_options *o,
				  const char *const *texts, const size_t *lens, int count, nmt_result **r);
/* source auto: the language of f's texts becomes f->source. 0, or the status with *why. */
int server_detect_source(const server_state *s, server_fields *f, char *why, size_t whylen);
/* The way from f->source to f->target: 0 with chain and *hops (0: the same
 * served language, its texts answered unchanged), or 400 with *why naming
 * what is not supported. */
int server_check_pair(const server_state *s, const server_fields *f, int chain[2], int *hops, char *why, size_t whylen);

/* POST /translate, POST /detect: 0 with the answer in out, or the status
 * with *why. */
int server_handle_translate(server_state *s, server_params *p, server_buf *out, char *why, size_t whylen);
int server_handle_detect(const server_state *s, server_params *p, server_buf *out, char *why, size_t whylen);

/* ---- translate_file.c ---- */

#define SERVER_DOWNLOAD_PREFIX "/download_file/"

/* POST /translate_file: 0 with {"translatedFileUrl": ...} in out, or the
 * status with *why. */
int server_handle_translate_file(server_state *s, server_params *p, const server_http_request *r, server_buf *out,
				 char *why, size_t whylen);
/* GET /download_file/NAME: 0 with the file in out and its header lines in
 * headers, or the status with *why. */
int server_handle_download(server_state *s, const char *name, server_buf *out, char headers[SERVER_HEADERS_MAX],
			   char *why, size_t whylen);
/* The extensions /translate_file takes, as a JSON array (/frontend/settings). */
void server_file_formats_json(server_buf *b);

/* ---- files.c ---- */

void server_files_init(server_files *f, size_t max_bytes);
void server_files_free(server_files *f);
/* Keep data[0..len) (malloc'd; the store owns it from here, even on
 * failure) as a file saved under download_name: 0 with its new name, or
 * -1 when it is larger than the store or no random name can be drawn.
 * Older files make room. */
int server_files_put(server_files *f, const char *download_name, int html, char *data, size_t len,
		     char name[SERVER_FILE_NAME_MAX]);
/* The file called name: 1 with a copy of it appended to out, *html and the
 * name it is saved under; 0 if there is none (never made, or expired). */
int server_files_get(server_files *f, const char *name, server_buf *out, int *html, char *download_name,
		     size_t download_len);

/* ---- routes.c ---- */

/* Answer a request that is not OPTIONS: its status (0 for 200), with the
 * body in out and its header lines in headers (JSON's unless a route says
 * otherwise), or *why for an error. */
int server_dispatch(server_state *s, const server_request *q, server_buf *out, char headers[SERVER_HEADERS_MAX],
		    char *why, size_t whylen);

/* ---- connection.c ---- */

/* Milliseconds on the monotonic clock. */
long long server_now_ms(void);

/* Serve the accepted connection fd on a thread of its own (or refuse it
 * with a 503 past --max-connections); it is closed when done. */
void server_start_connection(server_state *s, int fd);

#endif
