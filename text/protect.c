#include "protect.h"

#include <string.h>

#include "spans.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Whitespace-separated words that start in s[from..to), s[from - 1] (if
 * any) before them: a growing text's words counted once, piece by piece. */
static int words_started(const char *s, size_t from, size_t to)
{
	int w = 0;
	for (size_t i = from; i < to; i++)
		w += !is_space(s[i]) && (i == 0 || is_space(s[i - 1]));
	return w;
}

/* The byte length of the mark among marks[] that w[0..n) starts with (at
 * its end: from_end), 0 if none. */
static size_t mark_at(const char *w, size_t n, int from_end, const char *const *marks, size_t n_marks)
{
	for (size_t k = 0; k < n_marks; k++) {
		size_t m = strlen(marks[k]);
		if (m <= n && memcmp(from_end ? w + n - m : w, marks[k], m) == 0)
			return m;
	}
	return 0;
}

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether w[0..n) is the word placeholder, but for the brackets and
 * quotation marks before it, the punctuation, brackets and quotation marks
 * after it, and the case of its ASCII letters ("(Etwas)." is etwas). */
static int is_placeholder_word(const char *w, size_t n, const char *placeholder)
{
	static const char *const opening[] = { "(", "[", "{", "\"", "'", "\xe2\x80\x9e", "\xe2\x80\x9c", "\xe2\x80\x9a",
					       "\xe2\x80\x98", "\xc2\xab", "\xc2\xbb" };
	static const char *const closing[] = { ".", ",", ";", ":", "!", "?", ")", "]", "}", "\"", "'", "\xe2\x80\x9d",
					       "\xe2\x80\x9c", "\xe2\x80\x99", "\xe2\x80\x98", "\xc2\xbb", "\xc2\xab" };
	size_t m;
	while ((m = mark_at(w, n, 0, opening, sizeof opening / sizeof *opening)) > 0) {
		w += m;
		n -= m;
	}
	while ((m = mark_at(w, n, 1, closing, sizeof closing / sizeof *closing)) > 0)
		n -= m;
	size_t p = strlen(placeholder);
	if (n != p || p == 0)
		return 0;
	for (size_t k = 0; k < p; k++)
		if (ascii_lower(w[k]) != ascii_lower(placeholder[k]))
			return 0;
	return 1;
}

/* The next whitespace-separated word of s[*i..len) into *w, *n; 0 at the end. */
static int next_word(const char *s, size_t len, size_t *i, const char **w, size_t *n)
{
	while (*i < len && is_space(s[*i]))
		(*i)++;
	size_t b = *i;
	while (*i < len && !is_space(s[*i]))
		(*i)++;
	*w = s + b;
	*n = *i - b;
	return *n > 0;
}

/* The words of s[0..len) that are the placeholder. */
static int placeholder_words(const char *s, size_t len, const char *placeholder)
{
	int k = 0;
	const char *w;
	size_t n, i = 0;
	while (next_word(s, len, &i, &w, &n))
		k += is_placeholder_word(w, n, placeholder);
	return k;
}

size_t text_protect_source(const text_split_lang *lang, const char *text, size_t len, char *out, text_protected *spans,
			  int max, int *n)
{
	const char *placeholder = lang->placeholder;
	size_t pos = 0, start, end, done = 0, o = 0, p = strlen(placeholder);
	int words = 0;   /* in out[0..o), counted as it grows (a sentence may hold many spans) */
	int own = 0;     /* the placeholder words of the text between the spans */
	*n = 0;
	while (*n < max && text_spans_next(text, len, lang->nouns_capitalised, &pos, &start, &end)) {
		own += placeholder_words(text + done, start - done, placeholder);
		memcpy(out + o, text + done, start - done);
		words += words_started(out, o, o + (start - done));
		o += start - done;
		/* the placeholder's word: words before it, less one if it is glued to the last */
		int w = words - (o > 0 && !is_space(out[o - 1]));
		spans[(*n)++] = (text_protected){ .text = text + start, .len = end - start, .src_word = w < 0 ? 0 : w,
						 .extra_words = words_started(text + start, 0, end - start) - 1 };
		memcpy(out + o, placeholder, p);
		words += words_started(out, o, o + p);
		o += p;
		done = end;
	}
	if (*n > 0) {   /* (a sentence without spans needs no count) */
		own += placeholder_words(text + done, len - done, placeholder);
		for (int k = 0; k < *n; k++)
			spans[k].own_placeholders = own;
	}
	memcpy(out + o, text + done, len - done);
	return o + len - done;
}

