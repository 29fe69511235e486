/* The sentence splitter (text/split.h): where paragraphs are cut, in
 * English, German and the generic rules, and what it does with any bytes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../text/split.h"
#include "../common/utf8.h"

/* The sentences of text, joined by " | ". */
static const char *split(const char *code, const char *text)
{
	static char out[4096];
	const text_split_lang *lang = text_split_lang_for(code);
	size_t pos = 0, start, end, len = strlen(text), used = 0;
	out[0] = '\0';
	while (text_split_next(lang, text, len, &pos, &start, &end)) {
		used += (size_t)snprintf(out + used, sizeof out - used, "%s%.*s", used ? " | " : "", (int)(end - start),
					 text + start);
		assert_true(used < sizeof out);
	}
	return out;
}

#define assert_split(code, text, want) assert_string_equal(split(code, text), want)

static void test_terminators_and_closers(void **state)
{
	(void)state;
	assert_split("en", "A dog runs. A cat sleeps! Who laughs? Nobody\xe2\x80\xa6 The end",
		     "A dog runs. | A cat sleeps! | Who laughs? | Nobody\xe2\x80\xa6 | The end");
	assert_split("en", "Really?! Yes!!! Fine...", "Really?! | Yes!!! | Fine...");
	assert_split("en", "He said \"Go away.\" Then he left.", "He said \"Go away.\" | Then he left.");
	assert_split("en", "(It was late.) We slept.", "(It was late.) | We slept.");
	assert_split("en", "She asked \xe2\x80\x9cwhy?\xe2\x80\x9d Nobody knew.",
		     "She asked \xe2\x80\x9cwhy?\xe2\x80\x9d | Nobody knew.");
	assert_split("de", "Er rief \xe2\x80\x9e" "Halt!\xe2\x80\x9c Dann ging er.", "Er rief \xe2\x80\x9e" "Halt!\xe2\x80\x9c | Dann ging er.");
	assert_split("en", "It is over. \"Yes,\" she said.", "It is over. | \"Yes,\" she said.");
}

static void test_lowercase_continues(void **state)
{
	(void)state;
	assert_split("en", "\"Stop!\" he shouted. We stopped.", "\"Stop!\" he shouted. | We stopped.");
	assert_split("en", "I was... well, thinking. Then I slept.", "I was... well, thinking. | Then I slept.");
	assert_split("en", "Fruit, e.g. apples, and nuts etc. are fine. Eat them.",
		     "Fruit, e.g. apples, and nuts etc. are fine. | Eat them.");
	assert_split("en", "We bought apples, pears etc. Then we went home.",
		     "We bought apples, pears etc. | Then we went home.");
}

static void test_prefixes(void **state)
{
	(void)state;
	assert_split("en", "Mr. Smith met Dr. Jones and Prof. Lee. They talked.",
		     "Mr. Smith met Dr. Jones and Prof. Lee. | They talked.");
	assert_split("en", "It opened on Jan. 5 and closed in Sept. Visitors came.",
		     "It opened on Jan. 5 and closed in Sept. Visitors came.");
	/* a frequent sentence starter outweighs the abbreviation */
	assert_split("en", "It closed in Sept. Nobody came.", "It closed in Sept. | Nobody came.");
	/* numeric prefixes hold only before a number */
	assert_split("en", "See No. 5 and p. 12 for it. No. It is not.", "See No. 5 and p. 12 for it. | No. | It is not.");
	assert_split("de", "Hr. Meier wohnt in Nr. 5, vgl. S. 3. Er ist nett.",
		     "Hr. Meier wohnt in Nr. 5, vgl. S. 3. | Er ist nett.");
	assert_split("fr", "M. Dupont est là. Il attend.", "M. Dupont est là. | Il attend.");
	assert_split("es", "La Sra. Gómez vive en el núm. 5, véase la pág. 3. ¿Dónde está?",
		     "La Sra. Gómez vive en el núm. 5, véase la pág. 3. | ¿Dónde está?");
}

/* the word a protected span stands as (text/protect.h): one the
 * language's models are trained to carry (train/corpus.py) */
static void test_placeholders(void **state)
{
	(void)state;
	assert_string_equal(text_split_lang_for("en")->placeholder, "something");
	assert_string_equal(text_split_lang_for("de")->placeholder, "etwas");
	assert_string_equal(text_split_lang_for("fr")->placeholder, "cela");
	assert_string_equal(text_split_lang_for("es")->placeholder, "algo");
	assert_string_equal(text_split_lang_for("xx")->placeholder, "X");
}

