/* The CUDA path (cuda.h): encoder.c and decoder.c, operation for operation,
 * on the GPU. What one element of an operation computes is the CPU's own
 * code, compiled for the device (QUANT_HD: vecmath.h's exp/sigmoid/tanh,
 * ew_body.h's GRU cell, activation quantizer, max, sum and log-normalizer,
 * qlayout.h's weight layout, topk.h's k-best list; -fmad=false as the CPU
 * build's -ffp-contract=off), and the products keep the CPU kernels'
 * arithmetic (f32: eight partial sums in a fixed order; q8/q4: int8
 * activations times integer levels summed in int32, one float rescale), so
 * the GPU computes what the CPU computes; only logf may differ in its last
 * bit. The kernels are the plainest mapping of that work to threads — one
 * thread per output element, 128 per sentence for the k-best — with no
 * shared memory and no barriers, not yet tuned on a real GPU (the
 * development machine has none). Because no thread waits for another, the
 * whole file also runs on a CPU under tests/cuda_emu.h, which is how make
 * test checks it against the CPU engine (bit-identical) everywhere. */
extern "C" {
#include "cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../quant/ew_body.h"
#include "../../quant/logquant.h"
#include "../../quant/qlayout.h"
#include "../../quant/vecmath.h"
#include "../../text/guard.h"
#include "../../engine/topk.h"
}

#ifndef NMT_CUDA_EMULATE
#include <cuda_runtime.h>
/* Every kernel is started through this, so tests/cuda_emu.h can run the
 * same file on a CPU (make test does: docs/RESULTS.md). */
#define LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block)>>>(__VA_ARGS__)
#endif

/* ---- the model on the device ------------------------------------------- */

/* A weight matrix in device memory, in the file's own format and layout. */
struct dmat {
	int format, rows, cols;
	const void *data;
	const float *factor;   /* q8/q4: per row */
	const int *levels;     /* q8/q4/i8: signed level of each code byte (q8, i8) or nibble (q4) */
};

struct dgru {
	dmat w_ih, w_hh;
	const float *b_ih, *b_hh;
};

struct dmodel {
	dmat src_emb, tgt_emb;
	dgru enc[GRU_MAX_ENC_LAYERS][2];
	dmat init, att_U, att_W, att_V, dec_ih_x, dec_ih_c, dec_hh, fc_in, fc, top;
	const float *init_b, *dec_b_ih, *dec_b_hh, *fc_in_b, *fc_b, *top_b, *out_bias;
	const text_piece_head *heads;  /* [Vt] each target piece's head, for the repetition guard */
};

/* What the search tells the device about a sentence each step. */
struct dsent {
	int row0, n_live, V, k;
	float live[NMT_MAX_BEAM];
	int guard;                             /* the repetition guard runs (guard.h) */
	text_guard_row guard_row[NMT_MAX_BEAM]; /* and what each live row may not continue with */
};

/* Device buffers, grown (never inside the decode loop: by encode, for the
 * batch the state was prepared for). */
enum {
	B_LAYER_A, B_LAYER_B, B_ENC_GI, B_ENC_H, B_ENC_GH, B_SRC_IDS, B_ENC_STEPS, B_KEYS, B_PROJ, B_MEAN, B_SENT_INFO,
	B_SHORTLISTS, B_H, B_H_NEXT, B_X, B_Q, B_QV, B_ATT, B_GI, B_GH, B_GX, B_Z, B_Z_NEXT, B_T, B_LOGITS,
	B_ROWS, B_CARRY, B_XQ, B_XS, B_STEP, B_NORM, B_TOPK_LOCAL, B_CAND, B_N_CAND, N_BUFFERS
};

struct gru_cuda_dev {
	const nmt_model *m;
	dmodel dm;
	void **weights;          /* every allocation holding the model, freed at close */
	int n_weights, cap_weights;
	void *buf[N_BUFFERS];
	size_t cap[N_BUFFERS];
	int *host_steps;         /* staging for uploads of per-batch tables */
	size_t cap_host_steps;
	dsent *host_sents;
	int cap_host_sents;
	int steps_off[2];        /* where each direction's table starts in B_ENC_STEPS */
	char err[256];
};

typedef struct gru_cuda_dev dev_t_;

static int fail(dev_t_ *d, const char *what, cudaError_t e)
{
	snprintf(d->err, sizeof d->err, "%s: %s", what, cudaGetErrorString(e));
	return -1;
}

#define CHECK(d, call, what) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) return fail(d, what, e_); } while (0)

static int keep(dev_t_ *d, void *p)
{
	if (d->n_weights == d->cap_weights) {
		int cap = d->cap_weights ? 2 * d->cap_weights : 64;
		void **w = (void **)realloc(d->weights, (size_t)cap * sizeof *w);
		if (!w)
			return -1;
		d->weights = w;
		d->cap_weights = cap;
	}
	d->weights[d->n_weights++] = p;
	return 0;
}

/* A copy of host memory on the device (NULL stays NULL). */
static int upload(dev_t_ *d, const void *host, size_t bytes, const void **out)
{
	void *p;
	*out = NULL;
	if (!host)
		return 0;
	CHECK(d, cudaMalloc(&p, bytes ? bytes : 1), "copying the model to the GPU");
	if (keep(d, p) != 0) {
		cudaFree(p);
		snprintf(d->err, sizeof d->err, "out of memory");
		return -1;
	}
	CHECK(d, cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice), "copying the model to the GPU");
	*out = p;
	return 0;
}

