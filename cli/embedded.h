/* The model linked into the binary (engine/embedded.S), if the build had one. */
#ifndef CLI_EMBEDDED_H
#define CLI_EMBEDDED_H
#include <stddef.h>

extern const unsigned char nmt_embedded_model[];   /* 64-byte aligned */
extern const size_t nmt_embedded_model_size;       /* 0: none embedded */

#endif
