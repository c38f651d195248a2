/*
 * kc_bn_inv.c - constant-time modular inverses.
 *
 * kc_bn_modinv_odd: binary extended GCD for an odd modulus, with a fixed
 * number of iterations (2 * 32 nl) and only masked swaps/subtractions.
 *   invariant: a = u x (mod m), b = v x (mod m), b odd.
 *   step: if a odd { if a < b swap(a,b),(u,v); a -= b; u -= v }
 *         a /= 2; u /= 2 (mod m)
 * Each step shrinks a*b by at least half, so a reaches 0 and b = gcd.
 *
 * kc_bn_inv_small_e: e^-1 mod m for a small public e and any m (RSA's
 * d = e^-1 mod phi, dP = e^-1 mod (p-1)): with k = -(m mod e)^-1 mod e,
 * d = (k m + 1) / e exactly.
 */
#include "kc_bn.h"
#include "../kc_util.h"

KC_PRIV void kc_bn_cswap(uint32_t ctl, uint32_t *a, uint32_t *b, size_t nl)
{
	uint32_t msk = 0u - ctl;
	size_t i;
	for (i = 0; i < nl; i++) {
		uint32_t t = msk & (a[i] ^ b[i]);
		a[i] ^= t;
		b[i] ^= t;
	}
}

KC_API uint32_t kc_bn_modinv_odd(uint32_t *x, const uint32_t *m, size_t nl, uint32_t *tmp)
{
	uint32_t *a = tmp, *b = tmp + nl, *u = tmp + 2 * nl, *v = x;
	uint32_t ok;
	size_t i, it;

	for (i = 0; i < nl; i++) {
		a[i] = x[i];
		b[i] = m[i];
		u[i] = 0;
		v[i] = 0;
	}
	u[0] = 1;
	for (it = 0; it < 64 * nl; it++) {
		uint32_t odd = a[0] & 1u, sw, bo, uo, c;
		sw = odd & kc_bn_lt(a, b, nl);
		kc_bn_cswap(sw, a, b, nl);
		kc_bn_cswap(sw, u, v, nl);
		kc_bn_sub(a, b, nl, odd);
		bo = kc_bn_sub(u, v, nl, odd) & odd;
		kc_bn_add(u, m, nl, bo);
		kc_bn_rshift1(a, nl, 0);
		uo = u[0] & 1u;
		c = kc_bn_add(u, m, nl, uo) & uo;
		kc_bn_rshift1(u, nl, c);
	}
	/* gcd == 1 iff b == 1 */
	b[0] ^= 1u;
	ok = kc_bn_iszero(b, nl);
	kc_wipe(tmp, 3 * nl * sizeof(uint32_t));
	return ok;
}

KC_API void kc_bn_gcd_odd(uint32_t *g, const uint32_t *a0, const uint32_t *b0, size_t nl, uint32_t *tmp)
{
	uint32_t *a = tmp, *b = tmp + nl;
	size_t i, it;
	for (i = 0; i < nl; i++) {
		a[i] = a0[i];
		b[i] = b0[i];
	}
	/* b stays odd; a shrinks to 0 */
	for (it = 0; it < 64 * nl; it++) {
		uint32_t odd = a[0] & 1u, sw = odd & kc_bn_lt(a, b, nl);
		kc_bn_cswap(sw, a, b, nl);
		kc_bn_sub(a, b, nl, odd);
		kc_bn_rshift1(a, nl, 0);
	}
	for (i = 0; i < nl; i++)
		g[i] = b[i];
	kc_wipe(tmp, 2 * nl * sizeof(uint32_t));
}

KC_API uint32_t kc_bn_inv_small_e(uint32_t *d, uint32_t e, const uint32_t *m, size_t nl, uint32_t *tmp)
{
	uint32_t r, k[1], em[1], t3[3], ok;
	size_t i;

	r = kc_bn_mod_small(m, nl, e);
	k[0] = r;
	em[0] = e;
	ok = kc_bn_modinv_odd(k, em, 1, t3);
	/* k = e - r^-1: then k m = -1 (mod e) */
	k[0] = e - k[0];
	for (i = 0; i < nl; i++)
		tmp[i] = m[i];
	tmp[nl] = kc_bn_mul_small(tmp, nl, k[0], 1);
	kc_bn_div_small(tmp, nl + 1, e);
	for (i = 0; i < nl; i++)
		d[i] = tmp[i];
	kc_wipe(tmp, (nl + 1) * sizeof(uint32_t));
	kc_wipe(k, sizeof k);
	kc_wipe(&r, sizeof r);
	return ok;
}