static int upload_floats(dev_t_ *d, const float *host, size_t n, const float **out)
{
	return upload(d, host, n * sizeof(float), (const void **)out);
}

static int upload_matrix(dev_t_ *d, const quant_matrix *w, const int *levels, dmat *out)
{
	size_t bytes = w->format == FORMAT_F32 ? (size_t)w->rows * w->cols * sizeof(float)
						: format_matrix_code_bytes(w->format, w->rows, w->cols);
	*out = dmat{ (int)w->format, w->rows, w->cols, NULL, NULL, levels };
	if (upload(d, w->data, bytes, &out->data) != 0)
		return -1;
	return w->format == FORMAT_F32 ? 0 : upload_floats(d, w->row_factor, (size_t)w->rows, &out->factor);
}

/* The repetition guard's view of every target piece (guard.h). */
static int upload_heads(dev_t_ *d)
{
	size_t V = (size_t)d->m->d.tgt_vocab;
	text_piece_head *h = (text_piece_head *)malloc(V * sizeof *h);
	if (!h) {
		snprintf(d->err, sizeof d->err, "out of memory");
		return -1;
	}
	for (size_t id = 0; id < V; id++)
		text_guard_head(d->m->tgt_vocab, (int32_t)id, &h[id]);
	int rc = upload(d, h, V * sizeof *h, (const void **)&d->dm.heads);
	free(h);
	return rc;
}

static int upload_model(dev_t_ *d)
{
	const nmt_model *m = d->m;
	const gru_dims *gd = &m->gru.dims;
	int q8[256], q4[16], q4n[16], i8[256];
	const int *lv8, *lv4, *lv4n, *lvi8;
	for (int i = 0; i < 256; i++) {
		q8[i] = quant_q8_levels[i];
		i8[i] = (int8_t)i;
	}
	for (int i = 0; i < 16; i++) {
		q4[i] = quant_q4_levels[i];
		q4n[i] = quant_q4n_levels[i];
	}
	if (upload(d, q8, sizeof q8, (const void **)&lv8) || upload(d, q4, sizeof q4, (const void **)&lv4) ||
	    upload(d, q4n, sizeof q4n, (const void **)&lv4n) || upload(d, i8, sizeof i8, (const void **)&lvi8))
		return -1;
#define LV(w)                                                                                      \
	((w).format == FORMAT_Q4 ? lv4 : (w).format == FORMAT_Q4N ? lv4n : (w).format == FORMAT_I8 ? lvi8 : lv8)
#define MAT(w, out) upload_matrix(d, &(w), LV(w), &(out))
	dmodel *dm = &d->dm;
	int rc = MAT(m->src_emb, dm->src_emb) || MAT(m->tgt_emb, dm->tgt_emb);
	for (int l = 0; l < gd->enc_layers; l++)
		for (int dir = 0; dir < 2; dir++) {
			const gru_layer *g = &m->gru.enc[l][dir];
			dgru *dg = &dm->enc[l][dir];
			rc = rc || MAT(g->w_ih, dg->w_ih) || MAT(g->w_hh, dg->w_hh) ||
			     upload_floats(d, g->b_ih, 3 * (size_t)gd->enc_hidden, &dg->b_ih) ||
			     upload_floats(d, g->b_hh, 3 * (size_t)gd->enc_hidden, &dg->b_hh);
		}
	size_t r = (size_t)gd->dec_hidden, f = (size_t)gd->fc;
	rc = rc || MAT(m->gru.init.w, dm->init) || MAT(m->gru.att_U, dm->att_U) || MAT(m->gru.att_W, dm->att_W) ||
	     MAT(m->gru.att_V, dm->att_V) || MAT(m->gru.dec_ih_x, dm->dec_ih_x) || MAT(m->gru.dec_ih_c, dm->dec_ih_c) ||
	     MAT(m->gru.dec.w_hh, dm->dec_hh) || MAT(m->gru.fc_in.w, dm->fc_in) || MAT(m->gru.fc.w, dm->fc) ||
	     MAT(m->gru.top.w, dm->top) || upload_floats(d, m->gru.init.b, r, &dm->init_b) ||
	     upload_floats(d, m->gru.dec.b_ih, 3 * r, &dm->dec_b_ih) || upload_floats(d, m->gru.dec.b_hh, 3 * r, &dm->dec_b_hh) ||
	     upload_floats(d, m->gru.fc_in.b, f, &dm->fc_in_b) || upload_floats(d, m->gru.fc.b, f, &dm->fc_b) ||
	     upload_floats(d, m->gru.top.b, (size_t)m->d.emb, &dm->top_b) ||
	     upload_floats(d, m->out_bias, (size_t)m->d.tgt_vocab, &dm->out_bias);
#undef MAT
#undef LV
	return rc || upload_heads(d) ? -1 : 0;
}

/* Buffer b with room for `bytes`. */
static int reserve(dev_t_ *d, int b, size_t bytes)
{
	if (bytes <= d->cap[b])
		return 0;
	cudaFree(d->buf[b]);
	d->buf[b] = NULL;
	d->cap[b] = 0;
	CHECK(d, cudaMalloc(&d->buf[b], bytes), "allocating GPU memory");
	d->cap[b] = bytes;
	return 0;
}

