/* nmt serve: LibreTranslate's HTTP API (POST /translate, GET /languages)
 * over the installed models, in the same static binary (docs/SERVER.md). */
#ifndef SERVER_SERVE_H
#define SERVER_SERVE_H

/* argv[0] is "serve". Returns the exit status (0 after SIGTERM/SIGINT once
 * the requests in flight are answered); bad options exit 2. */
int server_main(int argc, char **argv);

#endif
