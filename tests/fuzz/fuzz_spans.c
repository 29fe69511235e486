/* Protected spans on any bytes, for a language that capitalises its nouns
 * and one that does not: text/spans.h finds spans in order, inside the
 * text, never empty; text/protect.h replaces them and, given the
 * substituted text back as a "translation" aligned word for word, puts
 * every span back byte for byte, within the room its contract promises,
 * also when the placeholder words it holds have taken the spans. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../text/protect.h"
#include "../../text/spans.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void check(const char *text, size_t size, const text_split_lang *lang)
{
	size_t pos = 0, start, end, last = 0;
	int n = 0;
	while (text_spans_next(text, size, lang->nouns_capitalised, &pos, &start, &end)) {
		FUZZ_ASSERT(last <= start && start < end && end <= size && pos == end);
		last = end;
		n++;
	}
	FUZZ_ASSERT(pos == size);

	size_t room_per_byte = strlen(lang->placeholder) + 2;
	char *subst = malloc(size * room_per_byte + 1);
	text_protected *spans = malloc((size + 1) * sizeof *spans);
	int n_spans;
	size_t len = text_protect_source(lang, text, size, subst, spans, (int)size + 1, &n_spans);
	FUZZ_ASSERT(n_spans == n && len <= size * room_per_byte);

	/* the substituted text as a translation: its words aligned to themselves */
	int words = 0;
	for (size_t i = 0; i < len; i++)
		words += !is_space(subst[i]) && (i == 0 || is_space(subst[i - 1]));
	float *lp = calloc((size_t)words + 1, sizeof *lp);
	int *src = malloc(((size_t)words + 1) * sizeof *src);
	for (int w = 0; w < words; w++)
		src[w] = w;
	size_t room = len + 4 * (size_t)n_spans + 1, out_words_room = (size_t)words;
	for (int s = 0; s < n_spans; s++) {
		room += spans[s].len;
		out_words_room += 1 + (size_t)(spans[s].extra_words > 0 ? spans[s].extra_words : 0);
	}
	char *out = malloc(room);
	float *out_lp = malloc((out_words_room + 1) * sizeof *out_lp);
	int *out_src = malloc((out_words_room + 1) * sizeof *out_src), out_words;
	size_t out_len = text_place_spans(subst, len, lp, src, words, spans, n_spans, out, out_lp, out_src, &out_words);
	FUZZ_ASSERT(out_len < room && (size_t)out_words <= out_words_room);
	for (int s = 0; s < n_spans; s++)   /* every span is back */
		FUZZ_ASSERT(spans[s].len == 0 || memmem(out, out_len, spans[s].text, spans[s].len) != NULL);

	/* again with an attention that leans on the word before here and there,
	 * the placeholder words taking the spans where they may */
	for (int w = 1; w < words; w++)
		src[w] = (text[w % size] & 1) ? w - 1 : w;
	int realigned = text_align_placeholders(subst, len, src, words, spans, n_spans, lang->placeholder);
	FUZZ_ASSERT(realigned == 0 || realigned == n_spans);
	for (int w = 0; w < words; w++)
		FUZZ_ASSERT(src[w] >= 0 && src[w] < words);
	out_len = text_place_spans(subst, len, lp, src, words, spans, n_spans, out, out_lp, out_src, &out_words);
	FUZZ_ASSERT(out_len < room && (size_t)out_words <= out_words_room);
	for (int s = 0; s < n_spans; s++)
		FUZZ_ASSERT(spans[s].len == 0 || memmem(out, out_len, spans[s].text, spans[s].len) != NULL);
	free(out);
	free(out_lp);
	free(out_src);
	free(lp);
	free(src);
	free(spans);
	free(subst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check((const char *)data, size, text_split_lang_for("en"));
	check((const char *)data, size, text_split_lang_for("de"));
	return 0;
}
