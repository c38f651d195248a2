/*
 * kc_sm2.c - SM2 digital signature (GB/T 32918.2-2016, GM/T 0003.2-2012) on
 * the SM2 curve, with the user identity hash Z (§5.5):
 *
 *   Z = SM3(ENTL || ID || a || b || xG || yG || xA || yA),  ENTL = 8*|ID| (16 bits)
 *   e = SM3(Z || M)
 *   sign:   k in [1, n-1], (x1, y1) = k*G, r = (e + x1) mod n, reject r = 0
 *           or r + k = n; s = (1 + d)^-1 (k - r*d) mod n, reject s = 0
 *   verify: r, s in [1, n-1], t = (r + s) mod n != 0, (x1, y1) = s*G + t*P,
 *           accept iff (e + x1) mod n = r
 *
 * k comes from kc_ec_nonce (RFC 6979 with HMAC-SM3 over (d, e mod n),
 * hedged with DRBG output), so a weak DRBG cannot leak d through k.  The
 * inversions of secrets, 1/Z of k*G mod p and (1 + d)^-1 mod n, are
 * blinded (kc_ecf_inv_blind) with values drawn beside each k from the
 * nonce state (kc_ec_nonce_blinds): signatures are unchanged.
 *
 * Computed ahead (kc_sm2_precompute, kc_sm2_sign_pre; the vault does it
 * while idle, as for ECDSA): k, x1 and the blind of (1 + d)^-1 come from
 * a DRBG before the message is known, and the signature then costs the
 * inversion of 1 + d and three products mod n.
 */
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

#define KC_SM2_TRIES 16

KC_API int kc_sm2_z(const uint8_t *pub, size_t publen, const uint8_t *id, size_t idlen,
                    uint8_t z[32])
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_SM2);
	kc_hash_ctx h;
	kc_ec_pt q;
	uint32_t v[KC_EC_MAXL];
	uint8_t buf[65];
	int rc;

	if (z == NULL)
		return PV_ERR_ARGS;
	if (id == NULL) {
		id = (const uint8_t *)KC_SM2_DEFAULT_ID;
		idlen = KC_SM2_DEFAULT_ID_LEN;
	}
	if (idlen >= 8192)
		return PV_ERR_ARGS;
	rc = kc_ecp_decode(c, &q, pub, publen);
	if (rc != PV_OK)
		return rc;
	kc_hash_init(&h, KC_HASH_SM3);
	buf[0] = (uint8_t)((idlen * 8u) >> 8);
	buf[1] = (uint8_t)(idlen * 8u);
	kc_hash_update(&h, buf, 2);
	kc_hash_update(&h, id, idlen);
	kc_memcpy(v, c->p.m, sizeof v);
	v[0] -= 3;                          /* a = p - 3 */
	kc_ecf_encode(&c->p, buf, v);
	kc_hash_update(&h, buf, 32);
	kc_ecf_from_mont(&c->p, v, c->b);
	kc_ecf_encode(&c->p, buf, v);
	kc_hash_update(&h, buf, 32);
	kc_ecf_from_mont(&c->p, v, c->gx);
	kc_ecf_encode(&c->p, buf, v);
	kc_hash_update(&h, buf, 32);
	kc_ecf_from_mont(&c->p, v, c->gy);
	kc_ecf_encode(&c->p, buf, v);
	kc_hash_update(&h, buf, 32);
	/* xA, yA: q is affine (Z = 1) as decoded, so no kc_ecp_encode, whose
	 * constant-time inversion of Z was most of Z's cost (~100 us of a CPU
	 * core's 115, and on the GPU most of a lone SM2 signature) */
	kc_ecf_from_mont(&c->p, v, q.x);
	kc_ecf_encode(&c->p, buf, v);
	kc_hash_update(&h, buf, 32);
	kc_ecf_from_mont(&c->p, v, q.y);
	kc_ecf_encode(&c->p, buf, v);
	kc_hash_update(&h, buf, 32);
	kc_hash_final(&h, z);
	return PV_OK;
}

/* e = SM3(Z || msg) */
KC_PRIV int kc_sm2_digest(const uint8_t *pub, size_t publen, const uint8_t *id, size_t idlen,
                          const uint8_t *msg, size_t msglen, uint8_t e[32])
{
	kc_hash_ctx h;
	uint8_t z[32];
	int rc;

	if (msg == NULL && msglen > 0)
		return PV_ERR_ARGS;
	rc = kc_sm2_z(pub, publen, id, idlen, z);
	if (rc != PV_OK)
		return rc;
	kc_hash_init(&h, KC_HASH_SM3);
	kc_hash_update(&h, z, 32);
	kc_hash_update(&h, msg, msglen);
	kc_hash_final(&h, e);
	return PV_OK;
}

