/* Marian's lexical shortlist as nmt's vocabulary map (see marian_lex.h).
 *
 * Binary form (marian-conv --shortlist ... --dump-shortlist), all little-
 * endian: u64 magic 0xF11A48D5013417F5, u64 checksum, u64 firstNum, u64
 * bestNum, u64 n_offsets (= source vocabulary + 1), u64 n_ids; then u64
 * offsets[n_offsets], u32 ids[n_ids]: the candidates of source id s are
 * ids[offsets[s] .. offsets[s + 1]). The checksum folds every u64 word
 * from firstNum to the end (Boost's hash_combine of the words).
 *
 * Text form: "target source probability" per line, over pieces; per source
 * piece the bestNum most probable targets (ties: the larger id first, as
 * Marian sorts) with a probability above 0, and the firstNum first ids
 * always. */
#include "marian_lex.h"

#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/number.h"
#include "../format/format.h"
#include "file.h"

#define LEX_MAGIC 0xF11A48D5013417F5ull
#define HEADER 48
#define TEXT_FIRST 100
#define TEXT_BEST 100

void marian_lex_free(marian_lex *lex)
{
	free(lex->offsets);
	free(lex->ids);
	memset(lex, 0, sizeof *lex);
}

static int read_binary(const uint8_t *buf, size_t len, int src_vocab, int tgt_vocab, marian_lex *lex, char *err,
		       size_t errlen)
{
	if (len < HEADER)
		return error_set(err, errlen, "shortlist: file too short");
	uint64_t sum = format_rd64(buf + 8), first = format_rd64(buf + 16), n_off = format_rd64(buf + 32), n_ids = format_rd64(buf + 40);
	if (n_off != (uint64_t)src_vocab + 1)
		return error_set(err, errlen, "shortlist: made for %llu source pieces, the model has %d",
			    (unsigned long long)(n_off ? n_off - 1 : 0), src_vocab);
	if (n_ids > (len - HEADER) / 4 || HEADER + 8 * n_off + 4 * n_ids != len)
		return error_set(err, errlen, "shortlist: size does not match its header");
	uint64_t seed = 0;
	for (size_t i = 2; i < 2 + (len - 16) / 8; i++)
		seed ^= format_rd64(buf + 8 * i) + 0x9e3779b9ull + (seed << 6) + (seed >> 2);
	if (seed != sum)
		return error_set(err, errlen, "shortlist: checksum mismatch (damaged file)");
	lex->first = first > (uint64_t)tgt_vocab ? tgt_vocab : (int)first;
	lex->src_vocab = src_vocab;
	lex->offsets = malloc((size_t)n_off * sizeof *lex->offsets);
	lex->ids = malloc(((size_t)n_ids + 1) * sizeof *lex->ids);
	if (!lex->offsets || !lex->ids)
		return error_set(err, errlen, "out of memory");
	const uint8_t *off = buf + HEADER, *ids = off + 8 * n_off;
	for (size_t s = 0; s < n_off; s++) {
		lex->offsets[s] = format_rd64(off + 8 * s);
		if (lex->offsets[s] > n_ids || (s > 0 && lex->offsets[s] < lex->offsets[s - 1]))
			return error_set(err, errlen, "shortlist: offsets out of order or range");
	}
	if (lex->offsets[n_off - 1] != n_ids)
		return error_set(err, errlen, "shortlist: last offset is not the list's end");
	for (size_t i = 0; i < n_ids; i++)
		if ((lex->ids[i] = format_rd32(ids + 4 * i)) >= (uint32_t)tgt_vocab)
			return error_set(err, errlen, "shortlist: target id %u outside the vocabulary", lex->ids[i]);
	return 0;
}

/* ---- the text form ---------------------------------------------------------- */

typedef struct {
	int32_t src, tgt;
	float prob;
} pair;

/* by source; then probability, then target id, both descending (Marian's order) */
static int pair_cmp(const void *pa, const void *pb)
{
	const pair *a = pa, *b = pb;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	if (a->prob != b->prob)
		return a->prob > b->prob ? -1 : 1;
	return a->tgt > b->tgt ? -1 : a->tgt < b->tgt;
}

static int u32_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return a < b ? -1 : a > b;
}

/* The next whitespace-separated field at *at, NUL-terminated in place, *at
 * moved past it; NULL when the line has no more. */
static char *next_field(char **at)
{
	static const char space[] = " \t\r\v\f";
	char *s = *at + strspn(*at, space), *e = s + strcspn(s, space);
	if (*s == '\0')
		return NULL;
	*at = *e ? e + 1 : e;
	*e = '\0';
	return s;
}

