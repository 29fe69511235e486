/* Span protection on stdin (text/protect.h), as the translator does it,
 * for the training recipe (train/corpus.py teaches the models the
 * placeholder with exactly the text the engine will give them):
 *
 *   protect_tool LANG < sentences
 *
 * One output line per input line: the sentence with each protected span
 * replaced by LANG's placeholder word, then a tab and each span, tab-
 * separated (nothing more when it has none). A line with a tab in it is
 * written back unchanged, with no spans, since a tab would be ambiguous. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../text/protect.h"

enum { MAX_SPANS = 64 };

static void protect_line(const text_split_lang *lang, const char *line, size_t len)
{
	text_protected spans[MAX_SPANS];
	int n = 0;
	if (memchr(line, '\t', len) != NULL) {
		printf("%.*s\n", (int)len, line);
		return;
	}
	char *out = malloc(len + (strlen(lang->placeholder) + 2) * MAX_SPANS + 1);
	if (out == NULL) {
		fprintf(stderr, "protect_tool: out of memory\n");
		exit(1);
	}
	size_t o = text_protect_source(lang, line, len, out, spans, MAX_SPANS, &n);
	printf("%.*s", (int)o, out);
	for (int i = 0; i < n; i++)
		printf("\t%.*s", (int)spans[i].len, spans[i].text);
	putchar('\n');
	free(out);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: protect_tool LANG < sentences\n");
		return 2;
	}
	const text_split_lang *lang = text_split_lang_for(argv[1]);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		size_t len = (size_t)n;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		protect_line(lang, line, len);
	}
	free(line);
	return ferror(stdout) ? 1 : 0;
}
