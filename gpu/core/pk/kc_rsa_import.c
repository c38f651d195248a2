/*
 * kc_rsa_import.c - complete a private key given as (n, e, d) only (PKCS#11
 * allows RSA private-key objects without the CRT attributes): recover p and
 * q (NIST SP 800-56B Rev. 2, Appendix C.2), then dp, dq, qinv.
 *
 *   k = d e - 1 = 2^t r (r odd); for random g: y = g^r mod n; square until
 *   y^2 = 1 with y != +-1: then p = gcd(y - 1, n).
 *
 * This runs once per imported key, on the import path, and is NOT constant
 * time: the loop counts depend on t and on the random bases, and the gcd
 * strips the trailing zeros of y - 1 with a variable-time loop.  The
 * exponentiations themselves use the constant-time kc_bn_modexp.
 */
#include "kc_rsa.h"
#include "kc_bn.h"
#include "../kc_util.h"
#include "../pv_err.h"

#define KC_IM_NL (KC_BN_MAX_LIMBS)
#define KC_IM_HL (KC_BN_MAX_LIMBS / 2)

typedef struct kc_rsa_im_ws {
	uint32_t n[KC_IM_NL], d[KC_IM_NL], r[KC_IM_NL + 1], r2[KC_IM_NL];
	uint32_t y[KC_IM_NL], x[KC_IM_NL], nm1[KC_IM_NL], one[KC_IM_NL];
	uint32_t p[KC_IM_NL], q[KC_IM_NL], t1[KC_IM_NL], t2[KC_IM_NL];
	uint32_t tmp[KC_BN_MODEXP_TMP(KC_IM_NL)];
	uint8_t rnd[KC_RSA_MAX_BYTES];
} kc_rsa_im_ws;

/* p = gcd(y - 1, n) for odd n, variable time; y != 1 */
KC_PRIV void kc_rsa_im_gcd(kc_rsa_im_ws *w, size_t nl)
{
	size_t i;
	for (i = 0; i < nl; i++)
		w->t1[i] = w->y[i];
	kc_bn_sub(w->t1, w->one, nl, 1);
	while (!kc_bn_iszero(w->t1, nl) && (w->t1[0] & 1u) == 0)
		kc_bn_rshift1(w->t1, nl, 0);
	kc_bn_gcd_odd(w->p, w->t1, w->n, nl, w->tmp);
}

/* Fills p, q (nl limbs) in w; returns 1 on success. */
KC_PRIV int kc_rsa_im_factor(kc_rsa_im_ws *w, const kc_rsa_priv *sk, kc_drbg *rng, size_t nl, size_t k)
{
	uint32_t m0i, tz = 0, ebits;
	size_t i;
	int attempt;
	uint32_t j;

	/* r = d e - 1, must be even */
	for (i = 0; i < nl; i++)
		w->r[i] = w->d[i];
	w->r[nl] = kc_bn_mul_small(w->r, nl, sk->e, 0);
	w->one[0] = 1;
	/* subtract 1 (r >= e >= 3 when d >= 1) */
	for (i = 0; i <= nl; i++) {
		uint32_t v = w->r[i];
		w->r[i] = v - 1u;
		if (v != 0)
			break;
	}
	if (kc_bn_iszero(w->r, nl + 1) || (w->r[0] & 1u))
		return 0;
	while ((w->r[0] & 1u) == 0) {
		kc_bn_rshift1(w->r, nl + 1, 0);
		tz++;
	}
	ebits = 32u * (uint32_t)(nl + 1);
	m0i = kc_bn_ninv32(w->n[0]);
	kc_bn_r2(w->r2, w->n, nl, m0i, sk->bits);
	for (i = 0; i < nl; i++)
		w->nm1[i] = w->n[i];
	w->nm1[0] ^= 1u;                                   /* n odd */
	for (attempt = 0; attempt < 64; attempt++) {   /* each fails w.p. <= 1/2 */
		/* g in [2, n - 2]: k - 1 random bytes below n's top byte */
		if (kc_drbg_generate(rng, w->rnd, k - 1, (const uint8_t *)0, 0) != 0)
			return -1;
		kc_bn_decode(w->y, nl, w->rnd, k - 1);
		if (kc_bn_bitlen(w->y, nl) < 2)
			continue;
		kc_bn_modexp(w->y, w->r, ebits, w->r2, w->n, nl, m0i, w->tmp);
		if (kc_bn_eq(w->y, w->one, nl) || kc_bn_eq(w->y, w->nm1, nl))
			continue;
		for (j = 0; j < tz; j++) {
			kc_bn_to_mont(w->t2, w->y, w->r2, w->n, nl, m0i);
			kc_bn_montsqr(w->t1, w->t2, w->n, nl, m0i);
			kc_bn_from_mont(w->x, w->t1, w->n, nl, m0i);
			if (kc_bn_eq(w->x, w->one, nl)) {
				kc_rsa_im_gcd(w, nl);
				kc_bn_div(w->q, w->t1, w->n, w->p, nl);
				return kc_bn_iszero(w->t1, nl) && !kc_bn_eq(w->p, w->one, nl)
				       && !kc_bn_eq(w->q, w->one, nl);
			}
			if (kc_bn_eq(w->x, w->nm1, nl))
				break;
			for (i = 0; i < nl; i++)
				w->y[i] = w->x[i];
		}
		if (j == tz)
			return 0;      /* g^(de-1) != 1: d does not match (n, e) */
	}
	return 0;
}

