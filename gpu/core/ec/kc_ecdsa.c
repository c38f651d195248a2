/*
 * kc_ecdsa.c - ECDSA (FIPS 186-4 §6, SEC1 §4.1) over P-256 and P-384 (and
 * the SM2 curve, should anyone want plain ECDSA there), raw r||s signatures.
 *
 * Sign: e = leftmost bits of the hash (bits(n) = 8*flen), k from
 * kc_ec_nonce (RFC 6979, hedged), R = k*G (comb), r = x(R) mod n,
 * s = k^-1 (e + r*d) mod n.  Or in two halves: kc_ecdsa_precompute draws k
 * from a DRBG and computes r and k^-1 before the message is known, and
 * kc_ecdsa_sign_pre computes s (the vault does the first half while
 * idle).  The two inversions of secrets (1/Z of R mod p, k^-1 mod n) are
 * blinded (kc_ecf_inv_blind) with values drawn beside k
 * from the nonce state (kc_ec_nonce_blinds), which leaves the nonce
 * sequence, and so r and s, exactly as RFC 6979 makes them.
 * Verify: u1 = e/s, u2 = r/s, R = u1*G + u2*Q, accept iff x(R) = r mod n;
 * public data only, inversions in variable time.
 */
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

/* A candidate k out of range, r = 0 or s = 0 each happen with probability
 * about 2^-128 or less; the loop bound only guards against a broken hash. */
#define KC_ECDSA_TRIES 16

/* kc_ec.h's kc_ec_pre spells KC_EC_MAXL out (C and CUDA C++ alike) */
typedef char kc_ec_pre_maxl_ok[sizeof(((kc_ec_pre *)0)->w) == 8u * KC_EC_MAXL ? 1 : -1];

KC_PRIV uint32_t kc_ecdsa_halg(const kc_ec_params *c, int curve)
{
	if (curve == KC_EC_SM2)
		return KC_HASH_SM3;
	return c->flen == 48 ? KC_HASH_SHA384 : KC_HASH_SHA256;
}

/* x(R) mod n for a projective R, zi = 1/Z (Montgomery). */
KC_PRIV void kc_ec_xmodn_zi(const kc_ec_params *c, const kc_ec_pt *R, const uint32_t *zi, uint32_t *r)
{
	uint32_t x[KC_EC_MAXL];

	kc_ecf_mul(&c->p, x, R->x, zi);
	kc_ecf_from_mont(&c->p, x, x);
	kc_ecf_reduce_once(&c->n, r, x);   /* x < p < 2n */
	kc_wipe(x, sizeof x);
}

KC_API uint32_t kc_ec_xmodn_pub(const kc_ec_params *c, const kc_ec_pt *R, uint32_t *r)
{
	uint32_t zi[KC_EC_MAXL];

	kc_ecf_inv_vartime(&c->p, zi, R->z);
	kc_ec_xmodn_zi(c, R, zi, r);
	return kc_ecf_is_zero(&c->p, R->z) ^ 1u;
}

KC_API uint32_t kc_ec_xmodn_blind(const kc_ec_params *c, const kc_ec_pt *R, uint32_t *r,
                                  const uint32_t *bz)
{
	uint32_t zi[KC_EC_MAXL], ok;

	ok = kc_ecf_is_zero(&c->p, R->z) ^ 1u;
	kc_ecf_inv_blind(&c->p, zi, R->z, bz);
	kc_ec_xmodn_zi(c, R, zi, r);
	kc_wipe(zi, sizeof zi);
	return ok;
}

/* The nonce's half of a signature: R = k*G, r = x(R) mod n and kinv =
 * k^-1 mod n (Montgomery form), the two inversions blinded with bz (mod
 * p) and bk (mod n); k^-1 runs beside k*G where the vault's warp 1 can
 * take it.  ctl 1 unless r = 0. */
KC_PRIV uint32_t kc_ecdsa_commit(const kc_ec_params *c, const uint8_t *kb, const uint32_t *bz,
                                 const uint32_t *bk, uint32_t *r, uint32_t *kinv)
{
	const kc_ec_mod *N = &c->n;
	kc_ec_pt R;
	int posted;

	kc_ecf_decode(N, kinv, kb);
	kc_ecf_to_mont(N, kinv, kinv);
	posted = KC_EC_COOP_INV_POST(N, kinv, bk);   /* k^-1 alongside k*G */
	kc_ecp_mulgen(c, &R, kb);
	KC_PROF(3);
	kc_ec_xmodn_blind(c, &R, r, bz);
	KC_PROF(4);
	if (posted)
		KC_EC_COOP_INV_TAKE(kinv);
	else
		kc_ecf_inv_blind(N, kinv, kinv, bk);    /* k^-1 R */
	kc_wipe(&R, sizeof R);
	KC_EC_DECLASSIFY(r, 4u * KC_EC_MAXL);    /* r is public output */
	return kc_ecf_is_zero(N, r) ^ 1u;
}

