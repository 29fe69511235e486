/* Reading numpy's .npz as Marian writes it (see marian_file.h): a zip
 * archive whose members, NAME.npy, are stored uncompressed. The central
 * directory at the end lists the members; each local header is checked
 * against it, each member's CRC-32 against its bytes, and each .npy header
 * (magic, version, the dict of descr, fortran_order and shape) parsed
 * strictly. Compressed members and zip64 archives are refused by name. */
#include "marian_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format/crc32.h"
#include "../common/error.h"
#include "../format/format.h"

#define EOCD_SIG 0x06054b50u
#define CDIR_SIG 0x02014b50u
#define LOCAL_SIG 0x04034b50u
#define EOCD_SIZE 22
#define CDIR_SIZE 46
#define LOCAL_SIZE 30
#define MAX_COMMENT 65535
#define MAX_MEMBERS 100000

static uint32_t rd16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* The end-of-central-directory record: the last signature within the
 * comment's reach of the end. */
static const uint8_t *find_eocd(const uint8_t *buf, size_t len)
{
	if (len < EOCD_SIZE)
		return NULL;
	size_t lowest = len - EOCD_SIZE > MAX_COMMENT ? len - EOCD_SIZE - MAX_COMMENT : 0;
	for (size_t at = len - EOCD_SIZE + 1; at-- > lowest;)
		if (format_rd32(buf + at) == EOCD_SIG && at + EOCD_SIZE + rd16(buf + at + 20) == len)
			return buf + at;
	return NULL;
}

/* ---- the .npy header ------------------------------------------------------ */

typedef struct {
	const char *p, *end;
} cursor;

static void skip_spaces(cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n'))
		c->p++;
}

static int accept(cursor *c, const char *s)
{
	size_t n = strlen(s);
	skip_spaces(c);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

/* 'text' into out (at most cap - 1 characters). */
static int quoted(cursor *c, char *out, size_t cap)
{
	size_t n = 0;
	if (!accept(c, "'"))
		return -1;
	while (c->p < c->end && *c->p != '\'') {
		if (n + 1 >= cap || !mf_printable(c->p, 1))
			return -1;
		out[n++] = *c->p++;
	}
	out[n] = '\0';
	return accept(c, "'") ? 0 : -1;
}

static int shape_tuple(cursor *c, mf_item *it)
{
	if (!accept(c, "("))
		return -1;
	it->ndim = 0;
	while (!accept(c, ")")) {
		skip_spaces(c);
		int64_t v = 0;
		int digits = 0;
		while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && digits < 12) {
			v = v * 10 + (*c->p++ - '0');
			digits++;
		}
		if (digits == 0 || it->ndim == MF_MAX_DIMS)
			return -1;
		it->shape[it->ndim++] = v;
		if (!accept(c, ",") && !(skip_spaces(c), c->p < c->end && *c->p == ')'))
			return -1;
	}
	return 0;
}

/* {'descr': '<f4', 'fortran_order': False, 'shape': (8000, 256), } in any key order. */
static int npy_dict(cursor *c, mf_item *it, char *err, size_t errlen)
{
	char key[32], descr[16] = "";
	int have_shape = 0, have_order = 0;
	if (!accept(c, "{"))
		return error_set(err, errlen, "%s: .npy header is not a dict", it->name);
	while (!accept(c, "}")) {
		if (quoted(c, key, sizeof key) != 0 || !accept(c, ":"))
			return error_set(err, errlen, "%s: malformed .npy header", it->name);
		if (strcmp(key, "descr") == 0 && quoted(c, descr, sizeof descr) == 0)
			;
		else if (strcmp(key, "fortran_order") == 0 && accept(c, "False"))
			have_order = 1;
		else if (strcmp(key, "shape") == 0 && shape_tuple(c, it) == 0)
			have_shape = 1;
		else
			return error_set(err, errlen, "%s: unsupported .npy header entry '%s' (fortran order?)",
				    it->name, key);
		if (!accept(c, ",") && !(skip_spaces(c), c->p < c->end && *c->p == '}'))
			return error_set(err, errlen, "%s: malformed .npy header", it->name);
	}
	if (!have_shape || !have_order)
		return error_set(err, errlen, "%s: .npy header lacks shape or fortran_order", it->name);
	if (strcmp(descr, "<f4") == 0)
		it->type = MF_F32;
	else if (strcmp(descr, "<i1") == 0 || strcmp(descr, "|i1") == 0)
		it->type = MF_I8;
	else
		return error_set(err, errlen, "%s: unsupported .npy type '%s' (float32 and int8 are read)",
			    it->name, descr);
	return 0;
}

/* A member's bytes as .npy: header, then the array, whose size must be
 * exactly what the shape and type say. */