/* word, or the nearest source word before it that holds no span's
 * placeholder; -1 if there is none. */
static int before_spans(int word, const text_protected *spans, int n_spans)
{
	for (int s = 0; s < n_spans && word >= 0; s++)
		if (spans[s].src_word == word) {
			word--;
			s = -1;   /* look again from the first span */
		}
	return word;
}

/* Whether some span's placeholder is source word `word`. */
static int holds_span(int word, const text_protected *spans, int n_spans)
{
	return before_spans(word, spans, n_spans) != word;
}

int text_align_placeholders(const char *text, size_t len, int *src, int n_words, const text_protected *spans, int n_spans,
			    const char *tgt_placeholder)
{
	if (n_spans == 0 || tgt_placeholder == NULL || spans[0].own_placeholders > 0)
		return 0;
	const char *w;
	size_t n, i = 0;
	int m = 0;
	for (int v = 0; v < n_words && next_word(text, len, &i, &w, &n); v++) {
		if (is_placeholder_word(w, n, tgt_placeholder))
			m++;
		else if (holds_span(src[v], spans, n_spans) && before_spans(src[v], spans, n_spans) < 0)
			return 0;   /* a word of the model's own that would have nowhere to go */
	}
	if (m != n_spans)
		return 0;
	i = 0;
	for (int v = 0, k = 0; v < n_words && next_word(text, len, &i, &w, &n); v++) {
		if (is_placeholder_word(w, n, tgt_placeholder))
			src[v] = spans[k++].src_word;
		else
			src[v] = before_spans(src[v], spans, n_spans);
	}
	return m;
}

int text_protected_word(const text_protected *spans, int n_spans, int w)
{
	int orig = w;
	for (int i = 0; i < n_spans; i++)
		if (spans[i].src_word < w)
			orig += spans[i].extra_words > 0 ? spans[i].extra_words : 0;
	return orig;
}

static int is_punct(char c)
{
	return c != '\0' && strchr(".,;:!?", c) != NULL;
}

static int is_opening_bracket(char c)
{
	return c != '\0' && strchr("([{", c) != NULL;
}

static int is_closing_bracket(char c)
{
	return c != '\0' && strchr(")]}", c) != NULL;
}

static int is_closing_mark(char c)
{
	return is_punct(c) || is_closing_bracket(c);
}

/* The characters of w[0..n) at its end (at its start: from_end 0) that
 * `is` accepts, if they are not all of it. */
static size_t run_of(const char *w, size_t n, int from_end, int (*is)(char))
{
	size_t k = 0;
	while (k < n && is(from_end ? w[n - 1 - k] : w[k]))
		k++;
	return k < n ? k : 0;
}

/* Sentence punctuation at a word's end ("Ball." -> "4.50."). */
static size_t trailing_punct(const char *w, size_t n)
{
	return run_of(w, n, 1, is_punct);
}

/* The brackets that open a word ("(etwas"), which a span put in place of
 * the word keeps before it ("(10:30"). */
static size_t leading_brackets(const char *w, size_t n)
{
	return run_of(w, n, 0, is_opening_bracket);
}

/* Sentence punctuation and closing brackets at a word's end, which a span
 * put in place of the word keeps after it ("etwas)." -> "10:30)."). */
static size_t trailing_marks(const char *w, size_t n)
{
	return run_of(w, n, 1, is_closing_mark);
}

/* s[0..n) without the closing marks at its end: " ' ) ” “ » « */
static size_t before_closing_marks(const char *s, size_t n)
{
	static const char *const marks[] = { "\"", "'", ")", "\xe2\x80\x9d", "\xe2\x80\x9c", "\xc2\xbb", "\xc2\xab" };
	for (size_t k = 0; k < sizeof marks / sizeof *marks;) {
		size_t m = strlen(marks[k]);
		if (n >= m && memcmp(s + n - m, marks[k], m) == 0) {
			n -= m;
			k = 0;
		} else {
			k++;
		}
	}
	return n;
}

/* out[0..o) with the punctuation p[0..n) after it, unless out ends in
 * punctuation already, or in a quotation that ends its own sentence
 * ("Welcome Bikers." in quotes) and p is a full stop. */
