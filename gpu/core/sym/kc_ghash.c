/*
 * kc_ghash.c - GHASH (SP 800-38D), constant time, no tables.
 *
 * Carry-less products come from ordinary integer multiplications of
 * operands whose bits are spread four apart ("holes" between them absorb
 * the carries): for 32-bit x, y split into x & 0x11111111, x & 0x22222222,
 * ...  each 64-bit integer product has at most 8 terms per bit position, so
 * its carries never reach the next position of the same residue class; the
 * XOR of the products of one class, masked to that class, is the
 * carry-less product.  Two Karatsuba levels build 128 x 128 from nine
 * 32 x 32 products.  The operands keep GCM's bit order (the first bit of
 * the block is the x^0 coefficient and the most significant integer bit):
 * the 255-bit integer product, shifted left once, is the 256-bit reflected
 * product, reduced modulo x^128 + x^7 + x^2 + x + 1 by two folds.
 *
 * Integer multiplication is assumed constant time (true of the GPU's IMAD
 * and of current x86-64 / AArch64 cores).
 */
#include "gpu/core/sym/kc_sym_int.h"
#ifndef __CUDACC__
#include "gpu/core/cpu/kc_cpu.h"
#endif

/* An execution space may hash the full blocks of a long input
 * cooperatively (gpu/cuda/pvc_ctr_warp.cuh: the 32 lanes of a warp that
 * run one request with identical data, each lane computing its
 * kc_ghash_part, XOR-combined by shuffles), and so may the host's
 * PCLMULQDQ (gpu/core/cpu).  Returns 1 when it set y to GHASH over the n
 * full blocks of data. */
#ifndef KC_GHASH_COOP
#define KC_GHASH_COOP(y, h, data, n) 0
#endif
/* The host's carry-less multiplication (gpu/core/cpu/kc_cpu.h): returns 1
 * when it set y = y * H. */
#ifndef KC_CPU_GHASH_MUL
#define KC_CPU_GHASH_MUL(yh, yl, hh, hl) 0
#endif
/* The same for kc_ghash_pw's n <= KC_GHASH_POW_N independent products
 * (one block a lane). */
#ifndef KC_GHASH_PW_COOP
#define KC_GHASH_PW_COOP(y, pow, data, n) 0
#endif

/* carry-less 32 x 32 -> 64 */
KC_PRIV uint64_t kc_ghash_clmul32(uint32_t x, uint32_t y)
{
	uint64_t x0 = x & 0x11111111u, x1 = x & 0x22222222u, x2 = x & 0x44444444u, x3 = x & 0x88888888u;
	uint64_t y0 = y & 0x11111111u, y1 = y & 0x22222222u, y2 = y & 0x44444444u, y3 = y & 0x88888888u;
	uint64_t z0, z1, z2, z3;

	z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
	z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
	z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
	z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
	return (z0 & 0x1111111111111111ull) | (z1 & 0x2222222222222222ull)
		| (z2 & 0x4444444444444444ull) | (z3 & 0x8888888888888888ull);
}

/* carry-less 64 x 64 -> 128 (Karatsuba): *hi:*lo */
KC_PRIV void kc_ghash_clmul64(uint64_t *hi, uint64_t *lo, uint64_t x, uint64_t y)
{
	uint32_t x1 = (uint32_t)(x >> 32), x0 = (uint32_t)x;
	uint32_t y1 = (uint32_t)(y >> 32), y0 = (uint32_t)y;
	uint64_t h = kc_ghash_clmul32(x1, y1);
	uint64_t l = kc_ghash_clmul32(x0, y0);
	uint64_t m = kc_ghash_clmul32(x1 ^ x0, y1 ^ y0) ^ h ^ l;

	*hi = h ^ (m >> 32);
	*lo = l ^ (m << 32);
}

typedef struct kc_gf128 {
	uint64_t h, l;      /* GCM bit order: h holds degrees 0..63 */
} kc_gf128;

/* y * (hh:hl) in GF(2^128), GCM bit order.  One copy of its ~9 KiB of GPU
 * code for all callers (KC_OUTLINE): a key blob's GHASH runs only a few
 * blocks, so its time went into fetching that code.  The host may take
 * the products from its own instruction (gpu/core/cpu/kc_cpu_ghash.c). */
