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

#endif
