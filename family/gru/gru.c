/* The GRU family (arch=gru-fc-1, docs/DESIGN.md §3): a bidirectional GRU
 * encoder, one attentional GRU decoder layer, tied FC residual layers and a
 * tied output layer (Devlin 2017). Its dimensions and weights, its state
 * parts and the methods the search calls; the encoder and the decoder step
 * themselves are encoder.c and decoder.c. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../../engine/family.h"
#include "arch.h"
#include "cuda.h"
#include "gru.h"
#include "precomp.h"
#include "../../engine/tensors.h"
#include "../../common/error.h"
#include "../../format/meta.h"

/* ---- dimensions and weights ---------------------------------------------- */

static int read_dims(nmt_model *m, char *err, size_t errlen)
{
	for (int i = 0; i < GRU_META_DIMS; i++) {
		const gru_meta_dim *k = &gru_meta_dims[i];
		long v;
		if (format_meta_get_long(m->meta, m->meta_len, k->key, &v) != 0)
			return error_set(err, errlen, "corrupt model: metadata \"%s\" missing or not a number", k->key);
		if (v < k->lo || v > k->hi)
			return error_set(err, errlen, "corrupt model: metadata %s=%ld out of range [%ld, %ld]", k->key, v,
				    k->lo, k->hi);
		*gru_meta_dim_field(k, &m->d, &m->gru.dims) = (int)v;
	}
	if (m->d.bos_id >= m->d.tgt_vocab || m->d.eos_id >= m->d.tgt_vocab)
		return error_set(err, errlen, "corrupt model: bos_id/eos_id outside the target vocabulary");
	return 0;
}

static int bind_linear(const engine_tensor_dir *td, const char *prefix, int out, int in, int has_bias,
		       quant_linear *l, char *err, size_t errlen)
{
	char name[64];
	snprintf(name, sizeof name, "%s" GRU_WEIGHT, prefix);
	if (engine_bind_matrix(td, name, out, in, &l->w, err, errlen) != 0)
		return -1;
	l->b = NULL;
	snprintf(name, sizeof name, "%s" GRU_BIAS, prefix);
	return has_bias ? engine_bind_f32(td, name, 1, out, &l->b, err, errlen) : 0;
}

/* A GRU's four tensors (arch.h: the encoder's with its layer's suffix, the
 * decoder's without). in = 0: the input weights are bound by the caller. */
