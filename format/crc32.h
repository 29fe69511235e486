/* CRC-32 (IEEE 802.3, the zlib/PNG polynomial), used for the packed file's
 * section checksums. */
#ifndef FORMAT_CRC32_H
#define FORMAT_CRC32_H
#include <stddef.h>
#include <stdint.h>

/* Continue a CRC over more bytes; start with crc = 0. */
uint32_t format_crc32(uint32_t crc, const void *data, size_t len);

#endif
