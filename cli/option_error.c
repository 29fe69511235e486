#include "option_error.h"

#include <stdio.h>

const char *cli_refused_option(int argc, char *const *argv, int optind, int optopt, char *buf, size_t cap)
{
	if (optind >= 1 && optind - 1 < argc && argv[optind - 1])
		return argv[optind - 1];
	snprintf(buf, cap, "-%c", optopt > 0 && optopt < 128 ? optopt : '?');
	return buf;
}
