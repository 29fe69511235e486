/* nmt's output on stdout, and its name in fatal errors: a file that
 * includes this header ends nmt with error_die (common/error.h), and output
 * that cannot be written ends it with a message. */
#ifndef CLI_OUTPUT_H
#define CLI_OUTPUT_H
#include <stddef.h>

#define ERROR_PROGRAM "nmt"
#include "../common/error.h"

/* text[0..len) to stdout, or exit 1 saying why it could not be written. */
void cli_write_or_die(const char *text, size_t len);

/* cli_write_or_die as a json_put_fn (ctx unused). */
void cli_put_to_stdout(void *ctx, const char *p, size_t n);

#endif
