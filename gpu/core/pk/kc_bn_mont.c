/*
 * kc_bn_mont.c - Montgomery arithmetic over odd moduli: FIOS product,
 * R^2 mod m, conversions, reduction of a double-width input, and
 * fixed-window constant-time modular exponentiation.
 *
 * R = 2^(32 nl).  All loops are bounded by nl (public) only.
 */
#include "kc_bn.h"
#include "../kc_util.h"
#ifndef __CUDACC__
#include "gpu/core/cpu/kc_cpu.h"   /* the host's 64-bit product */
#endif

/* An execution space may do the Montgomery product, R^2 mod m and the
 * exponentiations cooperatively (gpu/cuda/pvc_bn_warp.cuh: the 32 lanes
 * of a warp that run one request with identical data).  A hook returns 1
 * when it did the work with the same result, 0 to run the serial code
 * below.  The host defines the product only (with 64-bit limbs). */
#ifndef KC_BN_COOP_MONTMUL
#define KC_BN_COOP_MONTMUL(d, x, y, m, nl, m0i) 0
#endif
#ifndef KC_BN_COOP_MODEXP
#define KC_BN_COOP_MODEXP(x, e, ebits, r2, m, nl, m0i) 0
#define KC_BN_COOP_MODEXP_PUB(x, e, r2, m, nl, m0i) 0
#define KC_BN_COOP_R2(r2, m, nl, m0i, from) 0
#define KC_BN_COOP_MODEXP2(x1, e1, r2_1, m1, m0i_1, x2, e2, r2_2, m2, m0i_2, ebits, nl) 0
#endif

KC_API uint32_t kc_bn_ninv32(uint32_t m0)
{
	uint32_t y = m0;            /* correct mod 2^3 for odd m0 */
	y *= 2u - m0 * y;           /* 2^6 */
	y *= 2u - m0 * y;           /* 2^12 */
	y *= 2u - m0 * y;           /* 2^24 */
	y *= 2u - m0 * y;           /* 2^48 */
	return 0u - y;
}

KC_API void kc_bn_montmul(uint32_t *d, const uint32_t *x, const uint32_t *y,
                          const uint32_t *m, size_t nl, uint32_t m0i)
{
	uint32_t dh = 0, ctl;
	size_t i, j;

	if (KC_BN_COOP_MONTMUL(d, x, y, m, nl, m0i))
		return;
	/* FIOS: t = (t + x[i] y + q m) / 2^32 in one pass per limb of x */
	kc_bn_zero(d, nl);
	for (i = 0; i < nl; i++) {
		uint32_t xi = x[i], q, c1, c2;
		uint64_t s, s2;
		s = (uint64_t)d[0] + (uint64_t)xi * (uint64_t)y[0];
		q = (uint32_t)s * m0i;
		c1 = (uint32_t)(s >> 32);
		s2 = (uint64_t)(uint32_t)s + (uint64_t)q * (uint64_t)m[0];
		c2 = (uint32_t)(s2 >> 32);
		for (j = 1; j < nl; j++) {
			s = (uint64_t)d[j] + (uint64_t)xi * (uint64_t)y[j] + (uint64_t)c1;
			c1 = (uint32_t)(s >> 32);
			s2 = (uint64_t)(uint32_t)s + (uint64_t)q * (uint64_t)m[j] + (uint64_t)c2;
			c2 = (uint32_t)(s2 >> 32);
			d[j - 1] = (uint32_t)s2;
		}
		s = (uint64_t)dh + (uint64_t)c1 + (uint64_t)c2;
		d[nl - 1] = (uint32_t)s;
		dh = (uint32_t)(s >> 32);
	}
	/* t = d + dh R < 2m */
	ctl = dh | (kc_bn_lt(d, m, nl) ^ 1u);
	kc_bn_sub(d, m, nl, ctl);
}