static int bind_gru(const engine_tensor_dir *td, const char *prefix, const char *suffix, int in, int h,
		    gru_layer *g, char *err, size_t errlen)
{
	char name[64];
	snprintf(name, sizeof name, "%s" GRU_W_IH "%s", prefix, suffix);
	if (in > 0 && engine_bind_matrix(td, name, 3 * h, in, &g->w_ih, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s" GRU_W_HH "%s", prefix, suffix);
	if (engine_bind_matrix(td, name, 3 * h, h, &g->w_hh, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s" GRU_B_IH "%s", prefix, suffix);
	if (engine_bind_f32(td, name, 1, 3 * h, &g->b_ih, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s" GRU_B_HH "%s", prefix, suffix);
	return engine_bind_f32(td, name, 1, 3 * h, &g->b_hh, err, errlen);
}

static int bind_tensors(nmt_model *m, char *err, size_t errlen)
{
	const engine_dims *d = &m->d;
	const gru_dims *gd = &m->gru.dims;
	int ctx = 2 * gd->enc_hidden;
	engine_tensor_dir td;

	if (engine_tensor_dir_open(&m->view, &td, err, errlen) != 0 ||
	    engine_bind_matrix(&td, GRU_SRC_EMB GRU_WEIGHT, d->src_vocab, d->emb, &m->src_emb, err, errlen) != 0 ||
	    engine_bind_matrix(&td, GRU_TGT_EMB GRU_WEIGHT, d->tgt_vocab, d->emb, &m->tgt_emb, err, errlen) != 0)
		return -1;
	for (int l = 0; l < gd->enc_layers; l++)
		for (int dir = 0; dir < 2; dir++) {
			char suffix[32];
			snprintf(suffix, sizeof suffix, GRU_ENC_LAYER "%s", l, dir ? GRU_REVERSE : "");
			if (bind_gru(&td, GRU_ENC, suffix, l ? ctx : d->emb, gd->enc_hidden,
				     &m->gru.enc[l][dir], err, errlen) != 0)
				return -1;
		}
	quant_linear att;
	if (bind_linear(&td, GRU_INIT, gd->dec_hidden, ctx, 1, &m->gru.init, err, errlen) != 0 ||
	    bind_linear(&td, GRU_ATT_U, gd->att, ctx, 0, &att, err, errlen) != 0)
		return -1;
	m->gru.att_U = att.w;
	if (bind_linear(&td, GRU_ATT_W, gd->att, gd->dec_hidden, 0, &att, err, errlen) != 0)
		return -1;
	m->gru.att_W = att.w;
	if (bind_linear(&td, GRU_ATT_V, gd->att, d->emb, 0, &att, err, errlen) != 0)
		return -1;
	m->gru.att_V = att.w;
	if (bind_gru(&td, GRU_DEC, "", 0, gd->dec_hidden, &m->gru.dec, err, errlen) != 0 ||
	    engine_bind_matrix(&td, GRU_TENSOR_DEC_IH_X, 3 * gd->dec_hidden, d->emb, &m->gru.dec_ih_x, err, errlen) != 0 ||
	    engine_bind_matrix(&td, GRU_TENSOR_DEC_IH_C, 3 * gd->dec_hidden, ctx, &m->gru.dec_ih_c, err, errlen) != 0 ||
	    bind_linear(&td, GRU_FC_IN, gd->fc, gd->dec_hidden, 1, &m->gru.fc_in, err, errlen) != 0 ||
	    bind_linear(&td, GRU_FC, gd->fc, gd->fc, 1, &m->gru.fc, err, errlen) != 0 ||
	    bind_linear(&td, GRU_TOP, d->emb, gd->fc, 1, &m->gru.top, err, errlen) != 0)
		return -1;
	return engine_bind_f32(&td, GRU_OUT_BIAS, 1, d->tgt_vocab, &m->out_bias, err, errlen);
}


/* The precomputed tables are optional too (docs/FORMAT.md, "precomp"):
 * stored in their section, or asked for by metadata precompute=K and
 * filled by each translator as it meets the words (family/gru/precomp.h),
 * or none. */
static int open_precomp(nmt_model *m, char *err, size_t errlen)
{
	const format_section *s = format_find(&m->view, FORMAT_TAG_PRECOMP);
	long top;
	if (!s && format_meta_get_long(m->meta, m->meta_len, GRU_META_PRECOMPUTE, &top) == 0) {
		if (top < 0 || top > (1L << 22))
			return error_set(err, errlen, "corrupt model: metadata " GRU_META_PRECOMPUTE "=%ld out of range [0, %ld]", top,
					1L << 22);
		m->gru.cache_src = top < m->d.src_vocab ? (int)top : m->d.src_vocab;
		m->gru.cache_tgt = top < m->d.tgt_vocab ? (int)top : m->d.tgt_vocab;
		return 0;
	}
	if (!s)
		return 0;
	if (s->size < 16)
		return error_set(err, errlen, "corrupt model: precomp section too small");
	uint32_t n_src = format_rd32(s->data), n_tgt = format_rd32(s->data + 4);
	uint32_t enc_cols = format_rd32(s->data + 8), att_cols = format_rd32(s->data + 12);
	if (n_src > (uint32_t)m->d.src_vocab || n_tgt > (uint32_t)m->d.tgt_vocab ||
	    enc_cols != gru_precomp_src_cols(&m->gru.dims) || att_cols != gru_precomp_tgt_cols(&m->gru.dims))
		return error_set(err, errlen, "corrupt model: precomp header does not fit the model");
	if (s->size != 16 + 4 * ((uint64_t)n_src * enc_cols + (uint64_t)n_tgt * att_cols))
		return error_set(err, errlen, "corrupt model: precomp section has the wrong size");
	m->gru.pre_src = (int)n_src;
	m->gru.pre_tgt = (int)n_tgt;
	m->gru.pre_enc = (const float *)(s->data + 16);
	m->gru.pre_att = m->gru.pre_enc + (size_t)n_src * enc_cols;
	return 0;
}

/* The widest input any matrix product of the model takes: the size of the
 * kernels' scratch for quantized activations. */
static int widest_input(const engine_dims *d, const gru_dims *gd)
{
	int ctx = 2 * gd->enc_hidden;
	int w[] = { d->emb + ctx, ctx, d->emb, gd->enc_hidden, gd->dec_hidden, gd->fc, gd->att };
	int max = 1;
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		if (w[i] > max)
			max = w[i];
	return max;
}

static int gru_bind(nmt_model *m, char *err, size_t errlen)
{
	if (read_dims(m, err, errlen) != 0 || bind_tensors(m, err, errlen) != 0 || open_precomp(m, err, errlen) != 0)
		return -1;
	m->max_input = widest_input(&m->d, &m->gru.dims);
	return 0;
}

/* ---- the state's parts ------------------------------------------------------ */

static int gru_reserve(engine_state *s, const int32_t *const *src)
{
	const nmt_model *m = s->m;
	int uncovered = 0;   /* first-layer positions that may lack a table row */
	for (int i = 0; i < s->n_sents && gru_has_src_tables(m); i++)
		for (int j = 0; j < s->sent[i].src_len; j++)
			uncovered += src[i][j] >= m->gru.pre_src;
	return gru_word_tables_reserve(&s->gru.words, m) |
	       gru_encoder_reserve(&s->gru.enc, m, s->n_sents, s->total_src, uncovered) |
	       gru_decoder_reserve(&s->gru.dec, m, s->n_sents * s->beam, s->total_src);
}

static void gru_free_state(engine_state *s)
{
	gru_encoder_free(&s->gru.enc);
	gru_decoder_free(&s->gru.dec);
	gru_word_tables_free(&s->gru.words);
}

/* ---- the search's calls ------------------------------------------------------ */

/* Each sentence's one live row starts from the encoder's h_0. */
static void gru_start(engine_state *s)
{
	memcpy(s->gru.dec.h, s->gru.enc.h0, (size_t)s->n_sents * (size_t)s->m->gru.dims.dec_hidden * sizeof *s->gru.dec.h);
}

/* The surviving rows' states, compacted from s->gru.dec.h_next into s->gru.dec.h
 * (the step has read s->gru.dec.h): dropping finished hypotheses and sentences. */
static void gru_carry(engine_state *s, int n)
{
	int r = s->m->gru.dims.dec_hidden;
	int same = 1;   /* every row continues from itself (greedy, none finished): swap */
	for (int i = 0; i < n && same; i++)
		same = s->carry_from[i] == i;
	if (same) {
		float *h = s->gru.dec.h;
		s->gru.dec.h = s->gru.dec.h_next;
		s->gru.dec.h_next = h;
		return;
	}
	for (int i = 0; i < n; i++)
		memcpy(s->gru.dec.h + (size_t)i * r, s->gru.dec.h_next + (size_t)s->carry_from[i] * r, (size_t)r * sizeof(float));
}

const engine_family gru_family = {
	.arch = GRU_ARCH,
	.bind = gru_bind,
	.reserve = gru_reserve,
	.free_state = gru_free_state,
	.encode = gru_encode,
	.start = gru_start,
	.step = gru_step,
	.carry = gru_carry,
	.max_len = engine_default_max_len,
	.device_open = gru_cuda_open,
};
