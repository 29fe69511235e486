/* The JSON module (common/json.c): the object of strings the server reads
 * requests into, the cursor beneath it, and the string writer. Malformed
 * text is refused with a one-line reason that says where, whatever bytes
 * it holds; what is accepted decodes exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/json.h"

/* The parse error of s, or "" when it parses. */
static const char *parse_error(const char *s, size_t len)
{
	static char err[128];
	json_object o;
	err[0] = '\0';
	if (json_parse_object(s, len, &o, err, sizeof err) == 0) {
		json_object_free(&o);
		return "";
	}
	return err;
}

static void expect_refused(const char *s, size_t len, const char *reason)
{
	const char *err = parse_error(s, len);
	assert_true(err[0] != '\0');
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, reason));
}

static void test_object_members(void **state)
{
	(void)state;
	const char *s = "{\"q\": \"Caf\\u00e9 \\ud83d\\ude00\\n\", \"list\": [\"a\", \"\"], "
			"\"n\": 3, \"q\": \"second\"}";
	json_object o;
	char err[128];
	assert_int_equal(json_parse_object(s, strlen(s), &o, err, sizeof err), 0);
	assert_int_equal(o.n, 4);
	const json_member *q = json_get(&o, "q");
	assert_non_null(q);
	assert_int_equal(q->kind, JSON_STRING);
	assert_string_equal(q->str, "Caf\xc3\xa9 \xf0\x9f\x98\x80\n"); /* the first of two q */
	const json_member *list = json_get(&o, "list");
	assert_int_equal(list->kind, JSON_STRINGS);
	assert_int_equal(list->n_items, 2);
	assert_string_equal(list->items[0], "a");
	assert_int_equal(list->item_lens[1], 0);
	const json_member *n = json_get(&o, "n");
	assert_int_equal(n->kind, JSON_OTHER);
	assert_int_equal(n->raw_len, 1);
	assert_memory_equal(n->raw, "3", 1);
	assert_null(json_get(&o, "absent"));
	json_object_free(&o);
}

static void test_refusals_are_one_line(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		size_t len;
		const char *reason;
	} refused[] = {
		{ "{\"a\": \"x\\\ny\"}", 13, "bad escape \\ before byte 0x0a" },
		{ "{\"a\": \"\\q\"}", 11, "bad escape \\q" },
		{ "{\"a\": \"x\ny\"}", 12, "control character" },
		{ "{\"a\": \"\\ud800\"}", 15, "lone high surrogate" },
		{ "{\"a\": \"\xff\"}", 10, "invalid UTF-8" },
		{ "{\"a\": \"x\\u0000\"}", 16, "NUL in string" },
		{ "{\"a\": 01}", 9, "invalid JSON at byte" },
		{ "{\"a\": \"x\"} x", 12, "trailing characters" },
		{ "{\"a\": \"x\"", 9, "invalid JSON at byte" },
		{ "[]", 2, "expected '{'" },
		{ "", 0, "invalid JSON at byte 0" },
		/* the fuzzer's find: a backslash before a newline inside a key */
		{ "2\"\\\nre2uu6", 10, "invalid JSON at byte 1: trailing" },
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		expect_refused(refused[i].text, refused[i].len, refused[i].reason);
}

static void test_nesting_is_bounded(void **state)
{
	(void)state;
	char deep[2 * (JSON_MAX_DEPTH + 4) + 16];
	size_t n = 0;
	n += (size_t)sprintf(deep, "{\"a\": ");
	for (int i = 0; i < JSON_MAX_DEPTH + 2; i++)
		deep[n++] = '[';
	for (int i = 0; i < JSON_MAX_DEPTH + 2; i++)
		deep[n++] = ']';
	deep[n++] = '}';
	expect_refused(deep, n, "nested too deeply");
}

static void test_cursor_integers(void **state)
{
	(void)state;
	json_cursor c;
	int64_t v;
	json_init(&c, " 9223372036854775807 ", 21);
	assert_int_equal(json_uint(&c, &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(json_end(&c), 0);
	json_init(&c, "9223372036854775808", 19);
	assert_int_equal(json_uint(&c, &v), -1);
	assert_non_null(strstr(c.err, "too large"));
	json_init(&c, "-1", 2);
	assert_int_equal(json_uint(&c, &v), -1);
}

static void test_cursor_numbers(void **state)
{
	(void)state;
	json_cursor c;
	double d;
	json_init(&c, " -2.5e1,", 7);   /* the text need not end after the number */
	assert_int_equal(json_number(&c, &d), 0);
	assert_true(d == -25.0);
	json_init(&c, "0", 1);
	assert_int_equal(json_number(&c, &d), 0);
	assert_true(d == 0.0);
	static const char *const refused[] = { "01", "+1", ".5", "1.", "1e", "-", "true", "\"1\"",
					       "1.0000000000000000000000000000001" };
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		json_init(&c, refused[i], strlen(refused[i]));
		if (json_number(&c, &d) == 0)
			assert_int_not_equal(json_end(&c), 0);   /* "01": 0, then a trailing 1 */
	}
}

typedef struct {
	char text[256];
	size_t n;
} sink;

static void put(void *ctx, const char *p, size_t n)
{
	sink *s = ctx;
	assert_true(s->n + n < sizeof s->text);
	memcpy(s->text + s->n, p, n);
	s->n += n;
	s->text[s->n] = '\0';
}

static void test_write_round_trips(void **state)
{
	(void)state;
	const char raw[] = "a\"b\\c\n\t\x01 \xc3\xa9";
	sink s = {.n = 0};
	put(&s, "{\"k\":", 5);
	json_write_string(raw, sizeof raw - 1, put, &s);
	put(&s, "}", 1);
	assert_string_equal(s.text, "{\"k\":\"a\\\"b\\\\c\\u000a\\u0009\\u0001 \xc3\xa9\"}");
	json_object o;
	char err[128];
	assert_int_equal(json_parse_object(s.text, s.n, &o, err, sizeof err), 0);
	assert_memory_equal(json_get(&o, "k")->str, raw, sizeof raw - 1);
	json_object_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_object_members),
		cmocka_unit_test(test_refusals_are_one_line),
		cmocka_unit_test(test_nesting_is_bounded),
		cmocka_unit_test(test_cursor_integers),
		cmocka_unit_test(test_cursor_numbers),
		cmocka_unit_test(test_write_round_trips),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
