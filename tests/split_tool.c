/* The sentence splitter on stdin (text/split.h), for bench/split.sh:
 *
 *   split_tool LANG < paragraphs > sentences
 *
 * One output line per input line: its sentences, separated by tabs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../text/split.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: split_tool LANG < paragraphs\n");
		return 2;
	}
	const text_split_lang *lang = text_split_lang_for(argv[1]);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		size_t len = (size_t)n, pos = 0, start, end;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		for (int k = 0; text_split_next(lang, line, len, &pos, &start, &end); k++)
			printf("%s%.*s", k ? "\t" : "", (int)(end - start), line + start);
		putchar('\n');
	}
	free(line);
	return ferror(stdout) ? 1 : 0;
}
