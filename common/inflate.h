/* gzip (RFC 1952) and DEFLATE (RFC 1951) decoding, for the packer's .gz
 * inputs (Firefox Translations publishes its models gzipped). Stored, fixed
 * and dynamic Huffman blocks; every header flag; CRC-32 and ISIZE checked;
 * members concatenated one after another are decoded into one output, as
 * gunzip does. Every read is bounds-checked and the output never grows past
 * the caller's cap, so a gzip bomb ends in an error, not an exhausted memory. */
#ifndef COMMON_INFLATE_H
#define COMMON_INFLATE_H
#include <stddef.h>
#include <stdint.h>

/* 1 if the bytes start with gzip's magic and method (1f 8b 08), else 0. */
int inflate_is_gzip(const uint8_t *data, size_t len);

/* Decode a whole gzip file: *out (malloc'd, the caller frees it; never NULL
 * on success) receives its *outlen bytes, at most cap. 0, or -1 with a
 * one-line message (truncated, corrupt, checksum or size mismatch, over the
 * cap, out of memory). */
int inflate_gzip(const uint8_t *in, size_t inlen, size_t cap, uint8_t **out, size_t *outlen, char *err,
		 size_t errlen);

#endif
