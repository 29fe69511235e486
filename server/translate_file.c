/* POST /translate_file and GET /download_file/NAME: LibreTranslate's file
 * translation. A multipart/form-data upload (file, source or auto, target,
 * api_key) is translated whole, kept in memory (files.c), and answered
 * with {"translatedFileUrl": ...}, the address that downloads it. A .txt
 * file is translated line by line, as nmt translates its input, each line
 * ending as it ended; an .html or .htm file is one HTML document, as
 * /translate translates format html. */
#include "server_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../text/html.h"
#include "multipart.h"

/* Lines translated at a time, each batch on a worker slot borrowed for it,
 * so that a long file lets other requests in between (as nmt reads 256). */
#define LINES_PER_BATCH 256
/* The longest part of the upload's name that names the download. */
#define STEM_MAX 100

/* The extensions translated, in the spelling /frontend/settings lists. */
static const struct {
	const char *ext;
	int html;
} formats[] = { { ".txt", 0 }, { ".html", 1 }, { ".htm", 1 } };

typedef struct {
	const char *data, *name;   /* the file's content and its name as uploaded */
	size_t len, name_len;
	size_t ext_at;             /* where its extension begins in name */
	int format;                /* into formats[], or -1 */
} upload;

void server_file_formats_json(server_buf *b)
{
	server_buf_puts(b, "[");
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		server_buf_printf(b, "%s\"%s\"", i ? "," : "", formats[i].ext);
	server_buf_puts(b, "]");
}

/* Where the extension of name[0..n) begins, as Python's os.path.splitext
 * (which LibreTranslate checks) finds it: the last '.' of the last path
 * component, unless it is one of the dots that component begins with
 * (".txt" has none); n when there is none. */
static size_t extension_at(const char *name, size_t n)
{
	size_t base = n;
	while (base > 0 && name[base - 1] != '/')
		base--;
	size_t dot = n;
	while (dot > base && name[dot - 1] != '.')
		dot--;
	if (dot == base)
		return n;
	size_t lead = base;
	while (lead < n && name[lead] == '.')
		lead++;
	return dot - 1 < lead ? n : dot - 1;
}

/* The format of an extension, in any case; -1 if not translated. */
static int format_of(const char *ext, size_t n)
{
	for (int i = 0; i < (int)(sizeof formats / sizeof *formats); i++) {
		size_t k = strlen(formats[i].ext);
		int same = k == n;
		for (size_t j = 0; same && j < n; j++)
			same = tolower((unsigned char)ext[j]) == formats[i].ext[j];
		if (same)
			return i;
	}
	return -1;
}

/* s[0..n) as a safe file name, as werkzeug's secure_filename makes one:
 * runs of spaces and slashes one '_', only ASCII letters, digits, '_',
 * '.' and '-' kept, no '.' or '_' at either end; at most cap - 1 bytes. */
static void safe_name(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;
	int gap = 0;
	for (size_t i = 0; i < n && o + 2 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '/' || c == ' ' || (c >= '\t' && c <= '\r')) {
			gap = o > 0;
		} else if (c < 0x80 && (isalnum(c) || c == '_' || c == '.' || c == '-')) {
			if (gap)
				out[o++] = '_';
			out[o++] = (char)c;
			gap = 0;
		}
	}
	while (o > 0 && (out[o - 1] == '.' || out[o - 1] == '_'))
		o--;
	size_t skip = 0;
	while (skip < o && (out[skip] == '.' || out[skip] == '_'))
		skip++;
	memmove(out, out + skip, o - skip);
	out[o - skip] = '\0';
}

/* The name the download is saved under, as LibreTranslate names it: the
 * upload's, made safe, with _TARGET before its extension ("notes.txt" to
 * German: "notes_de.txt"). */
static void download_name(const upload *u, const char *target, char out[SERVER_FILE_DOWNLOAD_MAX + 1])
{
	char stem[STEM_MAX + 1], tgt[17];
	safe_name(u->name, u->ext_at, stem, sizeof stem);
	safe_name(target, strlen(target), tgt, sizeof tgt);
	snprintf(out, SERVER_FILE_DOWNLOAD_MAX + 1, "%s_%s%s", stem[0] ? stem : "file", tgt, formats[u->format].ext);
}

/* The file, source and target: 0, or the status with *why. Only a
 * multipart part with a filename is a file, as Flask's request.files. */
