/* vocab/spm_encode.c - the encode pipeline: normalize, segment (unigram or BPE), then the
 * post-processing of SentencePieceProcessor: runs of unknown pieces collapse into one <unk>,
 * or, with byte_fallback, every byte of an unknown piece becomes its <0xNN> piece. */
#include <stdio.h>

#include "spm_internal.h"

typedef struct {
	spm_scratch *s;
	size_t n;
} id_out;

static int emit(id_out *o, int32_t id)
{
	void *buf = o->s->ids;
	if (spm_reserve(&buf, &o->s->ids_cap, o->n + 1, sizeof(int32_t)))
		return -1;
	o->s->ids = buf;
	o->s->ids[o->n++] = id;
	return 0;
}

/* <0xNN> for each byte; a missing byte piece becomes <unk>, as PieceToId does. */
static int emit_bytes(const spm_model *m, id_out *o, const char *p, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	for (size_t i = 0; i < len; i++) {
		uint8_t b = (uint8_t)p[i];
		char name[6] = { '<', '0', 'x', hex[b >> 4], hex[b & 15], '>' };
		int32_t id = spm_lookup(m, name, sizeof name);
		if (emit(o, id >= 0 ? id : m->unk_id))
			return -1;
	}
	return 0;
}

static int postprocess(const spm_model *m, spm_scratch *s, size_t n_spans, size_t *n_ids)
{
	id_out o = { s, 0 };
	int prev_unk = 0, byte_fallback = (m->flags & SPM_F_BYTE_FALLBACK) != 0;
	for (size_t i = 0; i < n_spans; i++) {
		const spm_span *sp = &s->spans[i];
		int is_unk = spm_piece_type(m, sp->id) == SPM_UNKNOWN;
		int rc = 0;
		if (is_unk && byte_fallback)
			rc = emit_bytes(m, &o, s->norm + sp->start, sp->len);
		else if (!(is_unk && prev_unk))
			rc = emit(&o, sp->id);
		if (rc)
			return -1;
		prev_unk = is_unk;
	}
	*n_ids = o.n;
	return 0;
}

int spm_normalize_text(const spm_model *m, spm_scratch *s, const char *text, size_t len, const char **out,
		       size_t *out_len)
{
	if ((m->flags & SPM_F_DECODE_ONLY) || len > SPM_MAX_INPUT || spm_normalize(m, s, text, len, out_len))
		return -1;
	*out = s->norm;
	return 0;
}

int spm_encode(const spm_model *m, spm_scratch *s, const char *text, size_t len, const int32_t **ids, size_t *n_ids)
{
	static const int32_t kNoIds[1] = { 0 };
	*ids = kNoIds;
	*n_ids = 0;
	size_t n, n_spans;
	if ((m->flags & SPM_F_DECODE_ONLY) || len > SPM_MAX_INPUT || spm_normalize(m, s, text, len, &n))
		return -1;
	int rc = m->model_type == SPM_BPE ? spm_bpe_segment(m, s, n, &n_spans) : spm_unigram_segment(m, s, n, &n_spans);
	if (rc || postprocess(m, s, n_spans, n_ids))
		return -1;
	if (*n_ids)
		*ids = s->ids;
	return 0;
}
