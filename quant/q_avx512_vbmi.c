/* The AVX-512 kernels of q_avx512.c compiled again for CPUs that also have
 * VBMI (Ice Lake, Zen 4 and later): q4 nibbles become levels by one byte
 * permute each (vpermb) instead of a mask and a shuffle. The same integer
 * sums; quant_qdot_select prefers this one where CPUID has VBMI. */
#if defined(__x86_64__)
#define QUANT_AVX512_VBMI
#define TARGET __attribute__((target("avx512f,avx512bw,avx512vnni,avx512vbmi")))
#define QDOT quant_qdot_avx512_vbmi
#define QDOT_NAME "avx512-vbmi"
#include "q_avx512.c"
#endif
