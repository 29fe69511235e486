/* Over-long sentences: a sentence (text/split.h) of more than
 * TEXT_SEGMENT_PIECES source pieces — or a line translated with splitting
 * off — is cut into consecutive chunks, each translated as a sentence of
 * its own, their translations joined with a space (docs/INPUT.md). Time
 * and memory then grow linearly with the text, and attention never spans
 * more than one chunk. */
#ifndef TEXT_SEGMENT_H
#define TEXT_SEGMENT_H
#include <stdint.h>

#include "../vocab/spm.h"

/* Over four times the longest Multi30k training sentence (47 source pieces:
 * docs/RESULTS.md), short enough that one chunk's encoder states stay small. */
#define TEXT_SEGMENT_PIECES 200

/* How many of ids[0..n) the next chunk takes: all of them if n fits; else
 * the longest prefix of at most TEXT_SEGMENT_PIECES pieces, and at least
 * half that, that ends before a word; else exactly TEXT_SEGMENT_PIECES. */
int text_segment_length(const spm_model *vocab, const int32_t *ids, int n);

#endif
