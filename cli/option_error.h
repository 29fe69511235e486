/* The option getopt_long has just refused, as the command line wrote it,
 * for nmt's error messages. */
#ifndef CLI_OPTION_ERROR_H
#define CLI_OPTION_ERROR_H
#include <stddef.h>

/* argv[optind - 1], the argument getopt_long stopped at, or, when a short
 * option that needs a value ended the line (getopt moved optind past argc),
 * "-c" for optopt c, written into buf. */
const char *cli_refused_option(int argc, char *const *argv, int optind, int optopt, char *buf, size_t cap);

#endif