/* s = k^-1 (e + r d) mod n, with d, e and kinv in Montgomery form and r
 * plain; ctl 1 unless s = 0. */
KC_PRIV uint32_t kc_ecdsa_s(const kc_ec_mod *N, const uint32_t *r, const uint32_t *d,
                            const uint32_t *e, const uint32_t *kinv, uint32_t *s)
{
	uint32_t t[KC_EC_MAXL];

	kc_ecf_to_mont(N, t, r);
	kc_ecf_mul(N, t, t, d);           /* r d R */
	kc_ecf_add(N, t, t, e);           /* (e + r d) R */
	kc_ecf_mul(N, s, t, kinv);        /* (e + r d) k^-1 R */
	kc_ecf_from_mont(N, s, s);
	KC_PROF(5);
	kc_wipe(t, sizeof t);
	KC_EC_DECLASSIFY(s, 4u * KC_EC_MAXL);    /* s is public output */
	return kc_ecf_is_zero(N, s) ^ 1u;
}

/* The checks of both signing entry points; on PV_OK, e and d (Montgomery
 * form) are the digest and the private key. */
KC_PRIV int kc_ecdsa_sign_in(const kc_ec_params *c, const uint8_t *priv, const uint8_t *hash,
                             size_t hlen, const uint8_t *sig, uint32_t *e, uint32_t *d)
{
	if (c == NULL)
		return PV_ERR_DOMAIN;
	if (priv == NULL || sig == NULL || (hash == NULL && hlen > 0))
		return PV_ERR_ARGS;
	if (hlen == 0)
		return PV_ERR_DATA_LEN;
	if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, 0)))
		return PV_ERR_ARGS;
	kc_ec_hash_to_n(c, e, hash, hlen);
	kc_ecf_decode(&c->n, d, priv);
	kc_ecf_to_mont(&c->n, d, d);
	return PV_OK;
}

KC_API int kc_ecdsa_sign(int curve, const uint8_t *priv, const uint8_t *hash, size_t hlen,
                         kc_drbg *drbg, uint8_t *sig)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	const kc_ec_mod *N;
	kc_ec_nonce ns;
	uint32_t d[KC_EC_MAXL], e[KC_EC_MAXL], k[KC_EC_MAXL], r[KC_EC_MAXL], s[KC_EC_MAXL];
	uint32_t bz[KC_EC_MAXL], bk[KC_EC_MAXL];
	uint8_t h1[KC_EC_MAX_FLEN], kb[KC_EC_MAX_FLEN], extra[KC_EC_MAX_FLEN];
	uint32_t flen;
	int rc, i;

	kc_memset(&ns, 0, sizeof ns);
	rc = kc_ecdsa_sign_in(c, priv, hash, hlen, sig, e, d);
	if (rc != PV_OK)
		goto out;
	N = &c->n;
	flen = c->flen;

	kc_ecf_encode(N, h1, e);
	if (drbg != NULL) {
		rc = kc_drbg_generate(drbg, extra, flen, NULL, 0);
		if (rc != PV_OK) {
			rc = PV_ERR_RANDOM;
			goto out;
		}
	}
	rc = kc_ec_nonce_init(&ns, kc_ecdsa_halg(c, curve), priv, h1, flen,
	                      drbg != NULL ? extra : NULL, drbg != NULL ? flen : 0);
	if (rc != PV_OK)
		goto out;
	KC_PROF(1);

	kc_ecf_to_mont(N, e, e);
	rc = PV_ERR_GENERAL;
	for (i = 0; i < KC_ECDSA_TRIES; i++) {
		kc_ec_nonce_next(&ns, kb);
		if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, kb, 0)))  /* rejected: discarded */
			continue;
		/* blinding for 1/Z (mod p) and k^-1 (mod n) */
		if (kc_ec_nonce_blinds(&ns, &c->p, bz, N, bk) != PV_OK)
			break;
		KC_PROF(2);
		if (!kc_ecdsa_commit(c, kb, bz, bk, r, k) || !kc_ecdsa_s(N, r, d, e, k, s))
			continue;
		kc_ecf_encode(N, sig, r);
		kc_ecf_encode(N, sig + flen, s);
		rc = PV_OK;
		break;
	}
out:
	kc_wipe(&ns, sizeof ns);
	kc_wipe(d, sizeof d);
	kc_wipe(e, sizeof e);
	kc_wipe(k, sizeof k);
	kc_wipe(s, sizeof s);
	kc_wipe(bz, sizeof bz);
	kc_wipe(bk, sizeof bk);
	kc_wipe(kb, sizeof kb);
	kc_wipe(h1, sizeof h1);
	kc_wipe(extra, sizeof extra);
	return rc;
}

