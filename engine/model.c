/* Opening a packed model: map, validate, bind tensors by name. */
#include "model.h"
#include "arch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/meta.h"
#include "../quant/matrix.h"
#include "../quant/qdot.h"
#include "../format/error.h"

/* ---- dimensions from the metadata ------------------------------------- */

static int read_dims(nmt_model *m, char *err, size_t errlen)
{
	static const struct { const char *key; size_t off; long lo, hi; } fields[] = {
		{ "src_vocab", offsetof(nmt_dims, src_vocab), 4, 1 << 22 },
		{ "tgt_vocab", offsetof(nmt_dims, tgt_vocab), 4, 1 << 22 },
		{ "emb", offsetof(nmt_dims, emb), 1, 1 << 14 },
		{ "enc_hidden", offsetof(nmt_dims, enc_hidden), 1, 1 << 14 },
		{ "enc_layers", offsetof(nmt_dims, enc_layers), 1, NMT_MAX_ENC_LAYERS },
		{ "dec_hidden", offsetof(nmt_dims, dec_hidden), 1, 1 << 14 },
		{ "att", offsetof(nmt_dims, att), 1, 1 << 14 },
		{ "fc", offsetof(nmt_dims, fc), 1, 1 << 14 },
		{ "fc_layers", offsetof(nmt_dims, fc_layers), 0, 64 },
		{ "bos_id", offsetof(nmt_dims, bos_id), 0, 1 << 22 },
		{ "eos_id", offsetof(nmt_dims, eos_id), 0, 1 << 22 },
	};
	char arch[32];

	if (nmt_meta_get(m->meta, m->meta_len, "arch", arch, sizeof arch) != 0 ||
	    strcmp(arch, "gru-fc-1") != 0)
		return nmt_fail(err, errlen, "unsupported model architecture (metadata \"arch\" is not gru-fc-1)");
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		long v;
		if (nmt_meta_get_long(m->meta, m->meta_len, fields[i].key, &v) != 0)
			return nmt_fail(err, errlen, "corrupt model: metadata \"%s\" missing or not a number",
				    fields[i].key);
		if (v < fields[i].lo || v > fields[i].hi)
			return nmt_fail(err, errlen, "corrupt model: metadata %s=%ld out of range [%ld, %ld]",
				    fields[i].key, v, fields[i].lo, fields[i].hi);
		*(int *)((char *)&m->d + fields[i].off) = (int)v;
	}
	if (m->d.bos_id >= m->d.tgt_vocab || m->d.eos_id >= m->d.tgt_vocab)
		return nmt_fail(err, errlen, "corrupt model: bos_id/eos_id outside the target vocabulary");
	return 0;
}

/* ---- tensors ------------------------------------------------------------ */

typedef struct {
	const uint8_t *dir;         /* directory entries */
	uint32_t count;
	const nmt_section *weights;
} tensor_dir;

static int open_dir(const nmt_file_view *v, tensor_dir *td, char *err, size_t errlen)
{
	const nmt_section *s = nmt_format_find(v, NMT_TAG_TENSORS);
	td->weights = nmt_format_find(v, NMT_TAG_WEIGHTS);
	if (!s || !td->weights)
		return nmt_fail(err, errlen, "corrupt model: missing \"%s\" section", !s ? NMT_TAG_TENSORS : NMT_TAG_WEIGHTS);
	if (s->size < 8)
		return nmt_fail(err, errlen, "corrupt model: tensor directory too small");
	td->count = nmt_rd32(s->data);
	if ((uint64_t)td->count * NMT_TENSOR_ENTRY_SIZE != s->size - 8)
		return nmt_fail(err, errlen, "corrupt model: tensor directory size does not match its count");
	td->dir = s->data + 8;
	return 0;
}

/* Find a tensor by name and check its shape and that [offset, offset+size)
 * lies inside the weights section. */
