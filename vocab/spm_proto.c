/* vocab/spm_proto.c - a minimal protobuf wire-format reader for sentencepiece_model.proto.
 *
 * Only the fields the tokenizer uses are interpreted; everything else is skipped by wire
 * type. Every length is checked against the remaining input, so truncated or garbage
 * input ends in an error message, never an out-of-bounds read. */
#include "spm_proto.h"

#include <stdlib.h>
#include <string.h>

#include "spm_internal.h"

/* Field numbers (sentencepiece_model.proto). */
enum { MP_PIECES = 1, MP_TRAINER = 2, MP_NORMALIZER = 3, MP_DENORMALIZER = 5 };
enum { SP_PIECE = 1, SP_SCORE = 2, SP_TYPE = 3 };
enum {
	TS_MODEL_TYPE = 3,
	TS_WS_AS_SUFFIX = 24,
	TS_BYTE_FALLBACK = 35,
	TS_UNK_SURFACE = 44,
	TS_UNK_PIECE = 45,
	TS_BOS_PIECE = 46,
	TS_EOS_PIECE = 47,
	TS_PAD_PIECE = 48
};
enum { NS_CHARSMAP = 2, NS_ADD_DUMMY_PREFIX = 3, NS_REMOVE_EXTRA_WS = 4, NS_ESCAPE_WS = 5 };
enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2, WT_FIXED32 = 5 };

typedef struct {
	const uint8_t *p, *end;
} pb_reader;

/* One decoded field: number, wire type and its payload. */
typedef struct {
	uint32_t num;
	int wt;
	uint64_t varint; /* WT_VARINT, WT_FIXED32, WT_FIXED64 */
	spm_bytes bytes; /* WT_LEN */
} pb_field;

static int pb_varint(pb_reader *r, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end)
			return -1;
		uint8_t b = *r->p++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1; /* more than 10 bytes */
}

