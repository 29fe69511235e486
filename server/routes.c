/* Which code answers which path and method, and the routes small enough to
 * answer here: /health, /frontend/settings, /spec, the page, /suggest. */
#include "server_internal.h"

#include <stdio.h>
#include <string.h>

#include "page.h"
#include "spec.h"

/* POST /suggest: LibreTranslate's answer on a server whose suggestions
 * are off, after the same access check as /translate. */
static int handle_suggest(const server_state *s, server_params *p, char *why, size_t whylen)
{
	int status = server_check_access(s, p, why, whylen);
	if (status == 0) {
		snprintf(why, whylen, "Suggestions are disabled on this server.");
		status = 403;
	}
	return status;
}

/* {"code": ..., "name": ...} */
static void language_json(server_buf *b, const char *code)
{
	server_buf_puts(b, "{\"code\":");
	server_buf_json_string(b, code, strlen(code));
	server_buf_puts(b, ",\"name\":");
	server_buf_json_string(b, server_language_name(code), strlen(server_language_name(code)));
	server_buf_puts(b, "}");
}

/* GET /frontend/settings: LibreTranslate's fields with nmt's values: as
 * charLimit the body limit (no text of more characters than the body has
 * bytes can arrive; not -1, LibreTranslate's "no limit", which GNOME
 * Dialect 2.1 takes for a limit and crashes on as one types), no
 * suggestions, the file formats /translate_file takes, and the first
 * model's pair as the default languages. */
static void settings_body(const server_state *s, server_buf *b)
{
	server_buf_printf(b,
			  "{\"charLimit\":%zu,\"frontendTimeout\":500,\"apiKeys\":%s,\"keyRequired\":%s,"
			  "\"suggestions\":false,\"filesTranslation\":true,\"supportedFilesFormat\":",
			  s->max_body, s->n_api_keys ? "true" : "false", s->n_api_keys ? "true" : "false");
	server_file_formats_json(b);
	server_buf_puts(b, ",\"language\":{\"source\":");
	language_json(b, s->models[0].src);
	server_buf_puts(b, ",\"target\":");
	language_json(b, s->models[0].tgt);
	server_buf_puts(b, "}}");
}

typedef enum {
	ROUTE_LANGUAGES, ROUTE_TRANSLATE, ROUTE_DETECT, ROUTE_SUGGEST, ROUTE_HEALTH, ROUTE_SETTINGS, ROUTE_SPEC,
	ROUTE_PAGE, ROUTE_INDEX, ROUTE_TRANSLATE_FILE, ROUTE_DOWNLOAD
} route_id;

/* A path, or with prefix set every path that begins with it (the rest
 * names a file). */
static const struct {
	const char *path, *method;
	int prefix;
} routes[] = {
	[ROUTE_LANGUAGES] = { "/languages", "GET", 0 },  [ROUTE_TRANSLATE] = { "/translate", "POST", 0 },
	[ROUTE_DETECT] = { "/detect", "POST", 0 },
	[ROUTE_SUGGEST] = { "/suggest", "POST", 0 },     [ROUTE_HEALTH] = { "/health", "GET", 0 },
	[ROUTE_SETTINGS] = { "/frontend/settings", "GET", 0 }, [ROUTE_SPEC] = { "/spec", "GET", 0 },
	[ROUTE_PAGE] = { "/", "GET", 0 },                [ROUTE_INDEX] = { "/index.html", "GET", 0 },
	[ROUTE_TRANSLATE_FILE] = { "/translate_file", "POST", 0 },
	[ROUTE_DOWNLOAD] = { SERVER_DOWNLOAD_PREFIX, "GET", 1 },
};

/* The route of a path, or -1. */
static int find_route(const char *path)
{
	for (int i = 0; i < (int)(sizeof routes / sizeof *routes); i++)
		if (routes[i].prefix ? strncmp(path, routes[i].path, strlen(routes[i].path)) == 0
				     : strcmp(path, routes[i].path) == 0)
			return i;
	return -1;
}

/* The routes that read parameters: the body parsed once, for the handler. */
static int answer_with_params(server_state *s, int id, const server_request *q, server_buf *out, char *why,
			      size_t whylen)
{
	server_params p;
	int status = server_params_open(q->http, q->head, q->body, q->body_len, &p, why, whylen);
	if (status == 0)
		status = id == ROUTE_TRANSLATE        ? server_handle_translate(s, &p, out, why, whylen)
			 : id == ROUTE_DETECT         ? server_handle_detect(s, &p, out, why, whylen)
			 : id == ROUTE_TRANSLATE_FILE ? server_handle_translate_file(s, &p, q->http, out, why, whylen)
						      : handle_suggest(s, &p, why, whylen);
	server_params_free(&p);
	return status;
}

int server_dispatch(server_state *s, const server_request *q, server_buf *out, char headers[SERVER_HEADERS_MAX],
		    char *why, size_t whylen)
{
	const char *path = q->http->path;
	int id = find_route(path);
	if (id < 0)
		return 404;
	/* POST /languages too, as LibreTranslate's earlier releases took it (clients
	 * written then, e.g. older libretranslatepy, still post it) */
	if (strcmp(q->http->method, routes[id].method) != 0 &&
	    !(id == ROUTE_LANGUAGES && strcmp(q->http->method, "POST") == 0))
		return 405;
	switch (id) {
	case ROUTE_LANGUAGES: server_languages_body(s, out); break;
	case ROUTE_HEALTH: server_buf_puts(out, "{\"status\":\"ok\"}"); break;
	case ROUTE_SETTINGS: settings_body(s, out); break;
	case ROUTE_SPEC: server_buf_puts(out, server_spec_json); break;
	case ROUTE_PAGE:
	case ROUTE_INDEX:
		server_buf_add(out, server_page, server_page_size);
		snprintf(headers, SERVER_HEADERS_MAX, "%s", SERVER_PAGE_HEADERS);
		break;
	case ROUTE_DOWNLOAD:
		return server_handle_download(s, path + strlen(SERVER_DOWNLOAD_PREFIX), out, headers, why, whylen);
	default: return answer_with_params(s, id, q, out, why, whylen);
	}
	return 0;
}
