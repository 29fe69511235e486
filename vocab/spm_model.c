/* vocab/spm_model.c - opening a packed blob in place, accessors, piece lookup, scratch.
 *
 * spm_open is the trust boundary: after it succeeds, every offset, length and id the
 * runtime follows has been checked against the blob, so a corrupt or hostile file can
 * only produce an error here, never an out-of-bounds read later. The one table that is
 * not fully walked here (the darts-clone charsmap trie) is bounds-checked per step. */
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spm_internal.h"

/* Every error of the tokenizer, the runtime's and the packer's, is written
 * by this one function (spm_internal.h). */
int spm_fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err != NULL && errlen > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

uint32_t spm_hash(const void *s, size_t len)
{
	const uint8_t *p = s;
	uint32_t h = SPM_FNV_INIT;
	for (size_t i = 0; i < len; i++)
		h = spm_fnv_step(h, p[i]);
	return h;
}

int32_t spm_lookup_hashed(const spm_model *m, uint32_t h, const char *s, size_t len)
{
	uint32_t mask = m->n_slots - 1;
	/* Bounded probe: a valid table always has an empty slot, a hostile one must not loop. */
	for (uint32_t i = h & mask, probes = 0; probes < m->n_slots; i = (i + 1) & mask, probes++) {
		uint32_t v = spm_rd32(m->hash + 4 * (size_t)i);
		if (v == 0)
			return -1;
		size_t plen;
		const char *p = spm_piece_str(m, (int32_t)(v - 1), &plen);
		if (plen == len && memcmp(p, s, len) == 0)
			return (int32_t)(v - 1);
	}
	return -1;
}

size_t spm_user_prefix(const spm_model *m, const char *s, size_t len)
{
	size_t best = 0, lim = len < m->max_user_len ? len : m->max_user_len;
	uint32_t h = SPM_FNV_INIT;
	for (size_t k = 1; k <= lim; k++) {
		h = spm_fnv_step(h, (uint8_t)s[k - 1]);
		int32_t id = spm_lookup_hashed(m, h, s, k);
		if (id >= 0 && spm_piece_type(m, id) == SPM_USER_DEFINED)
			best = k;
	}
	return best;
}

int spm_reserve(void **buf, size_t *cap, size_t n, size_t elem)
{
	if (n <= *cap)
		return 0;
	size_t c = *cap ? *cap : 64;
	while (c < n) {
		if (c > SIZE_MAX / 2 / elem)
			return -1;
		c *= 2;
	}
	void *p = realloc(*buf, c * elem);
	if (p == NULL)
		return -1;
	*buf = p;
	*cap = c;
	return 0;
}

/* ---- spm_open ---- */

typedef struct {
	uint32_t off, size;
} section;

static int read_sections(const uint8_t *b, uint32_t total, section sec[SPM_N_SECTIONS], char *err, size_t errlen)
{
	for (int i = 0; i < SPM_N_SECTIONS; i++) {
		sec[i].off = spm_rd32(b + SPM_SECTION_TABLE + 8 * i);
		sec[i].size = spm_rd32(b + SPM_SECTION_TABLE + 8 * i + 4);
		if (sec[i].off < SPM_HEADER_SIZE || sec[i].off > total || sec[i].size > total - sec[i].off)
			return spm_fail(err, errlen, "tokenizer blob section %d out of bounds", i);
	}
	return 0;
}

static int check_header(const uint8_t *b, size_t blob_len, uint32_t *total, char *err, size_t errlen)
{
	if (b == NULL || blob_len < SPM_HEADER_SIZE)
		return spm_fail(err, errlen, "tokenizer blob truncated (%zu bytes)", blob_len);
	if (memcmp(b, SPM_MAGIC, 8) != 0)
		return spm_fail(err, errlen, "not a tokenizer blob");
	*total = spm_rd32(b + 8);
	if (*total < SPM_HEADER_SIZE || *total > blob_len)
		return spm_fail(err, errlen, "tokenizer blob truncated (%zu of %u bytes)", blob_len, *total);
	return 0;
}