static uint64_t pb_fixed(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Read the next field. Returns 1 if one was read, 0 at the end, -1 on malformed input. */
static int pb_next(pb_reader *r, pb_field *f)
{
	if (r->p == r->end)
		return 0;
	uint64_t key;
	if (pb_varint(r, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff)
		return -1;
	f->num = (uint32_t)(key >> 3);
	f->wt = (int)(key & 7);
	size_t left;
	switch (f->wt) {
	case WT_VARINT:
		return pb_varint(r, &f->varint) ? -1 : 1;
	case WT_FIXED64:
	case WT_FIXED32: {
		size_t n = f->wt == WT_FIXED64 ? 8 : 4;
		if ((size_t)(r->end - r->p) < n)
			return -1;
		f->varint = pb_fixed(r->p, (int)n);
		r->p += n;
		return 1;
	}
	case WT_LEN: {
		uint64_t n;
		if (pb_varint(r, &n))
			return -1;
		left = (size_t)(r->end - r->p);
		if (n > left)
			return -1;
		f->bytes.p = r->p;
		f->bytes.len = (size_t)n;
		r->p += n;
		return 1;
	}
	default: /* groups (3, 4) are not used by SentencePiece; 6 and 7 do not exist */
		return -1;
	}
}

/* Whether a field has the wire type its declaration implies (callers reject a mismatch). */
static int want(const pb_field *f, int wt)
{
	return f->wt == wt;
}

static int parse_piece(spm_bytes msg, spm_proto_piece *out, char *err, size_t errlen)
{
	pb_reader r = { msg.p, msg.p + msg.len };
	pb_field f;
	int rc;
	out->piece.p = NULL;
	out->piece.len = 0;
	out->score = 0.0f;
	out->type = SPM_NORMAL;
	while ((rc = pb_next(&r, &f)) == 1) {
		if (f.num == SP_PIECE && want(&f, WT_LEN)) {
			out->piece = f.bytes;
		} else if (f.num == SP_SCORE && want(&f, WT_FIXED32)) {
			out->score = spm_bits_to_float((uint32_t)f.varint);
		} else if (f.num == SP_TYPE && want(&f, WT_VARINT)) {
			if (f.varint < SPM_NORMAL || f.varint > SPM_BYTE)
				return spm_fail(err, errlen, "piece has unknown type %llu",
						(unsigned long long)f.varint);
			out->type = (int)f.varint;
		} else if (f.num <= SP_TYPE) {
			return spm_fail(err, errlen, "piece field %u has wire type %d", f.num, f.wt);
		}
	}
	return rc < 0 ? spm_fail(err, errlen, "truncated or malformed protobuf (piece)") : 0;
}

static int parse_trainer(spm_bytes msg, spm_proto_model *pm, char *err, size_t errlen)
{
	pb_reader r = { msg.p, msg.p + msg.len };
	pb_field f;
	int rc;
	while ((rc = pb_next(&r, &f)) == 1) {
		int is_varint = want(&f, WT_VARINT), is_len = want(&f, WT_LEN);
		switch (f.num) {
		case TS_MODEL_TYPE:
			if (!is_varint)
				goto bad;
			pm->model_type = (int)f.varint;
			break;
		case TS_WS_AS_SUFFIX:
			if (!is_varint)
				goto bad;
			pm->ws_as_suffix = f.varint != 0;
			break;
		case TS_BYTE_FALLBACK:
			if (!is_varint)
				goto bad;
			pm->byte_fallback = f.varint != 0;
			break;
		case TS_UNK_SURFACE:
			if (!is_len)
				goto bad;
			pm->unk_surface = f.bytes;
			break;
		case TS_UNK_PIECE:
			if (!is_len)
				goto bad;
			pm->unk_piece = f.bytes;
			break;
		case TS_BOS_PIECE:
			if (!is_len)
				goto bad;
			pm->bos_piece = f.bytes;
			break;
		case TS_EOS_PIECE:
			if (!is_len)
				goto bad;
			pm->eos_piece = f.bytes;
			break;
		case TS_PAD_PIECE:
			if (!is_len)
				goto bad;
			pm->pad_piece = f.bytes;
			break;
		default:
			break;
		}
	}
	return rc < 0 ? spm_fail(err, errlen, "truncated or malformed protobuf (trainer_spec)") : 0;
bad:
	return spm_fail(err, errlen, "trainer_spec field %u has wire type %d", f.num, f.wt);
}

static int parse_normalizer(spm_bytes msg, spm_proto_model *pm, int is_denormalizer, char *err, size_t errlen)
{
	pb_reader r = { msg.p, msg.p + msg.len };
	pb_field f;
	int rc;
	while ((rc = pb_next(&r, &f)) == 1) {
		if (f.num == NS_CHARSMAP) {
			if (!want(&f, WT_LEN))
				goto bad;
			if (is_denormalizer)
				pm->denorm_charsmap = f.bytes;
			else
				pm->charsmap = f.bytes;
		} else if (f.num >= NS_ADD_DUMMY_PREFIX && f.num <= NS_ESCAPE_WS) {
			if (!want(&f, WT_VARINT))
				goto bad;
			if (is_denormalizer)
				continue; /* decoding applies no whitespace rules */
			int v = f.varint != 0;
			if (f.num == NS_ADD_DUMMY_PREFIX)
				pm->add_dummy_prefix = v;
			else if (f.num == NS_REMOVE_EXTRA_WS)
				pm->remove_extra_ws = v;
			else
				pm->escape_ws = v;
		}
	}
	return rc < 0 ? spm_fail(err, errlen, "truncated or malformed protobuf (normalizer_spec)") : 0;
bad:
	return spm_fail(err, errlen, "normalizer_spec field %u has wire type %d", f.num, f.wt);
}

static int push_piece(spm_proto_model *pm, const spm_proto_piece *pc, char *err, size_t errlen)
{
	if (pm->n_pieces == pm->cap_pieces) {
		void *buf = pm->pieces;
		if (spm_reserve(&buf, &pm->cap_pieces, pm->n_pieces + 1, sizeof *pm->pieces))
			return spm_fail(err, errlen, "out of memory");
		pm->pieces = buf;
	}
	pm->pieces[pm->n_pieces++] = *pc;
	return 0;
}

static void set_defaults(spm_proto_model *pm)
{
	static const char unk_surface[] = " \xe2\x81\x87 "; /* " ⁇ " */
	memset(pm, 0, sizeof *pm);
	pm->model_type = SPM_UNIGRAM;
	pm->add_dummy_prefix = pm->remove_extra_ws = pm->escape_ws = 1;
	pm->unk_surface = (spm_bytes){ (const uint8_t *)unk_surface, sizeof unk_surface - 1 };
	pm->unk_piece = (spm_bytes){ (const uint8_t *)"<unk>", 5 };
	pm->bos_piece = (spm_bytes){ (const uint8_t *)"<s>", 3 };
	pm->eos_piece = (spm_bytes){ (const uint8_t *)"</s>", 4 };
	pm->pad_piece = (spm_bytes){ (const uint8_t *)"<pad>", 5 };
}

static int parse_top_field(const pb_field *f, spm_proto_model *pm, char *err, size_t errlen)
{
	if (f->num == MP_PIECES || f->num == MP_TRAINER || f->num == MP_NORMALIZER || f->num == MP_DENORMALIZER) {
		if (!want(f, WT_LEN))
			return spm_fail(err, errlen, "model field %u has wire type %d", f->num, f->wt);
	}
	switch (f->num) {
	case MP_PIECES: {
		spm_proto_piece pc;
		if (parse_piece(f->bytes, &pc, err, errlen))
			return -1;
		return push_piece(pm, &pc, err, errlen);
	}
	case MP_TRAINER:
		return parse_trainer(f->bytes, pm, err, errlen);
	case MP_NORMALIZER:
		return parse_normalizer(f->bytes, pm, 0, err, errlen);
	case MP_DENORMALIZER:
		return parse_normalizer(f->bytes, pm, 1, err, errlen);
	default:
		return 0;
	}
}

int spm_proto_parse(const uint8_t *buf, size_t len, spm_proto_model *pm, char *err, size_t errlen)
{
	set_defaults(pm);
	if (buf == NULL || len == 0)
		return spm_fail(err, errlen, "empty model file");
	pb_reader r = { buf, buf + len };
	pb_field f;
	int rc;
	while ((rc = pb_next(&r, &f)) == 1) {
		if (parse_top_field(&f, pm, err, errlen)) {
			spm_proto_free(pm);
			return -1;
		}
	}
	if (rc < 0) {
		spm_proto_free(pm);
		return spm_fail(err, errlen, "truncated or malformed protobuf");
	}
	return 0;
}

void spm_proto_free(spm_proto_model *pm)
{
	free(pm->pieces);
	pm->pieces = NULL;
	pm->n_pieces = pm->cap_pieces = 0;
}
