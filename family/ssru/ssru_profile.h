/* The SSRU family's stages in a profile build's table (engine/profile.h,
 * make PROFILE=1): id, label, each the part of a layer that ssru_encoder.c
 * and ssru_decoder.c time. The encoder's come before the core's "encoder:
 * rest", the decoder's before "decoder: rest". */
#ifndef FAMILY_SSRU_SSRU_PROFILE_H
#define FAMILY_SSRU_SSRU_PROFILE_H

#define SSRU_PROFILE_ENCODER_STAGES(X)                                \
	X(ENC_EMBED, "encoder: embedding + positions")                \
	X(ENC_QKV, "encoder: Q/K/V projections")                      \
	X(ENC_ATT, "encoder: self-attention (scores, softmax, sum)")  \
	X(ENC_OUT, "encoder: attention output + residual + norm")     \
	X(ENC_FFN1, "encoder: FFN W1 + ReLU")                         \
	X(ENC_FFN2, "encoder: FFN W2 + residual + norm")              \
	X(CROSS_KV, "encoder: cross-attention K/V, all layers")

#define SSRU_PROFILE_DECODER_STAGES(X)                                \
	X(DEC_EMBED, "decoder: embedding + positions")                \
	X(DEC_SSRU, "decoder: SSRU (2 products, cell, norm)")         \
	X(CROSS_Q, "decoder: cross-attention query")                  \
	X(CROSS_ATT, "decoder: cross-attention (scores, softmax, sum)") \
	X(CROSS_OUT, "decoder: cross-attention output + norm")        \
	X(DEC_FFN1, "decoder: FFN W1 + ReLU")                         \
	X(DEC_FFN2, "decoder: FFN W2 + residual + norm")

#endif
