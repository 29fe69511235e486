/* The server's request bodies: JSON (server/json.c) and form-encoded
 * (server/form.c) on any bytes. The JSON parser accepts exactly what a
 * reference check accepts for the parts it keeps (every kept string is
 * valid UTF-8 and NUL-terminated, arrays hold what they say), frees all it
 * allocates (ASan), and its writer's output of each kept string parses back
 * to the same bytes; a number read by json_number spans what json_skip
 * skips. The first byte picks the reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/form.h"
#include "../../common/json.h"
#include "../../server/buf.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* s written as {"k": s} and parsed back must give s again */
static void round_trip(const char *s, size_t n)
{
	server_buf b = { 0 };
	server_buf_puts(&b, "{\"k\":");
	server_buf_json_string(&b, s, n);
	server_buf_puts(&b, "}");
	FUZZ_ASSERT(!b.failed);
	json_object o;
	char err[128];
	FUZZ_ASSERT(json_parse_object(b.data, b.len, &o, err, sizeof err) == 0);
	const json_member *m = json_get(&o, "k");
	FUZZ_ASSERT(m && m->kind == JSON_STRING && m->str_len == n && memcmp(m->str, s, n) == 0);
	json_object_free(&o);
	server_buf_free(&b);
}

static void check_json(const char *buf, size_t len)
{
	json_object o;
	char err[128];
	if (json_parse_object(buf, len, &o, err, sizeof err) != 0) {
		FUZZ_ASSERT(err[0] != '\0' && !strchr(err, '\n'));
		return;
	}
	for (int i = 0; i < o.n; i++) {
		const json_member *m = &o.members[i];
		FUZZ_ASSERT(json_get(&o, m->key) != NULL);
		if (m->kind == JSON_STRING) {
			FUZZ_ASSERT(m->str[m->str_len] == '\0');
			round_trip(m->str, m->str_len);
		}
		for (int k = 0; m->kind == JSON_STRINGS && k < m->n_items; k++) {
			FUZZ_ASSERT(m->items[k][m->item_lens[k]] == '\0');
			round_trip(m->items[k], m->item_lens[k]);
		}
	}
	json_object_free(&o);
}

static void check_form(const char *buf, size_t len)
{
	static const char *const keys[] = { "q", "source", "target", "format", "" };
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		char *v;
		size_t n;
		int rc = server_form_get(buf, len, keys[i], &v, &n);
		FUZZ_ASSERT(rc >= -1 && rc <= 1);
		if (rc == 1) {
			FUZZ_ASSERT(n <= len && v[n] == '\0');
			free(v);
		}
	}
}

/* json_number takes a number exactly where the skipper sees one */
static void check_number(const char *buf, size_t len)
{
	json_cursor number, skipped;
	double v;
	json_init(&number, buf, len);
	json_init(&skipped, buf, len);
	if (json_number(&number, &v) != 0) {
		FUZZ_ASSERT(number.err[0] != '\0' && !strchr(number.err, '\n'));
		return;
	}
	FUZZ_ASSERT(json_skip(&skipped) == 0 && skipped.p == number.p && number.p <= buf + len);
	FUZZ_ASSERT(v == v);   /* JSON has no NaN */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	char *buf = malloc(size - 1 ? size - 1 : 1);   /* exact size: reads past the end are caught */
	memcpy(buf, data + 1, size - 1);
	if (data[0] & 1)
		check_form(buf, size - 1);
	else if (data[0] & 4)
		check_number(buf, size - 1);
	else
		check_json(buf, size - 1);
	free(buf);
	return 0;
}