#define F(b) ((float *)d->buf[b])
#define I(b) ((int32_t *)d->buf[b])

/* ---- kernels --------------------------------------------------------------- */

static const int THREADS = 128;

static unsigned blocks(size_t n)
{
	return (unsigned)((n + THREADS - 1) / THREADS);
}

/* ew_body.h's quantizer, one thread per row. */
static __global__ void k_quantize(const float *X, int n, int ldx, int cols, int padded, int8_t *xq, float *xs)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		xs[i] = quant_ew_quantize_x(X + (size_t)i * ldx, cols, padded, xq + (size_t)i * padded);
}

/* Σ_c level(W[r][c]) * xq[c] over a row's chunks, in int32 (exact). */
__device__ static int32_t qdot(const dmat &W, int r, const int8_t *xq)
{
	format_encoding f = (format_encoding)W.format;
	int per_chunk = quant_chunk_cols(f), chunks = quant_chunks_per_row(f, W.cols);
	int32_t sum = 0;
	if (f == FORMAT_I8) {   /* rows interleaved in fours of columns (format/weights.h) */
		for (int c = 0; c < chunks * per_chunk; c++)
			sum += W.levels[quant_q_code_at(f, (const uint8_t *)W.data, W.cols, r, c)] * xq[c];
		return sum;
	}
	for (int ch = 0; ch < chunks; ch++) {
		const uint8_t *chunk = (const uint8_t *)W.data + quant_chunk_offset(f, W.cols, r, ch);
		const int8_t *x = xq + (size_t)ch * per_chunk;
		if (f == FORMAT_Q8)
			for (int j = 0; j < FORMAT_CHUNK_BYTES; j++)
				sum += W.levels[chunk[j]] * x[j];
		else
			for (int j = 0; j < FORMAT_CHUNK_BYTES; j++) {
				sum += W.levels[chunk[j] & 0x0F] * x[j];
				sum += W.levels[chunk[j] >> 4] * x[FORMAT_CHUNK_BYTES + j];
			}
	}
	return sum;
}

/* Y[i][j] = W[row_j] . X[i] (+ bias[row_j]), row_j = rows ? rows[j] : j:
 * one thread per output. q8/q4 read the quantized inputs xq / xs. */
static __global__ void k_matmul(dmat W, const int32_t *rows, int n_out, const float *X, int ldx, const int8_t *xq,
			 const float *xs, int padded, const float *bias, float *Y, int ldy, int n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	if (j >= n_out || i >= n)
		return;
	int r = rows ? rows[j] : j;
	float y;
	if (W.format == FORMAT_F32) {
		y = quant_ew_dot8((const float *)W.data + (size_t)r * W.cols, X + (size_t)i * ldx, W.cols);
		if (bias)
			y = y + bias[r];
	} else {
		int32_t sum = qdot(W, r, xq + (size_t)i * padded);
		y = (float)sum * (W.factor[r] * xs[i]);   /* q_matmul.c's rescale */
		if (bias)
			y = y + bias[r];
	}
	Y[(size_t)i * ldy + j] = y;
}

/* Row ids[i] of E as floats into out row i (quant_matrix_row). */
static __global__ void k_embed(dmat E, const int32_t *ids, int n, float *out, int ldo)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	if (c >= E.cols || i >= n)
		return;
	int r = ids[i];
	float v;
	if (E.format == FORMAT_F32) {
		v = ((const float *)E.data)[(size_t)r * E.cols + c];
	} else {
		uint8_t code = quant_q_code_at((format_encoding)E.format, (const uint8_t *)E.data, E.cols, r, c);
		v = (float)E.levels[code] * E.factor[r];
	}
	out[(size_t)i * ldo + c] = v;
}

static __global__ void k_add(float *y, const float *x, size_t n)
{
	size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (k < n)
		y[k] += x[k];
}

static __global__ void k_tanh(float *x, size_t n)
{
	size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (k < n)
		x[k] = quant_tanh(x[k]);
}

static __global__ void k_relu(float *x, size_t n)
{
	size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (k < n)
		x[k] = x[k] > 0.0f ? x[k] : 0.0f;
}

/* ew_body.h's GRU cell for row i: gi row gi_row[i] (or i), gh and h row i,
 * the new state to row out_row[i] (or i) of out, at column out_col. One
 * thread per row: the cell is the CPU's loop itself. */
static __global__ void k_gru_cell(int hidden, int n, const float *gi, const int32_t *gi_row, const float *gh,
			   const float *h, float *out, const int32_t *out_row, int ldo, int out_col)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	size_t g = (size_t)(gi_row ? gi_row[i] : i), o = (size_t)(out_row ? out_row[i] : i);
	quant_ew_gru_cell(hidden, gi + g * 3 * hidden, gh + (size_t)i * 3 * hidden, h + (size_t)i * hidden,
			out + o * ldo + out_col);
}

/* The encoder's running rows at a step: row i continues from the state at
 * position prev[i] of `out` (zeros where prev[i] < 0). */
static __global__ void k_enc_gather(const float *out, const int32_t *prev, int n, int ldo, int col, int hidden, float *h)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	if (k >= hidden || i >= n)
		return;
	h[(size_t)i * hidden + k] = prev[i] < 0 ? 0.0f : out[(size_t)prev[i] * ldo + col + k];
}

