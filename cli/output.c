#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void cli_write_or_die(const char *text, size_t len)
{
	if (fwrite(text, 1, len, stdout) != len)
		error_die(1, "error writing output: %s", strerror(errno));
}

void cli_put_to_stdout(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	cli_write_or_die(p, n);
}
