/* model-pack --marian (see marian_pack.h). Marian computes x · W with W
 * stored [inputs, outputs]; nmt's matrices are [outputs, inputs] (W x), so
 * every float32 matrix is transposed here. An intgemm8 matrix is stored
 * transposed already, its int8 values q with one multiplier m per matrix:
 * w = q / m exactly as Marian's own conversion makes it, then quantized
 * again to the format asked for. An int8 embedding table is untransposed. */
#include "marian_pack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../family/ssru/ssru_arch.h"
#include "../common/error.h"
#include "../common/number.h"
#include "file.h"
#include "marian_file.h"
#include "marian_yml.h"

/* ---- the configuration ---------------------------------------------------- */

/* A key whose value must be one of these (NULL-terminated); absent keys take
 * Marian's default, the first. */
typedef struct {
	const char *key;
	const char *allowed[3];
} required_value;

static const required_value REQUIRED[] = {
	{ "type", { "transformer" } },
	{ "transformer-decoder-autoreg", { "rnn" } },
	{ "dec-cell", { "ssru" } },
	{ "transformer-postprocess", { "dan" } },
	{ "transformer-preprocess", { "" } },
	{ "transformer-postprocess-emb", { "d" } },
	{ "transformer-postprocess-top", { "" } },
	{ "transformer-ffn-activation", { "relu" } },
	{ "transformer-ffn-depth", { "2" } },
	{ "transformer-decoder-ffn-depth", { "0", "2" } },
	{ "transformer-no-projection", { "false" } },
	{ "transformer-rnn-projection", { "false" } },
	{ "transformer-train-position-embeddings", { "false" } },
	{ "transformer-disable-position-embeddings", { "false" } },
	{ "transformer-alibi-shift", { "false" } },
	{ "transformer-pool", { "false" } },
	{ "transformer-no-affine", { "false" } },
	{ "transformer-no-bias", { "false" } },
	{ "layer-normalization", { "false" } },
	{ "right-left", { "false" } },
	{ "output-omit-bias", { "false" } },
	{ "factors-dim-emb", { "0" } },
	{ "ulr", { "false" } },
	{ "lemma-dim-emb", { "0" } },
};

static const char *value_of(const yml_doc *y, const char *key)
{
	const yml_entry *e = yml_find(y, key);
	return e && !e->is_list ? e->value : NULL;
}

static int check_config(const yml_doc *y, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof REQUIRED / sizeof *REQUIRED; i++) {
		const yml_entry *e = yml_find(y, REQUIRED[i].key);
		if (!e)
			continue;
		if (e->is_list && e->n_items == 0 && strcmp(REQUIRED[i].allowed[0], "") == 0)
			continue;
		int ok = 0;
		for (int k = 0; k < 3 && REQUIRED[i].allowed[k] && !ok; k++)
			ok = !e->is_list && strcmp(e->value, REQUIRED[i].allowed[k]) == 0;
		if (!ok)
			return error_set(err, errlen, "model.yml: %s: %s is not supported (nmt reads %s%s)",
				    e->key, e->is_list ? "a list" : e->value, REQUIRED[i].allowed[0][0] ? REQUIRED[i].allowed[0] : "\"\"",
				    REQUIRED[i].allowed[1] ? " or another listed value" : "");
	}
	return 0;
}

/* transformer-tied-layers: empty (each decoder layer its own weights) or one
 * layer number per decoder layer, the layer whose weights it runs, as
 * Marian reads the list. */
static int read_tied_layers(const yml_doc *y, marian_dims *d, char *err, size_t errlen)
{
	const yml_entry *e = yml_find(y, "transformer-tied-layers");
	for (int i = 0; i < d->dec_layers; i++)
		d->dec_tied[i] = i + 1;
	d->has_dec_tied = e && e->is_list && e->n_items > 0;
	if (!e || (e->is_list && e->n_items == 0))
		return 0;
	if (!e->is_list)
		return error_set(err, errlen, "model.yml: transformer-tied-layers: %s is not a list", e->value);
	if (e->n_items != d->dec_layers)
		return error_set(err, errlen, "model.yml: transformer-tied-layers: %d layers listed for dec-depth %d",
				e->n_items, d->dec_layers);
	for (int i = 0; i < d->dec_layers; i++) {
		long x;
		if (number_parse_long(e->items[i], 1, d->dec_layers, &x) != 0)
			return error_set(err, errlen, "model.yml: transformer-tied-layers: %s is not a layer in 1..%d",
					e->items[i], d->dec_layers);
		d->dec_tied[i] = (int)x;
	}
	return 0;
}

