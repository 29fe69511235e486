/* The SSRU family's architecture name and the names of its tensors in a
 * packed file: what model-pack --marian writes (pack/marian_pack.c) and
 * ssru.c binds. A block's tensors are PREFIX.PART, its prefix formatted
 * with its 1-based layer number. */
#ifndef FAMILY_SSRU_SSRU_ARCH_H
#define FAMILY_SSRU_SSRU_ARCH_H

#define SSRU_ARCH "transformer-ssru"

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
