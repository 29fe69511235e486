#include "segment.h"

#include <string.h>

/* SentencePiece marks a word's first piece with U+2581 (escaped whitespace). */
static int starts_word(const spm_model *vocab, int32_t id)
{
	size_t len;
	const char *p = spm_piece(vocab, id, &len);
	return p && len >= 3 && memcmp(p, "\xe2\x96\x81", 3) == 0;
}

int text_segment_length(const spm_model *vocab, const int32_t *ids, int n)
{
	const int most = TEXT_SEGMENT_PIECES, least = TEXT_SEGMENT_PIECES / 2;

	if (n <= most)
		return n;
	for (int k = most; k >= least; k--)
		if (starts_word(vocab, ids[k]))
			return k;
	return most;
}
