/* Bytewise table-driven CRC-32. The table is rebuilt on the stack for each call:
 * 2k operations are nothing next to the megabytes being checksummed, and it
 * keeps the code free of global state and of a 256-entry literal. */
#include "crc32.h"

static void crc32_table(uint32_t table[256])
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[n] = c;
	}
}

uint32_t nmt_crc32(uint32_t crc, const void *data, size_t len)
{
	uint32_t table[256];
	const uint8_t *p = data;

	crc32_table(table);
	crc = ~crc;
	for (size_t i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
	return ~crc;
}
