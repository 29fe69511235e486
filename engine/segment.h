/* Long inputs: a line whose source has more than NMT_SEGMENT_PIECES pieces
 * is translated as consecutive segments — its sentences, cut further where
 * one is longer than that many pieces — and their translations are joined
 * with a space into the line's one output line (docs/INPUT.md). Time and
 * memory then grow linearly with the line, and attention never spans more
 * than one segment. */
#ifndef NMT_SEGMENT_H
#define NMT_SEGMENT_H
#include <stdint.h>

#include "../vocab/spm.h"

/* Over four times the longest Multi30k training sentence (47 source pieces:
 * docs/RESULTS.md), short enough that one segment's encoder states stay small. */
#define NMT_SEGMENT_PIECES 200

/* How many of ids[0..n) the next segment takes: up to the first sentence
 * end (a piece ending in . ! ? ; or :) that is followed by a word, if
 * there is one within NMT_SEGMENT_PIECES pieces; else all of them if n
 * fits; else the longest prefix of at most NMT_SEGMENT_PIECES pieces, and
 * at least half that, that ends before a word; else exactly
 * NMT_SEGMENT_PIECES. */
int nmt_segment_length(const spm_model *vocab, const int32_t *ids, int n);

#endif
