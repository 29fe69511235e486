#include "number.h"

#include <errno.h>
#include <stdlib.h>

int number_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int number_parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *s == '\0' || *end != '\0' || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

int number_parse_float(const char *s, float lo, float hi, float *out)
{
	char *end;
	errno = 0;
	float v = strtof(s, &end);
	if (errno || *s == '\0' || *end != '\0' || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

int number_list_next(const char **s, char sep, long lo, long hi, long *out)
{
	const char *p = *s;
	char *end;
	if (!(*p == '-' || (*p >= '0' && *p <= '9')))
		return -1;
	errno = 0;
	long v = strtol(p, &end, 10);
	if (errno || end == p || v < lo || v > hi || (*end != sep && *end != '\0'))
		return -1;
	*out = v;
	if (*end == '\0') {
		*s = end;
		return 0;
	}
	*s = end + 1;
	return 1;
}