KC_API int kc_rsa_priv_from_ned(kc_rsa_priv *sk, kc_drbg *rng)
{
	kc_rsa_im_ws w;
	size_t nl, hl, k, i;
	int rc, f;

	kc_memset(&w, 0, sizeof w);
	if (sk->bits < KC_RSA_MIN_BITS || sk->bits > KC_RSA_MAX_BITS)
		return PV_ERR_KEY_SIZE;
	nl = ((size_t)sk->bits + 31) / 32;
	hl = (((size_t)sk->bits + 1) / 2 + 31) / 32;
	k = kc_rsa_len(sk->bits);
	if (!kc_bn_decode(w.n, nl, sk->n, KC_RSA_MAX_BYTES) || kc_bn_bitlen(w.n, nl) != sk->bits
	    || (w.n[0] & 1u) == 0 || (sk->e & 1u) == 0 || sk->e < 3 || sk->e >= 0x80000000u)
		return PV_ERR_PUBKEY;
	if (!kc_bn_decode(w.d, nl, sk->d, KC_RSA_MAX_BYTES) || kc_bn_iszero(w.d, nl))
		return PV_ERR_KEY_TYPE;
	f = kc_rsa_im_factor(&w, sk, rng, nl, k);
	rc = f < 0 ? PV_ERR_RANDOM : f == 0 ? PV_ERR_KEY_TYPE : PV_OK;
	if (rc == PV_OK) {
		/* larger prime first (p > q), both must fit the CRT half size */
		if (kc_bn_lt(w.p, w.q, nl)) {
			for (i = 0; i < nl; i++) {
				uint32_t t = w.p[i];
				w.p[i] = w.q[i];
				w.q[i] = t;
			}
		}
		for (i = hl; i < nl; i++)
			if (w.p[i] | w.q[i])
				rc = PV_ERR_KEY_SIZE;
	}
	if (rc == PV_OK) {
		int j;
		kc_bn_encode(sk->p, KC_RSA_MAX_HBYTES, w.p, hl);
		kc_bn_encode(sk->q, KC_RSA_MAX_HBYTES, w.q, hl);
		for (j = 0; j < 2; j++) {
			uint32_t *pr = j ? w.q : w.p;
			pr[0] ^= 1u;                           /* p - 1 */
			kc_bn_div(w.x, w.t1, w.d, pr, nl);     /* t1 = d mod (p - 1) */
			pr[0] ^= 1u;
			kc_bn_encode(j ? sk->dq : sk->dp, KC_RSA_MAX_HBYTES, w.t1, hl);
		}
		/* qinv = q^-1 mod p (q < p) */
		for (i = 0; i < hl; i++)
			w.t1[i] = w.q[i];
		if (!kc_bn_modinv_odd(w.t1, w.p, hl, w.tmp))
			rc = PV_ERR_KEY_TYPE;
		kc_bn_encode(sk->qinv, KC_RSA_MAX_HBYTES, w.t1, hl);
	}
	if (rc == PV_OK)
		rc = kc_rsa_priv_check(sk);
	if (rc != PV_OK) {
		kc_wipe(sk->p, sizeof sk->p);
		kc_wipe(sk->q, sizeof sk->q);
		kc_wipe(sk->dp, sizeof sk->dp);
		kc_wipe(sk->dq, sizeof sk->dq);
		kc_wipe(sk->qinv, sizeof sk->qinv);
	}
	kc_wipe(&w, sizeof w);
	return rc;
}
