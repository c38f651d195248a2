/*
 * kc_ec_inv.c - modular inversion for the curves' p and n by a binary
 * extended GCD, in VARIABLE time, and the blinded inversion of secrets
 * built on it.
 *
 *   kc_ecf_inv_vartime  a^-1 for a PUBLIC a (verification: s, the Z of a
 *                       public point).  Its running time, branches and
 *                       loop counts depend on a.
 *   kc_ecf_inv_blind    a^-1 for a SECRET a with a secret uniformly random
 *                       blinding b != 0 (same modulus): u = a*b is uniform
 *                       and independent of a, so it is declassified and
 *                       inverted by kc_ecf_inv_vartime; a^-1 = u^-1 * b.
 *                       Only u and u^-1 (worthless without b) are handled
 *                       in variable time.
 *
 * The GCD is Kaliski's "almost Montgomery inverse" (IEEE Trans. Computers
 * 44(8), 1995) with runs of zero bits shifted out at once: for x < m odd
 * prime it gives z = x^-1 2^k mod m with bits(m) <= k <= 2 bits(m); the
 * power of two is then fixed with two Montgomery products.  Invariants
 * (m = u s + v r, 0 <= r < 2m, 0 < s <= m) keep r and s within nl + 1
 * limbs.  About 1.4 bits(m) shift-and-subtract steps of nl limbs, against
 * ~1.5 bits(m) full Montgomery products for Fermat's a^(m-2).
 *
 * Montgomery form in and out, like kc_ecf_inv: for A = aR mod m the GCD
 * gives A^-1 2^k and a^-1 R = A^-1 2^(2N) (N = 32 nl).  0 maps to 0.
 */
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/kc_util.h"

/* trailing zero bits of w != 0 */
KC_PRIV uint32_t kc_ecf_ctz_vt(uint32_t w)
{
	uint32_t n = 0;

	if ((w & 0xffffu) == 0) { n += 16; w >>= 16; }
	if ((w & 0xffu) == 0) { n += 8; w >>= 8; }
	if ((w & 0xfu) == 0) { n += 4; w >>= 4; }
	if ((w & 0x3u) == 0) { n += 2; w >>= 2; }
	if ((w & 0x1u) == 0) n += 1;
	return n;
}

/* a >>= t (nl limbs), 1 <= t <= 31 */
KC_PRIV void kc_ecf_shr_vt(uint32_t *a, uint32_t t, const uint32_t nl)
{
	uint32_t i;

	for (i = 0; i + 1 < nl; i++)
		a[i] = (a[i] >> t) | (a[i + 1] << (32u - t));
	a[nl - 1] >>= t;
}

/* a <<= t (n limbs), 1 <= t <= 31; never overflows here (a <= 2m) */
KC_PRIV void kc_ecf_shl_vt(uint32_t *a, uint32_t t, const uint32_t n)
{
	uint32_t i;

	for (i = n - 1; i > 0; i--)
		a[i] = (a[i] << t) | (a[i - 1] >> (32u - t));
	a[0] <<= t;
}

/* Shift the zero bits out of a != 0 (it ends odd), shift b left by as
 * many; returns how many. */
KC_PRIV uint32_t kc_ecf_strip_vt(uint32_t *a, uint32_t *b, const uint32_t nl)
{
	uint32_t k = 0, t;

	while ((a[0] & 1u) == 0) {
		t = a[0] == 0 ? 31u : kc_ecf_ctz_vt(a[0]);
		kc_ecf_shr_vt(a, t, nl);
		kc_ecf_shl_vt(b, t, nl + 1u);
		k += t;
	}
	return k;
}

/* 1 if a > b (n limbs) */
KC_PRIV uint32_t kc_ecf_gt_vt(const uint32_t *a, const uint32_t *b, const uint32_t n)
{
	uint32_t i;

	for (i = n; i-- > 0;) {
		if (a[i] != b[i])
			return a[i] > b[i] ? 1u : 0u;
	}
	return 0;
}

/* a += b (n limbs, no carry out) */
KC_PRIV void kc_ecf_addto_vt(uint32_t *a, const uint32_t *b, const uint32_t n)
{
	uint32_t i, c = 0;
	uint64_t w;

	for (i = 0; i < n; i++) {
		w = (uint64_t)a[i] + b[i] + c;
		a[i] = (uint32_t)w;
		c = (uint32_t)(w >> 32);
	}
}

