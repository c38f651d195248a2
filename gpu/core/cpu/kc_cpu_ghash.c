/*
 * kc_cpu_ghash.c - GHASH's product with PCLMULQDQ (kc_cpu.h).
 *
 * The operands keep kc_ghash.c's representation (GCM's bit order: the
 * integer h:l holds the x^0 coefficient in its most significant bit), so
 * PCLMULQDQ's carry-less integer products replace kc_ghash_clmul64's
 * spread multiplications one for one, and the reduction is
 * kc_ghash_mul's (kc_ghash_reduce).
 */
#include "gpu/core/cpu/kc_cpu.h"
#include "gpu/core/sym/kc_sym_int.h"
#include "gpu/core/kc_util.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* carry-less 64 x 64 -> 128: *hi:*lo */
__attribute__((target("pclmul,sse4.1")))
static inline void kc_cpu_clmul64(uint64_t *hi, uint64_t *lo, uint64_t x, uint64_t y)
{
	__m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)x),
	                                 _mm_cvtsi64_si128((long long)y), 0x00);
	*lo = (uint64_t)_mm_cvtsi128_si64(p);
	*hi = (uint64_t)_mm_extract_epi64(p, 1);
}

/* a * (hh:hl), kc_ghash_mul's product */
__attribute__((target("pclmul,sse4.1")))
static inline void kc_cpu_gf_mul(uint64_t *ah, uint64_t *al, uint64_t hh, uint64_t hl)
{
	uint64_t z3, z2, z1, z0, m1, m0;

	kc_cpu_clmul64(&z3, &z2, *ah, hh);
	kc_cpu_clmul64(&z1, &z0, *al, hl);
	kc_cpu_clmul64(&m1, &m0, *ah ^ *al, hh ^ hl);
	kc_ghash_reduce(z3, z2, z1, z0, m1, m0, ah, al);
}

__attribute__((target("pclmul,sse4.1")))
int kc_cpu_ghash_mul(uint64_t *yh, uint64_t *yl, uint64_t hh, uint64_t hl)
{
	if (!(kc_cpu_features() & KC_CPU_CLMUL))
		return 0;
	kc_cpu_gf_mul(yh, yl, hh, hl);
	return 1;
}

/* the Karatsuba products of a and (hh:hl) XORed into z[6] (z3 z2 z1 z0
 * m1 m0): products of several blocks share one reduction */
__attribute__((target("pclmul,sse4.1")))
static inline void kc_cpu_gf_acc(uint64_t z[6], uint64_t ah, uint64_t al, uint64_t hh, uint64_t hl)
{
	uint64_t p1, p0;

	kc_cpu_clmul64(&p1, &p0, ah, hh);
	z[0] ^= p1;
	z[1] ^= p0;
	kc_cpu_clmul64(&p1, &p0, al, hl);
	z[2] ^= p1;
	z[3] ^= p0;
	kc_cpu_clmul64(&p1, &p0, ah ^ al, hh ^ hl);
	z[4] ^= p1;
	z[5] ^= p0;
}

/* Four blocks at a time: y' = (y ^ X0) H^4 ^ X1 H^3 ^ X2 H^2 ^ X3 H, the
 * four products independent and reduced once (the reduction is linear). */
__attribute__((target("pclmul,sse4.1")))
int kc_cpu_ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t nblocks)
{
	uint64_t ah, al, hp[4][2], z[6];
	size_t i = 0;
	int k;

	if (!(kc_cpu_features() & KC_CPU_CLMUL))
		return 0;
	ah = kc_load_be64(y);
	al = kc_load_be64(y + 8);
	hp[0][0] = kc_load_be64(h);          /* hp[k] = H^(k + 1) */
	hp[0][1] = kc_load_be64(h + 8);
	for (k = 1; k < 4; k++) {
		hp[k][0] = hp[k - 1][0];
		hp[k][1] = hp[k - 1][1];
		kc_cpu_gf_mul(&hp[k][0], &hp[k][1], hp[0][0], hp[0][1]);
	}
	for (; i + 4 <= nblocks; i += 4) {
		const uint8_t *p = data + 16 * i;
		for (k = 0; k < 6; k++)
			z[k] = 0;
		kc_cpu_gf_acc(z, ah ^ kc_load_be64(p), al ^ kc_load_be64(p + 8), hp[3][0], hp[3][1]);
		for (k = 1; k < 4; k++)
			kc_cpu_gf_acc(z, kc_load_be64(p + 16 * k), kc_load_be64(p + 16 * k + 8),
			              hp[3 - k][0], hp[3 - k][1]);
		kc_ghash_reduce(z[0], z[1], z[2], z[3], z[4], z[5], &ah, &al);
	}
	for (; i < nblocks; i++) {
		ah ^= kc_load_be64(data + 16 * i);
		al ^= kc_load_be64(data + 16 * i + 8);
		kc_cpu_gf_mul(&ah, &al, hp[0][0], hp[0][1]);
	}
	kc_store_be64(y, ah);
	kc_store_be64(y + 8, al);
	kc_wipe(hp, sizeof hp);
	kc_wipe(z, sizeof z);
	return 1;
}

#else

int kc_cpu_ghash_mul(uint64_t *yh, uint64_t *yl, uint64_t hh, uint64_t hl)
{
	(void)yh; (void)yl; (void)hh; (void)hl;
	return 0;
}

int kc_cpu_ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t nblocks)
{
	(void)y; (void)h; (void)data; (void)nblocks;
	return 0;
}

#endif