/* r = (e + x1) mod n and s = (1 + d)^-1 (k - r d) mod n, from r = x1 =
 * x(k*G) mod n on entry, k (plain; Montgomery form on return), and d and
 * di = (1 + d)^-1 in Montgomery form; ctl 1 unless r = 0, r + k = n or
 * s = 0 (then another k). */
KC_PRIV uint32_t kc_sm2_rs(const kc_ec_mod *N, const uint32_t *e, const uint32_t *d,
                           const uint32_t *di, uint32_t *k, uint32_t *r, uint32_t *s)
{
	uint32_t t[KC_EC_MAXL], ok;

	kc_ecf_add(N, r, r, e);               /* r = (e + x1) mod n */
	KC_EC_DECLASSIFY(r, 4u * KC_EC_MAXL); /* r is public output */
	kc_ecf_add(N, t, r, k);
	/* r = 0 or r + k = n: reject this k (probability ~2^-255) */
	ok = kc_ec_public_ctl((kc_ecf_is_zero(N, r) | kc_ecf_is_zero(N, t)) ^ 1u);
	if (ok) {
		kc_ecf_to_mont(N, k, k);
		kc_ecf_to_mont(N, t, r);
		kc_ecf_mul(N, t, t, d);           /* r d R */
		kc_ecf_sub(N, t, k, t);           /* (k - r d) R */
		kc_ecf_mul(N, s, t, di);          /* (k - r d)(1 + d)^-1 R */
		kc_ecf_from_mont(N, s, s);
		KC_PROF(5);
		KC_EC_DECLASSIFY(s, 4u * KC_EC_MAXL);   /* s is public output */
		ok = kc_ecf_is_zero(N, s) ^ 1u;
	}
	kc_wipe(t, sizeof t);
	return ok;
}

KC_API int kc_sm2_sign_digest(const uint8_t *priv, const uint8_t *eb, kc_drbg *drbg, uint8_t *sig)
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_SM2);
	const kc_ec_mod *N = &c->n;
	kc_ec_nonce ns;
	kc_ec_pt R;
	uint32_t d[KC_EC_MAXL], e[KC_EC_MAXL], k[KC_EC_MAXL], r[KC_EC_MAXL], s[KC_EC_MAXL];
	uint32_t di[KC_EC_MAXL], bz[KC_EC_MAXL], bd[KC_EC_MAXL];
	uint8_t h1[32], kb[32], extra[32];
	int rc, i, posted;

	if (priv == NULL || eb == NULL || sig == NULL)
		return PV_ERR_ARGS;
	if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, 1)))  /* d in [1, n-2] */
		return PV_ERR_ARGS;
	kc_ec_hash_to_n(c, e, eb, 32);
	kc_ecf_encode(N, h1, e);
	if (drbg != NULL && kc_drbg_generate(drbg, extra, sizeof extra, NULL, 0) != PV_OK) {
		rc = PV_ERR_RANDOM;
		goto out;
	}
	rc = kc_ec_nonce_init(&ns, KC_HASH_SM3, priv, h1, 32, drbg != NULL ? extra : NULL,
	                      drbg != NULL ? sizeof extra : 0);
	if (rc != PV_OK)
		goto out;
	KC_PROF(1);
	kc_ecf_decode(N, d, priv);
	kc_ecf_to_mont(N, d, d);
	rc = PV_ERR_GENERAL;
	for (i = 0; i < KC_SM2_TRIES; i++) {
		kc_ec_nonce_next(&ns, kb);
		if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, kb, 0)))  /* rejected: discarded */
			continue;
		/* blinding for 1/Z (mod p) and (1 + d)^-1 (mod n) */
		if (kc_ec_nonce_blinds(&ns, &c->p, bz, N, bd) != PV_OK)
			break;
		KC_PROF(2);
		kc_ecf_add(N, di, N->one, d);
		posted = KC_EC_COOP_INV_POST(N, di, bd);   /* (1 + d)^-1 alongside k*G */
		kc_ecp_mulgen(c, &R, kb);
		KC_PROF(3);
		kc_ec_xmodn_blind(c, &R, r, bz);
		KC_PROF(4);
		if (posted)
			KC_EC_COOP_INV_TAKE(di);
		else
			kc_ecf_inv_blind(N, di, di, bd);  /* (1 + d)^-1 R */
		kc_ecf_decode(N, k, kb);
		if (!kc_sm2_rs(N, e, d, di, k, r, s))
			continue;
		kc_ecf_encode(N, sig, r);
		kc_ecf_encode(N, sig + 32, s);
		rc = PV_OK;
		break;
	}