static void test_initials_and_abbreviations(void **state)
{
	(void)state;
	assert_split("en", "J. R. R. Tolkien wrote it. George W. Bush read it.",
		     "J. R. R. Tolkien wrote it. | George W. Bush read it.");
	assert_split("en", "She met the U.S. President. She has a Ph.D. in physics.",
		     "She met the U.S. President. | She has a Ph.D. in physics.");
	assert_split("en", "She grew up in the U.K. Her parents live there. Take vitamin C. The doctor says so.",
		     "She grew up in the U.K. | Her parents live there. | Take vitamin C. | The doctor says so.");
	assert_split("en", "Apple grew. eBay fell. iPhone sales rose.", "Apple grew. | eBay fell. | iPhone sales rose.");
	/* small dotted abbreviations end a sentence before a capital, unless
	 * listed ("e.g.") or before an acronym */
	assert_split("en", "It ends at 5 p.m. Tickets cost $5. It starts at 9 a.m. CET, e.g. Monday.",
		     "It ends at 5 p.m. | Tickets cost $5. | It starts at 9 a.m. CET, e.g. Monday.");
	/* a list item's number, and a listed prefix capitalised at the start */
	assert_split("en", "1. Open the box. 2. Remove the cover. Approx. 300 came.",
		     "1. Open the box. | 2. Remove the cover. | Approx. 300 came.");
	assert_split("de", "Er kam z.B. am Montag. Sie d.h. Anna blieb.", "Er kam z.B. am Montag. | Sie d.h. Anna blieb.");
	/* "-str": every word ending in "str", before a number */
	assert_split("de", "Er wohnt in der Goethestr. 12 in Frankfurt. Dr. med. Schulz auch.",
		     "Er wohnt in der Goethestr. 12 in Frankfurt. | Dr. med. Schulz auch.");
}

static void test_numbers_urls_and_mail(void **state)
{
	(void)state;
	assert_split("en", "It costs $4.50, or 1,000.25 in v2.3.1. It was 10:30. 20 people came.",
		     "It costs $4.50, or 1,000.25 in v2.3.1. | It was 10:30. | 20 people came.");
	assert_split("en", "Visit https://example.com/a.html?x=1. Write to anna.lee@example.org. Thanks!",
		     "Visit https://example.com/a.html?x=1. | Write to anna.lee@example.org. | Thanks!");
	assert_split("en", "Open /usr/share/doc/README.txt now. Done.", "Open /usr/share/doc/README.txt now. | Done.");
	/* German ordinals; a year is no ordinal */
	assert_split("de", "Er kam am 3. Oktober. Das war 1990. Dann ging er.",
		     "Er kam am 3. Oktober. | Das war 1990. | Dann ging er.");
	assert_split("en", "It was chapter 3. Then came 4.", "It was chapter 3. | Then came 4.");
}

/* Lines joined without their final periods: a capitalised starter after
 * a small letter begins a sentence, unless a function word or (English) a
 * capital follows it */
static void test_unmarked_starters(void **state)
{
	(void)state;
	assert_split("en", "A child is splashing in the water Two men walk in a city A dog runs",
		     "A child is splashing in the water | Two men walk in a city | A dog runs");
	assert_split("en", "He wrote The Hobbit and went from A to B, Two Dogs", "He wrote The Hobbit and went from A to B, Two Dogs");
	assert_split("en", "Take vitamin A and rest", "Take vitamin A and rest");
	assert_split("de", "Ein Kind spielt im Wasser Zwei Männer gehen", "Ein Kind spielt im Wasser | Zwei Männer gehen");
	assert_split("fr", "Un enfant joue Two men", "Un enfant joue Two men");   /* no list: no such cut */
}

static void test_language_terminators(void **state)
{
	(void)state;
	/* ";" ends a sentence only where the language says so (Greek) */
	assert_split("en", "One; Two", "One; Two");
	assert_split("el", "\xce\xa4\xce\xb9; \xce\x9d\xce\xb1\xce\xb9.", "\xce\xa4\xce\xb9; | \xce\x9d\xce\xb1\xce\xb9.");
	/* a language without a list: the generic rules */
	assert_split("xx", "Mr. Smith. J. Doe came.", "Mr. | Smith. | J. Doe came.");
	assert_split(NULL, "A. B c. D", "A. B c. | D");
	assert_true(text_split_lang_for("en") != text_split_lang_for(NULL));
}