static int read_text(const uint8_t *buf, size_t len, const spm_model *src_sp, const spm_model *tgt_sp,
		     marian_lex *lex, char *err, size_t errlen)
{
	pair *pairs = NULL;
	size_t n = 0, cap = 0;
	const char *p = (const char *)buf, *end = p + len;
	long line_no = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *start = p;
		size_t l = (size_t)((nl ? nl : end) - p);
		char line[512], *at = line, *tgt = NULL, *src = NULL, *num = NULL;
		float prob;
		p = nl ? nl + 1 : end;
		line_no++;
		if (l == 0)
			continue;
		if (l < sizeof line) {
			memcpy(line, start, l);
			line[l] = '\0';
			tgt = next_field(&at);
			src = next_field(&at);
			num = next_field(&at);
		}
		/* exactly three fields, the last a number (one not above 0 is not kept) */
		if (!num || next_field(&at) || number_parse_float(num, -FLT_MAX, FLT_MAX, &prob) != 0) {
			free(pairs);
			return error_set(err, errlen, "shortlist line %ld: not \"target source probability\"", line_no);
		}
		if (strcmp(tgt, "NULL") == 0 || strcmp(src, "NULL") == 0)
			continue;
		int t = spm_piece_to_id(tgt_sp, tgt, strlen(tgt)), s = spm_piece_to_id(src_sp, src, strlen(src));
		t = t < 0 ? spm_unk_id(tgt_sp) : t;
		s = s < 0 ? spm_unk_id(src_sp) : s;
		if (t < 0 || s < 0)
			continue;
		if (n == cap) {
			pair *q = realloc(pairs, (cap = cap ? 2 * cap : 4096) * sizeof *pairs);
			if (!q) {
				free(pairs);
				return error_set(err, errlen, "out of memory");
			}
			pairs = q;
		}
		pairs[n++] = (pair){ s, t, prob };
	}
	if (n > 0)
		qsort(pairs, n, sizeof *pairs, pair_cmp);
	lex->first = TEXT_FIRST < spm_vocab_size(tgt_sp) ? TEXT_FIRST : spm_vocab_size(tgt_sp);
	lex->src_vocab = spm_vocab_size(src_sp);
	lex->offsets = calloc((size_t)lex->src_vocab + 1, sizeof *lex->offsets);
	lex->ids = malloc((n + 1) * sizeof *lex->ids);
	if (!lex->offsets || !lex->ids) {
		free(pairs);
		return error_set(err, errlen, "out of memory");
	}
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i, start = k;
		int kept = 0;
		for (; j < n && pairs[j].src == pairs[i].src; j++)
			if (kept < TEXT_BEST && pairs[j].prob > 0.0f) {
				lex->ids[k++] = (uint32_t)pairs[j].tgt;
				kept++;
			}
		qsort(lex->ids + start, k - start, sizeof *lex->ids, u32_cmp);
		for (int32_t s = pairs[i].src + 1; s <= lex->src_vocab; s++)
			lex->offsets[s] = k;
		i = j;
	}
	free(pairs);
	return 0;
}

int marian_lex_read(const char *path, const spm_model *src_sp, const spm_model *tgt_sp, marian_lex *lex,
		    char *err, size_t errlen)
{
	uint8_t *buf;
	size_t n;
	memset(lex, 0, sizeof *lex);
	if (pack_read_file(path, &buf, &n, err, errlen) != 0)
		return -1;
	char why[384];
	int rc = marian_lex_parse(buf, n, src_sp, tgt_sp, lex, why, sizeof why);
	free(buf);
	/* every message names the file, as pack_read_file's do */
	return rc == 0 ? 0 : error_set(err, errlen, "%s: %s", path, why);
}

int marian_lex_parse(const uint8_t *buf, size_t n, const spm_model *src_sp, const spm_model *tgt_sp,
		     marian_lex *lex, char *err, size_t errlen)
{
	int rc;
	memset(lex, 0, sizeof *lex);
	if (n >= 8 && format_rd64(buf) == LEX_MAGIC)
		rc = read_binary(buf, n, spm_vocab_size(src_sp), spm_vocab_size(tgt_sp), lex, err, errlen);
	else if (n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b)
		rc = error_set(err, errlen, "gzip-compressed shortlist: decompress it first (gzip -dk)");
	else
		rc = read_text(buf, n, src_sp, tgt_sp, lex, err, errlen);
	if (rc != 0)
		marian_lex_free(lex);
	return rc;
}