out:
	kc_wipe(&ns, sizeof ns);
	kc_wipe(&R, sizeof R);
	kc_wipe(d, sizeof d);
	kc_wipe(di, sizeof di);
	kc_wipe(bz, sizeof bz);
	kc_wipe(bd, sizeof bd);
	kc_wipe(e, sizeof e);
	kc_wipe(k, sizeof k);
	kc_wipe(s, sizeof s);
	kc_wipe(kb, sizeof kb);
	kc_wipe(h1, sizeof h1);
	kc_wipe(extra, sizeof extra);
	return rc;
}

KC_API int kc_sm2_sign(const uint8_t *priv, const uint8_t *pub,
                       const uint8_t *id, size_t idlen,
                       const uint8_t *msg, size_t msglen,
                       kc_drbg *drbg, uint8_t *sig)
{
	uint8_t pk[65], e[32];
	int rc;

	if (priv == NULL || sig == NULL)
		return PV_ERR_ARGS;
	if (pub == NULL) {
		rc = kc_ec_pubkey(KC_EC_SM2, priv, pk);
		if (rc != PV_OK)
			return rc;
		KC_EC_DECLASSIFY(pk, sizeof pk);  /* the public key is public */
		pub = pk;
	}
	rc = kc_sm2_digest(pub, 65, id, idlen, msg, msglen, e);
	if (rc == PV_OK)
		rc = kc_sm2_sign_digest(priv, e, drbg, sig);
	kc_wipe(e, sizeof e);
	return rc;
}

/* kc_ec_pre's SM2 words: k, x1, b, 8 limbs each (kc_ec.h) */
#define KC_SM2_PRE_K 0u
#define KC_SM2_PRE_X 8u
#define KC_SM2_PRE_B 16u

KC_PRIV void kc_sm2_pre_get(const kc_ec_pre *pre, uint32_t at, uint32_t *v)
{
	kc_memset(v, 0, 4u * KC_EC_MAXL);
	kc_memcpy(v, pre->w + at, 32);
}

/* The nonce's half computed ahead: k from the DRBG rather than from
 * RFC 6979 (there is no message yet), x1 = x(k*G) mod n with 1/Z blinded,
 * and the blind of the signature's (1 + d)^-1. */
KC_API int kc_sm2_precompute(kc_drbg *drbg, kc_ec_pre *pre)
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_SM2);
	kc_ec_pt R;
	uint32_t bz[KC_EC_MAXL], v[KC_EC_MAXL];
	uint8_t kb[32];
	int rc, i;

	if (drbg == NULL || pre == NULL)
		return PV_ERR_ARGS;
	kc_memset(pre, 0, sizeof *pre);
	kc_memset(&R, 0, sizeof R);
	rc = PV_ERR_GENERAL;
	for (i = 0; i < KC_SM2_TRIES; i++) {
		if (kc_drbg_generate(drbg, kb, sizeof kb, NULL, 0) != PV_OK) {
			rc = PV_ERR_RANDOM;
			break;
		}
		if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, kb, 0)))  /* rejected: discarded */
			continue;
		if (kc_ec_rand_mod(drbg, &c->p, bz) != PV_OK || kc_ec_rand_mod(drbg, &c->n, v) != PV_OK) {
			rc = PV_ERR_RANDOM;
			break;
		}
		kc_memcpy(pre->w + KC_SM2_PRE_B, v, 32);
		kc_ecp_mulgen(c, &R, kb);
		kc_ec_xmodn_blind(c, &R, v, bz);
		kc_memcpy(pre->w + KC_SM2_PRE_X, v, 32);
		kc_ecf_decode(&c->n, v, kb);
		kc_memcpy(pre->w + KC_SM2_PRE_K, v, 32);
		pre->curve = KC_EC_SM2;
		rc = PV_OK;
		break;
	}
	if (rc != PV_OK)
		kc_wipe(pre, sizeof *pre);
	kc_wipe(&R, sizeof R);
	kc_wipe(bz, sizeof bz);
	kc_wipe(v, sizeof v);
	kc_wipe(kb, sizeof kb);
	return rc;
}

