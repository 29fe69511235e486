#include "arch.h"

#include <stdio.h>

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
	snprintf(name, sizeof name, "%s.weight_ih", prefix);
	add(out, n, name, suffix, 3 * h, in, 0);
	snprintf(name, sizeof name, "%s.weight_hh", prefix);
	add(out, n, name, suffix, 3 * h, h, 0);
	snprintf(name, sizeof name, "%s.bias_ih", prefix);
	add(out, n, name, suffix, 1, 3 * h, 1);
	snprintf(name, sizeof name, "%s.bias_hh", prefix);
	add(out, n, name, suffix, 1, 3 * h, 1);
}

int gru_arch_tensors(const engine_dims *d, const gru_dims *gd, gru_tensor_spec *out)
{
	int n = 0, ctx = 2 * gd->enc_hidden;

	add(out, &n, "src_emb.weight", "", d->src_vocab, d->emb, 0);
	add(out, &n, "tgt_emb.weight", "", d->tgt_vocab, d->emb, 0);
	for (int l = 0; l < gd->enc_layers && l < GRU_MAX_ENC_LAYERS; l++)
		for (int dir = 0; dir < 2; dir++) {
			char suffix[16];
			snprintf(suffix, sizeof suffix, "_l%d%s", l, dir ? "_reverse" : "");
			add_gru(out, &n, "enc", suffix, l ? ctx : d->emb, gd->enc_hidden);
		}
	add(out, &n, "init.weight", "", gd->dec_hidden, ctx, 0);
	add(out, &n, "init.bias", "", 1, gd->dec_hidden, 1);
	add(out, &n, "att_U.weight", "", gd->att, ctx, 0);
	add(out, &n, "att_W.weight", "", gd->att, gd->dec_hidden, 0);
	add(out, &n, "att_V.weight", "", gd->att, d->emb, 0);
	add_gru(out, &n, "dec", "", d->emb + ctx, gd->dec_hidden);
	add(out, &n, "fc_in.weight", "", gd->fc, gd->dec_hidden, 0);
	add(out, &n, "fc_in.bias", "", 1, gd->fc, 1);
	add(out, &n, "fc.weight", "", gd->fc, gd->fc, 0);
	add(out, &n, "fc.bias", "", 1, gd->fc, 1);
	add(out, &n, "top.weight", "", d->emb, gd->fc, 0);
	add(out, &n, "top.bias", "", 1, d->emb, 1);
	add(out, &n, "out_bias", "", 1, d->tgt_vocab, 1);
	return n;
}
