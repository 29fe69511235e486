/* The server's parameter parsers: form and query-string fields
 * (server/form.c), multipart/form-data bodies (server/multipart.c) and the
 * boundary, query and Host the request head keeps (server/http.c), on what
 * clients send and on malformed bodies, which are refused, never read past. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../server/form.h"
#include "../server/http.h"
#include "../server/multipart.h"

/* The field key of a form or query string, or "<absent>" / "<malformed>". */
static char *form(const char *s, const char *key)
{
	char *v = NULL;
	size_t n;
	int rc = server_form_get(s, strlen(s), key, &v, &n);
	return rc == 1 ? v : strdup(rc == 0 ? "<absent>" : "<malformed>");
}

static void expect_form(const char *s, const char *key, const char *want)
{
	char *got = form(s, key);
	assert_string_equal(got, want);
	free(got);
}

static void test_form_fields(void **state)
{
	(void)state;
	expect_form("q=A+dog%21&source=en", "q", "A dog!");
	expect_form("q=A+dog%21&source=en", "source", "en");
	expect_form("q=1&q=2", "q", "1");   /* the first, as LibreTranslate takes it */
	expect_form("q=%E2%82%AC", "q", "\xe2\x82\xac");
	expect_form("alternatives=3&q", "q", "");
	expect_form("a%3Db=c", "a=b", "c");
	expect_form("", "q", "<absent>");
	expect_form("source=en", "q", "<absent>");
	expect_form("q=%4", "q", "<malformed>");
	expect_form("q=%zz", "q", "<malformed>");
}

/* The field name of a multipart body (boundary "b"), or "<absent>" / "<malformed>". */
static void expect_part(const char *body, const char *name, const char *want)
{
	const char *v = NULL;
	size_t n = 0;
	int rc = server_multipart_get(body, strlen(body), "b", name, &v, &n);
	if (rc == 1) {
		assert_int_equal(n, strlen(want));
		assert_memory_equal(v, want, n);
	} else {
		assert_string_equal(rc == 0 ? "<absent>" : "<malformed>", want);
	}
}

#define PART(name) "--b\r\nContent-Disposition: form-data; name=\"" name "\"\r\n\r\n"

static void test_multipart_fields(void **state)
{
	(void)state;
	const char *body = PART("q") "A dog\r\nruns.\r\n" PART("source") "en\r\n"
		"--b\r\ncontent-disposition: form-data; name=target\r\nContent-Type: text/plain\r\n\r\nde\r\n"
		"--b\r\nContent-Disposition: form-data; name=\"api_key\"; filename=\"k.txt\"\r\n\r\nsecret\r\n"
		PART("q") "second\r\n--b--\r\n";
	expect_part(body, "q", "A dog\r\nruns.");
	expect_part(body, "source", "en");
	expect_part(body, "target", "de");
	expect_part(body, "api_key", "<absent>");   /* a file, not a field */
	expect_part(body, "format", "<absent>");
	expect_part(PART("q") "\r\n--b--", "q", "");
	expect_part(PART("q") "x\r\n--c\r\n--b--", "q", "x\r\n--c");
}

static void test_multipart_malformed(void **state)
{
	(void)state;
	expect_part("", "q", "<malformed>");
	expect_part("preamble\r\n" PART("q") "x\r\n--b--", "q", "<malformed>");
	expect_part(PART("q") "x", "q", "<malformed>");              /* never closed */
	expect_part(PART("q") "x\r\n--b", "q", "<malformed>");
	/* RFC 2046: the delimiter may not occur in a part, even as a prefix */
	expect_part(PART("q") "x\r\n--bxyz\r\n--b--", "q", "<malformed>");
	expect_part("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", "q", "<malformed>");   /* no name */
	expect_part("--b\r\nContent-Disposition: attachment; name=\"q\"\r\n\r\nx\r\n--b--", "q", "<malformed>");
	expect_part("--b\r\nContent-Disposition: form-data; name=\"q\r\n\r\nx\r\n--b--", "q", "<malformed>");
	expect_part("--b\r\nno colon\r\n\r\nx\r\n--b--", "q", "<malformed>");
	expect_part("--b\r\nContent-Disposition: form-data; name=q\n\nx\r\n--b--", "q", "<malformed>");
	/* malformed anywhere refuses the whole body, whichever field is asked for */
	expect_part(PART("q") "x\r\n--b\r\nbroken\r\n\r\ny\r\n--b--", "q", "<malformed>");
}

/* The file name of a multipart body (boundary "b"): its content and
 * filename, or "<absent>" / "<malformed>". */
