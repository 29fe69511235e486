/* quant/ew_body.h's loops compiled for AVX2 (see ew.h). */
#if defined(__x86_64__)
#define TARGET __attribute__((target("avx2")))
#define QUANT_EW_LANES 8 /* floats per vector, for ew_body.h */
#define QUANT_EW_TABLE quant_ew_avx2
#include "ew_isa.h"
#endif
