/* Translating through a pivot language: the first model's translation is
 * the second's input, and the word alignment of the whole is the two
 * alignments chained. */
#ifndef CLI_PIVOT_H
#define CLI_PIVOT_H
#include <stddef.h>

#include "../nmt.h"

/* texts[0..count) through two models: the first's best translations
 * (*mid, nbest 1, the other options as given) are the second's input
 * (*out). On failure both are NULL. */
nmt_status cli_pivot_translate(nmt_session *first, nmt_session *second, const nmt_options *options,
			       const char *const *texts, const size_t *lens, int count, nmt_result **mid,
			       nmt_result **out, nmt_error *err);

/* "s-t ..." for every s-p of `first` and p-t of `second` ("0-0 1-2": source
 * word - target word, as --alignment prints them), sorted, each once;
 * malloc'd ("" if none), NULL when memory runs out. Malformed pairs are
 * skipped. */
char *cli_compose_alignment(const char *first, const char *second);

#endif
