/* The SSRU family's encoder (docs/DESIGN.md §3b): Transformer layers over a
 * batch of sentences whose positions lie one after the other (self-
 * attention within each sentence, then the feed-forward block, each
 * followed by the residual and a layer norm), then every decoder layer's
 * cross-attention keys and values, once per batch. Also the pieces the
 * decoder shares: positions, attention, the projections with their norms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ssru.h"
#include "../../quant/ew.h"

/* Sinusoidal positions: pair i of position p is sin and cos of p x freq_i,
 * freq_i = 10000^(-i / (d/2 - 1)). The table and the positions beyond it
 * evaluate the same float expressions, so a translation does not depend
 * on whether a position was looked up. */
static float position_angle(const ssru_weights *w, int i, int p)
{
	return (float)p * w->pos_freq[i];
}

int ssru_positions_build(ssru_weights *w, int d)
{
	int half = d / 2;
	float inc = logf(10000.0f) / (float)(half - 1);
	w->pos_len = SSRU_POS_TABLE_FLOATS / d > 0 ? SSRU_POS_TABLE_FLOATS / d : 1;
	w->pos_freq = malloc((size_t)half * sizeof *w->pos_freq);
	w->pos_table = malloc((size_t)w->pos_len * d * sizeof *w->pos_table);
	if (!w->pos_freq || !w->pos_table)
		return -1;
	for (int i = 0; i < half; i++)
		w->pos_freq[i] = expf((float)i * -inc);
	for (int p = 0; p < w->pos_len; p++) {
		float *row = w->pos_table + (size_t)p * d;
		for (int i = 0; i < half; i++) {
			float v = position_angle(w, i, p);
			row[i] = sinf(v);
			row[half + i] = cosf(v);
		}
	}
	return 0;
}

void ssru_positions_free(ssru_weights *w)
{
	free(w->pos_freq);
	free(w->pos_table);
	w->pos_freq = w->pos_table = NULL;
	w->pos_len = 0;
}

/* Two roundings, the product's and the sum's, as when x was scaled in one
 * pass and the encoding added in another (-ffp-contract=off: no fused
 * multiply-add), so the outputs stay what they were. */
void ssru_scale_add_position(const ssru_weights *w, float *x, int d, float scale, int p)
{
	if (p < w->pos_len) {
		const float *pe = w->pos_table + (size_t)p * d;
		for (int k = 0; k < d; k++)
			x[k] = x[k] * scale + pe[k];
		return;
	}
	int half = d / 2;
	for (int k = 0; k < d; k++)
		x[k] *= scale;
	for (int i = 0; i < half; i++) {
		float v = position_angle(w, i, p);
		x[i] += sinf(v);
		x[half + i] += cosf(v);
	}
}

void ssru_split_heads(const float *x, int n, int d, int heads, size_t head_stride, float *out)
{
	int dk = d / heads;
	for (int p = 0; p < n; p++)
		for (int h = 0; h < heads; h++)
			memcpy(out + (size_t)h * head_stride + (size_t)p * dk, x + (size_t)p * d + (size_t)h * dk,
			       (size_t)dk * sizeof *out);
}

/* Sixteen positions at a time: sixteen rows of x read together, each
 * output row written sixteen floats at a time (a column at a time read x
 * d floats apart, one cache line per float). */
void ssru_transpose_heads(const float *x, int n, int d, int ld, float *out)
{
	for (int p0 = 0; p0 < n; p0 += 16) {
		int m = n - p0 < 16 ? n - p0 : 16;
		for (int j = 0; j < d; j++) {
			float *o = out + (size_t)j * ld + p0;
			for (int p = 0; p < m; p++)
				o[p] = x[(size_t)(p0 + p) * d + j];
		}
	}
	for (int j = 0; j < d; j++)
		memset(out + (size_t)j * ld + n, 0, (size_t)(ld - n) * sizeof *out);
}

/* One head's T x S scaled scores z made weights: a softmax per row; with
 * att, their share of the heads' average added (the first head's written:
 * 0 + w is w, weights being >= +0, so no clearing pass is needed). */
static void head_weights(engine_state *s, float *z, int T, int S, int h, float *att, int att_ld)
{
	float H = (float)s->m->ssru.heads;
	for (int t = 0; t < T; t++)
		s->ew->softmax(z + (size_t)t * S, S);
	for (int t = 0; att && t < T; t++) {
		const float *row = z + (size_t)t * S;
		float *a = att + (size_t)t * att_ld;
		if (h == 0)
			for (int j = 0; j < S; j++)
				a[j] = row[j] / H;
		else
			for (int j = 0; j < S; j++)
				a[j] += row[j] / H;
	}
}

/* The scores are the f32 product's (quant_ew_dot8 of each query and key,
 * then the scale), computed with the keys as vector lanes
 * (quant_ew_key_scores). */
ENGINE_PROF_NOINLINE void ssru_attend(engine_state *s, const float *q, int T, const float *kt, int ld_kt,
				      const float *vh, size_t head_stride, int S, float *ctx, float *att, int att_ld)
{
	int d = s->m->d.emb, H = s->m->ssru.heads, dk = d / H;
	float scale = 1.0f / sqrtf((float)dk), *z = s->ssru.scores, *out = s->ssru.head_out;

	for (int h = 0; h < H; h++) {
		s->ew->key_scores(q + (size_t)h * dk, T, d, kt + (size_t)h * dk * ld_kt, ld_kt, S, dk, scale, z, S);
		head_weights(s, z, T, S, h, att, att_ld);
		/* one row (a greedy step's) goes straight into its place in ctx;
		 * more are summed four at a time into out, then placed */
		if (T == 1) {
			s->ew->weighted_sum(z, 1, vh + (size_t)h * head_stride, S, dk, ctx + (size_t)h * dk);
			continue;
		}
		s->ew->weighted_sum(z, T, vh + (size_t)h * head_stride, S, dk, out);
		for (int t = 0; t < T; t++)
			memcpy(ctx + (size_t)t * d + (size_t)h * dk, out + (size_t)t * dk, (size_t)dk * sizeof *ctx);
	}
}

