/*
 * kc_cpu.c - which of the host's instructions the core may use
 * (kc_cpu.h): cpuid, then PIXELVAULT_CPU_ACCEL=0 to use none of them.
 */
#include "gpu/core/cpu/kc_cpu.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

static uint32_t kc_cpu_probe(void)
{
	const char *env = getenv("PIXELVAULT_CPU_ACCEL");
	uint32_t f = 0;

	if (env != NULL && strcmp(env, "0") == 0)
		return 0;
	f |= KC_CPU_TABLES;
#if defined(__SIZEOF_INT128__)
	f |= KC_CPU_WIDE;
#endif
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("aes") && __builtin_cpu_supports("sse4.1"))
		f |= KC_CPU_AES;
	if (__builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1"))
		f |= KC_CPU_CLMUL;
	{
		unsigned a, b, c, d;   /* leaf 7: EBX bit 29 is SHA */
		if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29)) &&
		    __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1"))
			f |= KC_CPU_SHA;
	}
#endif
	return f;
}

uint32_t kc_cpu_features(void)
{
	/* bit 31: probed; racing first callers compute the same value */
	static uint32_t cached;
	uint32_t f = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (f == 0) {
		f = kc_cpu_probe() | 0x80000000u;
		__atomic_store_n(&cached, f, __ATOMIC_RELAXED);
	}
	return f & 0x7fffffffu;
}
