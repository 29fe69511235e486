/* Opening a packed model: map, validate, bind tensors by name. */
#include "model.h"
#include "family.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/meta.h"
#include "../quant/matrix.h"
#include "../quant/qdot.h"
#include "../common/error.h"
#include "../common/number.h"
#include "../common/file_map.h"

/* ---- vocabularies ------------------------------------------------------- */

static int open_vocab(const nmt_model *m, const char *tag, int expect_size, spm_model **out,
		      char *err, size_t errlen)
{
	const format_section *s = format_find(&m->view, tag);
	char why[200];

	if (!s)
		return error_set(err, errlen, "corrupt model: missing \"%s\" section", tag);
	int rc = spm_open(s->data, (size_t)s->size, out, why, sizeof why);
	if (rc == SPM_NO_MEMORY) {
		error_set(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	if (rc != 0)
		return error_set(err, errlen, "corrupt model: section \"%s\": %s", tag, why);
	if (spm_vocab_size(*out) != expect_size)
		return error_set(err, errlen, "section \"%s\" has %d pieces, the metadata says %d",
			    tag, spm_vocab_size(*out), expect_size);
	return 0;
}

/* 0, NMT_ERR_NO_MEMORY, or -1 for anything else wrong. */
static int open_vocabs(nmt_model *m, char *err, size_t errlen)
{
	int rc;
	if ((rc = open_vocab(m, FORMAT_TAG_SRC_VOCAB, m->d.src_vocab, &m->src_vocab, err, errlen)) != 0 ||
	    (rc = open_vocab(m, FORMAT_TAG_TGT_VOCAB, m->d.tgt_vocab, &m->tgt_vocab, err, errlen)) != 0)
		return rc;
	if (spm_bos_id(m->tgt_vocab) != m->d.bos_id || spm_eos_id(m->tgt_vocab) != m->d.eos_id)
		return error_set(err, errlen, "corrupt model: target vocabulary's bos/eos ids differ from the metadata");
	m->d.src_eos_id = spm_eos_id(m->src_vocab);
	if (m->d.src_eos_id < 0)
		return error_set(err, errlen, "source vocabulary has no end-of-sentence piece");
	if (text_cases_build(m->src_vocab, &m->src_cases) != 0 || text_cases_build(m->tgt_vocab, &m->tgt_cases) != 0) {
		error_set(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	return 0;
}

/* The length normalization the model was chosen with (metadata "alpha",
 * written by model-pack --alpha), for a search that asks for the model's. */
static int read_alpha(nmt_model *m, char *err, size_t errlen)
{
	char text[32];
	m->alpha = ENGINE_DEFAULT_ALPHA;
	if (!format_meta_has(m->meta, m->meta_len, "alpha"))
		return 0;
	if (format_meta_get(m->meta, m->meta_len, "alpha", text, sizeof text) != 0)
		return error_set(err, errlen, "corrupt model: metadata alpha is not a number in 0..10");
	if (number_parse_double(text, 0.0, 10.0, &m->alpha) != 0)
		return error_set(err, errlen, "corrupt model: metadata alpha=\"%s\" is not a number in 0..10", text);
	return 0;
}

/* The vocabulary map is optional: without one the output layer scores the
 * whole target vocabulary. */
static int open_vmap(nmt_model *m, char *err, size_t errlen)
{
	const format_section *s = format_find(&m->view, ENGINE_TAG_VMAP);
	if (!s)
		return 0;
	if (engine_vmap_open(s->data, s->size, m->d.tgt_vocab, &m->vmap, err, errlen) != 0)
		return -1;
	m->has_vmap = 1;
	long pad, from;
	if (format_meta_get_long(m->meta, m->meta_len, "shortlist_pad", &pad) == 0 &&
	    format_meta_get_long(m->meta, m->meta_len, "shortlist_pad_from", &from) == 0) {
		if (pad < 0 || pad > 64 || from < 0 || from > m->d.tgt_vocab)
			return error_set(err, errlen, "corrupt model: shortlist_pad=%ld shortlist_pad_from=%ld", pad, from);
		m->shortlist_pad = (int)pad;
		m->shortlist_pad_from = (int)from;
	}
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
		return error_set(err, errlen, "out of memory");
	}
	n = engine_vmap_shortlist(&m->vmap, NULL, 0, m->d.eos_id, Vt, marks, m->shared_ids);
	free(marks);
	m->shared_bias = malloc((size_t)n * sizeof *m->shared_bias);
	m->shared_factors = malloc((size_t)n * sizeof *m->shared_factors);
	m->shared_codes = malloc(quant_matrix_gather_bytes(&m->tgt_emb, n) + 1);
	if (!m->shared_bias || !m->shared_factors || !m->shared_codes)
		return error_set(err, errlen, "out of memory");
	for (int k = 0; k < n; k++)
		m->shared_bias[k] = m->out_bias[m->shared_ids[k]];
	m->n_shared = n;
	if (m->tgt_emb.format != FORMAT_F32)
		quant_matrix_gather(&m->tgt_emb, m->shared_ids, n, m->shared_codes, m->shared_factors, &m->shared_w);
	return 0;
}

/* ---- open / close ------------------------------------------------------- */

int engine_load_memory(const void *buf, size_t len, unsigned how, nmt_model **out,
			  char *err, size_t errlen)
{
	nmt_model *m = calloc(1, sizeof *m);
	int rc = NMT_ERR_FORMAT;

	*out = NULL;
	if (!m) {
		error_set(err, errlen, "out of memory");
		return NMT_ERR_NO_MEMORY;
	}
	m->map = buf;
	m->map_len = len;
	/* NMT_KERNELS forces an implementation (for tests and measurements). */
	const char *kernels = getenv("NMT_KERNELS");
	if (!(m->qdot = quant_qdot_select(kernels))) {
		error_set(err, errlen,
			  "NMT_KERNELS=%s: unknown, or not supported by this CPU (scalar, avx2, avx512, avx512-vbmi, "
			  "neon, neon-dotprod, wasm-simd128)",
			  kernels);
		rc = NMT_ERR_UNSUPPORTED;
		goto fail;
	}
	if ((uintptr_t)buf % FORMAT_ALIGN != 0) {
		error_set(err, errlen, "model buffer is not %d-byte aligned", FORMAT_ALIGN);
		rc = NMT_ERR_ARGUMENT;
		goto fail;
	}
	int verify_all = (how & ENGINE_LOAD_VERIFY) != 0;
	if (format_parse(buf, len, verify_all, &m->view, err, errlen) != 0)
		goto fail;
	m->verified_bulk = verify_all;
	const format_section *meta = format_find(&m->view, FORMAT_TAG_META);
	if (!meta) {
		error_set(err, errlen, "corrupt model: missing \"%s\" section", FORMAT_TAG_META);
		goto fail;
	}
	m->meta = (const char *)meta->data;
	m->meta_len = (size_t)meta->size;
	char arch[32];
	if (format_meta_get(m->meta, m->meta_len, "arch", arch, sizeof arch) != 0 || !(m->family = engine_family_for(arch))) {
		error_set(err, errlen, "unsupported model architecture (metadata \"arch\" is neither %s)", engine_family_names());
		goto fail;
	}
	if (read_alpha(m, err, errlen) != 0)
		goto fail;
	if (how & ENGINE_LOAD_METADATA) {
		/* For listing models: reading the languages must not cost
		 * binding the weights and computing the per-word tables. */
		m->metadata_only = 1;
		*out = m;
		return 0;
	}
	if (m->family->bind(m, err, errlen) != 0)
		goto fail;
	if ((rc = open_vocabs(m, err, errlen)) != 0) {
		rc = rc == NMT_ERR_NO_MEMORY ? rc : NMT_ERR_FORMAT;
		goto fail;
	}
	rc = NMT_ERR_FORMAT;
	if (open_vmap(m, err, errlen) != 0)
		goto fail;
	if (build_shared_rows(m, err, errlen) != 0) {
		rc = NMT_ERR_NO_MEMORY;
		goto fail;
	}
	*out = m;
	return 0;
fail:
	engine_unload(m);
	return rc;
}

int engine_load_file(const char *path, unsigned how, nmt_model **out, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	*out = NULL;
	if (fd < 0) {
		error_set(err, errlen, "cannot open model %s: %s", path, strerror(errno));
		return NMT_ERR_IO;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		error_set(err, errlen, "model %s is not a regular file", path);
		return NMT_ERR_IO;
	}
	if (st.st_size < FORMAT_HEADER_SIZE) {
		close(fd);
		error_set(err, errlen, "%s: not an nmt model (file too small: %lld bytes)", path,
			 (long long)st.st_size);
		return NMT_ERR_FORMAT;
	}
	size_t len = (size_t)st.st_size;
	void *map = file_map_open(fd, len, FORMAT_ALIGN);
	int saved = errno;
	close(fd);
	if (!map) {
		error_set(err, errlen, "cannot map model %s: %s", path, saved ? strerror(saved) : "the file shrank");
		return saved == ENOMEM ? NMT_ERR_NO_MEMORY : NMT_ERR_IO;
	}
	char why[256];
	int rc = engine_load_memory(map, len, how, out, why, sizeof why);
	if (rc != 0) {
		file_map_close(map, len);
		error_set(err, errlen, "%s: %s", path, why);
		return rc;
	}
	(*out)->owns_map = 1;
	return 0;
}

void engine_unload(nmt_model *m)
{
	if (!m)
		return;
	spm_close(m->src_vocab);
	spm_close(m->tgt_vocab);
	text_cases_free(m->src_cases);
	text_cases_free(m->tgt_cases);
	if (m->owns_map)
		file_map_close((void *)m->map, m->map_len);
	free(m->owned_copy);
	if (m->family && m->family->unbind)
		m->family->unbind(m);
	free(m->shared_ids);
	free(m->shared_bias);
	free(m->shared_factors);
	free(m->shared_codes);
	free(m);
}

int engine_meta_of(const nmt_model *m, const char *key, char *val, size_t vallen)
{
	return format_meta_get(m->meta, m->meta_len, key, val, vallen);
}
