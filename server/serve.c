/* nmt serve (see serve.h): options, the models, the --api-keys file, and
 * the accept loop. One thread accepts connections; each connection gets a
 * thread of its own (connection.c), and a request that translates borrows
 * one of the -t worker slots (translate.c), each holding a session per
 * model, so at most -t translations run at once. The modules and what they
 * share: server_internal.h. */
#include "serve.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../cli/catalog.h"
#include "../cli/options.h"
#include "../common/error.h"
#include "server_internal.h"

/* The signal handler's only way out: a byte into this pipe, which the
 * accept loop polls. A signal is process-wide, so this is the one piece of
 * static state. */
static int stop_pipe[2] = { -1, -1 };

static void on_stop_signal(int sig)
{
	(void)sig;
	char c = 1;
	ssize_t rc = write(stop_pipe[1], &c, 1);
	(void)rc;
}

/* The listening socket on a numeric address (IPv4, IPv6, or "localhost"):
 * no name lookup, which would pull a resolver into the static binary for
 * an address a server is given by number anyway. */
static int listen_on(const char *host, int port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	const char *h = strcmp(host, "localhost") == 0 ? "127.0.0.1" : host;
	int v6 = strchr(h, ':') != NULL;
	if ((v6 ? inet_pton(AF_INET6, h, &a6.sin6_addr) : inet_pton(AF_INET, h, &a4.sin_addr)) != 1) {
		fprintf(stderr, "nmt: serve: --host %s is not a numeric IPv4 or IPv6 address\n", host);
		return -1;
	}
	int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
	struct sockaddr *addr = v6 ? (struct sockaddr *)&a6 : (struct sockaddr *)&a4;
	socklen_t len = v6 ? sizeof a6 : sizeof a4;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 || bind(fd, addr, len) != 0 ||
	    listen(fd, 128) != 0 || getsockname(fd, addr, &len) != 0) {
		fprintf(stderr, "nmt: serve: cannot listen on %s port %d: %s\n", host, port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The port a listening socket got (what --port 0 chose). */
static int bound_port(int fd)
{
	struct sockaddr_in6 a;
	socklen_t len = sizeof a;
	if (getsockname(fd, (struct sockaddr *)&a, &len) != 0)
		return -1;
	return ntohs(a.sin6_family == AF_INET6 ? a.sin6_port : ((struct sockaddr_in *)&a)->sin_port);
}

static void add_model(server_state *s, nmt_model *m)
{
	if (s->n_models == SERVER_MAX_MODELS)
		error_exit("nmt: serve", 2, "at most %d models", SERVER_MAX_MODELS);
	server_model *sm = &s->models[s->n_models++];
	sm->model = m;
	if (nmt_model_metadata_value(m, "src_lang", sm->src, sizeof sm->src) != NMT_OK)
		strcpy(sm->src, "und");
	if (nmt_model_metadata_value(m, "tgt_lang", sm->tgt, sizeof sm->tgt) != NMT_OK)
		strcpy(sm->tgt, "und");
}

static void open_models(server_state *s, char **paths, int n_paths)
{
	nmt_error err;
	nmt_model *m;
	for (int i = 0; i < n_paths; i++) {
		if (nmt_model_open(paths[i], 0, &m, &err) != NMT_OK)
			error_exit("nmt", 1, "%s", err.message);
		add_model(s, m);
	}
	if (n_paths > 0)
		return;
	cli_catalog c;   /* no -m: every installed model, and the embedded one */
	char *path = cli_catalog_search_path();
	if (!path || cli_catalog_scan(&c, path, 1, NULL) != 0)
		error_exit("nmt", 1, "out of memory");
	free(path);
	for (int i = 0; i < c.n && s->n_models < SERVER_MAX_MODELS; i++)
		if (server_find_model(s, c.entries[i].src, c.entries[i].tgt) < 0 && cli_catalog_open(&c.entries[i], &m, &err) == NMT_OK)
			add_model(s, m);
	cli_catalog_free(&c);
	if (s->n_models == 0)
		error_exit("nmt: serve", 1, "no model to serve (give -m MODEL)");
}

/* --api-keys FILE: one key a line (surrounding spaces and empty lines
 * ignored). Exits with a message when it cannot be read or lists none. */
static void read_api_keys(server_state *s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		error_exit("nmt: serve", 1, "--api-keys %s: %s", path, strerror(errno));
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		char *k = line;
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		while (isspace((unsigned char)*k))
			k++;
		if (!*k)
			continue;
		char **grown = realloc(s->api_keys, (size_t)(s->n_api_keys + 1) * sizeof *grown);
		char *key = strdup(k);
		if (!grown || !key)
			error_exit("nmt: serve", 1, "out of memory");
		s->api_keys = grown;
		s->api_keys[s->n_api_keys++] = key;
	}
	fclose(f);
	if (s->n_api_keys == 0)
		error_exit("nmt: serve", 1, "--api-keys %s lists no key", path);
}

/* An integer option's value; exits on a bad one. */
static long number_arg(const char *s, const char *what, long lo, long hi)
{
	return cli_option_long("nmt: serve", s, what, lo, hi);
}

static void serve_usage(FILE *f)
{
	fputs("usage: nmt serve [--host 127.0.0.1] [--port 5000] [-t N] [-m MODEL]... [options]\n"
	      "Answers LibreTranslate's API: POST /translate (q, source or auto, target, format, alternatives,\n"
	      "api_key), POST /detect (q, api_key), POST /translate_file (file: .txt, .html or .htm; source or\n"
	      "auto, target, api_key) and GET /download_file/NAME, GET /languages, /health, /frontend/settings,\n"
	      "/spec, POST /suggest; a translation page at GET /.\n"
	      "  -m, --model FILE     a model to serve (repeatable; default: every installed model)\n"
	      "  -t, --threads N      translations at once (default: one per core)\n"
	      "  -b, --beam N         beam size (default 4)\n"
	      "      --max-body N     largest request body in bytes (default 1048576)\n"
	      "      --max-connections N  connections at once (default 64)\n"
	      "      --timeout S      seconds a request may take to arrive (default 10)\n"
	      "      --api-keys FILE  accept only requests whose api_key is a line of FILE\n"
	      "  -q, --quiet          no line on stderr when listening\n",
	      f);
}

/* Where to listen and what to serve, from the command line. */
typedef struct {
	const char *host;
	int port;
	char *paths[SERVER_MAX_MODELS];
	int n_paths;
} setup;

/* The defaults, then the options into s and u; exits on a bad one. */
static void parse_options(int argc, char **argv, server_state *s, setup *u)
{
	static const struct option longs[] = {
		{ "host", required_argument, NULL, 'H' },     { "port", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },  { "model", required_argument, NULL, 'm' },
		{ "beam", required_argument, NULL, 'b' },     { "max-body", required_argument, NULL, 'B' },
		{ "max-connections", required_argument, NULL, 'C' }, { "timeout", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },          { "help", no_argument, NULL, 'h' },
		{ "api-keys", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	char refused[8];   /* a refused short option, for its error */
	int c;
	*u = (setup){ .host = "127.0.0.1", .port = 5000 };
	nmt_options_init(&s->options);
	s->n_workers = cli_default_threads();
	s->max_head = 16384;
	s->max_body = 1 << 20;
	s->max_connections = 64;
	s->timeout_ms = 10000;
	s->idle_ms = 15000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:t:b:qh", longs, NULL)) != -1) {
		switch (c) {
		case 'H': u->host = optarg; break;
		case 'p': u->port = (int)number_arg(optarg, "--port", 0, 65535); break;
		case 't': s->n_workers = (int)number_arg(optarg, "--threads", 1, NMT_MAX_THREADS); break;
		case 'b': s->options.beam = (int)number_arg(optarg, "--beam", 1, NMT_MAX_BEAM); break;
		case 'B': s->max_body = (size_t)number_arg(optarg, "--max-body", 1, 1L << 30); break;
		case 'C': s->max_connections = (int)number_arg(optarg, "--max-connections", 1, 100000); break;
		case 'T': s->timeout_ms = 1000 * (int)number_arg(optarg, "--timeout", 1, 3600); break;
		case 'q': s->quiet = 1; break;
		case 'K': read_api_keys(s, optarg); break;
		case 'm':
			if (u->n_paths == SERVER_MAX_MODELS)
				error_exit("nmt: serve", 2, "at most %d models", SERVER_MAX_MODELS);
			u->paths[u->n_paths++] = optarg;
			break;
		case 'h': serve_usage(stdout); exit(0);
		case ':':
			error_exit("nmt: serve", 2, "option %s needs a value (try nmt serve --help)",
				   cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		default:
			error_exit("nmt: serve", 2, "unknown option %s (try nmt serve --help)",
				   cli_refused_option(argc, argv, optind, optopt, refused, sizeof refused));
		}
	}
	if (optind < argc)
		error_exit("nmt: serve", 2, "unexpected argument \"%s\"", argv[optind]);
}

/* SIGTERM and SIGINT stop the accept loop (through stop_pipe); a peer
 * gone mid-answer is an error from send(), not a signal. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Accept connections on fd until SIGTERM or SIGINT. */
static void accept_loop(server_state *s, int fd)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = stop_pipe[0], .events = POLLIN } };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		int client = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
		if (client >= 0)
			server_start_connection(s, client);
	}
}