/* a -= b (n limbs, a >= b) */
KC_PRIV void kc_ecf_subfrom_vt(uint32_t *a, const uint32_t *b, const uint32_t n)
{
	uint32_t i, br = 0;
	uint64_t w;

	for (i = 0; i < n; i++) {
		w = (uint64_t)a[i] - b[i] - br;
		a[i] = (uint32_t)w;
		br = (uint32_t)(w >> 63);
	}
}

/* z = a^-1 2^k mod m (raw values, a in [1, m)); returns k */
KC_PRIV uint32_t kc_ecf_almost_inv_vt(const kc_ec_mod *m, uint32_t *z, const uint32_t *a,
                                      const uint32_t nl)
{
	uint32_t u[KC_EC_MAXL], v[KC_EC_MAXL], r[KC_EC_MAXL + 1], s[KC_EC_MAXL + 1];
	uint32_t mm[KC_EC_MAXL + 1];
	uint32_t i, k, nz;

	for (i = 0; i < KC_EC_MAXL + 1; i++) {
		r[i] = 0;
		s[i] = 0;
		mm[i] = 0;
	}
	for (i = 0; i < nl; i++) {
		u[i] = m->m[i];
		v[i] = a[i];
		mm[i] = m->m[i];
	}
	s[0] = 1;
	k = kc_ecf_strip_vt(v, r, nl);     /* r = 0: only k counts */
	for (;;) {
		/* u, v odd here */
		if (kc_ecf_gt_vt(u, v, nl)) {
			kc_ecf_subfrom_vt(u, v, nl);
			kc_ecf_addto_vt(r, s, nl + 1u);
			k += kc_ecf_strip_vt(u, s, nl);
		} else {
			kc_ecf_subfrom_vt(v, u, nl);
			kc_ecf_addto_vt(s, r, nl + 1u);
			nz = 0;
			for (i = 0; i < nl; i++)
				nz |= v[i];
			if (nz == 0) {         /* u = v = 1 was reached */
				kc_ecf_shl_vt(r, 1, nl + 1u);
				k++;
				break;
			}
			k += kc_ecf_strip_vt(v, r, nl);
		}
	}
	/* r < 2m: z = m - (r mod m) */
	if (!kc_ecf_gt_vt(mm, r, nl + 1u))
		kc_ecf_subfrom_vt(r, mm, nl + 1u);
	kc_ecf_subfrom_vt(mm, r, nl + 1u);
	for (i = 0; i < nl; i++)
		z[i] = mm[i];
	return k;
}

KC_EC_NOINLINE KC_API void kc_ecf_inv_vartime(const kc_ec_mod *m, uint32_t *r, const uint32_t *a)
{
	uint32_t z[KC_EC_MAXL], t[KC_EC_MAXL];
	uint32_t i, k, e, nz = 0, nb = 32u * m->nl;

	for (i = 0; i < KC_EC_MAXL; i++) {
		z[i] = 0;
		t[i] = 0;
	}
	for (i = 0; i < m->nl; i++)
		nz |= a[i];
	if (nz == 0) {                        /* 0 -> 0, as kc_ecf_inv */
		for (i = 0; i < m->nl; i++)
			r[i] = 0;
		return;
	}
	if (m->nl == 8)                       /* public: the curve */
		k = kc_ecf_almost_inv_vt(m, z, a, 8);
	else
		k = kc_ecf_almost_inv_vt(m, z, a, 12);
	/* z = A^-1 2^k; want A^-1 2^(2N): times 2^e, e = 2N - k in [0, N] */
	e = 2u * nb - k;
	while (e >= nb) {
		kc_ecf_mul(m, z, z, m->r2);       /* z 2^N */
		e -= nb;
	}
	t[e >> 5] = 1u << (e & 31u);          /* 2^e <= 2^(N-1) < m */
	kc_ecf_mul(m, t, t, m->r2);           /* 2^e R */
	kc_ecf_mul(m, r, z, t);               /* z 2^e */
}

KC_API void kc_ecf_inv_blind(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
	uint32_t u[KC_EC_MAXL];
	uint32_t i;

	for (i = 0; i < KC_EC_MAXL; i++)
		u[i] = 0;
	kc_ecf_mul(m, u, a, b);               /* a b: uniform, independent of a */
	KC_EC_DECLASSIFY(u, sizeof u);
	kc_ecf_inv_vartime(m, u, u);          /* (a b)^-1 */
	kc_ecf_mul(m, r, u, b);               /* a^-1 */
	kc_wipe(u, sizeof u);
}
