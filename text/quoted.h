/* Quoted names: a name, a title or the text of a sign in quotation marks
 * (a boat named "El Corazon", a shirt that says "VAIO") is kept as written,
 * as translators keep it, while quoted words ("street clothes", a sign
 * reading "free hugs") are translated. The models cannot copy such text:
 * their two vocabularies spell it in different pieces and the training
 * captions hold too few names to learn the mapping, so they write a
 * letter or a loop of one (docs/INPUT.md). Found by rule, no memory. */
#ifndef TEXT_QUOTED_H
#define TEXT_QUOTED_H
#include <stddef.h>

/* The end of the quoted name that opens at text[i] (its quotation marks
 * included), or 0 when none does. A name is 1 to 8 words between a pair
 * of double quotation marks (" ", “ ”, „ “, « », » «): a number ("28"),
 * or words in capitals ("VAIO"), or words in title case: the first and
 * last words with a letter start with a capital and so does every word of
 * four letters or more ("Welcome to Aberdeen", "The Lord of the Rings",
 * "32 De Neude."; not "I do"), at least two of them in a language that
 * capitalises its nouns (nouns_capitalised: „Straßenkleidung“ is a word,
 * „El Corazon“ a name). A mark opens only at the start of a word, and the text
 * between the marks is at most 160 bytes. Any bytes are accepted; time is
 * linear in the bytes scanned. */
size_t text_quoted_name(const char *text, size_t len, size_t i, int nouns_capitalised);

#endif
