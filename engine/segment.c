#include "segment.h"

#include <string.h>

/* SentencePiece marks a word's first piece with U+2581 (escaped whitespace). */
static int starts_word(const spm_model *vocab, int32_t id)
{
	size_t len;
	const char *p = spm_piece(vocab, id, &len);
	return p && len >= 3 && memcmp(p, "\xe2\x96\x81", 3) == 0;
}

static int ends_sentence(const spm_model *vocab, int32_t id)
{
	size_t len;
	const char *p = spm_piece(vocab, id, &len);
	/* (a NUL is no sentence end, though strchr would find the terminator) */
	return p && len > 0 && p[len - 1] != '\0' && strchr(".!?;:", p[len - 1]) != NULL;
}

int nmt_segment_length(const spm_model *vocab, const int32_t *ids, int n)
{
	const int most = NMT_SEGMENT_PIECES, least = NMT_SEGMENT_PIECES / 2;
	int window = n - 1 < most ? n - 1 : most;

	/* a cut at k puts ids[0..k) in this segment and ids[k] first in the
	 * next: after the first sentence, since the model has only ever seen
	 * one sentence at a time and, given several, translates the first */
	for (int k = 1; k <= window; k++)
		if (starts_word(vocab, ids[k]) && ends_sentence(vocab, ids[k - 1]))
			return k;
	if (n <= most)
		return n;
	for (int k = most; k >= least; k--)
		if (starts_word(vocab, ids[k]))
			return k;
	return most;
}
