/* Words and alignments: which whitespace-separated word of a decoded
 * sentence each piece belongs to, and the hard word alignment read off
 * the decoder's attention (the source word each target word attends to
 * most, attention summed over both words' pieces), as Marian prints it. */
#ifndef TEXT_ALIGN_H
#define TEXT_ALIGN_H
#include <stdint.h>

#include "../vocab/spm.h"

/* The words of vocab's decoding of ids[0..n): word_of[i] is the word
 * (0, 1, ...) piece i belongs to; a piece that decodes to no visible text
 * belongs to the word after it (the last word, at the end). With
 * encoded_text, ids are the encoding of a text (a source sentence) whose
 * words are wanted: an unknown piece then stands for the characters it
 * replaced, in the word they were in ("cat!" is one word even where "!"
 * is unknown), not for the " ⁇ " it decodes to, spaces and all. Returns
 * the number of words; -1 if memory runs out. */
int text_piece_words(const spm_model *vocab, spm_scratch *scratch, const int32_t *ids, int n, int encoded_text,
		    int *word_of);

/* For each of n_tgt_words target words, the source word it is aligned to,
 * into src_of[]: att(ctx, t) is target piece t's attention over the source
 * pieces (n_src of them, EOS not included), tgt_word_of[t] and
 * src_word_of[j] their words; sums is scratch of n_tgt_words x
 * n_src_words floats. Ties go to the earlier word. With tgt_of not NULL,
 * also the other way: each source word's target word with the most of its
 * attention (-1 for a source word no target word attended to). */
void text_align_words(const float *(*att)(const void *ctx, int t), const void *ctx, int n_tgt, const int *tgt_word_of,
		     int n_tgt_words, int n_src, const int *src_word_of, int n_src_words, float *sums, int *src_of,
		     int *tgt_of);

/* The pair "S-T" at s, as an alignment string writes each (source word S,
 * target word T; pairs are separated by single spaces): S and T into *src
 * and *tgt, *end just past T, and 0; -1 where s does not begin with two
 * decimal numbers joined by '-'. */
int text_align_pair(const char *s, long *src, long *tgt, const char **end);

#endif