static int bind_sections(spm_model *m, const uint8_t *b, const section *sec, char *err, size_t errlen)
{
	m->pieces = b + sec[SPM_SEC_PIECES].off;
	m->strings = b + sec[SPM_SEC_STRINGS].off;
	m->strings_len = sec[SPM_SEC_STRINGS].size;
	m->hash = b + sec[SPM_SEC_HASH].off;
	m->n_slots = sec[SPM_SEC_HASH].size / 4;
	m->trie = b + sec[SPM_SEC_TRIE].off;
	m->trie_units = sec[SPM_SEC_TRIE].size / 4;
	m->norm = (const char *)b + sec[SPM_SEC_NORM].off;
	m->norm_len = sec[SPM_SEC_NORM].size;
	m->unk_surface = (const char *)b + sec[SPM_SEC_UNK_SURFACE].off;
	m->unk_surface_len = sec[SPM_SEC_UNK_SURFACE].size;
	/* Decode-only blobs have short records; those packed before them, full ones. */
	uint64_t size = sec[SPM_SEC_PIECES].size;
	m->rec_size = SPM_PIECE_REC;
	if ((m->flags & SPM_F_DECODE_ONLY) && size == (uint64_t)m->n_pieces * SPM_DECODER_REC)
		m->rec_size = SPM_DECODER_REC;
	if (m->n_pieces == 0 || (uint64_t)m->n_pieces * m->rec_size != size)
		return spm_fail(err, errlen, "tokenizer piece table size mismatch");
	if (m->flags & SPM_F_DECODE_ONLY) {
		if (m->n_slots || m->trie_units || m->norm_len)
			return spm_fail(err, errlen, "decode-only tokenizer has encoding tables");
		return 0;
	}
	/* An empty lookup table is built at open (build_lookup); a stored one is checked. */
	if (sec[SPM_SEC_HASH].size % 4 ||
	    (m->n_slots && (m->n_slots <= m->n_pieces || (m->n_slots & (m->n_slots - 1)))))
		return spm_fail(err, errlen, "tokenizer hash table has a bad size");
	if (sec[SPM_SEC_TRIE].size % 4 || (m->trie_units == 0) != (m->norm_len == 0))
		return spm_fail(err, errlen, "tokenizer charsmap has a bad size");
	if (m->norm_len && m->norm[m->norm_len - 1] != '\0')
		return spm_fail(err, errlen, "tokenizer charsmap strings are not terminated");
	return 0;
}

static int is_byte_piece(const char *p, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	return len == 6 && memcmp(p, "<0x", 3) == 0 && p[5] == '>' && p[3] && p[4] && strchr(hex, p[3]) &&
		strchr(hex, p[4]);
}

/* Pass 1: the record itself lies within the blob and has a known type. */
static int check_piece_record(const spm_model *m, int32_t id, char *err, size_t errlen)
{
	const uint8_t *r = spm_rec(m, id);
	uint32_t off = spm_rd32(r), len = spm_piece_len(m, id), type = spm_piece_type(m, id);
	if (len == 0 || off > m->strings_len || len > m->strings_len - off)
		return spm_fail(err, errlen, "tokenizer piece %d out of bounds", (int)id);
	if (type < SPM_NORMAL || type > SPM_BYTE)
		return spm_fail(err, errlen, "tokenizer piece %d has bad type %u", (int)id, type);
	return 0;
}

/* Pass 2 (all records valid): the piece is found by the lookup table, byte pieces parse,
 * and the model-wide statistics the segmenters need are accumulated. */
