/* The SSRU family (arch=transformer-ssru, see ssru.h): its dimensions and
 * weights, its state, and the methods the search calls. model-pack
 * --marian writes these files (pack/marian_pack.c). */
#include "ssru.h"
#include "ssru_arch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/tensors.h"
#include "../../common/error.h"
#include "../../common/number.h"
#include "../../format/grow.h"
#include "../../format/meta.h"

/* ---- dimensions and weights ---------------------------------------------- */

static int meta_int(const nmt_model *m, const char *key, long lo, long hi, int *out, char *err, size_t errlen)
{
	long v;
	if (format_meta_get_long(m->meta, m->meta_len, key, &v) != 0)
		return error_set(err, errlen, "corrupt model: metadata \"%s\" missing or not a number", key);
	if (v < lo || v > hi)
		return error_set(err, errlen, "corrupt model: metadata %s=%ld out of range [%ld, %ld]", key, v, lo, hi);
	*out = (int)v;
	return 0;
}

static int read_dims(nmt_model *m, char *err, size_t errlen)
{
	engine_dims *d = &m->d;
	ssru_weights *w = &m->ssru;
	int *field[SSRU_META_DIMS] = {
		[SSRU_META_SRC_VOCAB] = &d->src_vocab, [SSRU_META_TGT_VOCAB] = &d->tgt_vocab, [SSRU_META_EMB] = &d->emb,
		[SSRU_META_HEADS] = &w->heads, [SSRU_META_FFN] = &w->ffn, [SSRU_META_DEC_FFN] = &w->dec_ffn,
		[SSRU_META_ENC_LAYERS] = &w->enc_layers, [SSRU_META_DEC_LAYERS] = &w->dec_layers,
	};
	for (int i = 0; i < SSRU_META_DIMS; i++)
		if (meta_int(m, ssru_meta_dims[i].key, ssru_meta_dims[i].lo, ssru_meta_dims[i].hi, field[i], err, errlen) != 0)
			return -1;
	if (d->emb % w->heads != 0 || d->emb % 2 != 0)
		return error_set(err, errlen, "corrupt model: emb %d is not an even multiple of %d heads", d->emb, w->heads);
	/* The family uses no BOS (the first step's input is a zero vector,
	 * ssru_decoder.c); both ids are checked against the vocabulary's when
	 * it opens (model.c). */
	return meta_int(m, SSRU_META_BOS_ID, -1, d->tgt_vocab - 1, &d->bos_id, err, errlen) |
	       meta_int(m, SSRU_META_EOS_ID, 0, d->tgt_vocab - 1, &d->eos_id, err, errlen);
}

