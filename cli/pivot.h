/* Translating through a pivot language: the first model's translation is
 * the second's input, and the word alignment of the whole is the two
 * alignments chained. */
#ifndef NMT_CLI_PIVOT_H
#define NMT_CLI_PIVOT_H

/* "s-t ..." for every s-p of `first` and p-t of `second` ("0-0 1-2": source
 * word - target word, as --alignment prints them), sorted, each once;
 * malloc'd ("" if none), NULL when memory runs out. Malformed pairs are
 * skipped. */
char *nmt_compose_alignment(const char *first, const char *second);

#endif
