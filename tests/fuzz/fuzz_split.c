/* The sentence splitter (text/split.h) on any bytes, with the rules of the
 * language the first byte picks: the sentences come in order, inside the
 * text, never empty and never with whitespace at either end; only
 * whitespace lies between them; splitting again from any sentence's start
 * gives the same sentences (the cut depends on nothing before it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../text/split.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static const char *const codes[] = { "en", "de", "fr", "cs", "el", "xx" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	const text_split_lang *lang = text_split_lang_for(codes[data[0] % (sizeof codes / sizeof *codes)]);
	const char *text = (const char *)data + 1;
	size_t len = size - 1, pos = 0, start, end, last = 0, second_start = 0, second_end = 0;
	int n = 0;

	while (text_split_next(lang, text, len, &pos, &start, &end)) {
		FUZZ_ASSERT(last <= start && start < end && end <= len && pos == end);
		FUZZ_ASSERT(!text_split_is_space((unsigned char)text[start]));
		FUZZ_ASSERT(!text_split_is_space((unsigned char)text[end - 1]));
		for (size_t j = last; j < start; j++)
			FUZZ_ASSERT(text_split_is_space((unsigned char)text[j]));
		if (n++ == 1) {
			second_start = start;
			second_end = end;
		}
		last = end;
	}
	FUZZ_ASSERT(pos == len);
	for (size_t j = last; j < len; j++)
		FUZZ_ASSERT(text_split_is_space((unsigned char)text[j]));
	if (n >= 2) {   /* from the second sentence on, alone */
		size_t p2 = second_start, s2, e2;
		FUZZ_ASSERT(text_split_next(lang, text, len, &p2, &s2, &e2) && s2 == second_start && e2 == second_end);
	}
	return 0;
}
