#include "arch.h"

#include <stdio.h>

#define ENGINE_DIM(key, field, lo, hi) { key, lo, hi, 0, offsetof(engine_dims, field) }
#define GRU_DIM(key, field, lo, hi) { key, lo, hi, 1, offsetof(gru_dims, field) }

const gru_meta_dim gru_meta_dims[GRU_META_DIMS] = {
	ENGINE_DIM("src_vocab", src_vocab, 4, 1 << 22),
	ENGINE_DIM("tgt_vocab", tgt_vocab, 4, 1 << 22),
	ENGINE_DIM("emb", emb, 1, 1 << 14),
	GRU_DIM("enc_hidden", enc_hidden, 1, 1 << 14),
	GRU_DIM("enc_layers", enc_layers, 1, GRU_MAX_ENC_LAYERS),
	GRU_DIM("dec_hidden", dec_hidden, 1, 1 << 14),
	GRU_DIM("att", att, 1, 1 << 14),
	GRU_DIM("fc", fc, 1, 1 << 14),
	GRU_DIM("fc_layers", fc_layers, 0, 64),
	ENGINE_DIM("bos_id", bos_id, 0, 1 << 22),
	ENGINE_DIM("eos_id", eos_id, 0, 1 << 22),
};

int *gru_meta_dim_field(const gru_meta_dim *k, engine_dims *d, gru_dims *gd)
{
	return (int *)((k->own ? (char *)gd : (char *)d) + k->off);
}

int gru_meta_dim_value(const gru_meta_dim *k, const engine_dims *d, const gru_dims *gd)
{
	return *(const int *)((k->own ? (const char *)gd : (const char *)d) + k->off);
}

static void add(gru_tensor_spec *out, int *n, const char *name, const char *suffix, int rows, int cols,
		int is_vector)
{
	gru_tensor_spec *t = &out[(*n)++];
	snprintf(t->name, sizeof t->name, "%s%s", name, suffix);
	t->rows = rows;
	t->cols = cols;
	t->is_vector = is_vector;
}

static void add_gru(gru_tensor_spec *out, int *n, const char *prefix, const char *suffix, int in, int h)
{
	char name[24];
	snprintf(name, sizeof name, "%s" GRU_W_IH, prefix);
	add(out, n, name, suffix, 3 * h, in, 0);
	snprintf(name, sizeof name, "%s" GRU_W_HH, prefix);
	add(out, n, name, suffix, 3 * h, h, 0);
	snprintf(name, sizeof name, "%s" GRU_B_IH, prefix);
	add(out, n, name, suffix, 1, 3 * h, 1);
	snprintf(name, sizeof name, "%s" GRU_B_HH, prefix);
	add(out, n, name, suffix, 1, 3 * h, 1);
}

/* A linear layer's weight [rows, cols] and, if it has one, its bias. */
static void add_linear(gru_tensor_spec *out, int *n, const char *name, int rows, int cols, int has_bias)
{
	add(out, n, name, GRU_WEIGHT, rows, cols, 0);
	if (has_bias)
		add(out, n, name, GRU_BIAS, 1, rows, 1);
}

int gru_arch_tensors(const engine_dims *d, const gru_dims *gd, gru_tensor_spec *out)
{
	int n = 0, ctx = 2 * gd->enc_hidden;

	add_linear(out, &n, GRU_SRC_EMB, d->src_vocab, d->emb, 0);
	add_linear(out, &n, GRU_TGT_EMB, d->tgt_vocab, d->emb, 0);
	for (int l = 0; l < gd->enc_layers && l < GRU_MAX_ENC_LAYERS; l++)
		for (int dir = 0; dir < 2; dir++) {
			char suffix[16];
			snprintf(suffix, sizeof suffix, GRU_ENC_LAYER "%s", l, dir ? GRU_REVERSE : "");
			add_gru(out, &n, GRU_ENC, suffix, l ? ctx : d->emb, gd->enc_hidden);
		}
	add_linear(out, &n, GRU_INIT, gd->dec_hidden, ctx, 1);
	add_linear(out, &n, GRU_ATT_U, gd->att, ctx, 0);
	add_linear(out, &n, GRU_ATT_W, gd->att, gd->dec_hidden, 0);
	add_linear(out, &n, GRU_ATT_V, gd->att, d->emb, 0);
	add_gru(out, &n, GRU_DEC, "", d->emb + ctx, gd->dec_hidden);
	add_linear(out, &n, GRU_FC_IN, gd->fc, gd->dec_hidden, 1);
	add_linear(out, &n, GRU_FC, gd->fc, gd->fc, 1);
	add_linear(out, &n, GRU_TOP, d->emb, gd->fc, 1);
	add(out, &n, GRU_OUT_BIAS, "", 1, d->tgt_vocab, 1);
	return n;
}
