/* Choosing the dot-product implementation for this CPU (qdot.h). */
#include <string.h>

#include "qdot.h"

static int cpu_has_avx512vnni(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	/* The compiler's CPUID wrapper also checks that the OS saves the
	 * AVX-512 registers. */
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vnni");
#else
	return 0;
#endif
}

static int cpu_has_avx2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	return __builtin_cpu_supports("avx2");
#else
	return 0;
#endif
}

const nmt_qdot *nmt_qdot_select(const char *name)
{
	int best = !name || !*name;
	if (best || strcmp(name, "avx512") == 0) {
#if defined(__x86_64__)
		if (cpu_has_avx512vnni())
			return &nmt_qdot_avx512;
#endif
		if (!best)
			return NULL;
	}
	if (best || strcmp(name, "avx2") == 0) {
#if defined(__x86_64__)
		if (cpu_has_avx2())
			return &nmt_qdot_avx2;
#endif
		if (!best)
			return NULL;
	}
	if (best || strcmp(name, "scalar") == 0)
		return &nmt_qdot_scalar;
	return NULL;
}
