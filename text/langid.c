#include "langid.h"

#include <math.h>
#include <string.h>

#include "../common/error.h"
#include "../common/utf8.h"
#include "case.h"

static const char magic[8] = { 'N', 'M', 'T', 'L', 'A', 'N', 'G', 'P' };

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int check_shape(const unsigned char *h, text_langid *out, char *err, size_t errlen)
{
	uint32_t n = le32(h + 12), buckets = le32(h + 16);
	int lo = h[20], hi = h[21];
	if (n < 1 || n > TEXT_LANGID_MAX_LANGS)
		return error_set(err, errlen, "language profile: %u languages (1..%d)", n, TEXT_LANGID_MAX_LANGS);
	if (buckets < 16 || buckets > 1u << 24 || (buckets & (buckets - 1)) != 0)
		return error_set(err, errlen, "language profile: %u buckets (a power of two, 16..2^24)", buckets);
	if (lo < 1 || lo > hi || hi > TEXT_LANGID_MAX_ORDER)
		return error_set(err, errlen, "language profile: n-gram orders %d..%d (1..%d)", lo, hi,
				 TEXT_LANGID_MAX_ORDER);
	uint32_t bits = le32(h + 24);
	float scale;
	memcpy(&scale, &bits, sizeof scale);
	if (!(scale > 0.0f && scale < 1e6f))
		return error_set(err, errlen, "language profile: scale %g (a positive number)", (double)scale);
	if (h[22] || h[23] || le32(h + 28))
		return error_set(err, errlen, "language profile: reserved header bytes are not zero");
	out->n_langs = (int)n;
	out->shape = (text_langid_shape){ buckets, lo, hi };
	out->scale = scale;
	return 0;
}

