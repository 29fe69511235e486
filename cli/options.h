/* What nmt's commands share in reading their options: the option
 * getopt_long has just refused, as the command line wrote it, for the
 * error message; an integer option's value; the default number of threads. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H
#include <stddef.h>

/* argv[optind - 1], the argument getopt_long stopped at, or, when a short
 * option that needs a value ended the line (getopt moved optind past argc),
 * "-c" for optopt c, written into buf. */
const char *cli_refused_option(int argc, char *const *argv, int optind, int optopt, char *buf, size_t cap);

/* The value s of the option named what, an integer in lo..hi; otherwise
 * "PROGRAM: WHAT must be an integer in LO..HI, not "S"" and exit 2. */
long cli_option_long(const char *program, const char *s, const char *what, long lo, long hi);

/* One thread per online core, within 1..NMT_MAX_THREADS (-t's default). */
int cli_default_threads(void);

#endif