static int read_upload(server_params *p, server_fields *f, upload *u, char *why, size_t whylen)
{
	int rc = server_read_languages(p, f);
	server_multipart_part part = { 0 };
	if (rc >= 0 && p->kind == SERVER_BODY_MULTIPART)
		rc = server_multipart_file(p->body, p->body_len, p->boundary, "file", &part);
	if (rc < 0) {
		snprintf(why, whylen, "Invalid request: malformed parameters");
		return 400;
	}
	*u = (upload){ part.value, part.filename, part.value_len, part.filename_len, 0, -1 };
	return 0;
}

/* LibreTranslate's checks, in its order: 0, or the status with *why. */
static int check_upload(const server_state *s, const server_fields *f, upload *u, char *why, size_t whylen)
{
	const char *missing = NULL;
	if (!u->name || u->name_len == 0)   /* Flask's `not file`: no file, or one without a name */
		missing = "file";
	else if (!f->source || !f->source[0])
		missing = "source";
	else if (!f->target || !f->target[0])
		missing = "target";
	if (missing) {
		snprintf(why, whylen, "Invalid request: missing %s parameter", missing);
		return 400;
	}
	u->ext_at = extension_at(u->name, u->name_len);
	u->format = format_of(u->name + u->ext_at, u->name_len - u->ext_at);
	if (u->format < 0) {
		snprintf(why, whylen, "Invalid request: file format not supported");
		return 400;
	}
	const char *unknown = NULL;
	if (strcmp(f->source, "auto") != 0 && !server_language_served(s, f->source))
		unknown = f->source;
	else if (!server_language_served(s, f->target))
		unknown = f->target;
	if (unknown) {
		snprintf(why, whylen, "%.40s is not supported", unknown);
		return 400;
	}
	return 0;
}

/* source auto: the language of the file's text (an HTML file's text
 * without its markup) becomes the source. 0, or the status with *why. */
static int detect_upload(const server_state *s, server_fields *f, const upload *u, char *why, size_t whylen)
{
	text_html h = { 0 };
	const char *text = u->data;
	size_t len = u->len;
	if (formats[u->format].html) {
		if (text_html_parse(&h, u->data, u->len) != 0) {
			text_html_free(&h);
			snprintf(why, whylen, "out of memory");
			return 500;
		}
		text = h.text ? h.text : "";
		len = h.text_len;
	}
	f->texts = &text;
	f->lens = &len;
	f->count = 1;
	int status = server_detect_source(s, f, why, whylen);
	f->texts = NULL;
	f->lens = NULL;
	text_html_free(&h);
	return status;
}

/* Append text i of r. */
static void add_translation(const nmt_result *r, int i, server_buf *out)
{
	const nmt_translation *t = nmt_result_get(r, i, 0);
	server_buf_add(out, t->text, t->len);
}

/* The line at *p, before end: its text (*len bytes) is what precedes its
 * ending, "\n", "\r\n" or none at the end of the file (*ending_len
 * bytes, right after the text); *p moves past it. */
static const char *next_line(const char **p, const char *end, size_t *len, size_t *ending_len)
{
	const char *line = *p, *nl = memchr(line, '\n', (size_t)(end - line));
	size_t cr = nl && nl > line && nl[-1] == '\r';
	*len = (size_t)((nl ? nl : end) - line) - cr;
	*ending_len = nl ? cr + 1 : 0;
	*p = nl ? nl + 1 : end;
	return line;
}

/* A text file, line by line: each line (its ending taken off) is a
 * paragraph translated as nmt translates a line, then ended as it was
 * ended, so the file keeps its lines. 0, or -1 when translation fails. */
static int translate_lines(server_state *s, const int chain[2], int hops, const upload *u, server_buf *out)
{
	nmt_options o = s->options;
	o.threads = 1;
	const char *p = u->data, *end = u->data + u->len;
	while (p < end) {
		const char *texts[LINES_PER_BATCH];
		size_t lens[LINES_PER_BATCH], ending_lens[LINES_PER_BATCH];
		int n = 0;
		for (; n < LINES_PER_BATCH && p < end; n++)
			texts[n] = next_line(&p, end, &lens[n], &ending_lens[n]);
		nmt_result *r = NULL;
		if (server_translate_batch(s, chain, hops, &o, texts, lens, n, &r) != NMT_OK)
			return -1;
		for (int i = 0; i < n; i++) {
			add_translation(r, i, out);
			server_buf_add(out, texts[i] + lens[i], ending_lens[i]);
		}
		nmt_result_free(r);
	}
	return 0;
}

/* An HTML file: one document, translated as /translate translates format
 * html, its leading and trailing whitespace (which a translation drops)
 * kept. 0, or -1 when translation fails. */