ENGINE_PROF_NOINLINE void ssru_project_norm(engine_state *s, const quant_linear *l, const float *x, int n,
					    const float *ln_s, const float *ln_b, float *y, float *tmp)
{
	int d = s->m->d.emb;
	quant_matmul(&l->w, x, n, l->w.cols, l->b, tmp, d, &s->kq);
	s->ew->add(tmp, y, n * d);
	for (int i = 0; i < n; i++)
		s->ew->layer_norm(tmp + (size_t)i * d, d, ln_s, ln_b, y + (size_t)i * d);
}

ENGINE_PROF_NOINLINE void ssru_ffn(engine_state *s, const ssru_ffn_w *f, int ffn, float *x, int n, float *hid,
				   float *tmp)
{
	quant_matmul(&f->w1.w, x, n, s->m->d.emb, f->w1.b, hid, ffn, &s->kq);
	s->ew->relu(hid, n * ffn);
	ENGINE_PROF_LAP_SIDE(s, ENC_FFN1, DEC_FFN1, (int64_t)n * ffn * s->m->d.emb);
	ssru_project_norm(s, &f->w2, hid, n, f->ln_s, f->ln_b, x, tmp);
	ENGINE_PROF_LAP_SIDE(s, ENC_FFN2, DEC_FFN2, (int64_t)n * ffn * s->m->d.emb);
}

/* Each position's source embedding, scaled by sqrt(d), plus its position's
 * encoding (0 for a sentence's first piece). */
ENGINE_PROF_NOINLINE static void embed_source(engine_state *s, const int32_t *const *src)
{
	int d = s->m->d.emb;
	float scale = sqrtf((float)d);
	for (int i = 0; i < s->n_sents; i++)
		for (int j = 0; j < s->sent[i].src_len; j++) {
			float *x = s->ssru.x + (size_t)(s->sent[i].src_off + j) * d;
			quant_matrix_row(&s->m->src_emb, src[i][j], x);
			ssru_scale_add_position(&s->m->ssru, x, d, scale, j);
		}
}

ENGINE_PROF_NOINLINE static void self_attention(engine_state *s, const ssru_attention_w *a)
{
	ssru_state *t = &s->ssru;
	int d = s->m->d.emb, P = s->total_src, H = s->m->ssru.heads, dk = d / H;
	size_t stride = (size_t)P * dk;
	int ld = P + SSRU_KEY_PAD;

	quant_matmul(&a->q.w, t->x, P, d, a->q.b, t->q, d, &s->kq);
	quant_matmul(&a->k.w, t->x, P, d, a->k.b, t->k, d, &s->kq);
	quant_matmul(&a->v.w, t->x, P, d, a->v.b, t->v, d, &s->kq);
	ssru_transpose_heads(t->k, P, d, ld, t->kt);
	ssru_split_heads(t->v, P, d, H, stride, t->vh);
	ENGINE_PROF_LAP(s, ENC_QKV, 3 * (int64_t)P * d * d);
	for (int i = 0; i < s->n_sents; i++) {
		const engine_sentence *st = &s->sent[i];
		size_t off = (size_t)st->src_off;
		ssru_attend(s, t->q + off * d, st->src_len, t->kt + off, ld, t->vh + off * dk, stride, st->src_len,
				t->ctx + off * d, NULL, 0);
		/* scores and weighted sum: S x S x dk each per head */
		ENGINE_PROF_COUNT(s, ENC_ATT, 2 * (int64_t)st->src_len * st->src_len * d);
	}
	ENGINE_PROF_LAP(s, ENC_ATT, 0);
	ssru_project_norm(s, &a->o, t->ctx, P, a->ln_s, a->ln_b, t->x, t->y);
	ENGINE_PROF_LAP(s, ENC_OUT, (int64_t)P * d * d);
}

void ssru_encode(engine_state *s, const int32_t *const *src)
{
	const ssru_weights *w = &s->m->ssru;
	ssru_state *t = &s->ssru;
	int d = s->m->d.emb, P = s->total_src;

	embed_source(s, src);
	ENGINE_PROF_LAP(s, ENC_EMBED, 0);
	for (int l = 0; l < w->enc_layers; l++) {
		self_attention(s, &w->enc_att[l]);
		ssru_ffn(s, &w->enc_ffn[l], w->ffn, t->x, P, t->hid, t->y);
	}
	/* each decoder layer's keys and values of the encoder's output, head by head */
	for (int l = 0; l < w->dec_layers; l++) {
		const ssru_attention_w *a = &w->dec_att[l];
		size_t layer = (size_t)l * P * d, stride = (size_t)P * (d / w->heads);
		int ld = P + SSRU_KEY_PAD;
		quant_matmul(&a->k.w, t->x, P, d, a->k.b, t->k, d, &s->kq);
		quant_matmul(&a->v.w, t->x, P, d, a->v.b, t->v, d, &s->kq);
		ssru_transpose_heads(t->k, P, d, ld, t->ck + (size_t)l * ld * d);
		ssru_split_heads(t->v, P, d, w->heads, stride, t->cv + layer);
	}
	ENGINE_PROF_LAP(s, CROSS_KV, 2 * (int64_t)w->dec_layers * P * d * d);
}
