/* The little of UTF-8 and Unicode that nmt needs: decoding, checking and
 * encoding one character, finding where the one before begins, and whether
 * it is a letter, a capital or a small letter, for the Latin, Greek and
 * Cyrillic alphabets (other scripts have no case: neither upper nor lower). */
#ifndef COMMON_UTF8_H
#define COMMON_UTF8_H
#include <stddef.h>
#include <stdint.h>

/* Bytes of the character a lead byte starts (1 for a stray continuation or
 * an invalid byte, which count as characters of their own). */
size_t utf8_length(unsigned char lead);

/* The character at s[0..n) (n >= 1) and its length in *used (>= 1): an
 * invalid or truncated sequence decodes as U+FFFD, one byte long. */
uint32_t utf8_decode(const char *s, size_t n, size_t *used);

/* The length of the valid UTF-8 character at s[0..n) (n >= 1), or 0 if it
 * is not one (overlong, a surrogate, above U+10FFFF, truncated). */
size_t utf8_valid_length(const char *s, size_t n);

/* Where the last character of s[from..end) (end > from) begins: end - 1,
 * stepped back over continuation bytes, but not past from. */
size_t utf8_prev(const char *s, size_t from, size_t end);

/* c (at most U+10FFFF) encoded into out; its length, 1..4. */
size_t utf8_encode(uint32_t c, char out[4]);

int utf8_is_upper(uint32_t c);
int utf8_is_lower(uint32_t c);
/* A letter with case, or any character of a script without case. */
int utf8_is_letter(uint32_t c);

#endif