static int parse_npy(const uint8_t *p, size_t n, mf_item *it, char *err, size_t errlen)
{
	if (n < 10 || memcmp(p, "\x93NUMPY", 6) != 0)
		return error_set(err, errlen, "%s: not a .npy array", it->name);
	size_t hlen, at;
	if (p[6] == 1) {
		hlen = rd16(p + 8);
		at = 10;
	} else if ((p[6] == 2 || p[6] == 3) && n >= 12) {
		hlen = format_rd32(p + 8);
		at = 12;
	} else {
		return error_set(err, errlen, "%s: unsupported .npy version %u", it->name, p[6]);
	}
	if (hlen > n - at)
		return error_set(err, errlen, "%s: .npy header runs past the member", it->name);
	cursor c = { (const char *)p + at, (const char *)p + at + hlen };
	if (npy_dict(&c, it, err, errlen) != 0)
		return -1;
	int64_t numel = mf_numel(it);
	size_t size = it->type == MF_F32 ? 4 : 1, data = at + hlen;
	if (numel < 0 || (uint64_t)numel > (n - data) / size || (size_t)numel * size != n - data)
		return error_set(err, errlen, "%s: array size does not match its shape", it->name);
	it->data = p + data;
	it->nbytes = n - data;
	return 0;
}

/* ---- the zip archive ---------------------------------------------------- */

/* Member `e` of the central directory: its name, local header and bytes. */
static int read_member(const uint8_t *buf, size_t len, const uint8_t *e, mf_item *it, char *err, size_t errlen)
{
	uint32_t method = rd16(e + 10), crc = format_rd32(e + 16), csize = format_rd32(e + 20), usize = format_rd32(e + 24);
	uint32_t name_len = rd16(e + 28), local = format_rd32(e + 42);
	const char *name = (const char *)e + CDIR_SIZE;

	if (!mf_printable(name, name_len))
		return error_set(err, errlen, "npz member name is not printable ASCII");
	if (name_len < 5 || name_len - 4 >= MF_NAME_MAX || memcmp(name + name_len - 4, ".npy", 4) != 0)
		return error_set(err, errlen, "npz member %.*s is not NAME.npy", (int)(name_len < 64 ? name_len : 64), name);
	memcpy(it->name, name, name_len - 4);
	it->name[name_len - 4] = '\0';
	if (csize == 0xFFFFFFFFu || usize == 0xFFFFFFFFu || local == 0xFFFFFFFFu)
		return error_set(err, errlen, "%s: zip64 archives are not supported", it->name);
	if (method != 0 || csize != usize)
		return error_set(err, errlen, "%s: compressed npz member (method %u): save the model uncompressed "
			    "or convert it to .bin with marian-conv", it->name, method);
	if (local > len || len - local < LOCAL_SIZE || format_rd32(buf + local) != LOCAL_SIG)
		return error_set(err, errlen, "%s: bad local header offset", it->name);
	const uint8_t *lh = buf + local;
	size_t data = (size_t)local + LOCAL_SIZE + rd16(lh + 26) + rd16(lh + 28);
	if (rd16(lh + 26) != name_len || memcmp(lh + LOCAL_SIZE, name, name_len) != 0)
		return error_set(err, errlen, "%s: local header does not match the directory", it->name);
	if (data > len || usize > len - data)
		return error_set(err, errlen, "%s: member runs past the end of the file", it->name);
	if (format_crc32(0, buf + data, usize) != crc)
		return error_set(err, errlen, "%s: CRC-32 mismatch (damaged file)", it->name);
	return parse_npy(buf + data, usize, it, err, errlen);
}

int mf_open_npz(const uint8_t *buf, size_t len, mf_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	const uint8_t *eocd = find_eocd(buf, len);
	if (!eocd)
		return error_set(err, errlen, "not a zip archive (no end of central directory)");
	uint32_t count = rd16(eocd + 10), size = format_rd32(eocd + 12), offset = format_rd32(eocd + 16);
	if (count == 0xFFFF || offset == 0xFFFFFFFFu)
		return error_set(err, errlen, "zip64 archives are not supported");
	if (count == 0 || count > MAX_MEMBERS)
		return error_set(err, errlen, "npz holds %u members", count);
	if (offset > (size_t)(eocd - buf) || size > (size_t)(eocd - buf) - offset)
		return error_set(err, errlen, "central directory lies outside the file");
	if (!(f->items = calloc(count, sizeof *f->items)))
		return error_set(err, errlen, "out of memory");
	const uint8_t *e = buf + offset, *end = buf + offset + size;
	for (uint32_t i = 0; i < count; i++) {
		if ((size_t)(end - e) < CDIR_SIZE || format_rd32(e) != CDIR_SIG)
			goto corrupt;
		size_t entry = CDIR_SIZE + (size_t)rd16(e + 28) + rd16(e + 30) + rd16(e + 32);
		if ((size_t)(end - e) < entry)
			goto corrupt;
		if (read_member(buf, len, e, &f->items[i], err, errlen) != 0) {
			mf_close(f);
			return -1;
		}
		f->n++;
		e += entry;
	}
	return 0;
corrupt:
	mf_close(f);
	return error_set(err, errlen, "corrupt zip central directory");
}

void mf_close(mf_file *f)
{
	free(f->items);
	memset(f, 0, sizeof *f);
}

const mf_item *mf_find(const mf_file *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->items[i].name, name) == 0)
			return &f->items[i];
	return NULL;
}

int mf_printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

int64_t mf_numel(const mf_item *it)
{
	int64_t n = 1;
	for (int d = 0; d < it->ndim; d++) {
		if (it->shape[d] < 0 || (it->shape[d] > 0 && n > INT64_MAX / it->shape[d]))
			return -1;
		n *= it->shape[d];
	}
	return n;
}
