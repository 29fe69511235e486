/* gzip and DEFLATE decoding (see inflate.h). A canonical-Huffman decoder in
 * the manner of zlib's puff.c: codes are read a bit at a time against the
 * count of codes of each length, which needs no tables beyond the counts and
 * the symbols in code order. */
#include "inflate.h"

#include <stdlib.h>
#include <string.h>

#include "../format/crc32.h"
#include "error.h"

#define MAXBITS 15
#define MAXLCODES 286
#define MAXDCODES 30
#define FIXLCODES 288

typedef struct {
	const uint8_t *in;
	size_t inlen, pos;
	uint32_t bitbuf;
	int bitcnt;
	int eof; /* a read past the input's end: every caller checks it */
	uint8_t *out;
	size_t outlen, outcap, cap;
	const char *why; /* the first error */
} inflate_state;

typedef struct {
	short count[MAXBITS + 1];
	short symbol[FIXLCODES];
} inflate_huff;

static int fail(inflate_state *s, const char *why)
{
	if (!s->why)
		s->why = why;
	return -1;
}

static uint32_t bits(inflate_state *s, int need)
{
	uint32_t val = s->bitbuf;
	while (s->bitcnt < need) {
		if (s->pos == s->inlen) {
			s->eof = 1;
			fail(s, "truncated deflate data");
			return 0;
		}
		val |= (uint32_t)s->in[s->pos++] << s->bitcnt;
		s->bitcnt += 8;
	}
	s->bitbuf = need < 32 ? val >> need : 0;
	s->bitcnt -= need;
	return val & (need < 32 ? (1u << need) - 1 : 0xffffffffu);
}

/* Room for n more output bytes, growing the buffer up to the cap. */
static int room(inflate_state *s, size_t n)
{
	if (n > s->cap - s->outlen)
		return fail(s, "decompressed size over the limit");
	if (n <= s->outcap - s->outlen)
		return 0;
	size_t want = s->outcap ? s->outcap : 1 << 16;
	while (want - s->outlen < n)
		want = want > s->cap / 2 ? s->cap : want * 2;
	if (want > s->cap)
		want = s->cap;
	uint8_t *q = realloc(s->out, want);
	if (!q)
		return fail(s, "out of memory");
	s->out = q;
	s->outcap = want;
	return 0;
}

static int stored(inflate_state *s)
{
	s->bitbuf = 0;
	s->bitcnt = 0;
	if (s->inlen - s->pos < 4)
		return fail(s, "truncated stored block");
	unsigned len = s->in[s->pos] | (unsigned)s->in[s->pos + 1] << 8;
	unsigned nlen = s->in[s->pos + 2] | (unsigned)s->in[s->pos + 3] << 8;
	s->pos += 4;
	if (len != (~nlen & 0xffffu))
		return fail(s, "stored block length does not match its complement");
	if (s->inlen - s->pos < len)
		return fail(s, "truncated stored block");
	if (len == 0) /* nothing to copy, and the output may not exist yet */
		return 0;
	if (room(s, len) != 0)
		return -1;
	memcpy(s->out + s->outlen, s->in + s->pos, len);
	s->outlen += len;
	s->pos += len;
	return 0;
}

/* One symbol, or -1 (input ran out, or a code no symbol has). */
static int decode(inflate_state *s, const inflate_huff *h)
{
	int code = 0, first = 0, index = 0;
	for (int len = 1; len <= MAXBITS; len++) {
		code |= (int)bits(s, 1);
		if (s->eof)
			return -1;
		int count = h->count[len];
		if (code - count < first)
			return h->symbol[index + (code - first)];
		index += count;
		first += count;
		first <<= 1;
		code <<= 1;
	}
	return fail(s, "invalid Huffman code");
}

/* Build a code from its lengths: < 0 over-subscribed, 0 complete, > 0 incomplete. */
static int construct(inflate_huff *h, const short *length, int n)
{
	short offs[MAXBITS + 1];
	memset(h->count, 0, sizeof h->count);
	for (int i = 0; i < n; i++)
		h->count[length[i]]++;
	if (h->count[0] == n)
		return 0;
	int left = 1;
	for (int len = 1; len <= MAXBITS; len++) {
		left <<= 1;
		left -= h->count[len];
		if (left < 0)
			return left;
	}
	offs[1] = 0;
	for (int len = 1; len < MAXBITS; len++)
		offs[len + 1] = (short)(offs[len] + h->count[len]);
	for (int i = 0; i < n; i++)
		if (length[i] != 0)
			h->symbol[offs[length[i]]++] = (short)i;
	return left;
}