KC_OUTLINE kc_gf128 kc_ghash_mul(kc_gf128 y, uint64_t hh, uint64_t hl)
{
	uint64_t a1 = y.h, a0 = y.l;
	uint64_t z3, z2, z1, z0, m1, m0;

	if (KC_CPU_GHASH_MUL(&y.h, &y.l, hh, hl))
		return y;
	/* Karatsuba's three products of the 255-bit integer product */
	kc_ghash_clmul64(&z3, &z2, a1, hh);
	kc_ghash_clmul64(&z1, &z0, a0, hl);
	kc_ghash_clmul64(&m1, &m0, a1 ^ a0, hh ^ hl);
	kc_ghash_reduce(z3, z2, z1, z0, m1, m0, &y.h, &y.l);
	return y;
}

/* (ph:pl) = (hh:hl)^e for 1 <= e < 2^ebits: a left-to-right ladder over
 * ebits bits of e with a multiply on every bit, selected by mask (the
 * exponent is public; the fixed shape keeps lanes with different e in step). */
KC_PRIV kc_gf128 kc_ghash_pow(uint64_t hh, uint64_t hl, uint32_t e, uint32_t ebits)
{
	kc_gf128 r = { 0x8000000000000000ull, 0 };   /* 1: the x^0 coefficient */
	kc_gf128 t;
	uint64_t m;
	uint32_t b;

	for (b = ebits; b-- > 0;) {
		r = kc_ghash_mul(r, r.h, r.l);
		t = kc_ghash_mul(r, hh, hl);
		m = (uint64_t)0 - (uint64_t)((e >> b) & 1u);
		r.h = (t.h & m) | (r.h & ~m);
		r.l = (t.l & m) | (r.l & ~m);
	}
	KC_WIPE_REGS(&t, sizeof t);
	return r;
}

KC_API void kc_ghash_powers(uint8_t pow[KC_GHASH_POW_N][16], const uint8_t h[16])
{
	const uint64_t hh = kc_load_be64(h), hl = kc_load_be64(h + 8);
	kc_gf128 a = { hh, hl };
	uint32_t k;

	for (k = 0; k < KC_GHASH_POW_N; k++) {
		if (k > 0u)
			a = kc_ghash_mul(a, hh, hl);
		kc_store_be64(pow[k], a.h);
		kc_store_be64(pow[k] + 8, a.l);
	}
	KC_WIPE_REGS(&a, sizeof a);
}

/* Block i of n carries H^(n - i) = pow[n - 1 - i] (y enters with block 0,
 * as in kc_ghash_part). */
KC_API void kc_ghash_pw(uint8_t y[16], const uint8_t pow[KC_GHASH_POW_N][16],
	const uint8_t *data, size_t n)
{
	kc_gf128 a, r = { 0, 0 };
	size_t i;

	if (n > KC_GHASH_POW_N) {
		kc_ghash(y, pow[0], data, 16u * n);
		return;
	}
	if (n == 0u || KC_GHASH_PW_COOP(y, pow, data, n))
		return;
	for (i = 0; i < n; i++) {
		a.h = kc_load_be64(data + 16u * i);
		a.l = kc_load_be64(data + 16u * i + 8u);
		if (i == 0u) {
			a.h ^= kc_load_be64(y);
			a.l ^= kc_load_be64(y + 8);
		}
		a = kc_ghash_mul(a, kc_load_be64(pow[n - 1u - i]), kc_load_be64(pow[n - 1u - i] + 8));
		r.h ^= a.h;
		r.l ^= a.l;
	}
	kc_store_be64(y, r.h);
	kc_store_be64(y + 8, r.l);
	KC_WIPE_REGS(&a, sizeof a);
	KC_WIPE_REGS(&r, sizeof r);
}