static int translate_html(server_state *s, const int chain[2], int hops, const upload *u, server_buf *out)
{
	size_t lead = 0, trail = u->len;
	while (lead < trail && isspace((unsigned char)u->data[lead]))
		lead++;
	while (trail > lead && isspace((unsigned char)u->data[trail - 1]))
		trail--;
	nmt_options o = s->options;
	o.threads = 1;
	o.html = 1;
	const char *text = u->data + lead;
	size_t len = trail - lead;
	nmt_result *r = NULL;
	server_buf_add(out, u->data, lead);
	if (len > 0) {
		if (server_translate_batch(s, chain, hops, &o, &text, &len, 1, &r) != NMT_OK)
			return -1;
		add_translation(r, 0, out);
		nmt_result_free(r);
	}
	server_buf_add(out, u->data + trail, u->len - trail);
	return 0;
}

/* {"translatedFileUrl": "http://HOST/download_file/NAME"}: the request's
 * Host, or the address the server listens on when it names none. */
static void url_body(const server_state *s, const server_http_request *r, const char *name, server_buf *out)
{
	server_buf url = { 0 };
	server_buf_printf(&url, "http://%s" SERVER_DOWNLOAD_PREFIX "%s", r->host[0] ? r->host : s->address, name);
	server_buf_puts(out, "{\"translatedFileUrl\":");
	server_buf_json_string(out, url.data ? url.data : "", url.len);
	server_buf_puts(out, "}");
	out->failed |= url.failed;
	server_buf_free(&url);
}

/* Translate u from f->source to f->target into a new file of the store,
 * its name in name. 0, or the status with *why. */
static int translate_upload(server_state *s, server_fields *f, const upload *u, char name[SERVER_FILE_NAME_MAX],
			    char *why, size_t whylen)
{
	int chain[2], hops = 0, status = 0;
	if (strcmp(f->source, "auto") == 0)
		status = detect_upload(s, f, u, why, whylen);
	if (status == 0)
		status = server_check_pair(s, f, chain, &hops, why, whylen);
	if (status != 0)
		return status;
	server_buf file = { 0 };
	int failed = 0;
	if (hops == 0)   /* source and target the same language: the file as it came */
		server_buf_add(&file, u->data, u->len);
	else if (formats[u->format].html)
		failed = translate_html(s, chain, hops, u, &file);
	else
		failed = translate_lines(s, chain, hops, u, &file);
	char saved_as[SERVER_FILE_DOWNLOAD_MAX + 1];
	download_name(u, f->target, saved_as);
	if (failed || file.failed) {
		server_buf_free(&file);
		snprintf(why, whylen, failed ? "translation failed" : "out of memory");
		return 500;
	}
	if (server_files_put(&s->files, saved_as, formats[u->format].html, file.data, file.len, name) != 0) {
		snprintf(why, whylen, "the translated file cannot be kept (larger than %zu bytes, or no randomness)",
			 s->files.max_bytes);
		return 500;
	}
	return 0;
}

int server_handle_translate_file(server_state *s, server_params *p, const server_http_request *r, server_buf *out,
				 char *why, size_t whylen)
{
	server_fields f = { 0 };
	upload u;
	char name[SERVER_FILE_NAME_MAX];
	int status = server_check_access(s, p, why, whylen);
	if (status == 0)
		status = read_upload(p, &f, &u, why, whylen);
	if (status == 0)
		status = check_upload(s, &f, &u, why, whylen);
	if (status == 0)
		status = translate_upload(s, &f, &u, name, why, whylen);
	if (status == 0)
		url_body(s, r, name, out);
	return status;
}

int server_handle_download(server_state *s, const char *name, server_buf *out, char headers[SERVER_HEADERS_MAX],
			   char *why, size_t whylen)
{
	char saved_as[SERVER_FILE_DOWNLOAD_MAX + 1];
	int html;
	if (!server_files_get(&s->files, name, out, &html, saved_as, sizeof saved_as)) {
		snprintf(why, whylen, "No such file: it was never made here, or has expired");
		return 404;
	}
	/* an attachment, never run as a page of this server's origin */
	snprintf(headers, SERVER_HEADERS_MAX,
		 "Content-Type: %s; charset=utf-8\r\nContent-Disposition: attachment; filename=%s\r\n"
		 "X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; sandbox\r\n"
		 "Cache-Control: no-store\r\n",
		 html ? "text/html" : "text/plain", saved_as);
	return 0;
}