static int int_value(const yml_doc *y, const char *key, int fallback, int lo, int hi, int *out, char *err,
		     size_t errlen)
{
	const char *v = value_of(y, key);
	if (!v) {
		if (fallback < 0)
			return error_set(err, errlen, "model.yml has no %s", key);
		*out = fallback;
		return 0;
	}
	long x;
	if (number_parse_long(v, lo, hi, &x) != 0)
		return error_set(err, errlen, "model.yml: %s: %s is not an integer in %d..%d", key, v, lo, hi);
	*out = (int)x;
	return 0;
}

static int is_true(const yml_doc *y, const char *key)
{
	const char *v = value_of(y, key);
	return v && strcmp(v, "true") == 0;
}

/* A size's range in the packed file's metadata (ssru_arch.h), which the
 * configuration's must fit. */
#define LO(k) ((int)ssru_meta_dims[SSRU_META_##k].lo)
#define HI(k) ((int)ssru_meta_dims[SSRU_META_##k].hi)

static int read_dims(const yml_doc *y, marian_dims *d, char *err, size_t errlen)
{
	const yml_entry *v = yml_find(y, "dim-vocabs");
	if (!v || !v->is_list || v->n_items != 2)
		return error_set(err, errlen, "model.yml: dim-vocabs must list two sizes");
	for (int i = 0; i < 2; i++) {
		long x;
		if (number_parse_long(v->items[i], LO(SRC_VOCAB), HI(SRC_VOCAB), &x) != 0)
			return error_set(err, errlen, "model.yml: dim-vocabs: %s is not a vocabulary size", v->items[i]);
		*(i ? &d->tgt_vocab : &d->src_vocab) = (int)x;
	}
	/* (a decoder FFN of 0, Marian's default, is the encoder's) */
	if (int_value(y, "dim-emb", -1, LO(EMB), HI(EMB), &d->emb, err, errlen) != 0 ||
	    int_value(y, "transformer-heads", 8, LO(HEADS), HI(HEADS), &d->heads, err, errlen) != 0 ||
	    int_value(y, "transformer-dim-ffn", -1, LO(FFN), HI(FFN), &d->ffn, err, errlen) != 0 ||
	    int_value(y, "transformer-decoder-dim-ffn", 0, 0, HI(DEC_FFN), &d->dec_ffn, err, errlen) != 0 ||
	    int_value(y, "enc-depth", -1, LO(ENC_LAYERS), HI(ENC_LAYERS), &d->enc_layers, err, errlen) != 0 ||
	    int_value(y, "dec-depth", -1, LO(DEC_LAYERS), HI(DEC_LAYERS), &d->dec_layers, err, errlen) != 0 ||
	    read_tied_layers(y, d, err, errlen) != 0)
		return -1;
	if (d->dec_ffn == 0)
		d->dec_ffn = d->ffn;
	if (d->emb % d->heads != 0 || d->emb % 2 != 0)
		return error_set(err, errlen, "model.yml: dim-emb %d is not a multiple of the %d heads (and even)", d->emb,
			    d->heads);
	d->tied = is_true(y, "tied-embeddings-all") || is_true(y, "tied-embeddings-src") ? "all"
		  : is_true(y, "tied-embeddings")                                          ? "tgt"
											   : "none";
	if (strcmp(d->tied, "all") == 0 && d->src_vocab != d->tgt_vocab)
		return error_set(err, errlen, "model.yml: tied-embeddings-all with vocabularies of %d and %d pieces",
			    d->src_vocab, d->tgt_vocab);
	return 0;
}

int marian_config(const yml_doc *y, marian_dims *d, char *err, size_t errlen)
{
	return check_config(y, err, errlen) != 0 || read_dims(y, d, err, errlen) != 0 ? -1 : 0;
}

/* ---- the tensors ------------------------------------------------------------ */

typedef struct {
	const mf_file *f;
	format_encoding quant;
	pack_tensors t;
	char *err;
	size_t errlen;
} packer;

/* Item `name` as floats, [rows, cols] in nmt's orientation: a matrix
 * transposed from Marian's (transpose), or as stored (embeddings,
 * vectors). NULL with a message on any mismatch. */
