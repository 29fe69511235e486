/* vocab/spm_pack.c - ModelProto -> self-contained tokenizer blob (layout: docs/TOKENIZER.md).
 *
 * Everything that SentencePiece checks when loading a model is checked here, with a
 * readable message, so that a model spm_pack accepts behaves like it does in spm_encode. */
#include <stdlib.h>
#include <string.h>

#include "spm_internal.h"
#include "spm_proto.h"

#define SPM_MAX_PIECES (1u << 24)

static int bytes_eq(spm_bytes a, spm_bytes b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

static int hex_digit(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1; /* SentencePiece writes byte pieces with upper-case hex only */
}

/* Byte value of a "<0xNN>" piece, or -1. */
static int byte_piece_value(const uint8_t *p, size_t len)
{
	if (len != 6 || memcmp(p, "<0x", 3) != 0 || p[5] != '>')
		return -1;
	int hi = hex_digit(p[3]), lo = hex_digit(p[4]);
	return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

static int check_model_type(int type, char *err, size_t errlen)
{
	switch (type) {
	case SPM_UNIGRAM:
	case SPM_BPE:
		return 0;
	case SPM_WORD:
		return spm_fail(err, errlen, "unsupported model type WORD");
	case SPM_CHAR:
		return spm_fail(err, errlen, "unsupported model type CHAR");
	default:
		return spm_fail(err, errlen, "unknown model type %d", type);
	}
}

static int check_pieces(const spm_proto_model *pm, char *err, size_t errlen)
{
	if (pm->n_pieces == 0)
		return spm_fail(err, errlen, "model has no pieces");
	if (pm->n_pieces > SPM_MAX_PIECES)
		return spm_fail(err, errlen, "too many pieces");
	int n_unk = 0;
	for (size_t i = 0; i < pm->n_pieces; i++) {
		const spm_proto_piece *pc = &pm->pieces[i];
		if (pc->piece.len == 0)
			return spm_fail(err, errlen, "piece %zu is empty", i);
		if (pc->piece.len > 0xffff)
			return spm_fail(err, errlen, "piece %zu is too long", i);
		if (pc->type == SPM_UNKNOWN)
			n_unk++;
		if (pc->type == SPM_BYTE && byte_piece_value(pc->piece.p, pc->piece.len) < 0)
			return spm_fail(err, errlen, "byte piece %zu is not of the form <0xNN>", i);
	}
	if (n_unk == 0)
		return spm_fail(err, errlen, "unk is not defined");
	if (n_unk > 1)
		return spm_fail(err, errlen, "unk is defined more than once");
	return 0;
}

/* The precompiled charsmap is: u32 trie size, darts-clone units, NUL-separated strings. */
static int check_charsmap(spm_bytes cm, spm_bytes *trie, spm_bytes *norm, char *err, size_t errlen)
{
	trie->p = norm->p = NULL;
	trie->len = norm->len = 0;
	if (cm.len == 0)
		return 0; /* identity */
	if (cm.len <= 4)
		return spm_fail(err, errlen, "precompiled charsmap is broken");
	uint32_t trie_size = spm_rd32(cm.p);
	if (trie_size > cm.len - 4 || trie_size % 4 != 0 || trie_size == 0)
		return spm_fail(err, errlen, "precompiled charsmap trie size %u is invalid", trie_size);
	*trie = (spm_bytes){ cm.p + 4, trie_size };
	*norm = (spm_bytes){ cm.p + 4 + trie_size, cm.len - 4 - trie_size };
	return 0;
}

/* Index of the piece equal to s among those already in the table, or -1. */
static int64_t table_find(const uint8_t *slots, uint32_t mask, const spm_proto_model *pm, spm_bytes s)
{
	for (uint32_t i = spm_hash(s.p, s.len) & mask;; i = (i + 1) & mask) {
		uint32_t v = spm_rd32(slots + 4 * (size_t)i);
		if (v == 0)
			return -1;
		if (bytes_eq(pm->pieces[v - 1].piece, s))
			return v - 1;
	}
}

static int fill_table(uint8_t *slots, uint32_t n_slots, const spm_proto_model *pm, char *err, size_t errlen)
{
	uint32_t mask = n_slots - 1;
	for (size_t id = 0; id < pm->n_pieces; id++) {
		spm_bytes s = pm->pieces[id].piece;
		if (table_find(slots, mask, pm, s) >= 0)
			return spm_fail(err, errlen, "piece %zu ('%.*s') is already defined", id,
					(int)(s.len > 40 ? 40 : s.len), (const char *)s.p);
		uint32_t i = spm_hash(s.p, s.len) & mask;
		while (spm_rd32(slots + 4 * (size_t)i) != 0)
			i = (i + 1) & mask;
		spm_wr32(slots + 4 * (size_t)i, (uint32_t)id + 1);
	}
	return 0;
}

/* SentencePiece reports bos/eos/pad only when that piece exists as a CONTROL symbol. */
static int32_t control_id(const uint8_t *slots, uint32_t n_slots, const spm_proto_model *pm, spm_bytes piece)
{
	int64_t id = table_find(slots, n_slots - 1, pm, piece);
	return id >= 0 && pm->pieces[id].type == SPM_CONTROL ? (int32_t)id : -1;
}

static int32_t unknown_id(const spm_proto_model *pm)
{
	for (size_t i = 0; i < pm->n_pieces; i++)
		if (pm->pieces[i].type == SPM_UNKNOWN)
			return (int32_t)i;
	return -1;
}

static size_t align_up(size_t x)
{
	return (x + SPM_ALIGN - 1) & ~(size_t)(SPM_ALIGN - 1);
}

typedef struct {
	size_t off[SPM_N_SECTIONS], size[SPM_N_SECTIONS], total;
} blob_layout;

static void plan_layout(blob_layout *L, const spm_proto_model *pm, int decode_only, size_t strings_len, spm_bytes trie,
			size_t norm_len)
{
	L->size[SPM_SEC_PIECES] = pm->n_pieces * (decode_only ? SPM_DECODER_REC : SPM_PIECE_REC);
	L->size[SPM_SEC_STRINGS] = strings_len;
	L->size[SPM_SEC_HASH] = 0;
	L->size[SPM_SEC_TRIE] = trie.len;
	L->size[SPM_SEC_NORM] = norm_len;
	L->size[SPM_SEC_UNK_SURFACE] = pm->unk_surface.len;
	size_t at = SPM_HEADER_SIZE;
	for (int i = 0; i < SPM_N_SECTIONS; i++) {
		L->off[i] = at;
		at = align_up(at + L->size[i]);
	}
	L->total = at;
}

static void write_header(uint8_t *b, const blob_layout *L, const spm_proto_model *pm, const int32_t ids[4],
			 int decode_only)
{
	uint32_t flags = (decode_only ? SPM_F_DECODE_ONLY : 0) | (pm->add_dummy_prefix ? SPM_F_ADD_DUMMY_PREFIX : 0) |
		(pm->remove_extra_ws ? SPM_F_REMOVE_EXTRA_WS : 0) | (pm->escape_ws ? SPM_F_ESCAPE_WS : 0) |
		(pm->ws_as_suffix ? SPM_F_WS_AS_SUFFIX : 0) | (pm->byte_fallback ? SPM_F_BYTE_FALLBACK : 0);
	memcpy(b, SPM_MAGIC, 8);
	spm_wr32(b + 8, (uint32_t)L->total);
	spm_wr32(b + 12, (uint32_t)pm->model_type);
	spm_wr32(b + 16, flags);
	spm_wr32(b + 20, (uint32_t)pm->n_pieces);
	for (int i = 0; i < 4; i++)
		spm_wr32(b + 24 + 4 * i, (uint32_t)ids[i]);
	for (int i = 0; i < SPM_N_SECTIONS; i++) {
		spm_wr32(b + SPM_SECTION_TABLE + 8 * i, (uint32_t)L->off[i]);
		spm_wr32(b + SPM_SECTION_TABLE + 8 * i + 4, (uint32_t)L->size[i]);
	}
}

static void wr16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* Full records, or a decode-only blob's short ones without the scores that
 * only encoding reads (lengths fit: check_pieces caps them at 0xffff). */
static void write_pieces(uint8_t *b, const blob_layout *L, const spm_proto_model *pm, int decode_only)
{
	uint8_t *rec = b + L->off[SPM_SEC_PIECES], *str = b + L->off[SPM_SEC_STRINGS];
	uint32_t at = 0;
	for (size_t i = 0; i < pm->n_pieces; i++) {
		const spm_proto_piece *pc = &pm->pieces[i];
		memcpy(str + at, pc->piece.p, pc->piece.len);
		spm_wr32(rec, at);
		if (decode_only) {
			wr16(rec + 4, (uint32_t)pc->piece.len);
			wr16(rec + 6, (uint32_t)pc->type);
			rec += SPM_DECODER_REC;
		} else {
			spm_wr32(rec + 4, (uint32_t)pc->piece.len);
			spm_wr32(rec + 8, spm_float_to_bits(pc->score));
			spm_wr32(rec + 12, (uint32_t)pc->type);
			rec += SPM_PIECE_REC;
		}
		at += (uint32_t)pc->piece.len;
	}
}

/* No blob stores the piece lookup table: spm_open builds it (64 KB for an
 * 8000-piece model, well under a millisecond), so packed models stay smaller.
 * It is still built here, to refuse repeated pieces and find the special ids.
 * A decode-only blob also leaves out the normalizer's charsmap (237 KB for an
 * nmt_nfkc model): turning ids into text needs only the pieces, the flags and
 * the unk surface. */
static int build_blob(const spm_proto_model *pm, int decode_only, uint8_t **out, size_t *out_len, char *err,
		      size_t errlen)
{
	spm_bytes trie, norm;
	if (check_charsmap(pm->charsmap, &trie, &norm, err, errlen))
		return -1;
	if (decode_only)
		trie.len = norm.len = 0;
	/* Replacement strings are read as C strings: make sure the last one ends. */
	int add_nul = trie.len > 0 && (norm.len == 0 || norm.p[norm.len - 1] != 0);
	size_t strings_len = 0;
	for (size_t i = 0; i < pm->n_pieces; i++)
		strings_len += pm->pieces[i].piece.len;
	uint32_t n_slots = spm_table_slots(pm->n_pieces);
	blob_layout L;
	plan_layout(&L, pm, decode_only, strings_len, trie, norm.len + (size_t)add_nul);
	if (L.total > 0xffffffffu)
		return spm_fail(err, errlen, "model too large");
	uint8_t *b = calloc(1, L.total), *slots = calloc(n_slots, 4);
	if (b == NULL || slots == NULL) {
		free(b);
		free(slots);
		return spm_fail(err, errlen, "out of memory");
	}
	if (fill_table(slots, n_slots, pm, err, errlen)) {
		free(b);
		free(slots);
		return -1;
	}
	int32_t ids[4] = { unknown_id(pm), control_id(slots, n_slots, pm, pm->bos_piece),
			   control_id(slots, n_slots, pm, pm->eos_piece),
			   control_id(slots, n_slots, pm, pm->pad_piece) };
	free(slots);
	write_header(b, &L, pm, ids, decode_only);
	write_pieces(b, &L, pm, decode_only);
	if (trie.len)
		memcpy(b + L.off[SPM_SEC_TRIE], trie.p, trie.len);
	if (norm.len)
		memcpy(b + L.off[SPM_SEC_NORM], norm.p, norm.len);
	if (pm->unk_surface.len)
		memcpy(b + L.off[SPM_SEC_UNK_SURFACE], pm->unk_surface.p, pm->unk_surface.len);
	*out = b;
	*out_len = L.total;
	return 0;
}

static int pack(const uint8_t *model_proto, size_t len, int decode_only, uint8_t **out, size_t *out_len, char *err,
		size_t errlen)
{
	if (out == NULL || out_len == NULL)
		return spm_fail(err, errlen, "no output pointer");
	*out = NULL;
	*out_len = 0;
	spm_proto_model pm;
	if (spm_proto_parse(model_proto, len, &pm, err, errlen))
		return -1;
	int rc = -1;
	if (check_model_type(pm.model_type, err, errlen) || check_pieces(&pm, err, errlen))
		goto done;
	if (pm.denorm_charsmap.len != 0) {
		spm_fail(err, errlen, "denormalization rules are not supported");
		goto done;
	}
	rc = build_blob(&pm, decode_only, out, out_len, err, errlen);
done:
	spm_proto_free(&pm);
	return rc;
}

int spm_pack(const uint8_t *model_proto, size_t len, uint8_t **out, size_t *out_len, char *err, size_t errlen)
{
	return pack(model_proto, len, 0, out, out_len, err, errlen);
}

int spm_pack_decoder(const uint8_t *model_proto, size_t len, uint8_t **out, size_t *out_len, char *err, size_t errlen)
{
	return pack(model_proto, len, 1, out, out_len, err, errlen);
}
