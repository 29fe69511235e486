/* Errors. Inside the library and the packer they are one-line messages
 * written into a caller's buffer, and the function that failed returns -1;
 * error_set is the one helper that writes them. A program's main turns one
 * into its last words with error_exit (error_die). */
#ifndef COMMON_ERROR_H
#define COMMON_ERROR_H
#include <stddef.h>

/* printf into err (if errlen > 0) and return -1, so `return error_set(...)` reads naturally. */
int error_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "PROGRAM: message" on stderr, one line, then exit(status). */
_Noreturn void error_exit(const char *program, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* error_die(status, fmt, ...): error_exit under the name of the program
 * the calling file belongs to, which it defines as ERROR_PROGRAM (nmt's
 * files through cli/output.h). */
#define error_die(...) error_exit(ERROR_PROGRAM, __VA_ARGS__)

#endif
