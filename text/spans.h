/* Protected spans: the parts of a sentence that must come through
 * translation byte for byte — numbers with their separators, times,
 * dates, prices and percentages, URLs, e-mail addresses, @handles, file
 * paths, `code` and quoted names (text/quoted.h) — found by rule, one pass
 * over the bytes, no memory.
 * The translator replaces each with a placeholder word before translating
 * and puts it back, verbatim, where the alignment says its placeholder went
 * (docs/INPUT.md). */
#ifndef TEXT_SPANS_H
#define TEXT_SPANS_H
#include <stddef.h>

/* The next protected span of text[*pos..len) as text[*start..*end), *pos
 * moved past it; 0 when there is none. nouns_capitalised: the text's
 * language capitalises its nouns (text/split.h), so one capitalised word
 * in quotes is no name (text/quoted.h). Any bytes are accepted; time is
 * linear in the bytes scanned. */
int text_spans_next(const char *text, size_t len, int nouns_capitalised, size_t *pos, size_t *start, size_t *end);

#endif
