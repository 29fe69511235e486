/* A connection's thread: it reads requests (HTTP/1.1 keep-alive, pipelined
 * ones answered in order) and answers each. Limits: the head's size, the
 * body's size, and a deadline for each request from its first byte;
 * whatever breaks one gets a 4xx answer and the connection closes, while
 * every other connection goes on. */
#include "server_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	server_state *srv;
	int fd;
} connection;

long long server_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Wait until fd is readable or the deadline passes (or the server stops
 * while idle): 1 readable, 0 timed out, -1 stopping. Polls in steps of
 * 200 ms so that an idle connection notices SIGTERM. */
static int wait_readable(server_state *s, int fd, long long deadline, int idle)
{
	for (;;) {
		long long left = deadline - server_now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = poll(&p, 1, (int)(left < 200 ? left : 200));
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return 0;
		if (idle && __atomic_load_n(&s->stopping, __ATOMIC_SEQ_CST))
			return -1;
	}
}

/* Read until in holds `want` bytes ((size_t)-1: one read, for a head):
 * 1 done, 0 peer closed or deadline (*timed_out says which), -1 stopping. */
static int read_until(server_state *s, connection *c, server_buf *in, size_t want, long long deadline, int idle,
		      int *timed_out)
{
	char chunk[16384];
	while (in->len < want) {
		int ready = wait_readable(s, c->fd, deadline, idle && in->len == 0);
		if (ready <= 0) {
			*timed_out = ready == 0;
			return ready;
		}
		size_t room = want - in->len < sizeof chunk ? want - in->len : sizeof chunk;
		ssize_t k = recv(c->fd, chunk, room, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		server_buf_add(in, chunk, (size_t)k);
		if (in->failed)
			return 0;
		if (want == (size_t)-1)   /* reading a head: one read at a time */
			return 1;
	}
	return 1;
}

/* Read a request's head into in and parse it into r: its length, or 0
 * when the connection is to close (answered already if need be). The idle
 * timeout applies until the first byte, --timeout from then on (*deadline). */
static long read_head(server_state *s, connection *c, server_buf *in, server_http_request *r, long long *deadline)
{
	long long start = server_now_ms();
	int timed_out = 0;
	long head;
	*deadline = start + s->idle_ms;
	while ((head = server_http_parse_head(in->data ? in->data : "", in->len, s->max_head, r)) == 0) {
		int got = read_until(s, c, in, (size_t)-1, *deadline, 1, &timed_out);
		if (got <= 0) {
			if (timed_out && in->len > 0)
				server_respond_error(c->fd, 408, "Request Timeout: the request did not arrive in time", 0);
			return 0;
		}
		if (in->len > 0 && *deadline == start + s->idle_ms)
			*deadline = server_now_ms() + s->timeout_ms;   /* the request has begun */
	}
	if (head < 0) {
		int status = (int)-head;
		server_respond_error(c->fd, status, status == 431 ? "Request header too large" : status == 501
				     ? "Transfer-Encoding is not supported: send Content-Length" : status == 505
				     ? "HTTP version not supported" : "Bad Request: malformed HTTP", 0);
		return 0;
	}
	return head;
}

/* Read the body after a head of head bytes: 1 read, 0 refused or lost
 * (answered already if need be). A body over --max-body is refused from its
 * Content-Length, before it is read. */
static int read_body(server_state *s, connection *c, server_buf *in, const server_http_request *r, long head,
		     long long deadline)
{
	int timed_out = 0;
	if (r->content_length > (long long)s->max_body) {
		char why[96];
		snprintf(why, sizeof why, "Request body too large (at most %zu bytes)", s->max_body);
		server_respond_error(c->fd, 413, why, 0);
		return 0;
	}
	size_t body_len = r->content_length > 0 ? (size_t)r->content_length : 0;
	if (read_until(s, c, in, (size_t)head + body_len, deadline, 0, &timed_out) <= 0) {
		if (timed_out)
			server_respond_error(c->fd, 408, "Request Timeout: the body did not arrive in time", 0);
		return 0;
	}
	return 1;
}

/* Answer the request whose head and body are in in: 0 sent, -1 not. */
static int answer(server_state *s, connection *c, const server_buf *in, const server_http_request *r, long head,
		  int *keep)
{
	server_request q = { r, in->data, in->data + head, r->content_length > 0 ? (size_t)r->content_length : 0 };
	server_buf out = { 0 };
	char why[256] = "", headers[SERVER_HEADERS_MAX] = SERVER_JSON_HEADERS;
	int status = 200, rc;
	if (strcmp(r->method, "OPTIONS") == 0)
		status = 204;
	else if ((status = server_dispatch(s, &q, &out, headers, why, sizeof why)) == 0)
		status = 200;
	if (out.failed) {
		rc = server_respond_error(c->fd, 500, "out of memory", 0);
		*keep = 0;
	} else if (status == 200 || status == 204) {
		rc = server_respond(c->fd, status, headers, out.data ? out.data : "", out.len, *keep);
	} else {
		rc = server_respond_error(c->fd, status, why[0] ? why : server_http_reason(status), *keep);
	}
	server_buf_free(&out);
	return rc;
}

/* One request on c; 1 to keep the connection open, 0 to close it. */
static int serve_request(server_state *s, connection *c, server_buf *in)
{
	server_http_request r;
	long long deadline;
	long head = read_head(s, c, in, &r, &deadline);
	if (head == 0 || !read_body(s, c, in, &r, head, deadline))
		return 0;
	int keep = r.keep_alive && !__atomic_load_n(&s->stopping, __ATOMIC_SEQ_CST);
	int rc = answer(s, c, in, &r, head, &keep);
	/* what follows this request (a pipelined next one) stays in the buffer */
	size_t used = (size_t)head + (r.content_length > 0 ? (size_t)r.content_length : 0);
	memmove(in->data, in->data + used, in->len - used);
	in->len -= used;
	return rc == 0 && keep;
}

static void *connection_main(void *arg)
{
	connection *c = arg;
	server_state *s = c->srv;
	server_buf in = { 0 };
	while (serve_request(s, c, &in))
		;
	server_buf_free(&in);
	close(c->fd);
	pthread_mutex_lock(&s->lock);
	s->connections--;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	free(c);
	/* the thread's last touch of s: after it the server may be freed */
	__atomic_sub_fetch(&s->threads_in, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* A detached thread with a small stack (1 MiB: a connection's frames are
 * small, and -t bounds the translations) for c; 0, or -1. */
static int start_thread(connection *c)
{
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 1 << 20);
	int rc = pthread_create(&t, &attr, connection_main, c) == 0 ? 0 : -1;
	pthread_attr_destroy(&attr);
	return rc;
}

void server_start_connection(server_state *s, int fd)
{
	struct timeval send_limit = { .tv_sec = s->timeout_ms / 1000, .tv_usec = 0 };
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_limit, sizeof send_limit);
	pthread_mutex_lock(&s->lock);
	int full = s->connections >= s->max_connections;
	if (!full)
		s->connections++;
	pthread_mutex_unlock(&s->lock);
	if (full) {
		server_respond_error(fd, 503, "Too many connections: try again later", 0);
		close(fd);
		return;
	}
	connection *c = malloc(sizeof *c);
	if (c) {
		*c = (connection){ s, fd };
		__atomic_add_fetch(&s->threads_in, 1, __ATOMIC_SEQ_CST);
		if (start_thread(c) == 0)
			return;
		__atomic_sub_fetch(&s->threads_in, 1, __ATOMIC_SEQ_CST);
	}
	free(c);
	server_respond_error(fd, 503, "Service Unavailable: out of resources", 0);
	close(fd);
	pthread_mutex_lock(&s->lock);
	s->connections--;
	pthread_mutex_unlock(&s->lock);
}
