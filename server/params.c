/* A request's parameters, read where LibreTranslate reads them: a JSON
 * body alone, or else the query string and then a form or multipart body
 * (Flask's request.values); the first of a repeated name counts. Also the
 * --api-keys check, which takes its key from any of them. */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/number.h"
#include "form.h"
#include "multipart.h"

void server_params_free(server_params *p)
{
	json_object_free(&p->json);
	for (int i = 0; i < p->n_owned; i++)
		free(p->owned[i]);
}

int server_params_open(const server_http_request *r, const char *head, const char *body, size_t len, server_params *p,
		       char *why, size_t whylen)
{
	*p = (server_params){ .query = head + r->query_at, .query_len = r->query_len, .boundary = r->boundary };
	p->body = body;
	p->body_len = len;
	if (strcmp(r->content_type, "application/x-www-form-urlencoded") == 0) {
		p->kind = SERVER_BODY_FORM;
	} else if (strcmp(r->content_type, "multipart/form-data") == 0) {
		p->kind = SERVER_BODY_MULTIPART;
		if (!r->boundary[0]) {
			snprintf(why, whylen, "Invalid request: multipart/form-data without a boundary");
			return 400;
		}
	} else if (strcmp(r->content_type, "application/json") == 0 || (r->content_type[0] == '\0' && len > 0)) {
		p->kind = SERVER_BODY_JSON;
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
static char *params_keep(server_params *p, const char *v, size_t n)
{
	char *c = p->n_owned < SERVER_MAX_OWNED ? malloc(n + 1) : NULL;
	if (!c)
		return NULL;
	memcpy(c, v, n);
	c[n] = '\0';
	return p->owned[p->n_owned++] = c;
}

/* A form-encoded field from s[0..n) (the query string or a form body). */
static int form_field(server_params *p, const char *s, size_t n, const char *name, const char **v, size_t *len)
{
	char *got;
	int rc = server_form_get(s, n, name, &got, len);
	if (rc == 1 && p->n_owned < SERVER_MAX_OWNED)
		*v = p->owned[p->n_owned++] = got;
	else if (rc == 1)
		free(got), rc = -1;
	return rc;
}

int server_param(server_params *p, const char *name, const char **v, size_t *len)
{
	if (p->kind == SERVER_BODY_JSON) {
		const json_member *m = json_get(&p->json, name);
		if (!m || m->kind != JSON_STRING)
			return 0;
		*v = m->str;
		*len = m->str_len;
		return 1;
	}
	int rc = form_field(p, p->query, p->query_len, name, v, len);
	if (rc != 0 || p->kind == SERVER_BODY_NONE)
		return rc;
	if (p->kind == SERVER_BODY_FORM)
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

/* A JSON member that is not a string: null counts as absent, a number is
 * truncated as int() truncates 2.5; anything else is not a number. */
static int json_alternatives(const json_member *m, long *n)
{
	json_cursor c;
	double d;
	if (m->raw_len >= 4 && memcmp(m->raw, "null", 4) == 0)
		return 0;
	json_init(&c, m->raw, m->raw_len);
	if (json_number(&c, &d) != 0 || d > 1e8 || d < -1e8)
		return -1;
	*n = (long)d;
	return 0;
}

/* A string, in JSON as elsewhere, must hold a whole number. */
int server_param_alternatives(server_params *p, long *n)
{
	*n = 0;
	if (p->kind == SERVER_BODY_JSON) {
		const json_member *m = json_get(&p->json, "alternatives");
		if (m && m->kind == JSON_OTHER && m->raw)
			return json_alternatives(m, n);
		if (!m)
			return 0;
		if (m->kind != JSON_STRING)
			return -1;
		return whole_number(m->str, m->str_len, n);
	}
	const char *v;
	size_t len;
	int rc = server_param(p, "alternatives", &v, &len);
	return rc < 0 ? -1 : rc == 0 ? 0 : whole_number(v, len, n);
}

int server_read_q(server_params *p, server_fields *f, char *why, size_t whylen)
{
	const json_member *q = p->kind == SERVER_BODY_JSON ? json_get(&p->json, "q") : NULL;
	if (q && q->kind == JSON_STRINGS) {
		f->texts = (const char *const *)q->items;
		f->lens = q->item_lens;
		f->count = q->n_items;
		f->is_array = 1;
	} else if (q && q->kind != JSON_STRING) {
		snprintf(why, whylen, "Invalid request: q must be a string or an array of strings");
		return 400;
	} else if (server_param(p, "q", &f->q_text, &f->q_len) < 0) {
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

/* One reader for /translate and /translate_file, so that both take, name
 * and refuse a language code alike. */
int server_read_languages(server_params *p, server_fields *f)
{
	size_t len;
	if (server_param(p, "source", &f->source, &len) < 0 || server_param(p, "target", &f->target, &len) < 0)
		return -1;
	if (f->source)
		f->source = server_language_code(f->source, f->src);
	if (f->target)
		f->target = server_language_code(f->target, f->tgt);
	return 0;
}

/* 1 if key equals one of the --api-keys; every listed key is compared in
 * full, so that the time taken says nothing about how much of one matched. */
static int key_listed(const server_state *s, const char *key, size_t len)
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

int server_check_access(const server_state *s, server_params *p, char *why, size_t whylen)
{
	const char *key;
	size_t len;
	if (s->n_api_keys == 0)
		return 0;
	int rc = server_param(p, "api_key", &key, &len);
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
