/* The SSRU family's architecture name and the names of its tensors in a
 * packed file: what model-pack --marian writes (pack/marian_pack.c) and
 * ssru.c binds. A block's tensors are PREFIX.PART, its prefix formatted
 * with its 1-based layer number. */
#ifndef NMT_FAMILY_SSRU_ARCH_H
#define NMT_FAMILY_SSRU_ARCH_H

#define NMT_SSRU_ARCH "transformer-ssru"

/* The embeddings (metadata tied=all: one; tgt: source and target, the
 * target's also the output layer's; none: all three) and the output bias. */
#define NMT_SSRU_EMB "emb"
#define NMT_SSRU_SRC_EMB "src_emb"
#define NMT_SSRU_TGT_EMB "tgt_emb"
#define NMT_SSRU_OUT "out"
#define NMT_SSRU_OUT_BIAS "out_bias"

/* Block prefixes. */
#define NMT_SSRU_ENC_ATT "enc.%d.att"   /* self-attention */
#define NMT_SSRU_ENC_FFN "enc.%d.ffn"
#define NMT_SSRU_DEC_RNN "dec.%d.rnn"   /* the SSRU layer */
#define NMT_SSRU_DEC_ATT "dec.%d.att"   /* cross-attention */
#define NMT_SSRU_DEC_FFN "dec.%d.ffn"

/* Parts. Attention: PREFIX.q.w, PREFIX.q.b, ... for each of
 * NMT_SSRU_ATT_PROJ, then the layer norm. */
#define NMT_SSRU_ATT_PROJ "qkvo"
#define NMT_SSRU_W "w"
#define NMT_SSRU_B "b"
#define NMT_SSRU_LN_S "ln.s"
#define NMT_SSRU_LN_B "ln.b"
#define NMT_SSRU_FFN_W1 "w1"
#define NMT_SSRU_FFN_B1 "b1"
#define NMT_SSRU_FFN_W2 "w2"
#define NMT_SSRU_FFN_B2 "b2"
#define NMT_SSRU_RNN_W "w"    /* W x */
#define NMT_SSRU_RNN_WF "wf"  /* the forget gate's W_f x + b_f */
#define NMT_SSRU_RNN_BF "bf"

#endif