/* One lane's share of GHASH over n full blocks X_0..X_{n-1} split over
 * nlanes lanes (1..255).  kc_ghash computes
 *   Y = y * H^n  ^  X_0 * H^n ^ X_1 * H^(n-1) ^ ... ^ X_{n-1} * H^1
 *     = (X_0 ^ y) * H^n ^ sum_{i>=1} X_i * H^(n-i),
 * so y enters as part of block 0.  Lane L takes the blocks i = L + nlanes k,
 * k = 0..m-1 (m = ceil((n - L) / nlanes), 0 if L >= n), accumulates them
 * by Horner's rule with G = H^nlanes, acc = acc * G ^ X_i (no multiply
 * after the last), so X_{L + nlanes k} carries G^(m-1-k), and multiplies
 * the sum once by H^e, e = n - L - nlanes (m - 1), 1 <= e <= nlanes: the
 * exponent of block i is then n - i exactly.  part = that lane's term; the
 * XOR of all lanes' parts is the new y (kc_ghash_combine).  A lane without
 * a block writes zero (for n = 0 lane 0 writes y). */
KC_API void kc_ghash_part(uint8_t part[16], const uint8_t y[16], const uint8_t h[16],
	const uint8_t *data, size_t n, uint32_t lane, uint32_t nlanes)
{
	uint64_t hh = kc_load_be64(h), hl = kc_load_be64(h + 8);
	kc_gf128 g, e, a = { 0, 0 };
	uint32_t ebits = 0;
	size_t m, k, i;

	while (ebits < 32u && (nlanes >> ebits) != 0u)
		ebits++;
	m = lane < n ? (n - lane + nlanes - 1u) / nlanes : 0u;
	if (m == 0u) {            /* n = 0: y unchanged, carried by lane 0 */
		if (n == 0u && lane == 0u)
			kc_memcpy(part, y, 16);
		else
			kc_memset(part, 0, 16);
		return;
	}
	g = kc_ghash_pow(hh, hl, nlanes, ebits);
	e = kc_ghash_pow(hh, hl, (uint32_t)(n - lane - (size_t)nlanes * (m - 1u)), ebits);
	for (k = 0; k < m; k++) {
		i = lane + (size_t)nlanes * k;
		if (k > 0u)
			a = kc_ghash_mul(a, g.h, g.l);
		a.h ^= kc_load_be64(data + 16u * i);
		a.l ^= kc_load_be64(data + 16u * i + 8u);
		if (i == 0u) {
			a.h ^= kc_load_be64(y);
			a.l ^= kc_load_be64(y + 8);
		}
	}
	a = kc_ghash_mul(a, e.h, e.l);
	kc_store_be64(part, a.h);
	kc_store_be64(part + 8, a.l);
	KC_WIPE_REGS(&a, sizeof a);
	KC_WIPE_REGS(&g, sizeof g);
	KC_WIPE_REGS(&e, sizeof e);
	KC_WIPE_REGS(&hh, sizeof hh);
	KC_WIPE_REGS(&hl, sizeof hl);
}

/* y ^= part: folds lane parts together (start from y = 0). */
KC_API void kc_ghash_combine(uint8_t y[16], const uint8_t part[16])
{
	int i;

	for (i = 0; i < 16; i++)
		y[i] ^= part[i];
}

KC_API void kc_ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t len)
{
	kc_gf128 a;
	uint64_t hh, hl;
	uint8_t tmp[16];
	size_t i;

	if (len >= 16 && KC_GHASH_COOP(y, h, data, len / 16)) {
		i = len & ~(size_t)15;
		data += i;
		len -= i;
	}
	a.h = kc_load_be64(y);
	a.l = kc_load_be64(y + 8);
	hh = kc_load_be64(h);
	hl = kc_load_be64(h + 8);
	while (len > 0) {
		const uint8_t *src = data;
		size_t n = len < 16 ? len : 16;
		if (n < 16) {
			kc_memset(tmp, 0, 16);
			for (i = 0; i < n; i++)
				tmp[i] = data[i];
			src = tmp;
		}
		a.h ^= kc_load_be64(src);
		a.l ^= kc_load_be64(src + 8);
		a = kc_ghash_mul(a, hh, hl);
		data += n;
		len -= n;
	}
	kc_store_be64(y, a.h);
	kc_store_be64(y + 8, a.l);
	kc_wipe(tmp, sizeof tmp);
	KC_WIPE_REGS(&a, sizeof a);
	KC_WIPE_REGS(&hh, sizeof hh);
	KC_WIPE_REGS(&hl, sizeof hl);
}
