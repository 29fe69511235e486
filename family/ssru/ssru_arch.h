/* The SSRU family's architecture name, its metadata's keys and ranges, and
 * the names of its tensors in a packed file: what model-pack --marian
 * writes (pack/marian_pack.c) and ssru.c reads and binds. A block's tensors
 * are PREFIX.PART, its prefix formatted with its 1-based layer number. */
#ifndef FAMILY_SSRU_SSRU_ARCH_H
#define FAMILY_SSRU_SSRU_ARCH_H

#define SSRU_ARCH "transformer-ssru"

/* The sizes in the metadata, in the order model-pack writes them, each
 * with its range (ssru_arch.c). */
enum {
	SSRU_META_SRC_VOCAB,
	SSRU_META_TGT_VOCAB,
	SSRU_META_EMB,
	SSRU_META_HEADS,
	SSRU_META_FFN,
	SSRU_META_DEC_FFN,
	SSRU_META_ENC_LAYERS,
	SSRU_META_DEC_LAYERS,
	SSRU_META_DIMS
};

typedef struct {
	const char *key;
	long lo, hi;
} ssru_meta_dim;

extern const ssru_meta_dim ssru_meta_dims[SSRU_META_DIMS];

/* The keys after them: the embeddings' tying (all, tgt or none), the
 * target vocabulary's BOS (-1: none; the family uses none) and EOS in
 * 0..tgt_vocab-1, and, where decoder layers share weights, the stored
 * layer each runs (a comma list of 1-based layer numbers). */
#define SSRU_META_TIED "tied"
#define SSRU_META_BOS_ID "bos_id"
#define SSRU_META_EOS_ID "eos_id"
#define SSRU_META_DEC_TIED "dec_tied"

/* The embeddings (metadata tied=all: one; tgt: source and target, the
 * target's also the output layer's; none: all three) and the output bias. */
#define SSRU_EMB "emb"
#define SSRU_SRC_EMB "src_emb"
#define SSRU_TGT_EMB "tgt_emb"
#define SSRU_OUT "out"
#define SSRU_OUT_BIAS "out_bias"

/* Block prefixes. */
#define SSRU_ENC_ATT "enc.%d.att"       /* self-attention */
#define SSRU_ENC_FFN "enc.%d.ffn"
#define SSRU_DEC_RNN "dec.%d.rnn"       /* the SSRU layer */
#define SSRU_DEC_ATT "dec.%d.att"       /* cross-attention */
#define SSRU_DEC_FFN "dec.%d.ffn"

/* Parts. Attention: PREFIX.q.w, PREFIX.q.b, ... for each of
 * SSRU_ATT_PROJ, then the layer norm. */
#define SSRU_ATT_PROJ "qkvo"
#define SSRU_W "w"
#define SSRU_B "b"
#define SSRU_LN_S "ln.s"
#define SSRU_LN_B "ln.b"
#define SSRU_FFN_W1 "w1"
#define SSRU_FFN_B1 "b1"
#define SSRU_FFN_W2 "w2"
#define SSRU_FFN_B2 "b2"
#define SSRU_RNN_W "w"        /* W x */
#define SSRU_RNN_WF "wf"      /* the forget gate's W_f x + b_f */
#define SSRU_RNN_BF "bf"

#endif