static void expect_file(const char *body, const char *name, const char *want, const char *want_filename)
{
	server_multipart_part f = { 0 };
	int rc = server_multipart_file(body, strlen(body), "b", name, &f);
	if (rc == 1) {
		assert_int_equal(f.value_len, strlen(want));
		assert_memory_equal(f.value, want, f.value_len);
		assert_non_null(f.filename);
		assert_int_equal(f.filename_len, strlen(want_filename));
		assert_memory_equal(f.filename, want_filename, f.filename_len);
	} else {
		assert_string_equal(rc == 0 ? "<absent>" : "<malformed>", want);
	}
}

#define FILE_PART(name, filename) \
	"--b\r\nContent-Disposition: form-data; name=\"" name "\"; filename=\"" filename "\"\r\n" \
	"Content-Type: text/plain\r\n\r\n"

static void test_multipart_files(void **state)
{
	(void)state;
	const char *body = PART("file") "a field, not a file\r\n" PART("source") "en\r\n"
		FILE_PART("file", "notes.txt") "A dog.\r\nA cat.\n\r\n"
		FILE_PART("file", "second.txt") "x\r\n"
		"--b\r\nContent-Disposition: form-data; filename=page.html; name=doc\r\n\r\n<p>Hi</p>\r\n--b--\r\n";
	expect_file(body, "file", "A dog.\r\nA cat.\n", "notes.txt");   /* the first file, past the field */
	expect_file(body, "doc", "<p>Hi</p>", "page.html");              /* unquoted, filename first */
	expect_file(body, "source", "<absent>", NULL);                  /* a field, not a file */
	expect_file(body, "q", "<absent>", NULL);
	expect_part(body, "file", "a field, not a file");               /* and fields never match files */
	expect_file(FILE_PART("file", "") "x\r\n--b--", "file", "x", "");   /* an empty filename is still a file */
	expect_file(FILE_PART("file", "a.txt") "\r\n--b--", "file", "", "a.txt");
	expect_file("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\r\n\r\nx\r\n--b--", "file",
		    "<malformed>", NULL);   /* an unclosed quote */
	expect_file(FILE_PART("file", "a.txt") "x", "file", "<malformed>", NULL);   /* never closed */
	expect_file(FILE_PART("file", "a.txt") "x\r\n--b\r\nbroken\r\n\r\ny\r\n--b--", "file", "<malformed>", NULL);
}

static void test_head_boundary_query_and_host(void **state)
{
	(void)state;
	const char *head = "POST /translate?q=A+dog&source=en HTTP/1.1\r\n"
			   "Content-Type: multipart/form-data; boundary=\"----x y\"\r\n\r\n";
	server_http_request r;
	assert_int_equal(server_http_parse_head(head, strlen(head), 16384, &r), (long)strlen(head));
	assert_string_equal(r.path, "/translate");
	assert_string_equal(r.content_type, "multipart/form-data");
	assert_string_equal(r.boundary, "----x y");
	assert_int_equal(r.query_len, strlen("q=A+dog&source=en"));
	assert_memory_equal(head + r.query_at, "q=A+dog&source=en", r.query_len);
	const char *plain = "GET /languages HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=abc; x=1\r\n\r\n";
	assert_true(server_http_parse_head(plain, strlen(plain), 16384, &r) > 0);
	assert_string_equal(r.boundary, "abc");
	assert_int_equal(r.query_len, 0);
	assert_string_equal(r.host, "");   /* none given */
	const char *hosts = "GET / HTTP/1.1\r\nHost: [::1]:5000\r\nHost: other\r\n\r\n";
	assert_true(server_http_parse_head(hosts, strlen(hosts), 16384, &r) > 0);
	assert_string_equal(r.host, "[::1]:5000");   /* the first */
	const char *odd = "GET / HTTP/1.1\r\nHost: a\"b/c\r\n\r\n";
	assert_true(server_http_parse_head(odd, strlen(odd), 16384, &r) > 0);
	assert_string_equal(r.host, "");   /* not a host: not kept */
	const char *named = "GET / HTTP/1.1\r\nhost:  translate.example.org:8080 \r\n\r\n";
	assert_true(server_http_parse_head(named, strlen(named), 16384, &r) > 0);
	assert_string_equal(r.host, "translate.example.org:8080");
	const char *unclosed = "GET / HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=\"abc\r\n\r\n";
	assert_true(server_http_parse_head(unclosed, strlen(unclosed), 16384, &r) > 0);
	assert_string_equal(r.boundary, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_form_fields),
		cmocka_unit_test(test_multipart_fields),
		cmocka_unit_test(test_multipart_malformed),
		cmocka_unit_test(test_multipart_files),
		cmocka_unit_test(test_head_boundary_query_and_host),
	};
	return cmocka_run_group_tests_name("form", tests, NULL, NULL);
}