KC_API int kc_sm2_sign_pre(const uint8_t *priv, const uint8_t *eb, kc_ec_pre *pre, uint8_t *sig)
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_SM2);
	const kc_ec_mod *N = &c->n;
	uint32_t d[KC_EC_MAXL], e[KC_EC_MAXL], k[KC_EC_MAXL], r[KC_EC_MAXL], s[KC_EC_MAXL];
	uint32_t di[KC_EC_MAXL], b[KC_EC_MAXL];
	int rc = PV_ERR_ARGS;

	if (pre == NULL)
		return PV_ERR_ARGS;
	if (priv != NULL && eb != NULL && sig != NULL && pre->curve == KC_EC_SM2 &&
	    kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, 1))) {     /* d in [1, n-2] */
		kc_ec_hash_to_n(c, e, eb, 32);
		kc_ecf_decode(N, d, priv);
		kc_ecf_to_mont(N, d, d);
		kc_sm2_pre_get(pre, KC_SM2_PRE_B, b);
		kc_sm2_pre_get(pre, KC_SM2_PRE_X, r);
		kc_sm2_pre_get(pre, KC_SM2_PRE_K, k);
		kc_ecf_add(N, di, N->one, d);
		kc_ecf_inv_blind(N, di, di, b);    /* (1 + d)^-1 R */
		rc = PV_ERR_GENERAL;
		if (kc_sm2_rs(N, e, d, di, k, r, s)) {
			kc_ecf_encode(N, sig, r);
			kc_ecf_encode(N, sig + 32, s);
			rc = PV_OK;
		}
	}
	kc_wipe(pre, sizeof *pre);     /* a nonce signs once */
	kc_wipe(d, sizeof d);
	kc_wipe(di, sizeof di);
	kc_wipe(b, sizeof b);
	kc_wipe(e, sizeof e);
	kc_wipe(k, sizeof k);
	kc_wipe(s, sizeof s);
	return rc;
}

KC_API int kc_sm2_verify_digest(const uint8_t *pub, size_t publen, const uint8_t *eb,
                                const uint8_t *sig, size_t siglen)
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_SM2);
	const kc_ec_mod *N = &c->n;
	kc_ec_pt P, R;
	uint32_t e[KC_EC_MAXL], r[KC_EC_MAXL], s[KC_EC_MAXL], t[KC_EC_MAXL], x[KC_EC_MAXL];
	uint8_t tb[32];
	int rc;

	if (sig == NULL || siglen != 64)
		return PV_ERR_SIG_LEN;
	if (eb == NULL)
		return PV_ERR_ARGS;
	rc = kc_ecp_decode(c, &P, pub, publen);
	if (rc != PV_OK)
		return rc;
	if (!kc_ec_scalar_ok(c, sig, 0) || !kc_ec_scalar_ok(c, sig + 32, 0))
		return PV_ERR_SIG_INVALID;
	kc_ecf_decode(N, r, sig);
	kc_ecf_decode(N, s, sig + 32);
	kc_ecf_add(N, t, r, s);
	if (kc_ecf_is_zero(N, t))
		return PV_ERR_SIG_INVALID;
	kc_ecf_encode(N, tb, t);
	kc_ecp_mul2(c, &R, sig + 32, &P, tb);
	if (!kc_ec_xmodn_pub(c, &R, x))
		return PV_ERR_SIG_INVALID;
	kc_ec_hash_to_n(c, e, eb, 32);
	kc_ecf_add(N, x, x, e);
	return kc_ecf_eq(N, x, r) ? PV_OK : PV_ERR_SIG_INVALID;
}

KC_API int kc_sm2_verify(const uint8_t *pub, size_t publen,
                         const uint8_t *id, size_t idlen,
                         const uint8_t *msg, size_t msglen,
                         const uint8_t *sig, size_t siglen)
{
	uint8_t e[32];
	int rc;

	if (sig == NULL || siglen != 64)
		return PV_ERR_SIG_LEN;
	rc = kc_sm2_digest(pub, publen, id, idlen, msg, msglen, e);
	if (rc != PV_OK)
		return rc;
	return kc_sm2_verify_digest(pub, publen, e, sig, siglen);
}
