/* Sentences written in capitals (text/case.h): which are, and their
 * sentence case and capitals, letter for letter and byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "../text/case.h"

static int capitals(const char *text)
{
	text_case_count c = { 0 };
	text_case_scan(text, strlen(text), &c);
	return text_case_is_capitals(&c);
}

/* text changed by change(), as a string (each call overwrites the last) */
static const char *changed(void (*change)(const char *, size_t, char *), const char *text)
{
	static char out[512];
	size_t len = strlen(text);
	change(text, len, out);
	out[len] = '\0';
	return out;
}

static const char *sentence_case(const char *text)
{
	return changed(text_case_to_sentence, text);
}

static const char *upper(const char *text)
{
	return changed(text_case_to_upper, text);
}

static const char *lower(const char *text)
{
	return changed(text_case_to_lower, text);
}

static void test_what_is_in_capitals(void **state)
{
	(void)state;
	assert_true(capitals("TWO DOGS PLAY IN THE SNOW."));
	assert_true(capitals("THE END"));
	assert_true(capitals("ÉTÉ À PARIS: 2024 ÉDITION"));
	assert_true(capitals("ДВЕ СОБАКИ"));
	assert_false(capitals("Two dogs play in the snow."));
	assert_false(capitals("NASA launches a rocket."));   /* an acronym in a sentence */
	assert_false(capitals("USA"));
	assert_false(capitals("UN UK"));                      /* two acronyms, five letters */
	assert_false(capitals("THE DOG IS Happy"));           /* one small letter is enough */
	assert_false(capitals("1234 5678 !!!"));
	assert_false(capitals(""));
}

static void test_scanned_in_pieces(void **state)
{
	(void)state;
	/* the stretches between protected spans add up */
	text_case_count c = { 0 };
	text_case_scan("VISIT ", 6, &c);
	text_case_scan(" TODAY.", 7, &c);
	assert_true(text_case_is_capitals(&c));
	text_case_scan("and", 3, &c);
	assert_false(text_case_is_capitals(&c));
}

static void test_sentence_case(void **state)
{
	(void)state;
	assert_string_equal(sentence_case("TWO DOGS PLAY IN THE SNOW."), "Two dogs play in the snow.");
	assert_string_equal(sentence_case("\"HELLO,\" SAYS THE MAN."), "\"Hello,\" says the man.");
	assert_string_equal(sentence_case("I THINK I'M LATE, SAID I."), "I think I'm late, said I.");
	assert_string_equal(sentence_case("I\xE2\x80\x99M HERE IN ITALY"), "I\xE2\x80\x99m here in italy");
	assert_string_equal(sentence_case("ÉTÉ À PARIS, ŁÓDŹ, ΑΘΉΝΑ, МОСКВА"), "Été à paris, łódź, αθήνα, москва");
	assert_string_equal(sentence_case("12 MEN"), "12 Men");   /* the first letter, not character */
}

static void test_upper(void **state)
{
	(void)state;
	assert_string_equal(upper("Zwei Hunde spielen im Schnee."), "ZWEI HUNDE SPIELEN IM SCHNEE.");
	assert_string_equal(upper("Die Straße, Äpfel, öl, über"), "DIE STRASSE, ÄPFEL, ÖL, ÜBER");
	assert_string_equal(upper("été à l'œil, ÿ"), "ÉTÉ À L'ŒIL, Ÿ");
	assert_string_equal(upper("łódź ελληνικός москва ёж"), "ŁÓDŹ ΕΛΛΗΝΙΚΌΣ МОСКВА ЁЖ");
	assert_string_equal(upper("10:30 € ✓ 東京"), "10:30 € ✓ 東京");   /* no case: copied */
}

static void test_lower(void **state)
{
	(void)state;
	assert_string_equal(lower("Ein Mann IN EINEM Boot, I'M"), "ein mann in einem boot, i'm");
	assert_string_equal(lower("ÉTÉ À PARIS, ŁÓDŹ, ΑΘΉΝΑ, МОСКВА, Ÿ"), "été à paris, łódź, αθήνα, москва, ÿ");
	assert_string_equal(lower("10:30 € ✓ 東京 \xe2\x96\x81" "Ein"), "10:30 € ✓ 東京 \xe2\x96\x81" "ein");
}

static void test_same_length_and_invalid_bytes(void **state)
{
	(void)state;
	/* letters whose other case has another UTF-8 length stay as they are
	 * (İ -> i + dot, ı -> I), and so do bytes that are not UTF-8 */
	const char text[] = "\xC4\xB0STANBUL \xC4\xB1 \xFF\xC3 END \xC3\xA9";
	char out[sizeof text];
	text_case_to_sentence(text, sizeof text - 1, out);
	assert_memory_equal(out, "\xC4\xB0stanbul \xC4\xB1 \xFF\xC3 end \xC3\xA9", sizeof text - 1);
	text_case_to_upper(text, sizeof text - 1, out);
	assert_memory_equal(out, "\xC4\xB0STANBUL \xC4\xB1 \xFF\xC3 END \xC3\x89", sizeof text - 1);
	text_case_to_lower(text, sizeof text - 1, out);
	assert_memory_equal(out, "\xC4\xB0stanbul \xC4\xB1 \xFF\xC3 end \xC3\xA9", sizeof text - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_is_in_capitals),
		cmocka_unit_test(test_scanned_in_pieces),
		cmocka_unit_test(test_sentence_case),
		cmocka_unit_test(test_upper),
		cmocka_unit_test(test_lower),
		cmocka_unit_test(test_same_length_and_invalid_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
