#include "options.h"

#include <stdio.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/number.h"
#include "../nmt.h"

const char *cli_refused_option(int argc, char *const *argv, int optind, int optopt, char *buf, size_t cap)
{
	if (optind >= 1 && optind - 1 < argc && argv[optind - 1])
		return argv[optind - 1];
	snprintf(buf, cap, "-%c", optopt > 0 && optopt < 128 ? optopt : '?');
	return buf;
}

long cli_option_long(const char *program, const char *s, const char *what, long lo, long hi)
{
	long v;
	if (number_parse_long(s, lo, hi, &v) != 0)
		error_exit(program, 2, "%s must be an integer in %ld..%ld, not \"%s\"", what, lo, hi, s);
	return v;
}

int cli_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > NMT_MAX_THREADS ? NMT_MAX_THREADS : (int)n;
}