/* Each sentence's mean encoder state (encoder.c initial_state's loop). */
static __global__ void k_mean(const float *states, const int32_t *sent_off, const int32_t *sent_len, int n, int ctx,
		       float *mean)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	if (k >= ctx || i >= n)
		return;
	float sum = 0.0f;
	for (int j = 0; j < sent_len[i]; j++)
		sum += states[((size_t)sent_off[i] + j) * ctx + k];
	mean[(size_t)i * ctx + k] = sum / (float)sent_len[i];
}

/* α = softmax_j(q_i · key_j) over row i's sentence (decoder.c
 * attention_context with vecmath.c's softmax), one thread per row. */
static __global__ void k_att_scores(const float *keys, const float *q, const int32_t *row_sent, const int32_t *sent_off,
			     const int32_t *sent_len, int n, int a, float *att, int ld_att)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int s = row_sent[i], S = sent_len[s];
	float *x = att + (size_t)i * ld_att;
	for (int j = 0; j < S; j++)
		x[j] = quant_ew_dot8(keys + ((size_t)sent_off[s] + j) * a, q + (size_t)i * a, a);
	float m = quant_ew_max(x, S);
	for (int j = 0; j < S; j++)
		x[j] -= m;
	for (int j = 0; j < S; j++)
		x[j] = quant_exp(x[j]);
	float inv = 1.0f / quant_ew_sum(x, S);
	for (int j = 0; j < S; j++)
		x[j] *= inv;
}

/* The GRU's input projection of the context, Σ_j α_j (W_ih,c s_j) from the
 * projected states, plus b_ih, into gi row i (decoder.c attention_context
 * and gru_cell_step, in their order). */
static __global__ void k_att_context(const float *proj, const float *att, int ld_att, const int32_t *row_sent,
			      const int32_t *sent_off, const int32_t *sent_len, int n, int g, const float *b_ih,
			      float *gi)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	if (k >= g || i >= n)
		return;
	int s = row_sent[i];
	const float *x = att + (size_t)i * ld_att;
	float c = 0.0f;
	for (int j = 0; j < sent_len[s]; j++)
		c += x[j] * proj[((size_t)sent_off[s] + j) * g + k];
	gi[(size_t)i * g + k] = c + b_ih[k];
}

/* The tied output layer over each row's sentence's vocabulary: its
 * shortlist (sl_len > 0) or all Vt words, with the output bias. */
static __global__ void k_output(dmat E, const float *t, const int8_t *tq, const float *ts, int padded,
			 const int32_t *row_sent, const int32_t *sl_off, const int32_t *sl_len, const int32_t *shortlists,
			 const float *bias, int n, float *logits, int ld)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	if (i >= n)
		return;
	int s = row_sent[i], V = sl_len[s] > 0 ? sl_len[s] : E.rows;
	if (j >= V)
		return;
	int r = sl_len[s] > 0 ? shortlists[sl_off[s] + j] : j;
	float y;
	if (E.format == FORMAT_F32)
		y = quant_ew_dot8((const float *)E.data + (size_t)r * E.cols, t + (size_t)i * E.cols, E.cols) + bias[r];
	else
		y = (float)qdot(E, r, tq + (size_t)i * padded) * (E.factor[r] * ts[i]) + bias[r];
	logits[(size_t)i * ld + j] = y;
}

/* The fused output step of Amun 2018 (Alg. 4/6), in three passes that need
 * no barrier inside a block:
 * 1. each live row's log-softmax normalizer (the CPU's own function);
 * 2. for each sentence, TOPK_THREADS threads each keep the k best of their
 *    share of its (row, word) continuations: value = live score +
 *    (x - max) - log Σ e^(x - max), flat = row * Vt + word id;
 * 3. one thread per sentence merges those lists.
 * topk.h ranks the candidates exactly as search.c does, in any order. */
#define TOPK_THREADS 128

static __global__ void k_row_norm(const float *logits, int ld, const dsent *sents, int N, float *row_max, float *row_lse)
{
	int t = threadIdx.x, i = blockIdx.x;
	if (i >= N || t >= sents[i].n_live || sents[i].k == 0)
		return;
	int row = sents[i].row0 + t;
	float m;
	row_lse[row] = quant_ew_log_normalizer(logits + (size_t)row * ld, sents[i].V, &m);
	row_max[row] = m;
}

static __global__ void k_topk_local(const float *logits, int ld, const dsent *sents, int N, const float *row_max,
			     const float *row_lse, const int32_t *sl_off, const int32_t *sl_len,
			     const int32_t *shortlists, int Vt, const text_piece_head *heads, engine_candidate *local,
			     int *local_n)
{
	int t = threadIdx.x, i = blockIdx.x;
	if (i >= N)
		return;
	const dsent *st = &sents[i];
	engine_candidate *best = local + ((size_t)i * TOPK_THREADS + t) * NMT_MAX_BEAM;
	int count = 0, V = st->V, total = st->k > 0 ? st->n_live * V : 0;
	for (int f = t; f < total; f += TOPK_THREADS) {
		int j = f / V, row = st->row0 + j, pos = f - j * V;
		int id = sl_len[i] > 0 ? shortlists[sl_off[i] + pos] : pos;
		float x = logits[(size_t)row * ld + pos];
		if (st->guard && text_guard_blocks(&st->guard_row[j], id, &heads[id]))
			continue;
		engine_topk_offer(best, &count, st->k, st->live[j] + ((x - row_max[row]) - row_lse[row]), j * Vt + id);
	}
	local_n[(size_t)i * TOPK_THREADS + t] = count;
}

