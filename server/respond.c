/* Every answer nmt serve sends goes through here, so each carries the
 * same CORS headers (browsers and extensions call the API from other
 * origins, as they call LibreTranslate) and errors keep LibreTranslate's
 * {"error": ...} shape. */
#include "server_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

/* Send all of p[0..n), through short writes and signals; -1 when the peer
 * is gone (MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE). */
static int send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int server_respond(int fd, int status, const char *headers, const char *body, size_t body_len, int keep_alive)
{
	server_buf b = { 0 };
	server_buf_printf(&b,
		       "HTTP/1.1 %d %s\r\n%sContent-Length: %zu\r\n"
		       "Access-Control-Allow-Origin: *\r\n"
		       "Access-Control-Allow-Headers: Content-Type, Authorization, Accept, Origin, X-Requested-With\r\n"
		       "Access-Control-Allow-Methods: GET, POST, OPTIONS\r\nConnection: %s\r\n\r\n",
		       status, server_http_reason(status), headers, body_len, keep_alive ? "keep-alive" : "close");
	server_buf_add(&b, body, body_len);
	int rc = b.failed ? -1 : send_all(fd, b.data, b.len);
	server_buf_free(&b);
	return rc;
}

int server_respond_error(int fd, int status, const char *message, int keep_alive)
{
	server_buf b = { 0 };
	server_buf_puts(&b, "{\"error\":");
	server_buf_json_string(&b, message, strlen(message));
	server_buf_puts(&b, "}");
	int rc = b.failed ? -1 : server_respond(fd, status, SERVER_JSON_HEADERS, b.data, b.len, keep_alive);
	server_buf_free(&b);
	return rc;
}