/* A code: 1..11 letters, digits or '_', then NUL padding. */
static int check_code(const unsigned char *r, int i, char *err, size_t errlen)
{
	size_t n = 0;
	while (n < TEXT_LANGID_CODE_SIZE && r[n])
		n++;
	if (n == 0 || n == TEXT_LANGID_CODE_SIZE)
		return error_set(err, errlen, "language profile: language %d has no code or no NUL after it", i);
	for (size_t k = 0; k < TEXT_LANGID_CODE_SIZE; k++) {
		unsigned char c = r[k];
		int ok = k < n ? (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
			       : c == 0;
		if (!ok)
			return error_set(err, errlen, "language profile: language %d's code has byte 0x%02x", i, c);
	}
	return 0;
}

static int check_langs(const unsigned char *recs, text_langid *out, char *err, size_t errlen)
{
	for (int i = 0; i < out->n_langs; i++) {
		const unsigned char *r = recs + (size_t)i * TEXT_LANGID_LANG_RECORD;
		if (check_code(r, i, err, errlen) != 0)
			return -1;
		if (r[12] >= TEXT_SCRIPT_COUNT || r[13] || r[14] || r[15])
			return error_set(err, errlen, "language profile: language %d has script %u or padding not zero",
					 i, r[12]);
		memcpy(out->codes[i], r, TEXT_LANGID_CODE_SIZE);
		out->scripts[i] = r[12];
		for (int j = 0; j < i; j++)
			if (strcmp(out->codes[j], out->codes[i]) == 0)
				return error_set(err, errlen, "language profile: language %s appears twice",
						 out->codes[i]);
	}
	return 0;
}

int text_langid_open(const void *buf, size_t len, text_langid *out, char *err, size_t errlen)
{
	const unsigned char *b = buf;
	memset(out, 0, sizeof *out);
	if (len < TEXT_LANGID_HEADER)
		return error_set(err, errlen, "language profile: %zu bytes, shorter than its header", len);
	if (memcmp(b, magic, sizeof magic) != 0)
		return error_set(err, errlen, "language profile: not a profile file (no NMTLANGP magic)");
	if (le32(b + 8) != 1)
		return error_set(err, errlen, "language profile: format version %u (this nmt reads 1)", le32(b + 8));
	if (check_shape(b, out, err, errlen) != 0)
		return -1;
	/* at most 32 + 64 * 16 + 2^24 * 64 bytes: no overflow in size_t */
	size_t langs = (size_t)out->n_langs, table = (size_t)out->shape.buckets * langs;
	size_t want = TEXT_LANGID_HEADER + langs * TEXT_LANGID_LANG_RECORD + table;
	if (len != want)
		return error_set(err, errlen, "language profile: %zu bytes, but its header makes it %zu", len, want);
	if (check_langs(b + TEXT_LANGID_HEADER, out, err, errlen) != 0)
		return -1;
	out->table = b + TEXT_LANGID_HEADER + langs * TEXT_LANGID_LANG_RECORD;
	return 0;
}

int text_langid_find(const text_langid *p, const char *code, size_t len)
{
	for (int i = 0; i < p->n_langs; i++)
		if (strlen(p->codes[i]) == len && memcmp(p->codes[i], code, len) == 0)
			return i;
	return -1;
}

uint64_t text_langid_all(const text_langid *p)
{
	return p->n_langs == 64 ? ~(uint64_t)0 : ((uint64_t)1 << p->n_langs) - 1;
}

int text_langid_script(uint32_t c)
{
	static const struct {
		uint32_t lo, hi;
		int script;
	} ranges[] = {
		{ 0x0000, 0x024F, TEXT_SCRIPT_LATIN },     { 0x0370, 0x03FF, TEXT_SCRIPT_GREEK },
		{ 0x0400, 0x052F, TEXT_SCRIPT_CYRILLIC },  { 0x0530, 0x058F, TEXT_SCRIPT_ARMENIAN },
		{ 0x0590, 0x05FF, TEXT_SCRIPT_HEBREW },    { 0x0600, 0x06FF, TEXT_SCRIPT_ARABIC },
		{ 0x0750, 0x077F, TEXT_SCRIPT_ARABIC },    { 0x0900, 0x097F, TEXT_SCRIPT_DEVANAGARI },
		{ 0x0E00, 0x0E7F, TEXT_SCRIPT_THAI },      { 0x10A0, 0x10FF, TEXT_SCRIPT_GEORGIAN },
		{ 0x1100, 0x11FF, TEXT_SCRIPT_HANGUL },    { 0x1E00, 0x1EFF, TEXT_SCRIPT_LATIN },
		{ 0x1F00, 0x1FFF, TEXT_SCRIPT_GREEK },     { 0x3040, 0x30FF, TEXT_SCRIPT_KANA },
		{ 0x3400, 0x4DBF, TEXT_SCRIPT_HAN },       { 0x4E00, 0x9FFF, TEXT_SCRIPT_HAN },
		{ 0xAC00, 0xD7AF, TEXT_SCRIPT_HANGUL },
	};
	for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
		if (c >= ranges[i].lo && c <= ranges[i].hi)
			return ranges[i].script;
	return TEXT_SCRIPT_OTHER;
}

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

/* The last characters of the normalized form: a ring, the newest at
 * recent[last] (no shifting: musl's memmove, which a shift loop becomes,
 * made this 3x slower). */
typedef struct {
	uint32_t recent[TEXT_LANGID_MAX_ORDER];
	unsigned last;
	int filled;
} gram_window;

/* Append c and hand the buckets of the n-grams ending at it to the sink:
 * FNV-1a over the n-gram's code points, newest first (so one pass gives
 * every order), folded to the bucket count. */
static void push(const text_langid_shape *s, gram_window *w, uint32_t c, text_langid_sink sink, void *ctx)
{
	w->last = (w->last + 1) % TEXT_LANGID_MAX_ORDER;
	w->recent[w->last] = c;
	if (w->filled < s->max_order)
		w->filled++;
	uint32_t h = FNV_OFFSET, buckets[TEXT_LANGID_MAX_ORDER];
	int n = 0;
	for (int k = 0; k < w->filled; k++) {
		h = (h ^ w->recent[(w->last + TEXT_LANGID_MAX_ORDER - (unsigned)k) % TEXT_LANGID_MAX_ORDER]) * FNV_PRIME;
		if (k + 1 >= s->min_order)
			buckets[n++] = (h ^ h >> 16) & (s->buckets - 1);
	}
	if (n > 0)
		sink(ctx, buckets, n);
}

/* The small letter of text[i]'s character if it is a letter, else 0 (in
 * *used its length). ASCII, most of the text in most languages, is told
 * apart without decoding; the rest goes through common/utf8.h. */
static uint32_t letter_at(const char *text, size_t len, size_t i, size_t *used, int *script)
{
	unsigned char b = (unsigned char)text[i];
	if (b < 0x80) {
		*used = 1;
		*script = TEXT_SCRIPT_LATIN;
		b |= 0x20;
		return b >= 'a' && b <= 'z' ? b : 0;
	}
	uint32_t c = utf8_decode(text + i, len - i, used);
	if (!utf8_is_letter(c))
		return 0;
	*script = text_langid_script(c);
	return text_case_lower_char(c);
}

void text_langid_scan(const text_langid_shape *s, const char *text, size_t len, text_langid_sink sink, void *ctx,
		      uint64_t *letters)
{
	gram_window w = { { 0 }, 0, 0 };
	int space = 1, script;
	push(s, &w, ' ', sink, ctx);
	for (size_t i = 0, used; i < len; i += used) {
		uint32_t c = letter_at(text, len, i, &used, &script);
		if (c) {
			if (letters)
				letters[script]++;
			push(s, &w, c, sink, ctx);
			space = 0;
		} else if (!space) {
			push(s, &w, ' ', sink, ctx);
			space = 1;
		}
	}
	if (!space)
		push(s, &w, ' ', sink, ctx);
}

size_t text_langid_normalize(const char *text, size_t len, char *out)
{
	size_t n = 0;
	int space = 1;
	out[n++] = ' ';
	for (size_t i = 0, used; i < len; i += used) {
		uint32_t c = utf8_decode(text + i, len - i, &used);
		if (utf8_is_letter(c)) {
			/* the small letter is as long as the letter, so out stays within len + 2 */
			n += utf8_encode(text_case_lower_char(c), out + n);
			space = 0;
		} else if (!space) {
			out[n++] = ' ';
			space = 1;
		}
	}
	if (!space)
		out[n++] = ' ';
	return n;
}

typedef struct {
	const text_langid *p;
	uint64_t sum[TEXT_LANGID_MAX_LANGS];   /* quantized -log P(text | language) */
} score_sums;

static void add_rows(void *ctx, const uint32_t *buckets, int n)
{
	score_sums *s = ctx;
	int langs = s->p->n_langs;
	for (int k = 0; k < n; k++) {
		const unsigned char *row = s->p->table + (size_t)buckets[k] * (size_t)langs;
		for (int l = 0; l < langs; l++)
			s->sum[l] += row[l];
	}
}

/* The script with the most letters (the first of equals), or -1 if none. */
static int main_script(const uint64_t *letters)
{
	int best = -1;
	for (int i = 0; i < TEXT_SCRIPT_COUNT; i++)
		if (letters[i] > 0 && (best < 0 || letters[i] > letters[best]))
			best = i;
	return best;
}

/* Insertion sort, best first, equal confidences in index order. */
static void sort_guesses(text_langid_guess *g, int n)
{
	for (int i = 1; i < n; i++) {
		text_langid_guess x = g[i];
		int j = i;
		for (; j > 0 && (g[j - 1].confidence < x.confidence ||
				 (g[j - 1].confidence == x.confidence && g[j - 1].lang > x.lang));
		     j--)
			g[j] = g[j - 1];
		g[j] = x;
	}
}

/* The candidates in the text's script share the probability by softmax of
 * their log-likelihoods; the others get 0. */
static int softmax_guesses(const text_langid *p, const score_sums *s, uint64_t in_script, uint64_t others,
			   text_langid_guess *out)
{
	int n = 0;
	uint64_t least = UINT64_MAX;
	for (int l = 0; l < p->n_langs; l++)
		if ((in_script >> l & 1) && s->sum[l] < least)
			least = s->sum[l];
	double total = 0;
	for (int l = 0; l < p->n_langs; l++)
		if (in_script >> l & 1) {
			double e = exp(-(double)(s->sum[l] - least) * p->scale);
			out[n++] = (text_langid_guess){ l, e };
			total += e;
		}
	for (int i = 0; i < n; i++)
		out[i].confidence /= total;
	for (int l = 0; l < p->n_langs; l++)
		if (others >> l & 1)
			out[n++] = (text_langid_guess){ l, 0.0 };
	sort_guesses(out, n);
	return n;
}

int text_langid_classify(const text_langid *p, const char *text, size_t len, uint64_t candidates,
			 text_langid_guess out[TEXT_LANGID_MAX_LANGS])
{
	uint64_t letters[TEXT_SCRIPT_COUNT] = { 0 };
	score_sums s = { .p = p };
	candidates &= text_langid_all(p);
	text_langid_scan(&p->shape, text, len, add_rows, &s, letters);
	int script = main_script(letters);
	if (script < 0)
		return 0;
	uint64_t in_script = 0;
	for (int l = 0; l < p->n_langs; l++)
		if ((candidates >> l & 1) && p->scripts[l] == script)
			in_script |= (uint64_t)1 << l;
	if (in_script == 0)
		return 0;
	return softmax_guesses(p, &s, in_script, candidates & ~in_script, out);
}
