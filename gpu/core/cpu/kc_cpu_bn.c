/*
 * kc_cpu_bn.c - the Montgomery product with 64-bit limbs (kc_cpu.h).
 *
 * kc_bn_montmul's numbers are little-endian arrays of 32-bit limbs; an
 * even count of them is read as half as many 64-bit limbs, and the same
 * FIOS loop runs with 64 x 64 -> 128-bit products: a quarter of the 32-bit code's
 * multiplications.  The result is the same integer: for x, y < R the
 * product t = (x y + q m) / R has one q in [0, R) (q = -x y / m mod R),
 * whatever the limb size, and both subtract m once when t >= m.  Loops run
 * over the public limb count; the subtraction is masked.
 */
#include "gpu/core/cpu/kc_cpu.h"
#include "gpu/core/pk/kc_bn.h"
#include "gpu/core/kc_util.h"

#if defined(__SIZEOF_INT128__)

typedef unsigned __int128 kc_u128;

#define KC_CPU_BN_MAX (KC_BN_MAX_LIMBS / 2)

/* a b + t + c = *hi:(return), which never overflows 128 bits */
static inline uint64_t kc_cpu_mac(uint64_t a, uint64_t b, uint64_t t, uint64_t c, uint64_t *hi)
{
	kc_u128 p = (kc_u128)a * b;
	uint64_t lo = (uint64_t)p, h = (uint64_t)(p >> 64);

	lo += t;
	h += lo < t;
	lo += c;
	h += lo < c;
	*hi = h;
	return lo;
}

/* 64-bit limb i of x (32-bit limbs 2 i and 2 i + 1) */
static inline uint64_t kc_cpu_w64(const uint32_t *x, size_t i)
{
	return (uint64_t)x[2 * i] | ((uint64_t)x[2 * i + 1] << 32);
}

static void kc_cpu_bn_load(uint64_t *w, const uint32_t *x, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		w[i] = kc_cpu_w64(x, i);
}

/* the product over n 64-bit limbs; inlined with a constant n for the
 * EC fields (4, 6 limbs) and RSA-2048's primes (16), so that its loops
 * unroll */
static inline __attribute__((always_inline)) void
kc_cpu_mont_n(uint32_t *d, const uint32_t *x, const uint32_t *y, const uint32_t *m, size_t n)
{
	/* X, Y, M, T, S: n limbs each, of which only the 5 n used are wiped
	 * (the EC fields' products wiped all 2,560 bytes, ~10 % of a P-256
	 * signature's time) */
	uint64_t w[5 * KC_CPU_BN_MAX];
	uint64_t *const X = w, *const Y = w + n, *const M = w + 2 * n;
	uint64_t *const T = w + 3 * n, *const S = w + 4 * n;
	uint64_t m0i, inv, borrow, keep, th;
	size_t i, j;

	kc_cpu_bn_load(X, x, n);
	kc_cpu_bn_load(Y, y, n);
	kc_cpu_bn_load(M, m, n);
	/* -1 / m mod 2^64 (m odd): Newton's iteration doubles the bits */
	inv = M[0];                         /* correct mod 2^3 */
	for (i = 0; i < 5; i++)
		inv *= 2u - M[0] * inv;         /* 6, 12, 24, 48, 96 bits */
	m0i = 0u - inv;

	/* FIOS, as kc_bn_montmul: T = (T + X[i] Y + q M) / 2^64 in one pass
	 * per limb of X; th is T's limb n (0 or 1) */
	for (j = 0; j < n; j++)
		T[j] = 0;
	th = 0;
	for (i = 0; i < n; i++) {
		const uint64_t xi = X[i];
		uint64_t c1, c2, q, lo;
		lo = kc_cpu_mac(xi, Y[0], T[0], 0, &c1);
		q = lo * m0i;
		(void)kc_cpu_mac(q, M[0], lo, 0, &c2);
		for (j = 1; j < n; j++) {
			lo = kc_cpu_mac(xi, Y[j], T[j], c1, &c1);
			T[j - 1] = kc_cpu_mac(q, M[j], lo, c2, &c2);
		}
		lo = c1 + c2;
		T[n - 1] = th + lo;
		th = (uint64_t)(lo < c1) + (uint64_t)(T[n - 1] < lo);
	}
	/* th:T = t < 2m: S = T - m; keep T when that borrowed */
	borrow = 0;
	for (j = 0; j < n; j++) {
		kc_u128 s = (kc_u128)T[j] - M[j] - borrow;
		S[j] = (uint64_t)s;
		borrow = (uint64_t)(s >> 64) & 1u;
	}
	/* the subtraction stands when th is 1 or no borrow was left */
	keep = (uint64_t)0 - (borrow & (th ^ 1u) & 1u);
	for (j = 0; j < n; j++) {
		uint64_t r = (T[j] & keep) | (S[j] & ~keep);
		d[2 * j] = (uint32_t)r;
		d[2 * j + 1] = (uint32_t)(r >> 32);
	}
	kc_wipe(w, 5 * n * sizeof w[0]);
}

