/* quant/ew_body.h's loops compiled for AVX-512 (see ew.h). */
#if defined(__x86_64__)
#define TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define QUANT_EW_LANES 16 /* floats per vector, for ew_body.h */
#define QUANT_EW_TABLE quant_ew_avx512
#include "ew_isa.h"
#endif
