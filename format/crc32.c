/* CRC-32 (the zlib polynomial), slicing by 8: eight table lookups per 8 bytes
 * instead of one per byte, ~4x faster, which matters because loading checks
 * the vocabularies' and the map's checksums (megabytes) before the first
 * line. The tables are rebuilt on the stack for each call: 4k operations
 * are nothing next to the megabytes being checksummed, and it keeps the
 * code free of global state and of 2048 literal entries. */
#include "crc32.h"

static void crc32_tables(uint32_t t[8][256])
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		t[0][n] = c;
	}
	/* t[k][n]: the CRC of byte n followed by k zero bytes */
	for (int k = 1; k < 8; k++)
		for (int n = 0; n < 256; n++)
			t[k][n] = (t[k - 1][n] >> 8) ^ t[0][t[k - 1][n] & 0xFF];
}

uint32_t format_crc32(uint32_t crc, const void *data, size_t len)
{
	uint32_t t[8][256];
	const uint8_t *p = data;
	size_t i = 0;

	crc32_tables(t);
	crc = ~crc;
	for (; i + 8 <= len; i += 8) {
		/* the little-endian value of the next four bytes, whatever the host */
		uint32_t lo = crc ^ ((uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
				     (uint32_t)p[i + 3] << 24);
		crc = t[7][lo & 0xFF] ^ t[6][lo >> 8 & 0xFF] ^ t[5][lo >> 16 & 0xFF] ^ t[4][lo >> 24] ^
		      t[3][p[i + 4]] ^ t[2][p[i + 5]] ^ t[1][p[i + 6]] ^ t[0][p[i + 7]];
	}
	for (; i < len; i++)
		crc = t[0][(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
	return ~crc;
}
