/* Numbers written as text (command-line options, metadata, configuration
 * files): the whole string must be the number, in range. */
#ifndef COMMON_NUMBER_H
#define COMMON_NUMBER_H

/* s, a decimal integer in lo..hi, into *out: 0, or -1 (nothing written). */
int number_parse_long(const char *s, long lo, long hi, long *out);
/* s, a number in lo..hi, into *out: 0, or -1 (nothing written). */
int number_parse_double(const char *s, double lo, double hi, double *out);
/* The same for a float, rounded from s once (as scanf's %f reads it). */
int number_parse_float(const char *s, float lo, float hi, float *out);
/* The next number of a list of decimal integers in lo..hi, each followed
 * by sep or by the string's end, from *s: 1 when sep follows (*s then past
 * it), 0 when it was the last (*s at the end), -1 (nothing written) when
 * *s does not start with such a number: no space or '+' before it. */
int number_list_next(const char **s, char sep, long lo, long hi, long *out);

#endif
