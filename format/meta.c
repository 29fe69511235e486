#include "meta.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../common/number.h"

int format_meta_get(const char *meta, size_t len, const char *key, char *val, size_t vallen)
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
		size_t vlen = line_len - klen - 1;
		if (vlen + 1 > vallen || memchr(line + klen + 1, '\0', vlen))
			return -1;
		memcpy(val, line + klen + 1, vlen);
		val[vlen] = '\0';
		return 0;
	}
	return -1;
}

int format_meta_get_long(const char *meta, size_t len, const char *key, long *out)
{
	char buf[32];

	if (format_meta_get(meta, len, key, buf, sizeof buf) != 0 || buf[0] == '\0')
		return -1;
	return number_parse_long(buf, LONG_MIN, LONG_MAX, out);
}