static size_t append_punct(char *out, size_t o, const char *p, size_t n)
{
	size_t end = before_closing_marks(out, o);
	int stops = 1;
	for (size_t k = 0; k < n; k++)
		stops &= p[k] == '.';
	if (n == 0 || (end > 0 && is_punct(out[end - 1]) && (end == o || stops)))
		return o;
	memcpy(out + o, p, n);
	return o + n;
}

/* out[0..o) with a word's trailing marks p[0..n) after it: up to its last
 * closing bracket as they are (less the punctuation out ends with
 * already), the punctuation after that as append_punct puts it. */
static size_t append_marks(char *out, size_t o, const char *p, size_t n)
{
	size_t b = n;
	while (b > 0 && !is_closing_bracket(p[b - 1]))
		b--;
	size_t k = 0;
	while (k < b && is_punct(p[k]) && o > 0 && is_punct(out[o - 1]))
		k++;
	memcpy(out + o, p + k, b - k);
	o += b - k;
	return append_punct(out, o, p + b, n - b);
}

size_t text_place_spans(const char *text, size_t len, const float *lp, const int *src, int n_words,
		       const text_protected *spans, int n_spans, char *out, float *out_lp, int *out_src, int *out_words)
{
	/* each target word, and where each span goes: replacing a word, or
	 * after one (-1: first) */
	size_t o = 0, i = 0;
	int n_out = 0;
	for (int w = 0; w <= n_words; w++) {
		const char *wt = NULL;
		size_t wl = 0;
		if (w < n_words) {
			while (i < len && is_space(text[i]))
				i++;
			size_t b = i;
			while (i < len && !is_space(text[i]))
				i++;
			wt = text + b;
			wl = i - b;
		}
		/* spans inserted before word w: those aligned to no word, whose
		 * nearest earlier source word's last target word is w - 1 */
		for (int s = 0; s < n_spans; s++) {
			int aligned = 0, after = -1, best_src = -1;
			for (int v = 0; v < n_words; v++) {
				if (src[v] == spans[s].src_word)
					aligned = 1;
				else if (src[v] < spans[s].src_word && src[v] >= best_src) {
					best_src = src[v];
					after = v;
				}
			}
			if (aligned || after != w - 1)
				continue;
			/* the sentence's final punctuation stays last */
			size_t tail = o > 0 && w == n_words ? trailing_punct(out, o) : 0;
			char saved[8];
			if (tail > sizeof saved)
				tail = 0;
			memcpy(saved, out + o - tail, tail);
			o -= tail;
			if (o > 0)
				out[o++] = ' ';
			memcpy(out + o, spans[s].text, spans[s].len);
			o += spans[s].len;
			o = append_punct(out, o, saved, tail);
			for (int k = 0; k <= spans[s].extra_words; k++) {   /* the span's words: sure ones */
				out_lp[n_out] = 0;
				out_src[n_out++] = spans[s].src_word;
			}
		}
		if (w == n_words)
			break;
		/* word w: itself, or the spans of the source word it is aligned
		 * to (in place of its first word aligned there), or nothing */
		int has_span = 0, first = 1;
		for (int s = 0; s < n_spans; s++)
			has_span |= spans[s].src_word == src[w];
		for (int v = 0; has_span && v < w; v++)
			first &= src[v] != src[w];
		if (has_span && !first) {   /* the span stands for it already, but not for its full stop */
			size_t tail = trailing_marks(wt, wl);
			o = append_marks(out, o, wt + wl - tail, tail);
			continue;
		}
		if (o > 0)
			out[o++] = ' ';
		if (!has_span) {
			memcpy(out + o, wt, wl);
			o += wl;
			out_lp[n_out] = lp[w];
			out_src[n_out++] = src[w];
			continue;
		}
		size_t lead = leading_brackets(wt, wl);
		memcpy(out + o, wt, lead);
		o += lead;
		int put = 0;
		for (int s = 0; s < n_spans; s++) {
			if (spans[s].src_word != src[w])
				continue;
			if (put++)
				out[o++] = ' ';
			memcpy(out + o, spans[s].text, spans[s].len);
			o += spans[s].len;
			for (int k = 0; k <= spans[s].extra_words; k++) {
				out_lp[n_out] = k == 0 && put == 1 ? lp[w] : 0;
				out_src[n_out++] = src[w];
			}
		}
		size_t tail = trailing_marks(wt, wl);
		o = append_marks(out, o, wt + wl - tail, tail);
	}
	out[o] = '\0';
	*out_words = n_out;
	return o;
}