static int bind_linear(const engine_tensor_dir *td, const char *prefix, int out, int in, quant_linear *l, char *err,
		       size_t errlen)
{
	char name[128];
	snprintf(name, sizeof name, "%s." SSRU_W, prefix);
	if (engine_bind_matrix(td, name, out, in, &l->w, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s." SSRU_B, prefix);
	return engine_bind_f32(td, name, 1, out, &l->b, err, errlen);
}

static int bind_norm(const engine_tensor_dir *td, const char *prefix, int d, const float **s, const float **b, char *err,
		     size_t errlen)
{
	char name[96];
	snprintf(name, sizeof name, "%s." SSRU_LN_S, prefix);
	if (engine_bind_f32(td, name, 1, d, s, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s." SSRU_LN_B, prefix);
	return engine_bind_f32(td, name, 1, d, b, err, errlen);
}

static int bind_attention(const engine_tensor_dir *td, const char *prefix, int d, ssru_attention_w *a, char *err,
			  size_t errlen)
{
	char name[48];
	quant_linear *parts[] = { &a->q, &a->k, &a->v, &a->o };
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof name, "%s.%c", prefix, SSRU_ATT_PROJ[i]);
		if (bind_linear(td, name, d, d, parts[i], err, errlen) != 0)
			return -1;
	}
	return bind_norm(td, prefix, d, &a->ln_s, &a->ln_b, err, errlen);
}

static int bind_ffn(const engine_tensor_dir *td, const char *prefix, int d, int ffn, ssru_ffn_w *f, char *err,
		    size_t errlen)
{
	char name[96];
	snprintf(name, sizeof name, "%s." SSRU_FFN_W1, prefix);
	if (engine_bind_matrix(td, name, ffn, d, &f->w1.w, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s." SSRU_FFN_B1, prefix);
	if (engine_bind_f32(td, name, 1, ffn, &f->w1.b, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s." SSRU_FFN_W2, prefix);
	if (engine_bind_matrix(td, name, d, ffn, &f->w2.w, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s." SSRU_FFN_B2, prefix);
	if (engine_bind_f32(td, name, 1, d, &f->w2.b, err, errlen) != 0)
		return -1;
	return bind_norm(td, prefix, d, &f->ln_s, &f->ln_b, err, errlen);
}

static int bind_ssru(const engine_tensor_dir *td, int l, int d, ssru_w *r, char *err, size_t errlen)
{
	char name[64], prefix[32];
	snprintf(prefix, sizeof prefix, SSRU_DEC_RNN, l);
	snprintf(name, sizeof name, "%s." SSRU_RNN_W, prefix);
	if (engine_bind_matrix(td, name, d, d, &r->w, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s." SSRU_RNN_WF, prefix);
	if (engine_bind_matrix(td, name, d, d, &r->wf, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s." SSRU_RNN_BF, prefix);
	if (engine_bind_f32(td, name, 1, d, &r->bf, err, errlen) != 0)
		return -1;
	return bind_norm(td, prefix, d, &r->ln_s, &r->ln_b, err, errlen);
}

/* The embeddings as the metadata's "tied" says: one matrix for source,
 * target and output (all), the target's shared with the output (tgt), or
 * three (none). The output layer is always m->tgt_emb. */
static int bind_embeddings(nmt_model *m, const engine_tensor_dir *td, char *err, size_t errlen)
{
	char tied[8];
	const engine_dims *d = &m->d;
	if (format_meta_get(m->meta, m->meta_len, SSRU_META_TIED, tied, sizeof tied) != 0)
		return error_set(err, errlen, "corrupt model: metadata \"" SSRU_META_TIED "\" missing");
	if (strcmp(tied, "all") == 0) {
		if (d->src_vocab != d->tgt_vocab)
			return error_set(err, errlen, "corrupt model: tied=all with two vocabulary sizes");
		if (engine_bind_matrix(td, SSRU_EMB, d->tgt_vocab, d->emb, &m->tgt_emb, err, errlen) != 0)
			return -1;
		m->src_emb = m->ssru.dec_emb = m->tgt_emb;
		return 0;
	}
	if (strcmp(tied, "tgt") != 0 && strcmp(tied, "none") != 0)
		return error_set(err, errlen, "corrupt model: " SSRU_META_TIED "=%s", tied);
	if (engine_bind_matrix(td, SSRU_SRC_EMB, d->src_vocab, d->emb, &m->src_emb, err, errlen) != 0 ||
	    engine_bind_matrix(td, SSRU_TGT_EMB, d->tgt_vocab, d->emb, &m->ssru.dec_emb, err, errlen) != 0)
		return -1;
	if (strcmp(tied, "tgt") == 0) {
		m->tgt_emb = m->ssru.dec_emb;
		return 0;
	}
	return engine_bind_matrix(td, SSRU_OUT, d->tgt_vocab, d->emb, &m->tgt_emb, err, errlen);
}

/* Which stored layer each decoder layer runs: metadata dec_tied, a comma
 * list of 1-based layer numbers (Marian's transformer-tied-layers);
 * without it each layer its own. */
static int read_dec_tied(const nmt_model *m, int *stored, char *err, size_t errlen)
{
	char list[4 * SSRU_MAX_LAYERS + 1];
	int L = m->ssru.dec_layers;
	for (int l = 0; l < L; l++)
		stored[l] = l + 1;
	if (format_meta_get(m->meta, m->meta_len, SSRU_META_DEC_TIED, list, sizeof list) != 0)
		return 0;
	const char *at = list;
	for (int l = 0; l < L; l++) {
		long v;
		if (number_list_next(&at, ',', 1, L, &v) != (l + 1 < L))
			return error_set(err, errlen, "corrupt model: " SSRU_META_DEC_TIED "=%s is not %d layer numbers in 1..%d", list, L, L);
		stored[l] = (int)v;
	}
	return 0;
}

static int ssru_bind(nmt_model *m, char *err, size_t errlen)
{
	ssru_weights *w = &m->ssru;
	engine_tensor_dir td;
	char prefix[32];
	int stored[SSRU_MAX_LAYERS];

	if (read_dims(m, err, errlen) != 0 || read_dec_tied(m, stored, err, errlen) != 0 || engine_tensor_dir_open(&m->view, &td, err, errlen) != 0 ||
	    bind_embeddings(m, &td, err, errlen) != 0 ||
	    engine_bind_f32(&td, SSRU_OUT_BIAS, 1, m->d.tgt_vocab, &m->out_bias, err, errlen) != 0)
		return -1;
	int d = m->d.emb;
	for (int l = 0; l < w->enc_layers; l++) {
		snprintf(prefix, sizeof prefix, SSRU_ENC_ATT, l + 1);
		if (bind_attention(&td, prefix, d, &w->enc_att[l], err, errlen) != 0)
			return -1;
		snprintf(prefix, sizeof prefix, SSRU_ENC_FFN, l + 1);
		if (bind_ffn(&td, prefix, d, w->ffn, &w->enc_ffn[l], err, errlen) != 0)
			return -1;
	}
	for (int l = 0; l < w->dec_layers; l++) {
		if (bind_ssru(&td, stored[l], d, &w->dec_rnn[l], err, errlen) != 0)
			return -1;
		snprintf(prefix, sizeof prefix, SSRU_DEC_ATT, stored[l]);
		if (bind_attention(&td, prefix, d, &w->dec_att[l], err, errlen) != 0)
			return -1;
		snprintf(prefix, sizeof prefix, SSRU_DEC_FFN, stored[l]);
		if (bind_ffn(&td, prefix, d, w->dec_ffn, &w->dec_ffn_w[l], err, errlen) != 0)
			return -1;
	}
	m->max_input = w->ffn > w->dec_ffn ? w->ffn : w->dec_ffn;
	if (m->max_input < d)
		m->max_input = d;
	if (ssru_positions_build(w, d) != 0)
		return error_set(err, errlen, "out of memory for the position encodings");
	return 0;
}

static void ssru_unbind(nmt_model *m)
{
	ssru_positions_free(&m->ssru);
}

/* ---- the state -------------------------------------------------------------- */

/* Grow array p to n elements; a failure sets the caller's `failed`. */
#define GROW(p, n) (failed |= format_grow(&(p), (n), sizeof *(p)))

static int ssru_reserve(engine_state *s, const int32_t *const *src)
{
	(void)src;
	const ssru_weights *w = &s->m->ssru;
	ssru_state *t = &s->ssru;
	int failed = 0, d = s->m->d.emb, L = w->dec_layers;
	int ffn = w->ffn > w->dec_ffn ? w->ffn : w->dec_ffn;
	int rows = s->n_sents * s->beam, side = s->max_src > s->beam ? s->max_src : s->beam;
	size_t sq = (size_t)side * (size_t)s->max_src;

	if (s->total_src > t->cap_src) {
		size_t P = (size_t)s->total_src;
		GROW(t->x, P * d);
		GROW(t->y, P * d);
		GROW(t->q, P * d);
		GROW(t->k, P * d);
		GROW(t->v, P * d);
		GROW(t->kt, (P + SSRU_KEY_PAD) * d);
		GROW(t->vh, P * d);
		GROW(t->ctx, P * d);
		GROW(t->hid, P * ffn);
		GROW(t->ck, (size_t)L * (P + SSRU_KEY_PAD) * d);
		GROW(t->cv, (size_t)L * P * d);
		if (failed)
			return -1;
		t->cap_src = s->total_src;
	}
	if ((int)sq > t->cap_sq) {
		GROW(t->scores, sq);
		GROW(t->head_out, (size_t)side * d);
		if (failed)
			return -1;
		t->cap_sq = (int)sq;
	}
	if (rows > t->cap_rows) {
		size_t R = (size_t)rows;
		GROW(t->c, (size_t)L * R * d);
		GROW(t->c_next, (size_t)L * R * d);
		GROW(t->rx, R * d);
		GROW(t->ry, R * d);
		GROW(t->rq, R * d);
		GROW(t->rctx, R * d);
		GROW(t->rwx, R * d);
		GROW(t->rfx, R * d);
		GROW(t->rhid, R * w->dec_ffn);
		if (failed)
			return -1;
		t->cap_rows = rows;
	}
	return 0;
}

static void ssru_free_state(engine_state *s)
{
	ssru_state *t = &s->ssru;
	void *p[] = { t->x, t->y, t->q, t->k, t->v, t->kt, t->vh, t->ctx, t->hid, t->scores, t->head_out, t->ck,
		      t->cv, t->c, t->c_next, t->rx, t->ry, t->rq, t->rctx, t->rwx, t->rfx, t->rhid };
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		free(p[i]);
	memset(t, 0, sizeof *t);
}

/* ---- the search's calls ------------------------------------------------------ */

/* Every sentence's one row starts with zero cells at position 0. */
static void ssru_start(engine_state *s)
{
	const ssru_weights *w = &s->m->ssru;
	size_t per_layer = (size_t)s->n_sents * (size_t)s->beam * (size_t)s->m->d.emb;
	memset(s->ssru.c, 0, (size_t)w->dec_layers * per_layer * sizeof *s->ssru.c);
	s->ssru.pos = 0;
}

/* The cells of the rows that go on, compacted; every layer's block is laid
 * out for the whole batch's rows (n_sents x beam). */
static void ssru_carry(engine_state *s, int n)
{
	ssru_state *t = &s->ssru;
	int d = s->m->d.emb;
	size_t block = (size_t)s->n_sents * (size_t)s->beam * (size_t)d;
	for (int l = 0; l < s->m->ssru.dec_layers; l++)
		for (int i = 0; i < n; i++)
			memcpy(t->c_next + l * block + (size_t)i * d, t->c + l * block + (size_t)s->carry_from[i] * d,
			       (size_t)d * sizeof *t->c);
	float *c = t->c;
	t->c = t->c_next;
	t->c_next = c;
}

/* Marian's default: ceil(3 x the source pieces, EOS included). */
static int ssru_max_len(int src_len)
{
	return 3 * src_len;
}

const engine_family ssru_family = {
	.arch = SSRU_ARCH,
	.bind = ssru_bind,
	.unbind = ssru_unbind,
	.reserve = ssru_reserve,
	.free_state = ssru_free_state,
	.encode = ssru_encode,
	.start = ssru_start,
	.step = ssru_step,
	.carry = ssru_carry,
	.max_len = ssru_max_len,
};
