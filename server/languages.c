/* The languages nmt serve offers: their names and codes as LibreTranslate
 * writes and reads them, and which models make a way from one to another
 * (one model, or two through English, as nmt -l pivots). */
#include "server_internal.h"

#include <ctype.h>
#include <string.h>

#include "../cli/catalog.h"

const char *server_language_name(const char *code)
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

/* Codes too long for any model stay as given, to be named in "... is not
 * supported". */
const char *server_language_code(const char *code, char out[16])
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

int server_find_model(const server_state *s, const char *src, const char *tgt)
{
	for (int i = 0; i < s->n_models; i++)
		if (strcmp(s->models[i].src, src) == 0 && strcmp(s->models[i].tgt, tgt) == 0)
			return i;
	return -1;
}

int server_route(const server_state *s, const char *src, const char *tgt, int chain[2])
{
	if (strcmp(src, tgt) == 0)
		return 0;
	if ((chain[0] = server_find_model(s, src, tgt)) >= 0)
		return 1;
	chain[0] = server_find_model(s, src, CLI_PIVOT_LANG);
	chain[1] = server_find_model(s, CLI_PIVOT_LANG, tgt);
	return chain[0] >= 0 && chain[1] >= 0 ? 2 : 0;
}

int server_languages(const server_state *s, const char *codes[2 * SERVER_MAX_MODELS])
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

int server_language_served(const server_state *s, const char *code)
{
	const char *codes[2 * SERVER_MAX_MODELS];
	int n = server_languages(s, codes);
	for (int i = 0; i < n; i++)
		if (strcmp(codes[i], code) == 0)
			return 1;
	return 0;
}

/* [{"code","name","targets":[...]}] for every language a model reads or
 * writes, as LibreTranslate lists them, with the languages each translates
 * into (directly or through the pivot; maybe none). */
void server_languages_body(const server_state *s, server_buf *b)
{
	const char *codes[2 * SERVER_MAX_MODELS];
	int n = server_languages(s, codes), chain[2];
	server_buf_puts(b, "[");
	for (int i = 0; i < n; i++) {
		server_buf_puts(b, i ? ",{\"code\":" : "{\"code\":");
		server_buf_json_string(b, codes[i], strlen(codes[i]));
		server_buf_puts(b, ",\"name\":");
		server_buf_json_string(b, server_language_name(codes[i]), strlen(server_language_name(codes[i])));
		server_buf_puts(b, ",\"targets\":[");
		for (int k = 0, t = 0; k < n; k++)
			if (server_route(s, codes[i], codes[k], chain) > 0) {
				server_buf_puts(b, t++ ? "," : "");
				server_buf_json_string(b, codes[k], strlen(codes[k]));
			}
		server_buf_puts(b, "]}");
	}
	server_buf_puts(b, "]");
}