static int codes(inflate_state *s, const inflate_huff *lencode, const inflate_huff *distcode)
{
	static const short lbase[29] = { 3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
					 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
	static const short lext[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
					2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
	static const short dbase[30] = { 1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
					 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
	static const short dext[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
					6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };
	for (;;) {
		int symbol = decode(s, lencode);
		if (symbol < 0)
			return -1;
		if (symbol < 256) {
			if (room(s, 1) != 0)
				return -1;
			s->out[s->outlen++] = (uint8_t)symbol;
		} else if (symbol == 256) {
			return 0;
		} else {
			symbol -= 257;
			if (symbol >= 29)
				return fail(s, "invalid length code");
			size_t len = (size_t)lbase[symbol] + bits(s, lext[symbol]);
			symbol = decode(s, distcode);
			if (symbol < 0)
				return -1;
			if (symbol >= 30)
				return fail(s, "invalid distance code");
			size_t dist = (size_t)dbase[symbol] + bits(s, dext[symbol]);
			if (s->eof)
				return -1;
			if (dist > s->outlen)
				return fail(s, "distance too far back");
			if (room(s, len) != 0)
				return -1;
			uint8_t *o = s->out + s->outlen;
			for (size_t i = 0; i < len; i++) /* may overlap: byte by byte */
				o[i] = o[(ptrdiff_t)i - (ptrdiff_t)dist];
			s->outlen += len;
		}
	}
}

static int fixed(inflate_state *s)
{
	inflate_huff lencode, distcode;
	short lengths[FIXLCODES];
	int i;
	for (i = 0; i < 144; i++)
		lengths[i] = 8;
	for (; i < 256; i++)
		lengths[i] = 9;
	for (; i < 280; i++)
		lengths[i] = 7;
	for (; i < FIXLCODES; i++)
		lengths[i] = 8;
	construct(&lencode, lengths, FIXLCODES);
	for (i = 0; i < MAXDCODES; i++)
		lengths[i] = 5;
	construct(&distcode, lengths, MAXDCODES);
	return codes(s, &lencode, &distcode);
}

static int dynamic(inflate_state *s)
{
	static const short order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	short lengths[MAXLCODES + MAXDCODES];
	inflate_huff lencode, distcode;
	int nlen = (int)bits(s, 5) + 257;
	int ndist = (int)bits(s, 5) + 1;
	int ncode = (int)bits(s, 4) + 4;
	if (s->eof)
		return -1;
	if (nlen > MAXLCODES || ndist > MAXDCODES)
		return fail(s, "bad counts in a dynamic block");
	int index;
	for (index = 0; index < ncode; index++)
		lengths[order[index]] = (short)bits(s, 3);
	for (; index < 19; index++)
		lengths[order[index]] = 0;
	if (s->eof)
		return -1;
	if (construct(&lencode, lengths, 19) != 0)
		return fail(s, "bad code-length code");
	for (index = 0; index < nlen + ndist;) {
		int symbol = decode(s, &lencode);
		if (symbol < 0)
			return -1;
		if (symbol < 16) {
			lengths[index++] = (short)symbol;
		} else {
			short len = 0;
			if (symbol == 16) {
				if (index == 0)
					return fail(s, "repeat with no first length");
				len = lengths[index - 1];
				symbol = 3 + (int)bits(s, 2);
			} else if (symbol == 17) {
				symbol = 3 + (int)bits(s, 3);
			} else {
				symbol = 11 + (int)bits(s, 7);
			}
			if (s->eof)
				return -1;
			if (index + symbol > nlen + ndist)
				return fail(s, "too many lengths in a dynamic block");
			while (symbol--)
				lengths[index++] = len;
		}
	}
	if (lengths[256] == 0)
		return fail(s, "no end-of-block code");
	int err = construct(&lencode, lengths, nlen);
	if (err < 0 || (err > 0 && nlen - lencode.count[0] != 1))
		return fail(s, "bad literal/length code");
	err = construct(&distcode, lengths + nlen, ndist);
	if (err < 0 || (err > 0 && ndist - distcode.count[0] != 1))
		return fail(s, "bad distance code");
	return codes(s, &lencode, &distcode);
}

/* The DEFLATE stream at s->pos, to its final block; s->pos ends on the byte after it. */
static int deflate_stream(inflate_state *s)
{
	int last;
	s->bitbuf = 0;
	s->bitcnt = 0;
	do {
		last = (int)bits(s, 1);
		int type = (int)bits(s, 2);
		if (s->eof)
			return -1;
		int rc = type == 0 ? stored(s) : type == 1 ? fixed(s) : type == 2 ? dynamic(s) : fail(s, "invalid block type");
		if (rc != 0)
			return -1;
	} while (!last);
	/* the unused bits of the last byte are dropped */
	s->bitbuf = 0;
	s->bitcnt = 0;
	return 0;
}

int inflate_is_gzip(const uint8_t *data, size_t len)
{
	return len >= 3 && data[0] == 0x1f && data[1] == 0x8b && data[2] == 8;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One member at s->pos: header, deflate data, trailer. */
static int member(inflate_state *s)
{
	const uint8_t *in = s->in;
	size_t start = s->pos, p = s->pos, n = s->inlen;
	if (n - p < 10)
		return fail(s, "truncated gzip header");
	if (!inflate_is_gzip(in + p, n - p))
		return fail(s, in[p] == 0x1f && in[p + 1] == 0x8b ? "gzip compression method is not deflate"
								  : "not a gzip file");
	unsigned flg = in[p + 3];
	if (flg & 0xe0)
		return fail(s, "reserved gzip header flags set");
	p += 10;
	if (flg & 4) { /* FEXTRA */
		if (n - p < 2)
			return fail(s, "truncated gzip header");
		size_t xlen = in[p] | (size_t)in[p + 1] << 8;
		p += 2;
		if (n - p < xlen)
			return fail(s, "truncated gzip header");
		p += xlen;
	}
	for (unsigned f = 8; f <= 16; f <<= 1) /* FNAME, FCOMMENT: NUL-terminated */
		if (flg & f) {
			const uint8_t *z = memchr(in + p, 0, n - p);
			if (!z)
				return fail(s, "truncated gzip header");
			p = (size_t)(z - in) + 1;
		}
	if (flg & 2) { /* FHCRC: the low 16 bits of the header's CRC-32 */
		if (n - p < 2)
			return fail(s, "truncated gzip header");
		uint32_t want = in[p] | (uint32_t)in[p + 1] << 8;
		if ((format_crc32(0, in + start, p - start) & 0xffffu) != want)
			return fail(s, "gzip header checksum mismatch");
		p += 2;
	}
	s->pos = p;
	size_t from = s->outlen;
	if (deflate_stream(s) != 0)
		return -1;
	if (s->inlen - s->pos < 8)
		return fail(s, "truncated gzip trailer");
	uint32_t crc = format_crc32(0, s->out ? s->out + from : (const uint8_t *)"", s->outlen - from);
	if (crc != le32(in + s->pos))
		return fail(s, "CRC-32 mismatch (corrupt data)");
	if ((uint32_t)(s->outlen - from) != le32(in + s->pos + 4))
		return fail(s, "size mismatch (ISIZE)");
	s->pos += 8;
	return 0;
}

int inflate_gzip(const uint8_t *in, size_t inlen, size_t cap, uint8_t **out, size_t *outlen, char *err,
		 size_t errlen)
{
	inflate_state s = { .in = in, .inlen = inlen, .cap = cap };
	int rc = 0;
	do {
		if (member(&s) != 0) {
			rc = -1;
			break;
		}
		/* members one after another are one file (cat a.gz b.gz > ab.gz);
		 * after the last one only zero padding is allowed */
	} while (s.pos < inlen && in[s.pos] == 0x1f);
	for (; rc == 0 && s.pos < inlen; s.pos++)
		if (in[s.pos] != 0) {
			rc = fail(&s, "trailing garbage after the gzip data");
			break;
		}
	if (rc == 0 && !s.out) {
		s.out = malloc(1);
		if (!s.out)
			rc = fail(&s, "out of memory");
	}
	if (rc != 0) {
		free(s.out);
		if (s.why && strcmp(s.why, "decompressed size over the limit") == 0)
			return error_set(err, errlen, "decompressed size over the limit of %zu bytes", cap);
		return error_set(err, errlen, "%s (at compressed byte %zu)", s.why ? s.why : "invalid gzip data",
				 s.pos);
	}
	*out = s.out;
	*outlen = s.outlen;
	return 0;
}
