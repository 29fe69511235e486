/* vocab/spm_decode.c - ids -> text exactly like SentencePieceProcessor::Decode (0.1.97):
 * control pieces vanish, <unk> becomes the model's unk_surface (" \u2047 " by default),
 * U+2581 becomes a space, the start of the text loses its leading U+2581, and
 * runs of byte pieces are reassembled into UTF-8 with U+FFFD for each malformed byte. */
#include <string.h>

#include "../common/utf8.h"
#include "spm_internal.h"

typedef struct {
	spm_scratch *s;
	size_t len;
} text_out;

static int put(text_out *o, const char *p, size_t n)
{
	void *buf = o->s->text;
	if (spm_reserve(&buf, &o->s->text_cap, o->len + n + 1, 1))
		return -1;
	o->s->text = buf;
	if (n)
		memcpy(o->s->text + o->len, p, n);
	o->len += n;
	return 0;
}

static int hex_value(char c)
{
	return c <= '9' ? c - '0' : c - 'A' + 10;
}

/* Byte pieces were checked to be <0xNN> with upper-case hex by spm_open. */
static uint8_t byte_of(const spm_model *m, int32_t id)
{
	size_t len;
	const char *p = spm_piece_str(m, id, &len);
	return (uint8_t)(hex_value(p[3]) * 16 + hex_value(p[4]));
}

/* Append the bytes of the byte pieces ids[from, to) as UTF-8: every well-formed character
 * as is, every malformed byte as U+FFFD. */
static int put_bytes(const spm_model *m, text_out *o, const int32_t *ids, size_t from, size_t to)
{
	for (size_t at = from; at < to;) {
		uint8_t c[4];
		size_t k = 0;
		for (; k < 4 && at + k < to; k++)
			c[k] = byte_of(m, ids[at + k]);
		size_t len = utf8_valid_length((const char *)c, k);
		if (len == 0 ? put(o, "\xef\xbf\xbd", 3) : put(o, (const char *)c, len))
			return -1;
		at += len ? len : 1;
	}
	return 0;
}

/* Leading-space state: the first pieces of the text lose one leading U+2581 each while
 * the text is still empty; without remove_extra_whitespaces only one U+2581 is dropped. */
typedef struct {
	int is_bos_ws, bos_ws_seen;
} bos_state;

/* One non-byte piece. */
static int put_piece(const spm_model *m, text_out *o, int32_t id, bos_state *b)
{
	if (b->bos_ws_seen || o->len > 0)
		b->is_bos_ws = 0;
	b->bos_ws_seen = 0;
	uint32_t type = spm_piece_type(m, id);
	if (type == SPM_CONTROL)
		return 0;
	if (type == SPM_UNKNOWN)
		return put(o, m->unk_surface, m->unk_surface_len);
	size_t len;
	const char *p = spm_piece_str(m, id, &len);
	if (b->is_bos_ws && (m->flags & (SPM_F_ADD_DUMMY_PREFIX | SPM_F_REMOVE_EXTRA_WS)) && len >= 3 &&
	    memcmp(p, SPM_SPACE_SYMBOL, 3) == 0) {
		p += 3;
		len -= 3;
		b->bos_ws_seen = !(m->flags & SPM_F_REMOVE_EXTRA_WS);
	}
	for (size_t i = 0; i < len;) {
		int is_space = len - i >= 3 && memcmp(p + i, SPM_SPACE_SYMBOL, 3) == 0;
		if (put(o, is_space ? " " : p + i, 1))
			return -1;
		i += is_space ? 3 : 1;
	}
	return 0;
}

/* The decoder both entries share: the ids checked, then each piece written in
 * turn, a run of byte pieces when it ends. With `prefix`, each prefix's decoding
 * is handed over: after a piece that is not a byte it is the text so far;
 * inside a run, that text and the run so far, written after it and taken back. */
static int decode(const spm_model *m, text_out *o, const int32_t *ids, size_t n, spm_prefix_fn prefix, void *ctx)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] < 0 || (uint32_t)ids[i] >= m->n_pieces)
			return -1;
	if (put(o, "", 0))
		return -1;
	size_t byte_start = 0;
	bos_state bos = { 1, 0 };
	for (size_t i = 0; i < n; i++) {
		if (spm_piece_type(m, ids[i]) == SPM_BYTE) {
			size_t done = o->len;
			if (prefix && (put_bytes(m, o, ids, byte_start, i + 1) || prefix(ctx, i, o->s->text, o->len)))
				return -1;
			o->len = done;
			continue;
		}
		if (put_bytes(m, o, ids, byte_start, i) || put_piece(m, o, ids[i], &bos) ||
		    (prefix && prefix(ctx, i, o->s->text, o->len)))
			return -1;
		byte_start = i + 1;
	}
	return put_bytes(m, o, ids, byte_start, n);
}

int spm_decode(const spm_model *m, spm_scratch *s, const int32_t *ids, size_t n, const char **text, size_t *len)
{
	text_out o = { s, 0 };
	*text = "";
	*len = 0;
	if (decode(m, &o, ids, n, NULL, NULL))
		return -1;
	s->text[o.len] = '\0';
	*text = s->text;
	*len = o.len;
	return 0;
}

int spm_decode_prefixes(const spm_model *m, spm_scratch *s, const int32_t *ids, size_t n, spm_prefix_fn prefix,
			void *ctx)
{
	text_out o = { s, 0 };
	return decode(m, &o, ids, n, prefix, ctx);
}
