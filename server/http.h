/* The head of an HTTP/1.x request, parsed strictly from bytes as they
 * arrive: the request line, then header lines up to an empty line. Only
 * what the server uses is kept. */
#ifndef SERVER_HTTP_H
#define SERVER_HTTP_H
#include <stddef.h>

typedef struct {
	char method[8];          /* GET, POST, OPTIONS, ... */
	char path[256];          /* the target without its query */
	int minor;               /* HTTP/1.minor */
	int keep_alive;          /* the connection stays open after the answer */
	long long content_length;   /* -1 when absent */
	char content_type[64];   /* lowercased, parameters dropped ("application/json") */
	char boundary[72];       /* multipart/form-data's boundary parameter (RFC 2046: 1..70 chars), or "" */
	size_t query_at, query_len;   /* the target's query (after '?') as an offset into the head, or 0, 0 */
	char host[256];          /* the first Host header when it is only a host[:port] (letters, digits, ".-:[]"), or "" */
} server_http_request;

/* Parse the head in buf[0..len). Returns its length in bytes (through the
 * empty line) once complete, 0 if more bytes are needed (and len is still
 * under max_head), or minus the HTTP status to answer: -400 (malformed),
 * -431 (head longer than max_head), -501 (Transfer-Encoding, which the
 * server does not take), -505 (not HTTP/1.0 or 1.1). */
long server_http_parse_head(const char *buf, size_t len, size_t max_head, server_http_request *r);

/* The reason phrase of a status code ("OK", "Bad Request", ...). */
const char *server_http_reason(int status);

#endif