static float *load(packer *p, const char *name, int rows, int cols, int transpose)
{
	const mf_item *it = mf_find(p->f, name);
	if (!it) {
		error_set(p->err, p->errlen, "the model has no %s", name);
		return NULL;
	}
	/* Marian's shape is [inputs, outputs] for a transposed matrix */
	int64_t want0 = transpose ? cols : rows, want1 = transpose ? rows : cols;
	int64_t s0 = it->ndim == 2 ? it->shape[0] : 1, s1 = it->ndim >= 1 ? it->shape[it->ndim - 1] : 0;
	if (it->ndim < 1 || it->ndim > 2 || s0 != want0 || s1 != want1) {
		error_set(p->err, p->errlen, "%s has shape [%lld, %lld]; the configuration implies [%lld, %lld]", name,
			 (long long)s0, (long long)s1, (long long)want0, (long long)want1);
		return NULL;
	}
	size_t n = (size_t)rows * (size_t)cols;
	float *out = malloc(n * sizeof *out);
	if (!out) {
		error_set(p->err, p->errlen, "out of memory");
		return NULL;
	}
	if (it->type == MF_F32) {
		for (size_t i = 0; i < n; i++) {
			size_t src = transpose ? (i % (size_t)cols) * (size_t)rows + i / (size_t)cols : i;
			memcpy(out + i, it->data + 4 * src, 4);
		}
	} else if (it->type == MF_INTGEMM8) {
		float mult;
		memcpy(&mult, it->data + n, 4);
		if (!(mult > 0.0f)) {
			free(out);
			error_set(p->err, p->errlen, "%s: intgemm8 multiplier %g is not positive", name, (double)mult);
			return NULL;
		}
		/* A matrix is stored transposed, already [outputs][inputs], and
		 * w = q / m as Marian converts it. An embedding table (Firefox's
		 * fork of Marian writes them int8 too) is stored as it is used,
		 * [vocabulary][dim], and read back as that fork reads it, q times
		 * the multiplier's reciprocal. */
		float inv = 1.0f / mult;
		for (size_t i = 0; i < n; i++)
			out[i] = transpose ? (float)(int8_t)it->data[i] / mult : (float)(int8_t)it->data[i] * inv;
	} else {
		free(out);
		error_set(p->err, p->errlen, "%s has a type nmt cannot read here", name);
		return NULL;
	}
	return out;
}

/* How an item is laid out: a matrix to transpose, an embedding table
 * ([vocabulary, dim] in both), a vector (f32 whatever the format). */
#define MATRIX 0
#define EMBEDDING 1
#define VECTOR 2

static int add(packer *p, const char *ours, const char *marian, int rows, int cols, int kind)
{
	float *data = load(p, marian, rows, cols, kind == MATRIX);
	if (!data)
		return -1;
	int rc = kind == VECTOR || p->quant == FORMAT_F32 ? pack_tensor_f32(&p->t, ours, rows, cols, data)
							     : pack_tensor_quant(&p->t, ours, p->quant, rows, cols, data);
	free(data);
	return rc == 0 ? 0 : error_set(p->err, p->errlen, "out of memory");
}

/* Multi-head attention: q, k, v, o and the layer norm after it. */
static int add_attention(packer *p, const char *ours, const char *marian, int d)
{
	char a[64], b[96];
	for (int i = 0; i < 4; i++) {
		snprintf(a, sizeof a, "%s.%c." SSRU_W, ours, SSRU_ATT_PROJ[i]);
		snprintf(b, sizeof b, "%s_W%c", marian, SSRU_ATT_PROJ[i]);
		if (add(p, a, b, d, d, MATRIX) != 0)
			return -1;
		snprintf(a, sizeof a, "%s.%c." SSRU_B, ours, SSRU_ATT_PROJ[i]);
		snprintf(b, sizeof b, "%s_b%c", marian, SSRU_ATT_PROJ[i]);
		if (add(p, a, b, 1, d, VECTOR) != 0)
			return -1;
	}
	snprintf(a, sizeof a, "%s." SSRU_LN_S, ours);
	snprintf(b, sizeof b, "%s_Wo_ln_scale", marian);
	if (add(p, a, b, 1, d, VECTOR) != 0)
		return -1;
	snprintf(a, sizeof a, "%s." SSRU_LN_B, ours);
	snprintf(b, sizeof b, "%s_Wo_ln_bias", marian);
	return add(p, a, b, 1, d, VECTOR);
}

