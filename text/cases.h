/* Which pieces of a vocabulary spell the same thing in another case
 * ("▁Ein", "▁ein", "▁EIN"): the repetition guard counts "Ein Mann ... ein
 * Mann" as one n-gram twice, as a reader does, though the model writes the
 * two with different pieces.
 *
 * Pieces fall into classes by their text with every letter small
 * (text/case.h); each piece knows its class, named by the class's smallest
 * id, and the next piece of its class, in a cycle, so that a caller can
 * visit the whole class from any of its pieces. Control pieces are classes
 * of their own. Built once per vocabulary, immutable after. */
#ifndef TEXT_CASES_H
#define TEXT_CASES_H
#include <stdint.h>

#include "../vocab/spm.h"

typedef struct text_cases text_cases;

/* 0, or -1 when memory ran out. */
int text_cases_build(const spm_model *vocab, text_cases **out);
void text_cases_free(text_cases *c);

/* The class of piece id (its smallest member's id); id itself when it is
 * out of range. */
int32_t text_cases_class(const text_cases *c, int32_t id);

/* The next piece of id's class after id, cyclically (id itself when the
 * class has one piece, or id is out of range). */
int32_t text_cases_next(const text_cases *c, int32_t id);

#endif