static int find_tensor(const tensor_dir *td, const char *name, int rows, int cols, const uint8_t **entry,
		       char *err, size_t errlen)
{
	for (uint32_t i = 0; i < td->count; i++) {
		const uint8_t *e = td->dir + (size_t)i * NMT_TENSOR_ENTRY_SIZE;
		if (strncmp((const char *)e + NMT_T_NAME, name, NMT_TENSOR_NAME_LEN) != 0)
			continue;
		uint32_t r = nmt_rd32(e + NMT_T_ROWS), c = nmt_rd32(e + NMT_T_COLS);
		uint64_t off = nmt_rd64(e + NMT_T_OFFSET), size = nmt_rd64(e + NMT_T_SIZE);
		if (r != (uint32_t)rows || c != (uint32_t)cols)
			return nmt_fail(err, errlen, "tensor \"%s\" is %ux%u, the metadata implies %dx%d",
				    name, r, c, rows, cols);
		if (off % NMT_ALIGN != 0 || off > td->weights->size || size > td->weights->size - off)
			return nmt_fail(err, errlen, "corrupt model: tensor \"%s\" lies outside the weights section", name);
		*entry = e;
		return 0;
	}
	return nmt_fail(err, errlen, "model has no tensor \"%s\"", name);
}

static int size_mismatch(const char *name, char *err, size_t errlen)
{
	return nmt_fail(err, errlen, "corrupt model: tensor \"%s\" has the wrong size for its shape and dtype", name);
}

/* Bind a tensor of exactly rows x cols f32 values (vectors are 1 x n). */
static int bind(const tensor_dir *td, const char *name, int rows, int cols, const float **data,
		char *err, size_t errlen)
{
	const uint8_t *e;
	if (find_tensor(td, name, rows, cols, &e, err, errlen) != 0)
		return -1;
	uint32_t dtype = nmt_rd32(e + NMT_T_DTYPE);
	if (dtype != NMT_FMT_F32)
		return nmt_fail(err, errlen, "tensor \"%s\": dtype %u where f32 is required", name, dtype);
	if (nmt_rd64(e + NMT_T_SIZE) != (uint64_t)rows * (uint64_t)cols * sizeof(float))
		return size_mismatch(name, err, errlen);
	*data = (const float *)(td->weights->data + nmt_rd64(e + NMT_T_OFFSET));
	return 0;
}

/* A matrix: f32, or q8/q4 codes followed by row factors (format/weights.h). */
static int bind_matrix(const tensor_dir *td, const char *name, int rows, int cols, nmt_matrix *w,
		       char *err, size_t errlen)
{
	const uint8_t *e;
	if (find_tensor(td, name, rows, cols, &e, err, errlen) != 0)
		return -1;
	uint32_t dtype = nmt_rd32(e + NMT_T_DTYPE);
	uint64_t size = nmt_rd64(e + NMT_T_SIZE);
	const uint8_t *data = td->weights->data + nmt_rd64(e + NMT_T_OFFSET);
	*w = (nmt_matrix){ .rows = rows, .cols = cols, .data = data };
	if (dtype != NMT_FMT_F32 && dtype != NMT_FMT_Q8 && dtype != NMT_FMT_Q4)
		return nmt_fail(err, errlen, "tensor \"%s\": unsupported dtype %u", name, dtype);
	w->format = (nmt_format)dtype;
	if (w->format == NMT_FMT_Q8 && cols > NMT_Q8_MAX_COLS)
		return nmt_fail(err, errlen, "tensor \"%s\": q8 matrices may have at most %d columns", name,
			    NMT_Q8_MAX_COLS);
	if (size != nmt_tensor_bytes(w->format, rows, cols))
		return size_mismatch(name, err, errlen);
	if (w->format != NMT_FMT_F32)
		w->row_factor = (const float *)(data + nmt_tensor_factors_at(w->format, rows, cols));
	return 0;
}

static int bind_linear(const tensor_dir *td, const char *prefix, int out, int in, int has_bias,
		       nmt_linear *l, char *err, size_t errlen)
{
	char name[64];
	snprintf(name, sizeof name, "%s.weight", prefix);
	if (bind_matrix(td, name, out, in, &l->w, err, errlen) != 0)
		return -1;
	l->b = NULL;
	snprintf(name, sizeof name, "%s.bias", prefix);
	return has_bias ? bind(td, name, 1, out, &l->b, err, errlen) : 0;
}

/* torch.nn.GRU names its tensors weight_ih_l0, ..., with "_reverse" for the
 * backward direction; nn.GRUCell has no layer suffix (suffix = ""). in = 0:
 * the input weights are bound by the caller. */