static int add_ffn(packer *p, const char *ours, const char *marian, int d, int ffn)
{
	static const struct { const char *ours, *marian; int out_ffn, in_ffn, kind; } parts[] = {
		{ SSRU_FFN_W1, "W1", 1, 0, MATRIX }, { SSRU_FFN_B1, "b1", 1, 0, VECTOR }, { SSRU_FFN_W2, "W2", 0, 1, MATRIX },
		{ SSRU_FFN_B2, "b2", 0, 0, VECTOR }, { SSRU_LN_S, "ffn_ln_scale", 0, 0, VECTOR }, { SSRU_LN_B, "ffn_ln_bias", 0, 0, VECTOR },
	};
	char a[64], b[96];
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		int rows = parts[i].kind == VECTOR ? 1 : parts[i].out_ffn ? ffn : d;
		int cols = parts[i].kind == VECTOR ? (parts[i].out_ffn ? ffn : d) : parts[i].in_ffn ? ffn : d;
		snprintf(a, sizeof a, "%s.%s", ours, parts[i].ours);
		snprintf(b, sizeof b, "%s_%s", marian, parts[i].marian);
		if (add(p, a, b, rows, cols, parts[i].kind) != 0)
			return -1;
	}
	return 0;
}

static int add_ssru(packer *p, int l, int d)
{
	char a[64], b[96];
	static const struct { const char *ours, *marian; int kind; } parts[] = {
		{ SSRU_RNN_W, "W", MATRIX }, { SSRU_RNN_WF, "Wf", MATRIX }, { SSRU_RNN_BF, "bf", VECTOR },
		{ SSRU_LN_S, "ffn_ln_scale", VECTOR }, { SSRU_LN_B, "ffn_ln_bias", VECTOR },
	};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		snprintf(a, sizeof a, SSRU_DEC_RNN ".%s", l, parts[i].ours);
		snprintf(b, sizeof b, "decoder_l%d_rnn_%s", l, parts[i].marian);
		if (add(p, a, b, parts[i].kind == VECTOR ? 1 : d, d, parts[i].kind) != 0)
			return -1;
	}
	return 0;
}

static int add_tensors(packer *p, const marian_dims *d)
{
	char a[64], b[96];
	if (strcmp(d->tied, "all") == 0) {
		if (add(p, SSRU_EMB, "Wemb", d->tgt_vocab, d->emb, EMBEDDING) != 0)
			return -1;
	} else if (add(p, SSRU_SRC_EMB, "encoder_Wemb", d->src_vocab, d->emb, EMBEDDING) != 0 ||
		   add(p, SSRU_TGT_EMB, "decoder_Wemb", d->tgt_vocab, d->emb, EMBEDDING) != 0) {
		return -1;
	}
	if (strcmp(d->tied, "none") == 0 &&
	    add(p, SSRU_OUT, "decoder_ff_logit_out_Wt", d->tgt_vocab, d->emb, EMBEDDING) != 0)
		return -1;
	if (add(p, SSRU_OUT_BIAS, "decoder_ff_logit_out_b", 1, d->tgt_vocab, VECTOR) != 0)
		return -1;
	for (int l = 1; l <= d->enc_layers; l++) {
		snprintf(a, sizeof a, SSRU_ENC_ATT, l);
		snprintf(b, sizeof b, "encoder_l%d_self", l);
		if (add_attention(p, a, b, d->emb) != 0)
			return -1;
		snprintf(a, sizeof a, SSRU_ENC_FFN, l);
		snprintf(b, sizeof b, "encoder_l%d_ffn", l);
		if (add_ffn(p, a, b, d->emb, d->ffn) != 0)
			return -1;
	}
	for (int l = 1; l <= d->dec_layers; l++) {
		int used = 0;   /* tied layers store only the layers some layer runs */
		for (int i = 0; i < d->dec_layers; i++)
			used |= d->dec_tied[i] == l;
		if (!used)
			continue;
		if (add_ssru(p, l, d->emb) != 0)
			return -1;
		snprintf(a, sizeof a, SSRU_DEC_ATT, l);
		snprintf(b, sizeof b, "decoder_l%d_context", l);
		if (add_attention(p, a, b, d->emb) != 0)
			return -1;
		snprintf(a, sizeof a, SSRU_DEC_FFN, l);
		snprintf(b, sizeof b, "decoder_l%d_ffn", l);
		if (add_ffn(p, a, b, d->emb, d->dec_ffn) != 0)
			return -1;
	}
	return 0;
}