KC_API void kc_bn_montsqr(uint32_t *d, const uint32_t *x,
                          const uint32_t *m, size_t nl, uint32_t m0i)
{
	kc_bn_montmul(d, x, x, m, nl, m0i);
}

/* x = 2x mod m, x < m */
KC_PRIV void kc_bn_mont_dbl(uint32_t *x, const uint32_t *m, size_t nl)
{
	uint32_t c = 0, ctl;
	size_t j;
	for (j = 0; j < nl; j++) {
		uint32_t t = x[j];
		x[j] = (t << 1) | c;
		c = t >> 31;
	}
	ctl = c | (kc_bn_lt(x, m, nl) ^ 1u);
	kc_bn_sub(x, m, nl, ctl);
}

KC_API void kc_bn_r2(uint32_t *r2, const uint32_t *m, size_t nl, uint32_t m0i, uint32_t minbits)
{
	const uint32_t rbits = 32u * (uint32_t)nl;
	uint32_t from = minbits - 1u, i, e = rbits, t[KC_BN_MAX_LIMBS];
	int b, top;

	if (minbits == 0u || minbits > rbits)
		from = 0;
	if (KC_BN_COOP_R2(r2, m, nl, m0i, from))
		return;
	/* R mod m = mont(1): 2^from < m, doubled up to 2^(32 nl) */
	kc_bn_zero(r2, nl);
	r2[from >> 5] = 1u << (from & 31u);
	for (i = from; i < rbits; i++)
		kc_bn_mont_dbl(r2, m, nl);
	/* R^2 mod m = mont(2^E) with E = 32 nl, by square-and-double on the
	 * public E from mont(2^1) */
	top = 31;
	while (top > 0 && !((e >> top) & 1u))
		top--;
	kc_bn_mont_dbl(r2, m, nl);
	for (b = top - 1; b >= 0; b--) {
		kc_bn_montsqr(t, r2, m, nl, m0i);
		for (i = 0; i < nl; i++)
			r2[i] = t[i];
		if ((e >> b) & 1u)
			kc_bn_mont_dbl(r2, m, nl);
	}
	kc_wipe(t, sizeof t);
}

KC_API void kc_bn_to_mont(uint32_t *d, const uint32_t *x, const uint32_t *r2,
                          const uint32_t *m, size_t nl, uint32_t m0i)
{
	kc_bn_montmul(d, x, r2, m, nl, m0i);
}

KC_API void kc_bn_from_mont(uint32_t *d, const uint32_t *x,
                            const uint32_t *m, size_t nl, uint32_t m0i)
{
	uint32_t one[KC_BN_MAX_LIMBS];
	kc_bn_zero(one, nl);
	one[0] = 1;
	kc_bn_montmul(d, one, x, m, nl, m0i);
}

KC_API void kc_bn_mod_wide(uint32_t *r, const uint32_t *a, const uint32_t *r2,
                           const uint32_t *m, size_t nl, uint32_t m0i)
{
	uint32_t t[KC_BN_MAX_LIMBS];
	uint32_t c;
	/* a = hi R + lo;  t = lo / R + hi = a / R (mod m);  r = t R^2 / R */
	kc_bn_from_mont(t, a, m, nl, m0i);
	c = kc_bn_add(t, a + nl, nl, 1);
	c |= kc_bn_lt(t, m, nl) ^ 1u;
	kc_bn_sub(t, m, nl, c);
	kc_bn_montmul(r, t, r2, m, nl, m0i);
	kc_wipe(t, sizeof t);
}

