/*
 * kc_rsa_keygen.c - RSA key-pair generation (FIPS 186-5 A.1.3 style with
 * probable primes): p, q of bits/2 bits each from kc_prime_gen,
 * |p - q| > 2^(bits/2 - 100), d = e^-1 mod lcm(p-1, q-1) with d > 2^(bits/2),
 * dp, dq, qinv = q^-1 mod p.  The result is checked by a sign/verify
 * round trip through kc_rsa_private before it is returned.
 */
#include "kc_rsa.h"
#include "kc_bn.h"
#include "../kc_util.h"
#include "../pv_err.h"

#define KC_KG_NL (KC_BN_MAX_LIMBS)
#define KC_KG_HL (KC_BN_MAX_LIMBS / 2)

/* The key from primes p, q (pb = bits / 2 bits each) and d_p, d_q: sk
 * and 1, or 0 when p, q do not qualify (a new pair is drawn).  Not
 * inlined on the GPU (KC_OUTLINE), like kc_rsa_keygen_key below: their
 * frames are not live under kc_prime_gen's Miller-Rabin and kc_rsa_keygen's
 * pairwise check, the deepest calls of RSA key generation
 * (docs/gpu-kernel.md, cuda-frame-paths). */
KC_OUTLINE uint32_t kc_rsa_keygen_pq(uint32_t *p, const uint32_t *q, const uint32_t *dp,
                                      const uint32_t *dq, uint32_t bits, uint32_t e,
                                      kc_rsa_priv *sk)
{
	uint32_t qi[KC_KG_HL], diff[KC_KG_HL], n[KC_KG_NL], phi[KC_KG_NL], d[KC_KG_NL];
	uint32_t dp2[KC_KG_HL], qh[KC_KG_HL], g[KC_KG_HL];
	uint32_t t[3 * KC_KG_HL + KC_KG_NL + 1];
	uint32_t pb = bits / 2, ok, c;
	size_t hl = ((size_t)pb + 31) / 32, nl = ((size_t)bits + 31) / 32;

	/* |p - q| > 2^(pb - 100) */
	kc_memcpy(diff, p, hl * 4);
	c = kc_bn_sub(diff, q, hl, 1);
	kc_memcpy(t, q, hl * 4);
	kc_bn_sub(t, p, hl, c);
	kc_bn_ccopy(c, diff, t, hl);
	ok = kc_bn_bitlen(diff, hl) > pb - 100;
	if (ok) {
		/* n; lambda = lcm(p-1, q-1) = (p-1) (q'/g) with p' = (p-1)/2,
		 * q' = (q-1)/2 (both odd: p, q = 3 mod 4), g = gcd(p', q'); d */
		kc_bn_zero(n, KC_KG_NL);
		kc_bn_mul(n, p, hl, q, hl);
		kc_memcpy(dp2, p, hl * 4);
		kc_memcpy(qh, q, hl * 4);
		kc_bn_rshift1(dp2, hl, 0);
		kc_bn_rshift1(qh, hl, 0);
		kc_bn_gcd_odd(g, dp2, qh, hl, t);
		kc_bn_div(dp2, diff, qh, g, hl);            /* dp2 = q' / g */
		p[0] ^= 1u;
		kc_bn_zero(phi, KC_KG_NL);
		kc_bn_mul(phi, p, hl, dp2, hl);              /* phi := lambda */
		p[0] ^= 1u;
		ok = kc_bn_inv_small_e(d, e, phi, nl, t);
		ok &= kc_ctl_neq32(kc_bn_bitlen(d, nl) > pb, 0);
	}
	if (ok) {
		/* qinv = q^-1 mod p; q < 2^pb < 2p, so one subtraction reduces */
		kc_memcpy(qi, q, hl * 4);
		c = kc_bn_lt(qi, p, hl);
		kc_bn_sub(qi, p, hl, c ^ 1u);
		ok = kc_bn_modinv_odd(qi, p, hl, t) != 0;
	}
	if (ok) {
		sk->bits = bits;
		sk->e = e;
		kc_bn_encode(sk->n, KC_RSA_MAX_BYTES, n, nl);
		kc_bn_encode(sk->d, KC_RSA_MAX_BYTES, d, nl);
		kc_bn_encode(sk->p, KC_RSA_MAX_HBYTES, p, hl);
		kc_bn_encode(sk->q, KC_RSA_MAX_HBYTES, q, hl);
		kc_bn_encode(sk->dp, KC_RSA_MAX_HBYTES, dp, hl);
		kc_bn_encode(sk->dq, KC_RSA_MAX_HBYTES, dq, hl);
		kc_bn_encode(sk->qinv, KC_RSA_MAX_HBYTES, qi, hl);
	}
	kc_wipe(qi, sizeof qi);
	kc_wipe(diff, sizeof diff);
	kc_wipe(phi, sizeof phi);
	kc_wipe(dp2, sizeof dp2);
	kc_wipe(qh, sizeof qh);
	kc_wipe(g, sizeof g);
	kc_wipe(d, sizeof d);
	kc_wipe(t, sizeof t);
	return ok;
}

/* The key itself: sk on PV_OK (up to 8 pairs of primes). */
KC_OUTLINE int kc_rsa_keygen_key(kc_drbg *rng, uint32_t bits, uint32_t e, kc_rsa_priv *sk)
{
	uint32_t p[KC_KG_HL], q[KC_KG_HL], dp[KC_KG_HL], dq[KC_KG_HL];
	uint32_t pb = bits / 2;
	int rc = PV_ERR_RANDOM, attempt;

	for (attempt = 0; attempt < 8; attempt++) {
		rc = kc_prime_gen(rng, p, pb, e, dp);
		if (rc != PV_OK)
			break;
		rc = kc_prime_gen(rng, q, pb, e, dq);
		if (rc != PV_OK)
			break;
		if (kc_rsa_keygen_pq(p, q, dp, dq, bits, e, sk))
			break;
	}
	if (attempt == 8)
		rc = PV_ERR_RANDOM;
	kc_wipe(p, sizeof p);
	kc_wipe(q, sizeof q);
	kc_wipe(dp, sizeof dp);
	kc_wipe(dq, sizeof dq);
	return rc;
}

KC_API int kc_rsa_keygen(kc_drbg *rng, uint32_t bits, uint32_t e, kc_rsa_priv *sk)
{
	uint8_t blk[KC_RSA_MAX_BYTES];
	int rc;

	if (bits < KC_RSA_MIN_BITS || bits > KC_RSA_MAX_BITS || (bits & 1u))
		return PV_ERR_KEY_SIZE;
	if ((e & 1u) == 0 || e < 3 || e >= 0x80000000u)
		return PV_ERR_ARGS;
	kc_wipe(sk, sizeof *sk);
	rc = kc_rsa_keygen_key(rng, bits, e, sk);
	if (rc != PV_OK) {
		kc_wipe(sk, sizeof *sk);
		return rc;
	}
	/* pairwise consistency: a private operation with its fault check */
	kc_memset(blk, 0, sizeof blk);
	blk[1] = 0x5a;
	blk[kc_rsa_len(bits) - 1] = 0x01;
	rc = kc_rsa_private(sk, rng, blk, kc_rsa_len(bits), blk);
	if (rc != PV_OK)
		kc_wipe(sk, sizeof *sk);
	kc_wipe(blk, sizeof blk);
	return rc;
}