static __global__ void k_topk_merge(const dsent *sents, int N, const engine_candidate *local, const int *local_n,
			     engine_candidate *cand, int *n_cand)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= N)
		return;
	engine_candidate *best = cand + (size_t)i * NMT_MAX_BEAM;
	int n = 0;
	for (int t = 0; t < TOPK_THREADS && sents[i].k > 0; t++) {
		const engine_candidate *l = local + ((size_t)i * TOPK_THREADS + t) * NMT_MAX_BEAM;
		for (int p = 0; p < local_n[(size_t)i * TOPK_THREADS + t]; p++)
			engine_topk_offer(best, &n, sents[i].k, l[p].value, l[p].flat);
	}
	n_cand[i] = n;
}

/* The next step's row i continues from row from[i] of this one. */
static __global__ void k_carry(const float *h_next, const int32_t *from, int n, int hidden, float *h)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	if (k < hidden && i < n)
		h[(size_t)i * hidden + k] = h_next[(size_t)from[i] * hidden + k];
}

/* ---- operations ------------------------------------------------------------ */

/* quant_matmul on the device: Y = X W^T (+ bias) for n inputs. */
static void matmul(dev_t_ *d, const dmat &W, const float *X, int n, int ldx, const float *bias, float *Y, int ldy)
{
	int padded = 0;
	if (n <= 0)
		return;
	if (W.format != FORMAT_F32) {
		padded = format_matrix_padded_cols((format_encoding)W.format, W.cols);
		LAUNCH(k_quantize, blocks((size_t)n), THREADS, X, n, ldx, W.cols, padded, (int8_t *)d->buf[B_XQ], F(B_XS));
	}
	LAUNCH(k_matmul, dim3(blocks((size_t)W.rows), (unsigned)n), THREADS, W, NULL, W.rows, X, ldx, (int8_t *)d->buf[B_XQ],
									   F(B_XS), padded, bias, Y, ldy, n);
}

static void add(float *y, const float *x, size_t n)
{
	LAUNCH(k_add, blocks(n), THREADS, y, x, n);
}

static void tanh_(float *x, size_t n)
{
	LAUNCH(k_tanh, blocks(n), THREADS, x, n);
}

static void relu(float *x, size_t n)
{
	LAUNCH(k_relu, blocks(n), THREADS, x, n);
}

/* ---- the batch: buffers and tables ------------------------------------------ */

/* Every device buffer the prepared batch needs. */
static int reserve_batch(dev_t_ *d, const engine_state *s, size_t shortlist_ids)
{
	const engine_dims *dm = &d->m->d;
	const gru_dims *gd = &d->m->gru.dims;
	size_t P = (size_t)s->total_src, N = (size_t)s->n_sents, R = N * (size_t)s->beam, fl = sizeof(float);
	size_t e = (size_t)dm->emb, re = (size_t)gd->enc_hidden, ctx = 2 * re, r = (size_t)gd->dec_hidden;
	size_t a = (size_t)gd->att, f = (size_t)gd->fc, V = (size_t)s->logit_stride;
	size_t in = e > ctx ? e : ctx;
	size_t padded = (size_t)s->kq.cap_cols;   /* the widest input, padded for q4 */
	size_t xrows = P > R ? P : R;
	struct { int b; size_t bytes; } need[] = {
		{ B_LAYER_A, P * in * fl }, { B_LAYER_B, P * in * fl }, { B_ENC_GI, P * 3 * re * fl },
		{ B_ENC_H, N * re * fl }, { B_ENC_GH, N * 3 * re * fl }, { B_SRC_IDS, P * 4 },
		{ B_ENC_STEPS, 4 * P * 4 }, { B_KEYS, P * a * fl }, { B_PROJ, P * 3 * r * fl }, { B_MEAN, N * ctx * fl },
		{ B_SENT_INFO, 4 * N * 4 }, { B_SHORTLISTS, shortlist_ids * 4 }, { B_H, R * r * fl },
		{ B_H_NEXT, R * r * fl }, { B_X, R * e * fl }, { B_Q, R * a * fl }, { B_QV, R * a * fl },
		{ B_ATT, R * (size_t)s->max_src * fl }, { B_GI, R * 3 * r * fl }, { B_GH, R * 3 * r * fl },
		{ B_GX, R * 3 * r * fl }, { B_Z, R * f * fl }, { B_Z_NEXT, R * f * fl }, { B_T, R * e * fl },
		{ B_LOGITS, R * V * fl }, { B_ROWS, 2 * R * 4 }, { B_CARRY, R * 4 }, { B_XQ, xrows * padded },
		{ B_XS, xrows * fl }, { B_STEP, N * sizeof(dsent) }, { B_NORM, 2 * R * fl },
		{ B_TOPK_LOCAL, N * TOPK_THREADS * (NMT_MAX_BEAM * sizeof(engine_candidate) + sizeof(int)) },
		{ B_CAND, N * NMT_MAX_BEAM * sizeof(engine_candidate) }, { B_N_CAND, N * 4 },
	};
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (reserve(d, need[i].b, need[i].bytes) != 0)
			return -1;
	return 0;
}

