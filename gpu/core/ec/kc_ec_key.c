/*
 * kc_ec_key.c - keys of P-256 / P-384 / SM2: generation, public key,
 * point validation, and ECDH (x coordinate of d*Q).
 */
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

/* Rejection sampling gives up after this many candidates (each is rejected
 * with probability < 2^-32 for all three curves). */
#define KC_EC_KEYGEN_TRIES 64

KC_API size_t kc_ec_flen(int curve)
{
	const kc_ec_params *c = kc_ec_params_get(curve);

	return c == NULL ? 0 : (size_t)c->flen;
}

KC_API uint32_t kc_ec_scalar_ok(const kc_ec_params *c, const uint8_t *k, uint32_t sub)
{
	uint32_t v[KC_EC_MAXL], lim[KC_EC_MAXL];
	uint32_t ok;

	kc_memcpy(lim, c->n.m, sizeof lim);
	lim[0] -= sub;                 /* n[0] > 1 for all curves: no borrow */
	kc_ecf_decode(&c->n, v, k);
	ok = kc_ecf_lt(c->nl, v, lim) & (kc_ecf_is_zero(&c->n, v) ^ 1u);
	kc_wipe(v, sizeof v);
	return ok;
}

KC_API void kc_ec_hash_to_n(const kc_ec_params *c, uint32_t *e, const uint8_t *h, size_t hlen)
{
	uint8_t buf[KC_EC_MAX_FLEN];
	uint32_t flen = c->flen;

	kc_memset(buf, 0, sizeof buf);
	if (hlen >= flen)
		kc_memcpy(buf, h, flen);
	else
		kc_memcpy(buf + (flen - hlen), h, hlen);
	/* bits(n) = 8*flen for all three curves: no bit shift needed. */
	kc_ecf_decode(&c->n, e, buf);
	kc_ecf_reduce_once(&c->n, e, e);
	kc_wipe(buf, sizeof buf);
}

KC_API int kc_ec_priv_check(int curve, const uint8_t *priv)
{
	const kc_ec_params *c = kc_ec_params_get(curve);

	if (c == NULL)
		return PV_ERR_DOMAIN;
	if (priv == NULL)
		return PV_ERR_ARGS;
	return kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, 0)) ? PV_OK : PV_ERR_ARGS;
}

KC_API int kc_ec_pubkey(int curve, const uint8_t *priv, uint8_t *pub)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	kc_ec_pt q;

	if (c == NULL)
		return PV_ERR_DOMAIN;
	if (priv == NULL || pub == NULL)
		return PV_ERR_ARGS;
	if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, 0)))
		return PV_ERR_ARGS;
	kc_ecp_mulgen(c, &q, priv);
	kc_ecp_encode(c, pub, &q);
	kc_wipe(&q, sizeof q);
	return PV_OK;
}

KC_API int kc_ec_keygen(int curve, kc_drbg *drbg, uint8_t *priv, uint8_t *pub)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	uint32_t sub = (curve == KC_EC_SM2) ? 1u : 0u;
	int i, rc;

	if (c == NULL)
		return PV_ERR_DOMAIN;
	if (drbg == NULL || priv == NULL || pub == NULL)
		return PV_ERR_ARGS;
	for (i = 0; i < KC_EC_KEYGEN_TRIES; i++) {
		rc = kc_drbg_generate(drbg, priv, c->flen, NULL, 0);
		if (rc != PV_OK) {
			kc_wipe(priv, c->flen);
			return PV_ERR_RANDOM;
		}
		/* a rejected candidate is discarded: the branch leaks nothing
		 * about the key that is kept */
		if (kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, sub)))
			return kc_ec_pubkey(curve, priv, pub);
	}
	kc_wipe(priv, c->flen);
	return PV_ERR_RANDOM;
}

KC_API int kc_ec_point_check(int curve, const uint8_t *pub, size_t len)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	kc_ec_pt q;

	if (c == NULL)
		return PV_ERR_DOMAIN;
	return kc_ecp_decode(c, &q, pub, len);
}

KC_API int kc_ec_point_decode(int curve, const uint8_t *in, size_t len, uint8_t *out)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	kc_ec_pt q;
	int rc;

	if (c == NULL)
		return PV_ERR_DOMAIN;
	if (out == NULL)
		return PV_ERR_ARGS;
	rc = kc_ecp_decode(c, &q, in, len);
	if (rc != PV_OK)
		return rc;
	kc_ecp_encode(c, out, &q);
	return PV_OK;
}

KC_API int kc_ecdh(int curve, const uint8_t *priv, const uint8_t *peer, size_t peerlen,
                   uint8_t *secret)
{
	const kc_ec_params *c = kc_ec_params_get(curve);
	kc_ec_pt q, s;
	uint32_t x[KC_EC_MAXL], y[KC_EC_MAXL];
	uint32_t ok;
	int rc;

	if (c == NULL)
		return PV_ERR_DOMAIN;
	if (priv == NULL || secret == NULL)
		return PV_ERR_ARGS;
	rc = kc_ecp_decode(c, &q, peer, peerlen);
	if (rc != PV_OK)
		return rc;
	if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, 0)))
		return PV_ERR_ARGS;
	kc_ecp_mul(c, &s, &q, priv);
	ok = kc_ecp_to_affine(c, &s, x, y);
	kc_ecf_from_mont(&c->p, x, x);
	kc_ecf_encode(&c->p, secret, x);
	kc_wipe(&s, sizeof s);
	kc_wipe(x, sizeof x);
	kc_wipe(y, sizeof y);
	/* prime order, d in [1, n-1], Q valid: the identity cannot occur; the
	 * check costs nothing and guards the invariant */
	if (!kc_ec_public_ctl(ok)) {
		kc_wipe(secret, c->flen);
		return PV_ERR_PUBKEY;
	}
	return PV_OK;
}
