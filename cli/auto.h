/* nmt -l auto-TGT (--from auto --to TGT): each line is translated from the
 * language nmt detect names for it (text/langid.h), with the installed
 * model for that language and TGT, or two through English (cli/pivot.h).
 * The candidates are the source languages of the installed models that
 * reach TGT either way, and TGT itself: a line in TGT, or with no letters
 * ("und"), needs no translation. Each model is opened once, when a line
 * first needs it. */
#ifndef CLI_AUTO_H
#define CLI_AUTO_H
#include <stddef.h>

#include "../nmt.h"
#include "../text/langid.h"
#include "catalog.h"

typedef struct {
	text_langid profile;
	cli_catalog catalog;
	uint64_t candidates;		     /* bit i: the profile's language i */
	int route[TEXT_LANGID_MAX_LANGS][2]; /* catalog entries for language i: first, then -1 or the second */
	nmt_model **models;		     /* [catalog.n], NULL until needed */
	nmt_session **sessions;		     /* [catalog.n], one per model */
} cli_auto;

/* Scan the installed models (`search_path`, as cli_catalog_scan, and the
 * embedded one) for the ways into tgt, with profile[0..len) (which must
 * outlive a). 0, or -1 with a one-line message in err (no profile, no model
 * into tgt, out of memory); then there is nothing to close. */
int cli_auto_open(cli_auto *a, const char *tgt, const void *profile, size_t len, const char *search_path, char *err,
		  size_t errlen);

/* The profile's language of line[0..len) when it is to be translated, or
 * -1: in tgt already, or "und". */
int cli_auto_language(const cli_auto *a, const char *line, size_t len);

/* The sessions that translate language `lang` (cli_auto_language's) into
 * tgt: *n is 1 (a direct model) or 2 (the pivot's two, in order). Models and
 * sessions are opened on first use and checked against the options with an
 * empty batch. */
nmt_status cli_auto_sessions(cli_auto *a, int lang, const nmt_options *o, nmt_session **s, int *n, nmt_error *err);

void cli_auto_close(cli_auto *a);

#endif