static int bind_gru(const tensor_dir *td, const char *prefix, const char *suffix, int in, int h,
		    nmt_gru *g, char *err, size_t errlen)
{
	char name[64];
	snprintf(name, sizeof name, "%s.weight_ih%s", prefix, suffix);
	if (in > 0 && bind_matrix(td, name, 3 * h, in, &g->w_ih, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s.weight_hh%s", prefix, suffix);
	if (bind_matrix(td, name, 3 * h, h, &g->w_hh, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s.bias_ih%s", prefix, suffix);
	if (bind(td, name, 1, 3 * h, &g->b_ih, err, errlen) != 0)
		return -1;
	snprintf(name, sizeof name, "%s.bias_hh%s", prefix, suffix);
	return bind(td, name, 1, 3 * h, &g->b_hh, err, errlen);
}

static int bind_tensors(nmt_model *m, char *err, size_t errlen)
{
	const nmt_dims *d = &m->d;
	int ctx = 2 * d->enc_hidden;
	tensor_dir td;

	if (open_dir(&m->view, &td, err, errlen) != 0 ||
	    bind_matrix(&td, "src_emb.weight", d->src_vocab, d->emb, &m->src_emb, err, errlen) != 0 ||
	    bind_matrix(&td, "tgt_emb.weight", d->tgt_vocab, d->emb, &m->tgt_emb, err, errlen) != 0)
		return -1;
	for (int l = 0; l < d->enc_layers; l++)
		for (int dir = 0; dir < 2; dir++) {
			char suffix[32];
			snprintf(suffix, sizeof suffix, "_l%d%s", l, dir ? "_reverse" : "");
			if (bind_gru(&td, "enc", suffix, l ? ctx : d->emb, d->enc_hidden,
				     &m->enc[l][dir], err, errlen) != 0)
				return -1;
		}
	nmt_linear att;
	if (bind_linear(&td, "init", d->dec_hidden, ctx, 1, &m->init, err, errlen) != 0 ||
	    bind_linear(&td, "att_U", d->att, ctx, 0, &att, err, errlen) != 0)
		return -1;
	m->att_U = att.w;
	if (bind_linear(&td, "att_W", d->att, d->dec_hidden, 0, &att, err, errlen) != 0)
		return -1;
	m->att_W = att.w;
	if (bind_linear(&td, "att_V", d->att, d->emb, 0, &att, err, errlen) != 0)
		return -1;
	m->att_V = att.w;
	if (bind_gru(&td, "dec", "", 0, d->dec_hidden, &m->dec, err, errlen) != 0 ||
	    bind_matrix(&td, NMT_TENSOR_DEC_IH_X, 3 * d->dec_hidden, d->emb, &m->dec_ih_x, err, errlen) != 0 ||
	    bind_matrix(&td, NMT_TENSOR_DEC_IH_C, 3 * d->dec_hidden, ctx, &m->dec_ih_c, err, errlen) != 0 ||
	    bind_linear(&td, "fc_in", d->fc, d->dec_hidden, 1, &m->fc_in, err, errlen) != 0 ||
	    bind_linear(&td, "fc", d->fc, d->fc, 1, &m->fc, err, errlen) != 0 ||
	    bind_linear(&td, "top", d->emb, d->fc, 1, &m->top, err, errlen) != 0)
		return -1;
	return bind(&td, "out_bias", 1, d->tgt_vocab, &m->out_bias, err, errlen);
}

/* ---- vocabularies ------------------------------------------------------- */

static int open_vocab(const nmt_model *m, const char *tag, int expect_size, spm_model **out,
		      char *err, size_t errlen)
{
	const nmt_section *s = nmt_format_find(&m->view, tag);
	char why[200];

	if (!s)
		return nmt_fail(err, errlen, "corrupt model: missing \"%s\" section", tag);
	int rc = spm_open(s->data, (size_t)s->size, out, why, sizeof why);
	if (rc == SPM_NO_MEMORY) {
		nmt_fail(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	if (rc != 0)
		return nmt_fail(err, errlen, "corrupt model: section \"%s\": %s", tag, why);
	if (spm_vocab_size(*out) != expect_size)
		return nmt_fail(err, errlen, "section \"%s\" has %d pieces, the metadata says %d",
			    tag, spm_vocab_size(*out), expect_size);
	return 0;
}

/* 0, NMT_ERR_NO_MEMORY, or -1 for anything else wrong. */
static int open_vocabs(nmt_model *m, char *err, size_t errlen)
{
	int rc;
	if ((rc = open_vocab(m, NMT_TAG_SRC_VOCAB, m->d.src_vocab, &m->src_vocab, err, errlen)) != 0 ||
	    (rc = open_vocab(m, NMT_TAG_TGT_VOCAB, m->d.tgt_vocab, &m->tgt_vocab, err, errlen)) != 0)
		return rc;
	if (spm_bos_id(m->tgt_vocab) != m->d.bos_id || spm_eos_id(m->tgt_vocab) != m->d.eos_id)
		return nmt_fail(err, errlen, "corrupt model: target vocabulary's bos/eos ids differ from the metadata");
	m->d.src_eos_id = spm_eos_id(m->src_vocab);
	if (m->d.src_eos_id < 0)
		return nmt_fail(err, errlen, "source vocabulary has no end-of-sentence piece");
	return 0;
}

/* The vocabulary map is optional: without one the output layer scores the
 * whole target vocabulary. */
static int open_vmap(nmt_model *m, char *err, size_t errlen)
{
	const nmt_section *s = nmt_format_find(&m->view, NMT_TAG_VMAP);
	if (!s)
		return 0;
	if (nmt_vmap_open(s->data, s->size, m->d.tgt_vocab, &m->vmap, err, errlen) != 0)
		return -1;
	m->has_vmap = 1;
	return 0;
}

/* The rows every shortlist holds (model.h, shared_ids), gathered once: the
 * shortlist of a sentence without words, the 0-grams and EOS. */
static int build_shared_rows(nmt_model *m, char *err, size_t errlen)
{
	int Vt = m->d.tgt_vocab, n;
	uint8_t *marks;

	if (!m->has_vmap)
		return 0;
	marks = calloc((size_t)Vt, 1);
	m->shared_ids = malloc(((size_t)m->vmap.n_zero + 1) * sizeof *m->shared_ids);
	if (!marks || !m->shared_ids) {
		free(marks);
		return nmt_fail(err, errlen, "out of memory");
	}
	n = nmt_vmap_shortlist(&m->vmap, NULL, 0, m->d.eos_id, Vt, marks, m->shared_ids);
	free(marks);
	m->shared_bias = malloc((size_t)n * sizeof *m->shared_bias);
	m->shared_factors = malloc((size_t)n * sizeof *m->shared_factors);
	m->shared_codes = malloc(nmt_matrix_gather_bytes(&m->tgt_emb, n) + 1);
	if (!m->shared_bias || !m->shared_factors || !m->shared_codes)
		return nmt_fail(err, errlen, "out of memory");
	for (int k = 0; k < n; k++)
		m->shared_bias[k] = m->out_bias[m->shared_ids[k]];
	m->n_shared = n;
	if (m->tgt_emb.format != NMT_FMT_F32)
		nmt_matrix_gather(&m->tgt_emb, m->shared_ids, n, m->shared_codes, m->shared_factors, &m->shared_w);
	return 0;
}

/* The precomputed tables are optional too (docs/FORMAT.md, "precomp"). */
static int open_precomp(nmt_model *m, char *err, size_t errlen)
{
	const nmt_section *s = nmt_format_find(&m->view, NMT_TAG_PRECOMP);
	if (!s)
		return 0;
	if (s->size < 16)
		return nmt_fail(err, errlen, "corrupt model: precomp section too small");
	uint32_t n_src = nmt_rd32(s->data), n_tgt = nmt_rd32(s->data + 4);
	uint32_t enc_cols = nmt_rd32(s->data + 8), att_cols = nmt_rd32(s->data + 12);
	if (n_src > (uint32_t)m->d.src_vocab || n_tgt > (uint32_t)m->d.tgt_vocab ||
	    enc_cols != 6u * (uint32_t)m->d.enc_hidden || att_cols != (uint32_t)(m->d.att + 3 * m->d.dec_hidden))
		return nmt_fail(err, errlen, "corrupt model: precomp header does not fit the model");
	if (s->size != 16 + 4 * ((uint64_t)n_src * enc_cols + (uint64_t)n_tgt * att_cols))
		return nmt_fail(err, errlen, "corrupt model: precomp section has the wrong size");
	m->pre_src = (int)n_src;
	m->pre_tgt = (int)n_tgt;
	m->pre_enc = (const float *)(s->data + 16);
	m->pre_att = m->pre_enc + (size_t)n_src * enc_cols;
	return 0;
}

/* ---- open / close ------------------------------------------------------- */

int nmt_load_memory(const void *buf, size_t len, int verify_all, nmt_model **out,
			  char *err, size_t errlen)
{
	nmt_model *m = calloc(1, sizeof *m);
	int rc = NMT_ERR_FORMAT;

	*out = NULL;
	if (!m) {
		nmt_fail(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	m->map = buf;
	m->map_len = len;
	/* NMT_KERNELS forces an implementation (for tests and measurements). */
	const char *kernels = getenv("NMT_KERNELS");
	if (!(m->qdot = nmt_qdot_select(kernels))) {
		nmt_fail(err, errlen, "NMT_KERNELS=%s: unknown, or not supported by this CPU (scalar, avx2, avx512)", kernels);
		rc = NMT_ERR_UNSUPPORTED;
		goto fail;
	}
	if ((uintptr_t)buf % NMT_ALIGN != 0) {
		nmt_fail(err, errlen, "model buffer is not %d-byte aligned", NMT_ALIGN);
		rc = NMT_ERR_ARGUMENT;
		goto fail;
	}
	if (nmt_format_parse(buf, len, verify_all, &m->view, err, errlen) != 0)
		goto fail;
	m->verified_bulk = verify_all;
	const nmt_section *meta = nmt_format_find(&m->view, NMT_TAG_META);
	if (!meta) {
		nmt_fail(err, errlen, "corrupt model: missing \"%s\" section", NMT_TAG_META);
		goto fail;
	}
	m->meta = (const char *)meta->data;
	m->meta_len = (size_t)meta->size;
	if (read_dims(m, err, errlen) != 0 || bind_tensors(m, err, errlen) != 0)
		goto fail;
	if ((rc = open_vocabs(m, err, errlen)) != 0) {
		rc = rc == NMT_ERR_NO_MEMORY ? rc : NMT_ERR_FORMAT;
		goto fail;
	}
	rc = NMT_ERR_FORMAT;
	if (open_vmap(m, err, errlen) != 0 || open_precomp(m, err, errlen) != 0)
		goto fail;
	if (build_shared_rows(m, err, errlen) != 0) {
		rc = NMT_ERR_NO_MEMORY;
		goto fail;
	}
	*out = m;
	return 0;
fail:
	nmt_unload(m);
	return rc;
}

int nmt_load_file(const char *path, int verify_all, nmt_model **out, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	*out = NULL;
	if (fd < 0) {
		nmt_fail(err, errlen, "cannot open model %s: %s", path, strerror(errno));
		return NMT_ERR_IO;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		nmt_fail(err, errlen, "model %s is not a regular file", path);
		return NMT_ERR_IO;
	}
	if (st.st_size < NMT_HEADER_SIZE) {
		close(fd);
		nmt_fail(err, errlen, "%s: not an nmt model (file too small: %lld bytes)", path,
			 (long long)st.st_size);
		return NMT_ERR_FORMAT;
	}
	size_t len = (size_t)st.st_size;
	void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		int no_memory = errno == ENOMEM;
		nmt_fail(err, errlen, "cannot map model %s: %s", path, strerror(errno));
		return no_memory ? NMT_ERR_NO_MEMORY : NMT_ERR_IO;
	}
	char why[256];
	int rc = nmt_load_memory(map, len, verify_all, out, why, sizeof why);
	if (rc != 0) {
		munmap(map, len);
		nmt_fail(err, errlen, "%s: %s", path, why);
		return rc;
	}
	(*out)->owns_map = 1;
	return 0;
}

void nmt_unload(nmt_model *m)
{
	if (!m)
		return;
	spm_close(m->src_vocab);
	spm_close(m->tgt_vocab);
	if (m->owns_map)
		munmap((void *)m->map, m->map_len);
	free(m->owned_copy);
	free(m->shared_ids);
	free(m->shared_bias);
	free(m->shared_factors);
	free(m->shared_codes);
	free(m);
}

int nmt_meta_of(const nmt_model *m, const char *key, char *val, size_t vallen)
{
	return nmt_meta_get(m->meta, m->meta_len, key, val, vallen);
}