/* Host staging of n ints. */
static int *staging(dev_t_ *d, size_t n)
{
	if (n > d->cap_host_steps) {
		int *p = (int *)realloc(d->host_steps, n * sizeof *p);
		if (!p)
			return NULL;
		d->host_steps = p;
		d->cap_host_steps = n;
	}
	return d->host_steps;
}

/* The sentences' offsets, lengths, shortlist offsets and lengths
 * (B_SENT_INFO: four arrays of N), the shortlists, and the encoder's step
 * tables: per direction, for steps 0, 1, ... the position each running
 * sentence writes, then the one it continues from (-1 at its start). */
static int upload_tables(dev_t_ *d, const engine_state *s, size_t shortlist_ids)
{
	size_t N = (size_t)s->n_sents, P = (size_t)s->total_src;
	int *h = staging(d, 4 * N > 4 * P ? 4 * N : 4 * P);
	if (!h) {
		snprintf(d->err, sizeof d->err, "out of memory");
		return -1;
	}
	size_t sl = 0;
	for (size_t i = 0; i < N; i++) {
		const engine_sentence *st = &s->sent[i];
		h[i] = st->src_off;
		h[N + i] = st->src_len;
		h[2 * N + i] = (int)sl;
		h[3 * N + i] = st->shortlist_len;
		sl += (size_t)st->shortlist_len;
	}
	CHECK(d, cudaMemcpy(d->buf[B_SENT_INFO], h, 4 * N * sizeof *h, cudaMemcpyHostToDevice), "uploading a batch");
	if (shortlist_ids > 0)
		CHECK(d, cudaMemcpy(d->buf[B_SHORTLISTS], s->sl.ids, shortlist_ids * sizeof(int32_t),
				    cudaMemcpyHostToDevice), "uploading a batch");
	size_t k = 0;
	for (int dir = 0; dir < 2; dir++) {
		d->steps_off[dir] = (int)k;
		for (int i = 0; i < s->max_src; i++) {
			size_t first = k;
			for (size_t j = 0; j < N; j++) {   /* positions written at step i */
				const engine_sentence *st = &s->sent[j];
				if (i < st->src_len)
					h[k++] = st->src_off + (dir == 0 ? i : st->src_len - 1 - i);
			}
			size_t m = k - first;
			for (size_t j = 0; j < m; j++)   /* and the ones they continue from */
				h[k + j] = i == 0 ? -1 : h[first + j] + (dir == 0 ? -1 : 1);
			k += m;
		}
	}
	CHECK(d, cudaMemcpy(d->buf[B_ENC_STEPS], h, k * sizeof *h, cudaMemcpyHostToDevice), "uploading a batch");
	return 0;
}

/* ---- the encoder (encoder.c) ---------------------------------------------------- */

/* One direction of one layer over every sentence, step by step. */
static void gru_direction(dev_t_ *d, const engine_state *s, int layer, int dir, const float *in, float *out)
{
	const dgru *g = &d->dm.enc[layer][dir];
	int re = d->m->gru.dims.enc_hidden, ctx = 2 * re, in_dim = layer ? ctx : d->m->d.emb;
	int32_t *steps = I(B_ENC_STEPS) + d->steps_off[dir];

	matmul(d, g->w_ih, in, s->total_src, in_dim, g->b_ih, F(B_ENC_GI), 3 * re);
	for (int i = 0, k = 0; i < s->max_src; i++) {
		int m = 0;
		for (int j = 0; j < s->n_sents; j++)
			m += i < s->sent[j].src_len;
		const int32_t *pos = steps + k, *prev = steps + k + m;
		k += 2 * m;
		LAUNCH(k_enc_gather, dim3(blocks((size_t)re), (unsigned)m), THREADS, out, prev, m, ctx, dir * re, re, F(B_ENC_H));
		matmul(d, g->w_hh, F(B_ENC_H), m, re, g->b_hh, F(B_ENC_GH), 3 * re);
		LAUNCH(k_gru_cell, blocks((size_t)m), THREADS, re, m, F(B_ENC_GI), pos, F(B_ENC_GH), F(B_ENC_H), out, pos, ctx,
							    dir * re);
	}
}

