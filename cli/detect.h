/* nmt detect: the language of each input line (text/langid.h), with the
 * profile embedded in the binary (cli/langid_profile.S) or --profile FILE:
 *
 *   nmt detect [--json] [--langs en,de,...] [--profile FILE] < text
 *
 * One output line per input line, in order: the language's code, or "und"
 * for a line without letters or in a script no candidate writes; with
 * --json an object with the confidence and the runners-up. The candidates
 * are --langs, else the source languages of the installed models the
 * profile knows, else (fewer than two of those) every language of the
 * profile. */
#ifndef CLI_DETECT_H
#define CLI_DETECT_H
#include <stddef.h>

extern const unsigned char cli_langid_profile[];   /* the embedded profile file */
extern const size_t cli_langid_profile_size;       /* 0: none embedded */

/* argv[0] is "detect"; returns the exit status (errors exit with "nmt: ..."). */
int cli_detect_main(int argc, char **argv);

#endif
