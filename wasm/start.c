/* nmt.wasm's working directory. A WASI program starts in "/", where
 * wasi-libc resolves relative paths; wasm/nmt.mjs preopens the host's "/"
 * and passes the host's working directory in PWD, so moving there first makes
 * `-m model.nmt` and every other relative path mean what it means natively.
 * Linked into make wasm's build alone. */
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void start_in_pwd(void)
{
	const char *pwd = getenv("PWD");

	if (pwd && pwd[0] == '/' && chdir(pwd) != 0) {
		/* a relative path will then fail to open, saying which */
	}
}
