#include "http.h"

#include <ctype.h>
#include <string.h>

/* The end of the head (just after "\r\n\r\n", or "\n\n" from lenient
 * clients), or NULL. */
static const char *head_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (buf[i] == '\n' && (buf[i + 1] == '\n' || (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')))
			return buf + i + (buf[i + 1] == '\n' ? 2 : 3);
	return NULL;
}

static int token_char(char c)
{
	return c > 0x20 && c < 0x7f && !strchr("()<>@,;:\\\"/[]?={}", c);
}

static int equals_nocase(const char *a, size_t n, const char *b)
{
	if (strlen(b) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)a[i]) != b[i])
			return 0;
	return 1;
}

/* The request line "METHOD TARGET HTTP/1.x". */
static long request_line(const char *s, size_t n, server_http_request *r)
{
	const char *sp1 = memchr(s, ' ', n);
	if (!sp1 || sp1 == s || (size_t)(sp1 - s) >= sizeof r->method)
		return -400;
	for (const char *c = s; c < sp1; c++)
		if (!token_char(*c))
			return -400;
	memcpy(r->method, s, (size_t)(sp1 - s));
	r->method[sp1 - s] = '\0';
	const char *target = sp1 + 1, *sp2 = memchr(target, ' ', n - (size_t)(target - s));
	if (!sp2 || sp2 == target || (size_t)(s + n - sp2) != 9 || memcmp(sp2 + 1, "HTTP/1.", 7) != 0)
		return sp2 && (size_t)(s + n - sp2) == 9 && memcmp(sp2 + 1, "HTTP/", 5) == 0 ? -505 : -400;
	if (sp2[8] != '0' && sp2[8] != '1')
		return -505;
	r->minor = sp2[8] - '0';
	const char *query = memchr(target, '?', (size_t)(sp2 - target));
	size_t path_n = (size_t)((query ? query : sp2) - target);
	if (path_n >= sizeof r->path)
		return -400;
	for (size_t i = 0; i < (size_t)(sp2 - target); i++)
		if ((unsigned char)target[i] <= 0x20 || target[i] == 0x7f)
			return -400;
	memcpy(r->path, target, path_n);
	r->path[path_n] = '\0';
	if (query) {
		r->query_at = (size_t)(query + 1 - s);
		r->query_len = (size_t)(sp2 - query - 1);
	}
	r->keep_alive = r->minor == 1;
	return 0;
}

/* The boundary="..." (or unquoted) parameter of a Content-Type value, kept
 * when it is 1..70 characters (RFC 2046); otherwise the body is refused
 * later for having none. */
static void boundary(const char *v, size_t vn, server_http_request *r)
{
	r->boundary[0] = '\0';
	for (size_t i = 0; i + 9 <= vn; i++) {
		if (!equals_nocase(v + i, 9, "boundary=") || (i > 0 && v[i - 1] != ';' && v[i - 1] != ' '))
			continue;
		const char *b = v + i + 9, *end = v + vn;
		int quoted = b < end && *b == '"';
		b += quoted;
		const char *e = b;
		while (e < end && (quoted ? *e != '"' : *e != ';' && *e != ' '))
			e++;
		size_t n = (size_t)(e - b);
		if (n >= 1 && n <= 70 && (!quoted || e < end)) {
			memcpy(r->boundary, b, n);
			r->boundary[n] = '\0';
		}
		return;
	}
}

/* The Host header, kept for the addresses the server writes into answers
 * (POST /translate_file's download URL): only what a host name, an IPv4
 * or a bracketed IPv6 address and a port are made of, so nothing else can
 * ride into them. The first one counts. */
static void host(const char *v, size_t vn, server_http_request *r)
{
	if (r->host[0] || vn == 0 || vn >= sizeof r->host)
		return;
	for (size_t i = 0; i < vn; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr(".-:[]", v[i]))
			return;
	memcpy(r->host, v, vn);
	r->host[vn] = '\0';
}

static long header(const char *s, size_t n, server_http_request *r)
{
	const char *colon = memchr(s, ':', n);
	if (!colon || colon == s)
		return -400;
	for (const char *c = s; c < colon; c++)
		if (!token_char(*c))
			return -400;
	size_t name_n = (size_t)(colon - s);
	const char *v = colon + 1, *end = s + n;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	size_t vn = (size_t)(end - v);
	for (size_t i = 0; i < vn; i++)
		if ((unsigned char)v[i] < 0x20 && v[i] != '\t')
			return -400;
	if (equals_nocase(s, name_n, "content-length")) {
		long long x = 0;
		if (vn == 0 || vn > 18 || r->content_length >= 0)   /* two of them: refused (request smuggling) */
			return -400;
		for (size_t i = 0; i < vn; i++) {
			if (v[i] < '0' || v[i] > '9')
				return -400;
			x = x * 10 + (v[i] - '0');
		}
		r->content_length = x;
	} else if (equals_nocase(s, name_n, "transfer-encoding")) {
		return -501;
	} else if (equals_nocase(s, name_n, "connection")) {
		if (equals_nocase(v, vn, "close"))
			r->keep_alive = 0;
		else if (equals_nocase(v, vn, "keep-alive"))
			r->keep_alive = 1;
	} else if (equals_nocase(s, name_n, "host")) {
		host(v, vn, r);
	} else if (equals_nocase(s, name_n, "content-type")) {
		size_t k = 0;
		for (; k < vn && v[k] != ';' && k + 1 < sizeof r->content_type; k++)
			r->content_type[k] = (char)tolower((unsigned char)v[k]);
		while (k > 0 && r->content_type[k - 1] == ' ')
			k--;
		r->content_type[k] = '\0';
		boundary(v, vn, r);
	}
	return 0;
}

long server_http_parse_head(const char *buf, size_t len, size_t max_head, server_http_request *r)
{
	const char *end = head_end(buf, len < max_head ? len : max_head);
	if (!end)
		return len >= max_head ? -431 : 0;
	*r = (server_http_request){ .content_length = -1 };
	const char *line = buf;
	for (int first = 1;; first = 0) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = (size_t)(nl - line);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n == 0)
			return first ? -400 : (long)(end - buf);
		if (memchr(line, '\0', n) || memchr(line, '\r', n))
			return -400;
		long rc = first ? request_line(line, n, r) : header(line, n, r);
		if (rc != 0)
			return rc;
		line = nl + 1;
	}
}

const char *server_http_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 204: return "No Content";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 413: return "Content Too Large";
	case 415: return "Unsupported Media Type";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Error";
	}
}
