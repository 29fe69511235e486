/* The little of UTF-8 and Unicode that text handling needs: decoding one
 * character, and whether it is a letter, a capital or a small letter, for
 * the Latin, Greek and Cyrillic alphabets (other scripts have no case:
 * neither upper nor lower). */
#ifndef NMT_TEXT_UTF8_H
#define NMT_TEXT_UTF8_H
#include <stddef.h>
#include <stdint.h>

/* Bytes of the character a lead byte starts (1 for a stray continuation or
 * an invalid byte, which count as characters of their own). */
size_t nmt_utf8_length(unsigned char lead);

/* The character at s[0..n) (n >= 1) and its length in *used (>= 1): an
 * invalid or truncated sequence decodes as U+FFFD, one byte long. */
uint32_t nmt_utf8_decode(const char *s, size_t n, size_t *used);

int nmt_utf8_is_upper(uint32_t c);
int nmt_utf8_is_lower(uint32_t c);
/* A letter with case, or any character of a script without case. */
int nmt_utf8_is_letter(uint32_t c);

#endif
