/* vocab/spm_normalize.c - SentencePiece's Normalizer: precompiled charsmap rules, then the
 * whitespace rules of the NormalizerSpec (remove_extra_whitespaces, add_dummy_prefix,
 * escape_whitespaces, treat_whitespace_as_suffix), byte for byte as in 0.1.97. */
#include <string.h>

#include "../common/utf8.h"
#include "spm_internal.h"

/* The replacement SentencePiece uses for a malformed UTF-8 byte (U+FFFD). */
static const char kReplacementChar[] = "\xef\xbf\xbd";

/* One normalization step: `len` output bytes at `s` replace `consumed` input bytes. */
typedef struct {
	const char *s;
	size_t len, consumed;
} norm_step;

/* ---- darts-clone double array, read in place ----
 * A unit is a u32: bit 8 = has_leaf, bits 0-7 (+ bit 31 for leaves) = label,
 * bits 10-31 = offset (shifted left by 8 when bit 9 is set), bits 0-30 = value of a leaf. */
static uint32_t unit_offset(uint32_t u)
{
	return (u >> 10) << ((u & (1u << 9)) >> 6);
}
static uint32_t unit_label(uint32_t u)
{
	return u & ((1u << 31) | 0xff);
}
static int unit_has_leaf(uint32_t u)
{
	return (u >> 8) & 1;
}
static uint32_t unit_value(uint32_t u)
{
	return u & ((1u << 31) - 1);
}

/* Longest charsmap key that prefixes in[0..n): its length (0 if none) and string value.
 * Like the Normalizer, only the first 32 matches count (kMaxTrieResultsSize). */
static size_t charsmap_longest(const spm_model *m, const uint8_t *in, size_t n, uint32_t *value)
{
	size_t best = 0, found = 0;
	uint32_t node = unit_offset(spm_rd32(m->trie));
	for (size_t i = 0; i < n; i++) {
		node ^= in[i];
		if (node >= m->trie_units)
			break; /* hostile trie: never step outside it */
		uint32_t u = spm_rd32(m->trie + 4 * (size_t)node);
		if (unit_label(u) != in[i])
			break;
		node ^= unit_offset(u);
		if (!unit_has_leaf(u))
			continue;
		if (node >= m->trie_units)
			break;
		if (found++ < 32) {
			best = i + 1;
			*value = unit_value(spm_rd32(m->trie + 4 * (size_t)node));
		}
	}
	return best;
}

/* Normalizer::NormalizePrefix: user-defined symbols pass through untouched, then the
 * longest charsmap rule, else one character as is (or U+FFFD for one malformed byte). */
static norm_step normalize_prefix(const spm_model *m, const char *in, size_t n)
{
	size_t len;
	if (m->max_user_len && (len = spm_user_prefix(m, in, n)) > 0)
		return (norm_step){ in, len, len };
	if (m->trie_units) {
		uint32_t value = 0;
		len = charsmap_longest(m, (const uint8_t *)in, n, &value);
		if (len > 0) {
			/* An out-of-range value maps to nothing rather than to memory outside the blob. */
			if (value >= m->norm_len)
				return (norm_step){ "", 0, len };
			const char *s = m->norm + value;
			return (norm_step){ s, strlen(s), len }; /* terminated: checked by spm_open */
		}
	}
	len = utf8_valid_length(in, n);
	/* A literal U+FFFD is valid; any malformed sequence costs exactly one byte. */
	if (len == 0)
		return (norm_step){ kReplacementChar, 3, 1 };
	return (norm_step){ in, len, len };
}

typedef struct {
	spm_scratch *s;
	size_t len;
} out_buf;

static int put(out_buf *o, const char *p, size_t n)
{
	void *buf = o->s->norm;
	if (spm_reserve(&buf, &o->s->norm_cap, o->len + n + 1, 1))
		return -1;
	o->s->norm = buf;
	memcpy(o->s->norm + o->len, p, n);
	o->len += n;
	return 0;
}

static int put_space(const spm_model *m, out_buf *o)
{
	return (m->flags & SPM_F_ESCAPE_WS) ? put(o, SPM_SPACE_SYMBOL, 3) : put(o, " ", 1);
}

/* Appends a rule's output, turning ' ' into U+2581 when escaping. */
static int put_escaped(const spm_model *m, out_buf *o, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == ' ' && (m->flags & SPM_F_ESCAPE_WS)) {
			if (put(o, SPM_SPACE_SYMBOL, 3))
				return -1;
		} else if (put(o, p + i, 1)) {
			return -1;
		}
	}
	return 0;
}

static int ends_with(const out_buf *o, const char *suffix, size_t n)
{
	return o->len >= n && memcmp(o->s->norm + o->len - n, suffix, n) == 0;
}

/* The main loop: apply rules left to right, collapsing runs of spaces if asked. */
static int normalize_body(const spm_model *m, out_buf *o, const char *in, size_t n)
{
	int remove_extra = (m->flags & SPM_F_REMOVE_EXTRA_WS) != 0;
	int prev_space = remove_extra;
	while (n > 0) {
		norm_step st = normalize_prefix(m, in, n);
		const char *p = st.s;
		size_t len = st.len;
		/* Drop spaces that start a rule's output right after a space. */
		while (prev_space && len > 0 && *p == ' ') {
			p++;
			len--;
		}
		if (len > 0) {
			if (put_escaped(m, o, p, len))
				return -1;
			prev_space = p[len - 1] == ' ';
		}
		in += st.consumed;
		n -= st.consumed;
		if (!remove_extra)
			prev_space = 0;
	}
	return 0;
}

int spm_normalize(const spm_model *m, spm_scratch *s, const char *in, size_t n, size_t *out_len)
{
	out_buf o = { s, 0 };
	int remove_extra = (m->flags & SPM_F_REMOVE_EXTRA_WS) != 0;
	int suffix = (m->flags & SPM_F_WS_AS_SUFFIX) != 0;
	int dummy = (m->flags & SPM_F_ADD_DUMMY_PREFIX) != 0;
	if (put(&o, "", 0))
		return -1; /* make sure s->norm exists even for empty output */
	/* Leading whitespace (as the rules see it) goes first. */
	while (remove_extra && n > 0) {
		norm_step st = normalize_prefix(m, in, n);
		if (!(st.len == 1 && st.s[0] == ' '))
			break;
		in += st.consumed;
		n -= st.consumed;
	}
	if (n == 0) {
		s->norm[0] = '\0';
		*out_len = 0;
		return 0;
	}
	if (dummy && !suffix && put_space(m, &o))
		return -1;
	if (normalize_body(m, &o, in, n))
		return -1;
	if (remove_extra) {
		const char *sp = (m->flags & SPM_F_ESCAPE_WS) ? SPM_SPACE_SYMBOL : " ";
		size_t sp_len = strlen(sp);
		while (ends_with(&o, sp, sp_len))
			o.len -= sp_len;
	}
	if (dummy && suffix && put_space(m, &o))
		return -1;
	s->norm[o.len] = '\0';
	*out_len = o.len;
	return 0;
}
