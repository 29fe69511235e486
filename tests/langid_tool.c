/* Language identification's features for train/langid.py, computed by the
 * same C code the classifier uses (text/langid.h), so that a profile is
 * trained on exactly the n-grams it is later looked up with:
 *
 *   langid_tool --normalize < text            each line's normalized form
 *   langid_tool --count BUCKETS MIN MAX < text  how many n-grams of orders
 *                                   MIN..MAX fell in each bucket, one line each
 *   langid_tool --classify PROFILE [CODES] < text  each line's best code
 *                                   among CODES (comma-separated; default all),
 *                                   "und" for none
 *   langid_tool --scores PROFILE < text  each line's score for every language
 *                                   of the profile, in its order (the sums of
 *                                   table bytes, before the scale) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../text/langid.h"

static void count_buckets(void *ctx, const uint32_t *buckets, int n)
{
	uint64_t *counts = ctx;
	for (int k = 0; k < n; k++)
		counts[buckets[k]]++;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: langid_tool --normalize | --count BUCKETS MIN MAX | --classify PROFILE [CODES]"
		" | --scores PROFILE < text\n");
	return 2;
}

/* The next line of stdin without its newline, or NULL at the end. */
static char *next_line(char **line, size_t *cap, size_t *len)
{
	ssize_t n = getline(line, cap, stdin);
	if (n < 0)
		return NULL;
	*len = (size_t)n;
	if (*len > 0 && (*line)[*len - 1] == '\n')
		(*len)--;
	return *line;
}

static int normalize(void)
{
	char *line = NULL, *out = NULL;
	size_t cap = 0, len;
	while (next_line(&line, &cap, &len)) {
		if (!(out = realloc(out, len + 2)))
			return 1;
		fwrite(out, 1, text_langid_normalize(line, len, out), stdout);
		putchar('\n');
	}
	free(line);
	free(out);
	return 0;
}

static int count(char **argv)
{
	text_langid_shape s = { (uint32_t)strtoul(argv[2], NULL, 10), atoi(argv[3]), atoi(argv[4]) };
	if (s.buckets < 16 || (s.buckets & (s.buckets - 1)) || s.min_order < 1 || s.min_order > s.max_order ||
	    s.max_order > TEXT_LANGID_MAX_ORDER)
		return usage();
	uint64_t *counts = calloc(s.buckets, sizeof *counts);
	char *line = NULL;
	size_t cap = 0, len;
	if (!counts)
		return 1;
	while (next_line(&line, &cap, &len))
		text_langid_scan(&s, line, len, count_buckets, counts, NULL);
	for (uint32_t b = 0; b < s.buckets; b++)
		printf("%llu\n", (unsigned long long)counts[b]);
	free(counts);
	free(line);
	return 0;
}

static uint64_t parse_codes(const text_langid *p, const char *codes)
{
	uint64_t mask = 0;
	for (const char *c = codes; *c;) {
		size_t n = strcspn(c, ",");
		int i = text_langid_find(p, c, n);
		if (i < 0) {
			fprintf(stderr, "langid_tool: the profile has no language %.*s\n", (int)n, c);
			exit(1);
		}
		mask |= (uint64_t)1 << i;
		c += n + (c[n] == ',');
	}
	return mask;
}

typedef struct {
	const text_langid *p;
	uint64_t sum[TEXT_LANGID_MAX_LANGS];
} line_scores;

static void add_rows(void *ctx, const uint32_t *buckets, int n)
{
	line_scores *s = ctx;
	for (int k = 0; k < n; k++)
		for (int l = 0; l < s->p->n_langs; l++)
			s->sum[l] += s->p->table[(size_t)buckets[k] * (size_t)s->p->n_langs + (size_t)l];
}

static int scores(const text_langid *p)
{
	char *line = NULL;
	size_t cap = 0, len;
	while (next_line(&line, &cap, &len)) {
		line_scores s = { .p = p };
		text_langid_scan(&p->shape, line, len, add_rows, &s, NULL);
		for (int l = 0; l < p->n_langs; l++)
			printf("%s%llu", l ? " " : "", (unsigned long long)s.sum[l]);
		putchar('\n');
	}
	free(line);
	return 0;
}

/* --classify and --scores: the profile, then each line. */
static int classify(int argc, char **argv)
{
	static unsigned char buf[(1 << 24) + 4096];
	FILE *f = fopen(argv[2], "rb");
	size_t size = f ? fread(buf, 1, sizeof buf, f) : 0;
	char err[256];
	text_langid p;
	if (f)
		fclose(f);
	if (text_langid_open(buf, size, &p, err, sizeof err) != 0) {
		fprintf(stderr, "langid_tool: %s: %s\n", argv[2], err);
		return 1;
	}
	if (strcmp(argv[1], "--scores") == 0)
		return scores(&p);
	uint64_t mask = argc > 3 ? parse_codes(&p, argv[3]) : text_langid_all(&p);
	text_langid_guess g[TEXT_LANGID_MAX_LANGS];
	char *line = NULL;
	size_t cap = 0, len;
	while (next_line(&line, &cap, &len))
		puts(text_langid_classify(&p, line, len, mask, g) > 0 ? p.codes[g[0].lang] : "und");
	free(line);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--normalize") == 0)
		return normalize();
	if (argc == 5 && strcmp(argv[1], "--count") == 0)
		return count(argv);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "--classify") == 0)
		return classify(argc, argv);
	if (argc == 3 && strcmp(argv[1], "--scores") == 0)
		return classify(argc, argv);
	return usage();
}
