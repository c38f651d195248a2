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
#include "gpu/core/cpu/kc_cpu_f256.h"
#include "gpu/core/pk/kc_bn.h"
#include "gpu/core/kc_util.h"

#if defined(__SIZEOF_INT128__)

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

static void kc_cpu_bn_load(uint64_t *w, const uint32_t *x, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		w[i] = kc_cpu_w64(x, i);
}

/* the product over n 64-bit limbs; inlined with a constant n for
 * P-384's field (6 limbs) and RSA-2048's primes (16), so that its loops
 * unroll (4 limbs: kc_cpu_mont4) */
static inline __attribute__((always_inline)) void
kc_cpu_mont_n(uint32_t *d, const uint32_t *x, const uint32_t *y, const uint32_t *m, size_t n)
{
	/* X, Y, M, T, S: n limbs each, of which only the 5 n used are wiped
	 * (the EC fields' products wiped all 2,560 bytes, ~10 % of a P-256
	 * signature's time) */
	uint64_t w[5 * KC_CPU_BN_MAX];
	uint64_t *const X = w, *const Y = w + n, *const M = w + 2 * n;
	uint64_t *const T = w + 3 * n, *const S = w + 4 * n;
	uint64_t m0i, borrow, keep, th;
	size_t i, j;

	kc_cpu_bn_load(X, x, n);
	kc_cpu_bn_load(Y, y, n);
	kc_cpu_bn_load(M, m, n);
	m0i = kc_cpu_m0i64(M[0]);

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

/* kc_cpu_mont_n for n = 4 (the 256-bit EC fields, ~40 % of a P-256
 * signature's time) in registers (kc_cpu_f256.h): the same integer, the
 * same masked subtraction. */
static void kc_cpu_mont4(uint32_t *d, const uint32_t *x, const uint32_t *y, const uint32_t *m)
{
	uint64_t a[4], b[4], mm[4], r[4];

	kc_f256_load(a, x);
	kc_f256_load(b, y);
	kc_f256_load(mm, m);
	kc_f256_mul(r, a, b, mm, kc_cpu_m0i64(mm[0]));
	kc_f256_store(d, r);
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
