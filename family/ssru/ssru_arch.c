#include "ssru_arch.h"

#include "ssru_data.h"

const ssru_meta_dim ssru_meta_dims[SSRU_META_DIMS] = {
	[SSRU_META_SRC_VOCAB] = { "src_vocab", 4, 1 << 22 },
	[SSRU_META_TGT_VOCAB] = { "tgt_vocab", 4, 1 << 22 },
	[SSRU_META_EMB] = { "emb", 8, 1 << 14 },
	[SSRU_META_HEADS] = { "heads", 1, 256 },
	[SSRU_META_FFN] = { "ffn", 1, 1 << 16 },
	[SSRU_META_DEC_FFN] = { "dec_ffn", 1, 1 << 16 },
	[SSRU_META_ENC_LAYERS] = { "enc_layers", 1, SSRU_MAX_LAYERS },
	[SSRU_META_DEC_LAYERS] = { "dec_layers", 1, SSRU_MAX_LAYERS },
};