static int check_piece_content(spm_model *m, int32_t id, int *n_unk, char *err, size_t errlen)
{
	size_t len;
	const char *p = spm_piece_str(m, id, &len);
	uint32_t type = spm_piece_type(m, id);
	if (type == SPM_BYTE && !is_byte_piece(p, len))
		return spm_fail(err, errlen, "tokenizer byte piece %d is malformed", (int)id);
	if (!(m->flags & SPM_F_DECODE_ONLY) && spm_lookup(m, p, len) != id)
		return spm_fail(err, errlen, "tokenizer hash table does not find piece %d", (int)id);
	float score = spm_piece_score(m, id);
	if (type == SPM_NORMAL) {
		if (score < m->min_score)
			m->min_score = score;
		if (score > m->max_score)
			m->max_score = score;
	}
	if (type == SPM_NORMAL || type == SPM_USER_DEFINED || type == SPM_UNUSED) {
		if (len > m->max_match_len)
			m->max_match_len = (uint32_t)len;
		size_t sp_len;
		const char *sp = spm_space(m, &sp_len);
		for (size_t i = 1; i + sp_len <= len && !m->inner_space; i++)
			m->inner_space = memcmp(p + i, sp, sp_len) == 0;
	}
	if (type == SPM_USER_DEFINED && len > m->max_user_len)
		m->max_user_len = (uint32_t)len;
	if (type == SPM_UNKNOWN)
		(*n_unk)++;
	return 0;
}

static int check_hash_slots(const spm_model *m, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < m->n_slots; i++)
		if (spm_rd32(m->hash + 4 * (size_t)i) > m->n_pieces)
			return spm_fail(err, errlen, "tokenizer hash table entry %u out of range", i);
	return 0;
}

static int check_special_id(const spm_model *m, int32_t id, const char *what, char *err, size_t errlen)
{
	if (id < -1 || id >= (int32_t)m->n_pieces)
		return spm_fail(err, errlen, "tokenizer %s id %d out of range", what, (int)id);
	if (id >= 0 && spm_piece_type(m, id) != SPM_CONTROL)
		return spm_fail(err, errlen, "tokenizer %s id %d is not a control piece", what, (int)id);
	return 0;
}

/* The piece lookup table of a blob that stores none (the packer writes none):
 * every piece inserted by id, so a repeated piece is an error, as it is for
 * SentencePiece. The records have been checked (pass 1). */
static int build_lookup(spm_model *m, char *err, size_t errlen)
{
	uint32_t n_slots = spm_table_slots(m->n_pieces), mask = n_slots - 1;
	uint8_t *slots = calloc(n_slots, 4);
	if (slots == NULL) {
		spm_fail(err, errlen, "out of memory");
		return SPM_NO_MEMORY;
	}
	m->built_hash = slots;
	m->hash = slots;
	m->n_slots = n_slots;
	for (uint32_t id = 0; id < m->n_pieces; id++) {
		size_t len;
		const char *p = spm_piece_str(m, (int32_t)id, &len);
		uint32_t i = spm_hash(p, len) & mask, v;
		for (; (v = spm_rd32(slots + 4 * (size_t)i)) != 0; i = (i + 1) & mask) {
			size_t other_len;
			const char *other = spm_piece_str(m, (int32_t)(v - 1), &other_len);
			if (other_len == len && memcmp(other, p, len) == 0)
				return spm_fail(err, errlen, "tokenizer piece %u repeats piece %u", id, v - 1);
		}
		spm_wr32(slots + 4 * (size_t)i, id + 1);
	}
	return 0;
}

static int check_tables(spm_model *m, char *err, size_t errlen)
{
	if (check_hash_slots(m, err, errlen))
		return -1;
	/* SentencePiece starts max at FLT_MIN (the smallest positive float), not -FLT_MAX. */
	m->min_score = FLT_MAX;
	m->max_score = FLT_MIN;
	int n_unk = 0;
	for (uint32_t id = 0; id < m->n_pieces; id++)
		if (check_piece_record(m, (int32_t)id, err, errlen))
			return -1;
	if (!(m->flags & SPM_F_DECODE_ONLY) && m->n_slots == 0) {
		int rc = build_lookup(m, err, errlen);
		if (rc)
			return rc;
	}
	for (uint32_t id = 0; id < m->n_pieces; id++)
		if (check_piece_content(m, (int32_t)id, &n_unk, err, errlen))
			return -1;
	if (n_unk != 1 || m->unk_id < 0 || m->unk_id >= (int32_t)m->n_pieces ||
	    spm_piece_type(m, m->unk_id) != SPM_UNKNOWN)
		return spm_fail(err, errlen, "tokenizer unk id is invalid");
	if (check_special_id(m, m->bos_id, "bos", err, errlen) || check_special_id(m, m->eos_id, "eos", err, errlen) ||
	    check_special_id(m, m->pad_id, "pad", err, errlen))
		return -1;
	return 0;
}

