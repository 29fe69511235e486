#include "form.h"

#include <stdlib.h>
#include <string.h>

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* s[0..n) decoded into out (at most n bytes); its length, or -1 */
static long decode(const char *s, size_t n, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '+') {
			out[o++] = ' ';
		} else if (s[i] == '%') {
			if (i + 2 >= n || hex(s[i + 1]) < 0 || hex(s[i + 2]) < 0)
				return -1;
			out[o++] = (char)(hex(s[i + 1]) * 16 + hex(s[i + 2]));
			i += 2;
		} else {
			out[o++] = s[i];
		}
	}
	return (long)o;
}

int server_form_get(const char *body, size_t len, const char *key, char **value, size_t *value_len)
{
	size_t klen = strlen(key);
	char *name = malloc(len + 1);
	if (!name)
		return -1;
	for (size_t at = 0; at <= len;) {
		const char *pair = body + at, *amp = memchr(pair, '&', len - at);
		size_t n = amp ? (size_t)(amp - pair) : len - at;
		const char *eq = memchr(pair, '=', n);
		size_t name_n = eq ? (size_t)(eq - pair) : n;
		long got = decode(pair, name_n, name);
		if (got < 0) {
			free(name);
			return -1;
		}
		if ((size_t)got == klen && memcmp(name, key, klen) == 0) {
			free(name);
			size_t vn = eq ? n - name_n - 1 : 0;
			char *v = malloc(vn + 1);
			long vlen = v ? decode(eq ? eq + 1 : pair, vn, v) : -1;
			if (vlen < 0) {
				free(v);
				return -1;
			}
			v[vlen] = '\0';
			*value = v;
			*value_len = (size_t)vlen;
			return 1;
		}
		at += n + 1;
	}
	free(name);
	return 0;
}
