/* Choosing the dot-product implementation for this CPU (qdot.h): a list of
 * candidates, best first, each with the check that the CPU can run it. */
#include <stddef.h>
#include <string.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#include "qdot.h"

#if defined(__x86_64__) && defined(__GNUC__)
/* The compiler's CPUID wrapper also checks that the OS saves the AVX
 * registers. */
static int has_avx512vnni(void)
{
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512dq") &&
	       __builtin_cpu_supports("avx512vnni");
}

static int has_avx512vbmi(void)
{
	return has_avx512vnni() && __builtin_cpu_supports("avx512vbmi");
}

static int has_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}
#endif

#if defined(__aarch64__)
static int has_dotprod(void)
{
#if defined(__linux__)
	return (getauxval(AT_HWCAP) & (1ul << 20)) != 0;   /* HWCAP_ASIMDDP */
#else
	return 0;
#endif
}

static int always(void)
{
	return 1;   /* NEON is part of every aarch64 CPU */
}
#endif

static int scalar_always(void)
{
	return 1;
}

static const struct {
	const quant_qdot *qdot;
	int (*available)(void);
} candidates[] = {
#if defined(__x86_64__) && defined(__GNUC__)
	{ &quant_qdot_avx512_vbmi, has_avx512vbmi },
	{ &quant_qdot_avx512, has_avx512vnni },
	{ &quant_qdot_avx2, has_avx2 },
#endif
#if defined(__aarch64__)
	{ &quant_qdot_neon_dotprod, has_dotprod },
	{ &quant_qdot_neon, always },
#endif
#if defined(__wasm_simd128__)
	{ &quant_qdot_wasm, scalar_always },   /* built with -msimd128: every runtime that loads it has SIMD */
#endif
	{ &quant_qdot_scalar, scalar_always },
};

const quant_qdot *quant_qdot_select(const char *name)
{
	int best = !name || !*name;
	for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
		if (best || strcmp(name, candidates[i].qdot->name) == 0)
			if (candidates[i].available())
				return candidates[i].qdot;
	return NULL;
}