static void test_whitespace_and_gaps(void **state)
{
	(void)state;
	const char *text = "  One.\t\tTwo.  \n Three?  ";
	const text_split_lang *lang = text_split_lang_for("en");
	size_t pos = 0, start, end, len = strlen(text);
	const char *want[] = { "One.", "Two.", "Three?" };
	size_t want_start[] = { 2, 8, 16 };
	for (int k = 0; k < 3; k++) {
		assert_true(text_split_next(lang, text, len, &pos, &start, &end));
		assert_int_equal(start, want_start[k]);
		assert_int_equal(end - start, strlen(want[k]));
		assert_memory_equal(text + start, want[k], end - start);
	}
	assert_false(text_split_next(lang, text, len, &pos, &start, &end));
	assert_int_equal(pos, len);
	pos = 0;
	assert_false(text_split_next(lang, " \t ", 3, &pos, &start, &end));
	pos = 0;
	assert_false(text_split_next(lang, "", 0, &pos, &start, &end));
	assert_split("en", "No end here", "No end here");
}

/* Any bytes: sentences in order, inside the text, never empty, never with
 * whitespace at an end, and only whitespace between them. */
static void test_any_bytes(void **state)
{
	(void)state;
	const char *texts[] = { "\xff. \xfe\x80! \xc3", "A.\0 B. C", ". . . ! ?", "\xe2\x80. X", "a.\xe2\x80\xa6 \xc3\x89t\xc3\xa9." };
	size_t lens[] = { 9, 8, 9, 6, 12 };
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		size_t pos = 0, start, end, last = 0;
		while (text_split_next(text_split_lang_for("en"), texts[i], lens[i], &pos, &start, &end)) {
			assert_true(last <= start && start < end && end <= lens[i] && pos == end);
			assert_false(text_split_is_space((unsigned char)texts[i][start]));
			assert_false(text_split_is_space((unsigned char)texts[i][end - 1]));
			for (size_t j = last; j < start; j++)
				assert_true(text_split_is_space((unsigned char)texts[i][j]));
			last = end;
		}
	}
	assert_split("en", ". . . ! ?", ". | . | . | ! | ?");
}

static void test_utf8_case(void **state)
{
	(void)state;
	size_t used;
	assert_int_equal(utf8_decode("\xc3\x89", 2, &used), 0xC9);
	assert_int_equal(used, 2);
	assert_int_equal(utf8_decode("\xc3", 1, &used), 0xFFFD);
	assert_int_equal(used, 1);
	assert_int_equal(utf8_decode("\xe0\x80\x80", 3, &used), 0xFFFD);   /* overlong */
	assert_true(utf8_is_upper(0xC9) && utf8_is_lower(0xE9));       /* É é */
	assert_true(utf8_is_upper(0x10C) && utf8_is_lower(0x10D));     /* Č č */
	assert_true(utf8_is_upper(0x141) && utf8_is_lower(0x142));     /* Ł ł */
	assert_true(utf8_is_upper(0x17D) && utf8_is_lower(0x17E));     /* Ž ž */
	assert_true(utf8_is_upper(0x416) && utf8_is_lower(0x436));     /* Ж ж */
	assert_false(utf8_is_upper(0x4E2D) || utf8_is_lower(0x4E2D));  /* 中: no case */
	assert_true(utf8_is_letter(0x4E2D));
	assert_false(utf8_is_letter('.') || utf8_is_letter(0x2026));
	/* the tokenizer's rules: a literal U+FFFD is valid, a malformed sequence is not */
	assert_int_equal(utf8_valid_length("a", 1), 1);
	assert_int_equal(utf8_valid_length("\xef\xbf\xbd", 3), 3);
	assert_int_equal(utf8_valid_length("\xf0\x9f\x98\x80", 4), 4);
	assert_int_equal(utf8_valid_length("\x80", 1), 0);               /* a continuation byte */
	assert_int_equal(utf8_valid_length("\xc0\xaf", 2), 0);           /* overlong */
	assert_int_equal(utf8_valid_length("\xed\xa0\x80", 3), 0);       /* a surrogate */
	assert_int_equal(utf8_valid_length("\xf4\x90\x80\x80", 4), 0);   /* above U+10FFFF */
	assert_int_equal(utf8_valid_length("\xe2\x82\xac", 2), 0);       /* truncated */
	assert_int_equal(utf8_valid_length("\xf8\x88\x80\x80", 4), 0);
	/* where the last character begins, never before from */
	assert_int_equal(utf8_prev("a\xc3\x89", 0, 3), 1);
	assert_int_equal(utf8_prev("ab", 0, 2), 1);
	assert_int_equal(utf8_prev("\x89\x89\x89", 1, 3), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terminators_and_closers),
		cmocka_unit_test(test_lowercase_continues),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_initials_and_abbreviations),
		cmocka_unit_test(test_numbers_urls_and_mail),
		cmocka_unit_test(test_unmarked_starters),
		cmocka_unit_test(test_language_terminators),
		cmocka_unit_test(test_whitespace_and_gaps),
		cmocka_unit_test(test_any_bytes),
		cmocka_unit_test(test_utf8_case),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
