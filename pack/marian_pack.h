/* model-pack --marian: a Marian student model (Transformer encoder, SSRU
 * decoder; .npz or .bin, float32 or intgemm8) as the tensors and metadata
 * of nmt's arch=transformer-ssru. The configuration comes from the model's
 * own YAML; anything nmt does not compute exactly as Marian would is
 * refused with the key and value named. */
#ifndef PACK_MARIAN_PACK_H
#define PACK_MARIAN_PACK_H
#include <stddef.h>

#include "../format/weights.h"
#include "marian_yml.h"
#include "writer.h"

#define MARIAN_MAX_LAYERS 16   /* the engine's SSRU_MAX_LAYERS */

typedef struct {
	int src_vocab, tgt_vocab;
	int emb, heads, ffn, dec_ffn, enc_layers, dec_layers;
	const char *tied;   /* "all", "tgt" (target embeddings = output layer) or "none" */
	/* transformer-tied-layers: decoder layer i runs stored layer
	 * dec_tied[i] (1-based; i + 1 when the list is empty) */
	int dec_tied[MARIAN_MAX_LAYERS];
	int has_dec_tied;
} marian_dims;

/* The configuration in a model's YAML, checked: 0, or -1 with a one-line
 * message naming the key nmt does not support. */
int marian_config(const yml_doc *y, marian_dims *d, char *err, size_t errlen);
/* Read the model at path and add its "tensors" and "weights" sections to
 * out; *dims receives its configuration. 0, or -1 with a one-line message. */
int marian_pack(const char *path, format_encoding quant, pack_file *out, marian_dims *dims, char *err, size_t errlen);
/* The "meta" section: the configuration, the language codes (NULL: "und")
 * and the target vocabulary's ids of BOS (-1 if none; the family uses no
 * BOS, the id is recorded so the vocabulary can be checked) and EOS. */
int marian_add_meta(pack_file *out, const marian_dims *d, format_encoding quant, const char *src_lang,
		    const char *tgt_lang, int bos_id, int eos_id, const char *extra, char *err, size_t errlen);

#endif