static int encode(void *dev, engine_state *s, const int32_t *const *src)
{
	dev_t_ *d = (dev_t_ *)dev;
	const engine_dims *dm = &d->m->d;
	const gru_dims *gd = &d->m->gru.dims;
	int N = s->n_sents, P = s->total_src, ctx = 2 * gd->enc_hidden;
	size_t shortlist_ids = 0;

	for (int i = 0; i < N; i++) {
		memcpy(s->gru.enc.src_ids + s->sent[i].src_off, src[i], (size_t)s->sent[i].src_len * sizeof *s->gru.enc.src_ids);
		shortlist_ids += (size_t)s->sent[i].shortlist_len;
	}
	if (reserve_batch(d, s, shortlist_ids) != 0 || upload_tables(d, s, shortlist_ids) != 0)
		return -1;
	CHECK(d, cudaMemcpy(d->buf[B_SRC_IDS], s->gru.enc.src_ids, (size_t)P * sizeof(int32_t), cudaMemcpyHostToDevice),
	      "uploading a batch");
	float *in = F(B_LAYER_A), *out = F(B_LAYER_B);
	LAUNCH(k_embed, dim3(blocks((size_t)dm->emb), (unsigned)P), THREADS, d->dm.src_emb, I(B_SRC_IDS), P, in, dm->emb);
	for (int l = 0; l < gd->enc_layers; l++) {
		gru_direction(d, s, l, 0, in, out);
		gru_direction(d, s, l, 1, in, out);
		float *tmp = in;
		in = out;
		out = tmp;
	}
	const float *states = in;   /* the encoder's output */
	const int32_t *off = I(B_SENT_INFO), *len = off + N;
	matmul(d, d->dm.att_U, states, P, ctx, NULL, F(B_KEYS), gd->att);
	tanh_(F(B_KEYS), (size_t)P * gd->att);
	matmul(d, d->dm.dec_ih_c, states, P, ctx, NULL, F(B_PROJ), 3 * gd->dec_hidden);
	LAUNCH(k_mean, dim3(blocks((size_t)ctx), (unsigned)N), THREADS, states, off, len, N, ctx, F(B_MEAN));
	/* h0, straight into the first step's states */
	matmul(d, d->dm.init, F(B_MEAN), N, ctx, d->dm.init_b, F(B_H), gd->dec_hidden);
	tanh_(F(B_H), (size_t)N * gd->dec_hidden);
	CHECK(d, cudaGetLastError(), "encoding on the GPU");
	return 0;
}

/* ---- a decoder step (decoder.c) and the k-best (search.c) ------------------------ */

static int step(void *dev, engine_state *s, int n)
{
	dev_t_ *d = (dev_t_ *)dev;
	const engine_dims *dm = &d->m->d;
	const gru_dims *gd = &d->m->gru.dims;
	const dmodel *w = &d->dm;
	int N = s->n_sents, e = dm->emb, r = gd->dec_hidden;
	int a = gd->att, f = gd->fc, g = 3 * r;
	int32_t *row_sent = I(B_ROWS), *row_prev = row_sent + n;
	const int32_t *off = I(B_SENT_INFO), *len = off + N, *sl_off = off + 2 * N, *sl_len = off + 3 * N;

	/* this step's rows, and what each sentence wants */
	CHECK(d, cudaMemcpy(row_sent, s->row_sent, (size_t)n * sizeof(int32_t), cudaMemcpyHostToDevice), "a decoder step");
	CHECK(d, cudaMemcpy(row_prev, s->row_prev, (size_t)n * sizeof(int32_t), cudaMemcpyHostToDevice), "a decoder step");
	if (N > d->cap_host_sents) {
		dsent *p = (dsent *)realloc(d->host_sents, (size_t)N * sizeof *p);
		if (!p) {
			snprintf(d->err, sizeof d->err, "out of memory");
			return -1;
		}
		d->host_sents = p;
		d->cap_host_sents = N;
	}
	for (int i = 0, row0 = 0; i < N; i++) {
		const engine_sentence *st = &s->sent[i];
		dsent *h = &d->host_sents[i];
		h->row0 = row0;
		h->n_live = st->n_live;
		h->V = st->shortlist_len > 0 ? st->shortlist_len : dm->tgt_vocab;
		h->k = st->n_live > 0 ? s->beam - st->n_fin : 0;   /* what its beam still lacks */
		memcpy(h->live, st->live_score, sizeof h->live);
		h->guard = s->guard_on;
		if (s->guard_on)
			memcpy(h->guard_row, s->guard + row0, (size_t)st->n_live * sizeof *h->guard_row);
		row0 += st->n_live;
	}
	CHECK(d, cudaMemcpy(d->buf[B_STEP], d->host_sents, (size_t)N * sizeof(dsent), cudaMemcpyHostToDevice),
	      "a decoder step");

	float *x = F(B_X), *h = F(B_H), *h_next = F(B_H_NEXT), *q = F(B_Q), *gi = F(B_GI);
	/* the previous words' embeddings and their products */
	LAUNCH(k_embed, dim3(blocks((size_t)e), (unsigned)n), THREADS, w->tgt_emb, row_prev, n, x, e);
	matmul(d, w->att_V, x, n, e, NULL, F(B_QV), a);
	matmul(d, w->dec_ih_x, x, n, e, NULL, F(B_GX), g);
	/* attention */
	matmul(d, w->att_W, h, n, r, NULL, q, a);
	add(q, F(B_QV), (size_t)n * a);
	tanh_(q, (size_t)n * a);
	LAUNCH(k_att_scores, blocks((size_t)n), THREADS, F(B_KEYS), q, row_sent, off, len, n, a, F(B_ATT), s->max_src);
	LAUNCH(k_att_context, dim3(blocks((size_t)g), (unsigned)n), THREADS, F(B_PROJ), F(B_ATT), s->max_src, row_sent,
									    off, len, n, g, w->dec_b_ih, gi);
	if (s->hist.keep_att)   /* kept for the alignments (the same layout: att_stride is max_src) */
		CHECK(d, cudaMemcpy(s->hist.step_att, d->buf[B_ATT], (size_t)n * s->max_src * sizeof(float),
				    cudaMemcpyDeviceToHost), "a decoder step");
	/* the GRU */
	add(gi, F(B_GX), (size_t)n * g);
	matmul(d, w->dec_hh, h, n, r, w->dec_b_hh, F(B_GH), g);
	LAUNCH(k_gru_cell, blocks((size_t)n), THREADS, r, n, gi, NULL, F(B_GH), h, h_next, NULL, r, 0);
	/* the FC stack */
	float *z = F(B_Z), *z_next = F(B_Z_NEXT), *t = F(B_T);
	matmul(d, w->fc_in, h_next, n, r, w->fc_in_b, z, f);
	relu(z, (size_t)n * f);
	for (int l = 0; l < gd->fc_layers; l++) {
		matmul(d, w->fc, z, n, f, w->fc_b, z_next, f);
		relu(z_next, (size_t)n * f);
		add(z, z_next, (size_t)n * f);
	}
	matmul(d, w->top, z, n, f, w->top_b, t, e);
	tanh_(t, (size_t)n * e);
	/* the tied output layer, then each sentence's k best */
	int padded = 0;
	if (w->tgt_emb.format != FORMAT_F32) {
		padded = format_matrix_padded_cols((format_encoding)w->tgt_emb.format, e);
		LAUNCH(k_quantize, blocks((size_t)n), THREADS, t, n, e, e, padded, (int8_t *)d->buf[B_XQ], F(B_XS));
	}
	LAUNCH(k_output, dim3(blocks((size_t)s->logit_stride), (unsigned)n), THREADS,
		w->tgt_emb, t, (int8_t *)d->buf[B_XQ], F(B_XS), padded, row_sent, sl_off, sl_len, I(B_SHORTLISTS),
		w->out_bias, n, F(B_LOGITS), s->logit_stride);
	const dsent *sents = (const dsent *)d->buf[B_STEP];
	engine_candidate *local = (engine_candidate *)d->buf[B_TOPK_LOCAL];
	int *local_n = (int *)(local + (size_t)N * TOPK_THREADS * NMT_MAX_BEAM);
	LAUNCH(k_row_norm, N, NMT_MAX_BEAM, F(B_LOGITS), s->logit_stride, sents, N, F(B_NORM), F(B_NORM) + n);
	LAUNCH(k_topk_local, N, TOPK_THREADS, F(B_LOGITS), s->logit_stride, sents, N, F(B_NORM), F(B_NORM) + n,
	       sl_off, sl_len, I(B_SHORTLISTS), dm->tgt_vocab, w->heads, local, local_n);
	LAUNCH(k_topk_merge, blocks((size_t)N), THREADS, sents, N, local, local_n, (engine_candidate *)d->buf[B_CAND],
	       (int *)d->buf[B_N_CAND]);
	CHECK(d, cudaGetLastError(), "a decoder step");
	CHECK(d, cudaMemcpy(s->cand, d->buf[B_CAND], (size_t)N * NMT_MAX_BEAM * sizeof(engine_candidate),
			    cudaMemcpyDeviceToHost), "a decoder step");
	CHECK(d, cudaMemcpy(s->n_cand, d->buf[B_N_CAND], (size_t)N * sizeof(int), cudaMemcpyDeviceToHost),
	      "a decoder step");
	return 0;
}

