/* vocab/spm.h - SentencePiece-compatible tokenizer (unigram and BPE models).
 *
 * Two halves:
 *   - packing: spm_pack() turns a SentencePiece .model file (a serialized ModelProto)
 *     into a self-contained little-endian blob (layout in docs/TOKENIZER.md);
 *   - runtime: spm_open() validates such a blob and uses it in place (it may live in a
 *     read-only mmap), building only the piece lookup table the blob leaves out;
 *     spm_encode()/spm_decode() then reproduce spm_encode/spm_decode
 *     (SentencePiece 0.1.97) exactly.
 * No global state: everything mutable lives in an explicit per-thread spm_scratch. */
#ifndef VOCAB_SPM_H
#define VOCAB_SPM_H

#include <stddef.h>
#include <stdint.h>

typedef struct spm_model spm_model;	/* immutable after spm_open; shareable across threads */
typedef struct spm_scratch spm_scratch; /* per-thread working memory, reused across calls */

/* Parse a SentencePiece .model and produce a blob for spm_open. *out is malloc'd.
 * Returns 0, or -1 with a one-line reason in err (e.g. "unsupported model type WORD"). */
int spm_pack(const uint8_t *model_proto, size_t len, uint8_t **out, size_t *out_len, char *err, size_t errlen);

/* The same for a vocabulary only ever decoded (a translation model's target
 * side): the blob leaves out the piece lookup table and the normalizer, so
 * spm_decode and the accessors work, spm_encode/spm_normalize_text fail and
 * spm_piece_to_id finds nothing. */
int spm_pack_decoder(const uint8_t *model_proto, size_t len, uint8_t **out, size_t *out_len, char *err, size_t errlen);

/* Validate a blob (every offset, size, count, piece and table entry) and wrap it without
 * copying. The blob must outlive the model. Returns 0, or -1 with a reason in err
 * (SPM_NO_MEMORY when memory ran out). */
#define SPM_NO_MEMORY (-2)
int spm_open(const void *blob, size_t blob_len, spm_model **out, char *err, size_t errlen);
void spm_close(spm_model *m);

int spm_vocab_size(const spm_model *m);
int spm_bos_id(const spm_model *m); /* -1 if the model has none */
int spm_eos_id(const spm_model *m);
int spm_unk_id(const spm_model *m);
int spm_pad_id(const spm_model *m);
/* The piece text of id (NOT NUL-terminated; *len gets its length), or NULL if out of range. */
const char *spm_piece(const spm_model *m, int id, size_t *len);
/* The id of an exact piece string, or -1. */
int spm_piece_to_id(const spm_model *m, const char *piece, size_t len);

spm_scratch *spm_scratch_new(void);
void spm_scratch_free(spm_scratch *s);

/* Encode one line (no newline) of arbitrary bytes. *ids points into the scratch and stays
 * valid until its next use. Returns 0, or -1 (out of memory / input over 256 MiB / a
 * decode-only blob). */
int spm_encode(const spm_model *m, spm_scratch *s, const char *text, size_t len, const int32_t **ids, size_t *n_ids);

/* Decode ids (without BOS/EOS; control ids decode to nothing) like spm_decode.
 * *text points into the scratch, NUL-terminated. Returns -1 on an out-of-range id. */
int spm_decode(const spm_model *m, spm_scratch *s, const int32_t *ids, size_t n, const char **text, size_t *len);

/* Every prefix's decoding in one pass: for i = 0..n-1, prefix(ctx, i, text, len)
 * with text[0..len) = spm_decode of ids[0..i] (valid during the call). Linear but
 * for runs of byte pieces, whose prefixes end with a partial character and are
 * decoded again for each. Returns -1 on an out-of-range id, out of memory, or a
 * non-zero return of prefix. */
typedef int (*spm_prefix_fn)(void *ctx, size_t i, const char *text, size_t len);
int spm_decode_prefixes(const spm_model *m, spm_scratch *s, const int32_t *ids, size_t n, spm_prefix_fn prefix,
			void *ctx);

/* Debugging aid: the normalized form of a line (what the segmenter sees; U+2581 for spaces). */
int spm_normalize_text(const spm_model *m, spm_scratch *s, const char *text, size_t len, const char **out,
		       size_t *out_len);

#endif
