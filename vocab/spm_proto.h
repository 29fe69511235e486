/* vocab/spm_proto.h - the parts of a SentencePiece ModelProto the tokenizer needs,
 * read with a small bounds-checked protobuf decoder (spm_proto.c). */
#ifndef VOCAB_SPM_PROTO_H
#define VOCAB_SPM_PROTO_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	const uint8_t *p;
	size_t len;
} spm_bytes; /* points into the input */

typedef struct {
	spm_bytes piece;
	float score;
	int type; /* enum spm_piece_type */
} spm_proto_piece;

typedef struct {
	spm_proto_piece *pieces; /* malloc'd */
	size_t n_pieces, cap_pieces;
	/* TrainerSpec */
	int model_type, byte_fallback, ws_as_suffix;
	spm_bytes unk_surface, unk_piece, bos_piece, eos_piece, pad_piece;
	/* NormalizerSpec */
	spm_bytes charsmap;
	int add_dummy_prefix, remove_extra_ws, escape_ws;
	/* denormalizer_spec: only checked for being empty */
	spm_bytes denorm_charsmap;
} spm_proto_model;

/* Parse a serialized ModelProto; proto2 defaults for absent fields. Strings point into buf.
 * Returns 0, or -1 with a reason in err (pieces are freed on failure). */
int spm_proto_parse(const uint8_t *buf, size_t len, spm_proto_model *out, char *err, size_t errlen);
void spm_proto_free(spm_proto_model *pm);

#endif