/* What the server holds: sessions, models, keys, stored files. */
static void release(server_state *s)
{
	for (int w = 0; w < s->n_workers; w++)
		for (int i = 0; i < s->n_models; i++)
			nmt_session_free(s->workers[w].sessions[i]);
	for (int i = 0; i < s->n_models; i++)
		nmt_model_close(s->models[i].model);
	for (int i = 0; i < s->n_api_keys; i++)
		free(s->api_keys[i]);
	free(s->api_keys);
	server_files_free(&s->files);
}

/* Stopping: no new connections; those open finish the request they are
 * in. Then everything is freed. */
static void shut_down(server_state *s, int fd)
{
	close(fd);
	pthread_mutex_lock(&s->lock);
	__atomic_store_n(&s->stopping, 1, __ATOMIC_SEQ_CST);
	while (s->connections > 0)
		pthread_cond_wait(&s->changed, &s->lock);
	pthread_mutex_unlock(&s->lock);
	release(s);
}

int server_main(int argc, char **argv)
{
	server_state *s = calloc(1, sizeof *s);   /* large (the worker table); one per process */
	setup u;
	if (!s)
		error_exit("nmt: serve", 1, "out of memory");
	parse_options(argc, argv, s, &u);
	open_models(s, u.paths, u.n_paths);
	server_open_langid(s);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	server_files_init(&s->files, 2 * s->max_body > SERVER_FILES_MIN_BYTES ? 2 * s->max_body : SERVER_FILES_MIN_BYTES);
	int fd = listen_on(u.host, u.port);
	if (fd < 0 || pipe(stop_pipe) != 0) {
		if (fd >= 0)
			close(fd);
		release(s);   /* no connection thread has started: all of s can go */
		free(s);
		return 1;
	}
	snprintf(s->address, sizeof s->address, strchr(u.host, ':') ? "[%.64s]:%d" : "%.64s:%d", u.host, bound_port(fd));
	catch_signals();
	if (!s->quiet)
		fprintf(stderr, "nmt: serving %d model%s on http://%s:%d with %d thread%s\n", s->n_models,
			s->n_models == 1 ? "" : "s", u.host, bound_port(fd), s->n_workers, s->n_workers == 1 ? "" : "s");
	accept_loop(s, fd);
	shut_down(s, fd);
	if (!s->quiet)
		fprintf(stderr, "nmt: serve: stopped\n");
	/* a connection thread that has just counted itself out may still be
	 * leaving s->lock: s goes once every thread is past its last touch */
	while (__atomic_load_n(&s->threads_in, __ATOMIC_SEQ_CST) > 0)
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->changed);
	free(s);
	return 0;
}