/* Finished hypotheses and sentences leave: the surviving rows' states,
 * compacted into the next step's. */
static int carry(void *dev, engine_state *s, int n)
{
	dev_t_ *d = (dev_t_ *)dev;
	int r = d->m->gru.dims.dec_hidden;
	if (n == 0)
		return 0;
	CHECK(d, cudaMemcpy(d->buf[B_CARRY], s->carry_from, (size_t)n * sizeof(int32_t), cudaMemcpyHostToDevice),
	      "a decoder step");
	LAUNCH(k_carry, dim3(blocks((size_t)r), (unsigned)n), THREADS, F(B_H_NEXT), I(B_CARRY), n, r, F(B_H));
	CHECK(d, cudaGetLastError(), "a decoder step");
	return 0;
}

/* ---- opening and closing ----------------------------------------------------------- */

static void close_dev(void *dev)
{
	dev_t_ *d = (dev_t_ *)dev;
	if (!d)
		return;
	for (int i = 0; i < d->n_weights; i++)
		cudaFree(d->weights[i]);
	for (int b = 0; b < N_BUFFERS; b++)
		cudaFree(d->buf[b]);
	free(d->weights);
	free(d->host_steps);
	free(d->host_sents);
	free(d);
}

static const char *last_error(void *dev)
{
	return dev ? ((dev_t_ *)dev)->err : "no device";
}

static const engine_device_ops cuda_ops = { "cuda", encode, step, carry, last_error, close_dev };

extern "C" int gru_cuda_open(const nmt_model *m, const engine_device_ops **ops, void **dev, char *err,
			     size_t errlen)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);

	*ops = NULL;
	*dev = NULL;
	if (e != cudaSuccess || count == 0) {
		snprintf(err, errlen, "no CUDA device: %s", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
		return NMT_ERR_UNSUPPORTED;
	}
	dev_t_ *d = (dev_t_ *)calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	d->m = m;
	if (upload_model(d) != 0) {
		snprintf(err, errlen, "%s", d->err);
		close_dev(d);
		return NMT_ERR_DEVICE;
	}
	*ops = &cuda_ops;
	*dev = d;
	return 0;
}