static int read_scalars(spm_model *m, const uint8_t *b, char *err, size_t errlen)
{
	m->model_type = spm_rd32(b + 12);
	m->flags = spm_rd32(b + 16);
	m->n_pieces = spm_rd32(b + 20);
	m->unk_id = (int32_t)spm_rd32(b + 24);
	m->bos_id = (int32_t)spm_rd32(b + 28);
	m->eos_id = (int32_t)spm_rd32(b + 32);
	m->pad_id = (int32_t)spm_rd32(b + 36);
	if (m->model_type != SPM_UNIGRAM && m->model_type != SPM_BPE)
		return spm_fail(err, errlen, "tokenizer model type %u unsupported", m->model_type);
	if (m->flags & ~(uint32_t)SPM_F_ALL)
		return spm_fail(err, errlen, "tokenizer flags 0x%x unknown", m->flags);
	if (m->n_pieces > (1u << 24))
		return spm_fail(err, errlen, "tokenizer has too many pieces");
	return 0;
}

int spm_open(const void *blob, size_t blob_len, spm_model **out, char *err, size_t errlen)
{
	if (out == NULL)
		return spm_fail(err, errlen, "no output pointer");
	*out = NULL;
	const uint8_t *b = blob;
	uint32_t total = 0;
	section sec[SPM_N_SECTIONS];
	if (check_header(b, blob_len, &total, err, errlen) || read_sections(b, total, sec, err, errlen))
		return -1;
	spm_model *m = calloc(1, sizeof *m);
	if (m == NULL) {
		spm_fail(err, errlen, "out of memory");
		return SPM_NO_MEMORY;
	}
	int rc = 0;
	if (read_scalars(m, b, err, errlen) || bind_sections(m, b, sec, err, errlen) ||
	    (rc = check_tables(m, err, errlen)) != 0) {
		spm_close(m);
		return rc == SPM_NO_MEMORY ? SPM_NO_MEMORY : -1;
	}
	*out = m;
	return 0;
}

void spm_close(spm_model *m)
{
	if (m == NULL)
		return;
	free(m->built_hash);
	free(m);
}

int spm_vocab_size(const spm_model *m)
{
	return (int)m->n_pieces;
}
int spm_bos_id(const spm_model *m)
{
	return m->bos_id;
}
int spm_eos_id(const spm_model *m)
{
	return m->eos_id;
}
int spm_unk_id(const spm_model *m)
{
	return m->unk_id;
}
int spm_pad_id(const spm_model *m)
{
	return m->pad_id;
}

const char *spm_piece(const spm_model *m, int id, size_t *len)
{
	if (id < 0 || (uint32_t)id >= m->n_pieces)
		return NULL;
	size_t l;
	const char *p = spm_piece_str(m, id, &l);
	if (len)
		*len = l;
	return p;
}

int spm_piece_to_id(const spm_model *m, const char *piece, size_t len)
{
	return spm_lookup(m, piece, len);
}

spm_scratch *spm_scratch_new(void)
{
	return calloc(1, sizeof(spm_scratch));
}

void spm_scratch_free(spm_scratch *s)
{
	if (s == NULL)
		return;
	free(s->norm);
	free(s->spans);
	free(s->ids);
	free(s->text);
	free(s->work);
	free(s->work2);
	free(s->work3);
	free(s);
}