/* t += a b + c over one limb: a b + t + c < 2^128, so c takes the rest */
#define KC_CPU_MAC(t, a, b, c) do { \
		kc_u128 p_ = (kc_u128)(a) * (b) + (t) + (c); \
		(t) = (uint64_t)p_; \
		(c) = (uint64_t)(p_ >> 64); \
	} while (0)

/* One CIOS step of the 4-limb product: t = (t + ai Y + q M) / 2^64 */
#define KC_CPU_MONT4_STEP(ai) do { \
		uint64_t c_ = 0, q_; \
		kc_u128 s_; \
		KC_CPU_MAC(t0, ai, y0, c_); \
		KC_CPU_MAC(t1, ai, y1, c_); \
		KC_CPU_MAC(t2, ai, y2, c_); \
		KC_CPU_MAC(t3, ai, y3, c_); \
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

/* kc_cpu_mont_n for n = 4 (the 256-bit EC fields, ~40 % of a P-256
 * signature's time) in named locals rather than arrays, which the
 * compiler keeps in registers: the same integer, the same masked
 * subtraction. */
static void kc_cpu_mont4(uint32_t *d, const uint32_t *x, const uint32_t *y, const uint32_t *m)
{
	const uint64_t x0 = kc_cpu_w64(x, 0), x1 = kc_cpu_w64(x, 1), x2 = kc_cpu_w64(x, 2), x3 = kc_cpu_w64(x, 3);
	const uint64_t y0 = kc_cpu_w64(y, 0), y1 = kc_cpu_w64(y, 1), y2 = kc_cpu_w64(y, 2), y3 = kc_cpu_w64(y, 3);
	const uint64_t m0 = kc_cpu_w64(m, 0), m1 = kc_cpu_w64(m, 1), m2 = kc_cpu_w64(m, 2), m3 = kc_cpu_w64(m, 3);
	uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5, inv, m0i;
	uint64_t s0, s1, s2, s3, br, keep;
	kc_u128 u;
	int i;

	inv = m0;                           /* -1 / m mod 2^64, as kc_cpu_mont_n */
	for (i = 0; i < 5; i++)
		inv *= 2u - m0 * inv;
	m0i = 0u - inv;
	KC_CPU_MONT4_STEP(x0);
	KC_CPU_MONT4_STEP(x1);
	KC_CPU_MONT4_STEP(x2);
	KC_CPU_MONT4_STEP(x3);
	/* t4:t3..t0 < 2m: S = T - m; keep T when that borrowed and t4 is 0 */
	u = (kc_u128)t0 - m0;
	s0 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)t1 - m1 - br;
	s1 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)t2 - m2 - br;
	s2 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	u = (kc_u128)t3 - m3 - br;
	s3 = (uint64_t)u; br = (uint64_t)(u >> 64) & 1u;
	keep = (uint64_t)0 - (br & (t4 ^ 1u) & 1u);
	s0 = (t0 & keep) | (s0 & ~keep);
	s1 = (t1 & keep) | (s1 & ~keep);
	s2 = (t2 & keep) | (s2 & ~keep);
	s3 = (t3 & keep) | (s3 & ~keep);
	d[0] = (uint32_t)s0; d[1] = (uint32_t)(s0 >> 32);
	d[2] = (uint32_t)s1; d[3] = (uint32_t)(s1 >> 32);
	d[4] = (uint32_t)s2; d[5] = (uint32_t)(s2 >> 32);
	d[6] = (uint32_t)s3; d[7] = (uint32_t)(s3 >> 32);
}

int kc_cpu_montmul(uint32_t *d, const uint32_t *x, const uint32_t *y,
                   const uint32_t *m, size_t nl)
{
	if ((nl & 1u) != 0 || nl == 0 || nl > KC_BN_MAX_LIMBS ||
	    !(kc_cpu_features() & KC_CPU_WIDE))
		return 0;
	switch (nl / 2) {                   /* public: the modulus' size */
	case 4:  kc_cpu_mont4(d, x, y, m); break;
	case 6:  kc_cpu_mont_n(d, x, y, m, 6); break;
	case 16: kc_cpu_mont_n(d, x, y, m, 16); break;
	default: kc_cpu_mont_n(d, x, y, m, nl / 2); break;
	}
	return 1;
}

#else

int kc_cpu_montmul(uint32_t *d, const uint32_t *x, const uint32_t *y,
                   const uint32_t *m, size_t nl)
{
	(void)d; (void)x; (void)y; (void)m; (void)nl;
	return 0;
}

#endif