/* ---- the whole model -------------------------------------------------------- */

int marian_add_meta(pack_file *out, const marian_dims *d, format_encoding quant, const char *src, const char *tgt,
		    int bos_id, int eos_id, const char *extra, char *err, size_t errlen)
{
	char tied[4 * MARIAN_MAX_LAYERS + 16] = "";
	for (int i = 0, at = 0; d->has_dec_tied && i < d->dec_layers; i++)
		at += snprintf(tied + at, sizeof tied - (size_t)at, "%s%d%s", i ? "," : SSRU_META_DEC_TIED "=", d->dec_tied[i],
			       i + 1 == d->dec_layers ? "\n" : "");
	const int dims[SSRU_META_DIMS] = {
		[SSRU_META_SRC_VOCAB] = d->src_vocab, [SSRU_META_TGT_VOCAB] = d->tgt_vocab, [SSRU_META_EMB] = d->emb,
		[SSRU_META_HEADS] = d->heads, [SSRU_META_FFN] = d->ffn, [SSRU_META_DEC_FFN] = d->dec_ffn,
		[SSRU_META_ENC_LAYERS] = d->enc_layers, [SSRU_META_DEC_LAYERS] = d->dec_layers,
	};
	char *text = malloc(1024);
	if (!text)
		return error_set(err, errlen, "out of memory");
	int n = snprintf(text, 1024, "arch=%s\nquant=%s\nsrc_lang=%s\ntgt_lang=%s\n", SSRU_ARCH, format_encoding_name(quant),
			 src ? src : "und", tgt ? tgt : "und");
	for (int i = 0; i < SSRU_META_DIMS && n >= 0 && n < 1024; i++)
		n += snprintf(text + n, 1024 - (size_t)n, "%s=%d\n", ssru_meta_dims[i].key, dims[i]);
	if (n >= 0 && n < 1024)
		n += snprintf(text + n, 1024 - (size_t)n,
			      SSRU_META_TIED "=%s\n" SSRU_META_BOS_ID "=%d\n" SSRU_META_EOS_ID "=%d\nimported_from=marian\n%s%s",
			      d->tied, bos_id, eos_id, tied, extra ? extra : "");
	if (n < 0 || n >= 1024) {
		free(text);
		return error_set(err, errlen, "language codes too long");
	}
	return pack_add_section(out, FORMAT_TAG_META, (uint8_t *)text, (size_t)n, 0) == 0
		       ? 0
		       : error_set(err, errlen, "too many sections");
}

int marian_pack(const char *path, format_encoding quant, pack_file *out, marian_dims *dims, char *err, size_t errlen)
{
	size_t len;
	uint8_t *buf;
	if (pack_read_file(path, &buf, &len, err, errlen) != 0)
		return -1;
	mf_file f = { 0 };
	yml_doc y = { 0 };
	packer p = { .f = &f, .quant = quant, .err = err, .errlen = errlen };
	int rc = -1;
	int is_zip = len >= 4 && memcmp(buf, "PK\x03\x04", 4) == 0;
	char why[256];

	if ((is_zip ? mf_open_npz : mf_open_bin)(buf, len, &f, why, sizeof why) != 0) {
		error_set(err, errlen, "%s: %s", path, why);
		goto done;
	}
	const mf_item *yml = mf_find(&f, "special:model.yml");
	if (!yml || yml->type != MF_I8) {
		error_set(err, errlen, "%s holds no special:model.yml (the model's configuration)", path);
		goto done;
	}
	if (yml_parse((const char *)yml->data, yml->nbytes, &y, err, errlen) != 0 ||
	    marian_config(&y, dims, err, errlen) != 0 || add_tensors(&p, dims) != 0)
		goto done;
	if (pack_add_section(out, FORMAT_TAG_TENSORS, p.t.dir, p.t.dir_size, 0) != 0 ||
	    pack_add_section(out, FORMAT_TAG_WEIGHTS, p.t.weights, p.t.weights_size, FORMAT_SECTION_BULK) != 0) {
		p.t.dir = p.t.weights = NULL;
		error_set(err, errlen, "too many sections");
		goto done;
	}
	p.t.dir = p.t.weights = NULL;   /* the sections own them now */
	rc = 0;
done:
	pack_tensors_free(&p.t);
	yml_free(&y);
	mf_close(&f);
	free(buf);
	return rc;
}
