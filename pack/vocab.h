/* A SentencePiece model as a packed file's vocabulary section. */
#ifndef PACK_VOCAB_H
#define PACK_VOCAB_H
#include <stddef.h>

#include "writer.h"

/* Read the model at path (gzipped or not: file.h), pack it (vocab/spm.h;
 * decode_only: without the tables only encoding reads, for the target
 * side), open what was packed as the engine will, and add it to out as
 * section tag. It must have expect_size pieces, an end-of-sentence piece
 * and, where bos >= 0, the ids bos and eos. *bos_id and *eos_id (either may
 * be NULL) receive its ids (-1: no BOS). 0, or -1 with a one-line message
 * naming the file. */
int pack_vocab(const char *path, const char *tag, int expect_size, int bos, int eos, int decode_only,
	       pack_file *out, int *bos_id, int *eos_id, char *err, size_t errlen);

#endif
