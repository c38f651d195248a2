/*
 * kc_cpu_f256.h - arithmetic modulo a 256-bit odd m in four 64-bit limbs
 * (host build only, where the compiler has 128-bit integers): the
 * Montgomery product (R = 2^256, as the core's 8 x 32-bit limbs), and the
 * sum and difference of two numbers below m.  Inline, for the callers'
 * loops to keep their numbers in registers (kc_cpu_bn.c: the EC fields'
 * products; kc_cpu_ec.c: k*G's additions).  Constant time: no branch or
 * index on the values, the final subtractions by masks.
 */
#ifndef KC_CPU_F256_H
#define KC_CPU_F256_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__)
#define KC_CPU_F256 1

typedef unsigned __int128 kc_u128;

/* t += a b + c over one limb: a b + t + c < 2^128, so c takes the rest */
#define KC_CPU_MAC(t, a, b, c) do { \
		kc_u128 p_ = (kc_u128)(a) * (b) + (t) + (c); \
		(t) = (uint64_t)p_; \
		(c) = (uint64_t)(p_ >> 64); \
	} while (0)

/* One CIOS step of the product: t = (t + ai b + q m) / 2^64 (b and m
 * in b0..b3, m0..m3) */
#define KC_CPU_MONT4_STEP(ai) do { \
		uint64_t c_ = 0, q_; \
		kc_u128 s_; \
		KC_CPU_MAC(t0, ai, b0, c_); \
		KC_CPU_MAC(t1, ai, b1, c_); \
		KC_CPU_MAC(t2, ai, b2, c_); \
		KC_CPU_MAC(t3, ai, b3, c_); \
		s_ = (kc_u128)t4 + c_; \
		t4 = (uint64_t)s_; \
		t5 = (uint64_t)(s_ >> 64); \
		q_ = t0 * m0i; \
		c_ = 0; \
		KC_CPU_MAC(t0, q_, m0, c_);     /* t0 becomes 0 */ \
		KC_CPU_MAC(t1, q_, m1, c_); \
		KC_CPU_MAC(t2, q_, m2, c_); \
		KC_CPU_MAC(t3, q_, m3, c_); \
		s_ = (kc_u128)t4 + c_; \
		t0 = t1; t1 = t2; t2 = t3; \
		t3 = (uint64_t)s_; \
		t4 = t5 + (uint64_t)(s_ >> 64); \
	} while (0)

/* r = t4:t3..t0 - m when that does not borrow or t4 is 1, else t (t < 2m) */
static inline __attribute__((always_inline)) void
kc_f256_reduce(uint64_t r[4], uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3, uint64_t t4,
               const uint64_t m[4])
{
	uint64_t s0, s1, s2, s3, br, keep;
	kc_u128 u;

	u = (kc_u128)t0 - m[0];
	s0 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)t1 - m[1] - br;
	s1 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)t2 - m[2] - br;
	s2 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)t3 - m[3] - br;
	s3 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	keep = (uint64_t)0 - (br & (t4 ^ 1u) & 1u);      /* keep t */
	r[0] = (t0 & keep) | (s0 & ~keep);
	r[1] = (t1 & keep) | (s1 & ~keep);
	r[2] = (t2 & keep) | (s2 & ~keep);
	r[3] = (t3 & keep) | (s3 & ~keep);
}

/* r = a b / 2^256 mod m, for a, b < m; m0i = -m^-1 mod 2^64.  r may alias
 * a or b. */
static inline __attribute__((always_inline)) void
kc_f256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4],
            uint64_t m0i)
{
	const uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
	const uint64_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
	const uint64_t m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3];
	uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5;

	KC_CPU_MONT4_STEP(a0);
	KC_CPU_MONT4_STEP(a1);
	KC_CPU_MONT4_STEP(a2);
	KC_CPU_MONT4_STEP(a3);
	kc_f256_reduce(r, t0, t1, t2, t3, t4, m);
}

/* r = a + b mod m, for a, b < m.  r may alias a or b. */
static inline __attribute__((always_inline)) void
kc_f256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
	uint64_t t0, t1, t2, t3, c;
	kc_u128 u;

	u = (kc_u128)a[0] + b[0];
	t0 = (uint64_t)u; c = (uint64_t)(u >> 64);
	u = (kc_u128)a[1] + b[1] + c;
	t1 = (uint64_t)u; c = (uint64_t)(u >> 64);
	u = (kc_u128)a[2] + b[2] + c;
	t2 = (uint64_t)u; c = (uint64_t)(u >> 64);
	u = (kc_u128)a[3] + b[3] + c;
	t3 = (uint64_t)u; c = (uint64_t)(u >> 64);
	kc_f256_reduce(r, t0, t1, t2, t3, c, m);
}

/* r = a - b mod m, for a, b < m.  r may alias a or b. */
static inline __attribute__((always_inline)) void
kc_f256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
	uint64_t d0, d1, d2, d3, br, mask;
	kc_u128 u;

	u = (kc_u128)a[0] - b[0];
	d0 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)a[1] - b[1] - br;
	d1 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)a[2] - b[2] - br;
	d2 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)a[3] - b[3] - br;
	d3 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	mask = (uint64_t)0 - br;                         /* add m back */
	u = (kc_u128)d0 + (m[0] & mask);
	r[0] = (uint64_t)u; br = (uint64_t)(u >> 64);
	u = (kc_u128)d1 + (m[1] & mask) + br;
	r[1] = (uint64_t)u; br = (uint64_t)(u >> 64);
	u = (kc_u128)d2 + (m[2] & mask) + br;
	r[2] = (uint64_t)u; br = (uint64_t)(u >> 64);
	r[3] = d3 + (m[3] & mask) + br;
}

/* 64-bit limb i of x (32-bit limbs 2 i and 2 i + 1) */
static inline uint64_t kc_cpu_w64(const uint32_t *x, unsigned i)
{
	return (uint64_t)x[2 * i] | ((uint64_t)x[2 * i + 1] << 32);
}

static inline void kc_f256_load(uint64_t r[4], const uint32_t *x)
{
	r[0] = kc_cpu_w64(x, 0);
	r[1] = kc_cpu_w64(x, 1);
	r[2] = kc_cpu_w64(x, 2);
	r[3] = kc_cpu_w64(x, 3);
}

static inline void kc_f256_store(uint32_t *d, const uint64_t a[4])
{
	unsigned i;

	for (i = 0; i < 4; i++) {
		d[2 * i] = (uint32_t)a[i];
		d[2 * i + 1] = (uint32_t)(a[i] >> 32);
	}
}

/* -m^-1 mod 2^64 for an odd m0 (any limb count's product needs it):
 * Newton's iteration doubles the bits */
static inline uint64_t kc_cpu_m0i64(uint64_t m0)
{
	uint64_t inv = m0;                  /* correct mod 2^3 */
	int i;

	for (i = 0; i < 5; i++)
		inv *= 2u - m0 * inv;           /* 6, 12, 24, 48, 96 bits */
	return 0u - inv;
}

#endif /* __SIZEOF_INT128__ */
#endif /* KC_CPU_F256_H */