KC_API int kc_ecdsa_precompute(int curve, kc_drbg *drbg, kc_ec_pre *pre)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	uint32_t bz[KC_EC_MAXL], bk[KC_EC_MAXL];
	uint8_t kb[KC_EC_MAX_FLEN];
	int rc, i;

	if (c == NULL || curve == KC_EC_SM2)
		return PV_ERR_DOMAIN;
	if (drbg == NULL || pre == NULL)
		return PV_ERR_ARGS;
	kc_memset(pre, 0, sizeof *pre);
	rc = PV_ERR_GENERAL;
	for (i = 0; i < KC_ECDSA_TRIES; i++) {
		if (kc_drbg_generate(drbg, kb, c->flen, NULL, 0) != PV_OK) {
			rc = PV_ERR_RANDOM;
			break;
		}
		if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, kb, 0)))  /* rejected: discarded */
			continue;
		if (kc_ec_rand_mod(drbg, &c->p, bz) != PV_OK ||
		    kc_ec_rand_mod(drbg, &c->n, bk) != PV_OK) {
			rc = PV_ERR_RANDOM;
			break;
		}
		if (!kc_ecdsa_commit(c, kb, bz, bk, pre->w + KC_EC_MAXL, pre->w))
			continue;
		pre->curve = curve;
		rc = PV_OK;
		break;
	}
	if (rc != PV_OK)
		kc_wipe(pre, sizeof *pre);
	kc_wipe(bz, sizeof bz);
	kc_wipe(bk, sizeof bk);
	kc_wipe(kb, sizeof kb);
	return rc;
}

KC_API int kc_ecdsa_sign_pre(int curve, const uint8_t *priv, const uint8_t *hash, size_t hlen,
                             kc_ec_pre *pre, uint8_t *sig)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	uint32_t d[KC_EC_MAXL], e[KC_EC_MAXL], s[KC_EC_MAXL];
	int rc;

	if (pre == NULL)
		return PV_ERR_ARGS;
	rc = kc_ecdsa_sign_in(c, priv, hash, hlen, sig, e, d);
	if (rc == PV_OK && (pre->curve != curve || curve == KC_EC_SM2))
		rc = PV_ERR_ARGS;
	if (rc == PV_OK) {
		kc_ecf_to_mont(&c->n, e, e);
		if (kc_ecdsa_s(&c->n, pre->w + KC_EC_MAXL, d, e, pre->w, s)) {
			kc_ecf_encode(&c->n, sig, pre->w + KC_EC_MAXL);
			kc_ecf_encode(&c->n, sig + c->flen, s);
		} else {
			rc = PV_ERR_GENERAL;
		}
	}
	kc_wipe(pre, sizeof *pre);     /* a nonce signs once */
	kc_wipe(d, sizeof d);
	kc_wipe(e, sizeof e);
	kc_wipe(s, sizeof s);
	return rc;
}

KC_API int kc_ecdsa_verify(int curve, const uint8_t *pub, size_t publen,
                           const uint8_t *hash, size_t hlen,
                           const uint8_t *sig, size_t siglen)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	const kc_ec_mod *N;
	kc_ec_pt Q, R;
	uint32_t e[KC_EC_MAXL], r[KC_EC_MAXL], s[KC_EC_MAXL], w[KC_EC_MAXL], x[KC_EC_MAXL];
	uint8_t u1[KC_EC_MAX_FLEN], u2[KC_EC_MAX_FLEN];
	uint32_t flen;
	int rc;

	if (c == NULL)
		return PV_ERR_DOMAIN;
	N = &c->n;
	flen = c->flen;
	if (sig == NULL || siglen != 2u * flen)
		return PV_ERR_SIG_LEN;
	if (hash == NULL || hlen == 0)
		return PV_ERR_DATA_LEN;
	rc = kc_ecp_decode(c, &Q, pub, publen);
	if (rc != PV_OK)
		return rc;
	if (!kc_ec_scalar_ok(c, sig, 0) || !kc_ec_scalar_ok(c, sig + flen, 0))
		return PV_ERR_SIG_INVALID;
	kc_ecf_decode(N, r, sig);
	kc_ecf_decode(N, s, sig + flen);
	kc_ec_hash_to_n(c, e, hash, hlen);

	kc_ecf_to_mont(N, w, s);
	kc_ecf_inv_vartime(N, w, w);          /* s^-1 R (public) */
	kc_ecf_mul(N, x, e, w);               /* e/s */
	kc_ecf_encode(N, u1, x);
	kc_ecf_mul(N, x, r, w);               /* r/s */
	kc_ecf_encode(N, u2, x);
	kc_ecp_mul2(c, &R, u1, &Q, u2);
	if (!kc_ec_xmodn_pub(c, &R, x))
		return PV_ERR_SIG_INVALID;
	return kc_ecf_eq(N, x, r) ? PV_OK : PV_ERR_SIG_INVALID;
}