KC_API void kc_bn_modexp(uint32_t *x, const uint32_t *e, size_t ebits,
                         const uint32_t *r2, const uint32_t *m, size_t nl,
                         uint32_t m0i, uint32_t *tmp)
{
	uint32_t *tab = tmp;                 /* 16 entries of nl limbs */
	uint32_t *acc = tmp + 16 * nl;
	uint32_t *t = acc + nl;
	uint32_t *sel = t + nl;
	size_t nw = (ebits + 3) / 4, w, i, k;

	if (KC_BN_COOP_MODEXP(x, e, ebits, r2, m, nl, m0i)) {
		kc_wipe(tmp, KC_BN_MODEXP_TMP(nl) * sizeof(uint32_t));
		return;
	}
	/* tab[0] = mont(1), tab[1] = mont(x), tab[i] = tab[i-1] * tab[1] */
	kc_bn_zero(sel, nl);
	sel[0] = 1;
	kc_bn_montmul(tab, sel, r2, m, nl, m0i);
	kc_bn_montmul(tab + nl, x, r2, m, nl, m0i);
	for (i = 2; i < 16; i++)
		kc_bn_montmul(tab + i * nl, tab + (i - 1) * nl, tab + nl, m, nl, m0i);

	for (i = 0; i < nl; i++)
		acc[i] = tab[i];
	for (w = nw; w > 0; w--) {
		size_t pos = 4 * (w - 1);
		uint32_t bits = (e[pos >> 5] >> (pos & 31)) & 15u;
		if (w != nw) {
			kc_bn_montsqr(t, acc, m, nl, m0i);
			kc_bn_montsqr(acc, t, m, nl, m0i);
			kc_bn_montsqr(t, acc, m, nl, m0i);
			kc_bn_montsqr(acc, t, m, nl, m0i);
		}
		/* sel = tab[bits], reading every entry */
		kc_bn_zero(sel, nl);
		for (k = 0; k < 16; k++) {
			uint32_t mk = 0u - kc_ctl_eq32(bits, (uint32_t)k);
			for (i = 0; i < nl; i++)
				sel[i] |= mk & tab[k * nl + i];
		}
		kc_bn_montmul(t, acc, sel, m, nl, m0i);
		for (i = 0; i < nl; i++)
			acc[i] = t[i];
	}
	kc_bn_from_mont(x, acc, m, nl, m0i);
	kc_wipe(tmp, KC_BN_MODEXP_TMP(nl) * sizeof(uint32_t));
}

KC_API void kc_bn_modexp2(uint32_t *x1, const uint32_t *e1, const uint32_t *r2_1,
                          const uint32_t *m1, uint32_t m0i_1,
                          uint32_t *x2, const uint32_t *e2, const uint32_t *r2_2,
                          const uint32_t *m2, uint32_t m0i_2,
                          size_t ebits, size_t nl, uint32_t *tmp)
{
	if (KC_BN_COOP_MODEXP2(x1, e1, r2_1, m1, m0i_1, x2, e2, r2_2, m2, m0i_2, ebits, nl))
		return;
	kc_bn_modexp(x1, e1, ebits, r2_1, m1, nl, m0i_1, tmp);
	kc_bn_modexp(x2, e2, ebits, r2_2, m2, nl, m0i_2, tmp);
}

KC_API void kc_bn_modexp_pub(uint32_t *x, uint32_t e, const uint32_t *r2,
                             const uint32_t *m, size_t nl, uint32_t m0i,
                             uint32_t *tmp)
{
	uint32_t *xm = tmp, *t = tmp + nl;
	size_t i;
	int b, top = 31;

	if (KC_BN_COOP_MODEXP_PUB(x, e, r2, m, nl, m0i))
		return;
	kc_bn_to_mont(xm, x, r2, m, nl, m0i);
	for (i = 0; i < nl; i++)
		x[i] = xm[i];
	while (top > 0 && !((e >> top) & 1u))
		top--;
	for (b = top - 1; b >= 0; b--) {
		kc_bn_montsqr(t, x, m, nl, m0i);
		if ((e >> b) & 1u) {
			kc_bn_montmul(x, t, xm, m, nl, m0i);
		} else {
			for (i = 0; i < nl; i++)
				x[i] = t[i];
		}
	}
	kc_bn_from_mont(t, x, m, nl, m0i);
	for (i = 0; i < nl; i++)
		x[i] = t[i];
}
