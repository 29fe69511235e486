/* A scripted HTTP client for the server's end-to-end tests (tests/e2e/serve.sh):
 *
 *   http_tool PORT [DELAY_MS]  < request > response
 *
 * connects to 127.0.0.1:PORT, sends stdin (all at once, or one byte every
 * DELAY_MS milliseconds: a slow client), then prints everything the server
 * sends until it closes the connection (at most 30 s). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int delay = argc > 2 ? atoi(argv[2]) : 0;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[1])) };
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		perror("http_tool: connect");
		return 1;
	}
	static char req[1 << 20];
	size_t n = fread(req, 1, sizeof req, stdin);
	for (size_t i = 0; i < n;) {
		size_t k = delay ? 1 : n - i;
		ssize_t sent = send(fd, req + i, k, MSG_NOSIGNAL);
		if (sent <= 0)
			break;   /* the server closed on us: print what it said */
		i += (size_t)sent;
		if (delay) {
			struct timespec t = { delay / 1000, (long)(delay % 1000) * 1000000L };
			nanosleep(&t, NULL);
			struct pollfd p = { .fd = fd, .events = POLLIN };
			if (poll(&p, 1, 0) > 0)
				break;   /* an answer before the request ended */
		}
	}
	shutdown(fd, SHUT_WR);
	char buf[65536];
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 30000) <= 0)
			break;
		ssize_t k = recv(fd, buf, sizeof buf, 0);
		if (k <= 0)
			break;
		fwrite(buf, 1, (size_t)k, stdout);
	}
	close(fd);
	return 0;
}
