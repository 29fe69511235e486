/* A profile build's table (make PROFILE=1; engine/profile.h): printed by
 * the command line when it has translated its input. */
#ifndef CLI_PROFILE_H
#define CLI_PROFILE_H
#ifdef ENGINE_PROFILE
#include <stdio.h>

#include "../nmt.h"

/* The sessions' time and multiply-adds per stage, summed over sessions
 * (two when pivoting) and their threads, one stage a line: its id, seconds,
 * share of the time, multiply-adds, their share, picoseconds per
 * multiply-add, its label; then the total. */
void cli_profile_print(nmt_session *const *sessions, int n, FILE *out);
#endif
#endif
