#include "meta.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../common/number.h"

/* The first "key=" line's value and its length; NULL if there is none. */
static const char *find_value(const char *meta, size_t len, const char *key, size_t *vlen)
{
	size_t klen = strlen(key);
	size_t pos = 0;

	while (pos < len) {
		const char *line = meta + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - line) : len - pos;
		pos += line_len + 1;
		if (line_len <= klen || memcmp(line, key, klen) != 0 || line[klen] != '=')
			continue;
		*vlen = line_len - klen - 1;
		return line + klen + 1;
	}
	return NULL;
}

int format_meta_get(const char *meta, size_t len, const char *key, char *val, size_t vallen)
{
	size_t vlen;
	const char *v = find_value(meta, len, key, &vlen);

	if (!v || vlen + 1 > vallen || memchr(v, '\0', vlen))
		return -1;
	memcpy(val, v, vlen);
	val[vlen] = '\0';
	return 0;
}

int format_meta_has(const char *meta, size_t len, const char *key)
{
	size_t vlen;
	return find_value(meta, len, key, &vlen) != NULL;
}

int format_meta_get_long(const char *meta, size_t len, const char *key, long *out)
{
	char buf[32];

	if (format_meta_get(meta, len, key, buf, sizeof buf) != 0 || buf[0] == '\0')
		return -1;
	return number_parse_long(buf, LONG_MIN, LONG_MAX, out);
}
