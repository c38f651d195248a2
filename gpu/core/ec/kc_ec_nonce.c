/*
 * kc_ec_nonce.c - deterministic (and hedged) ECDSA / SM2 nonces, RFC 6979
 * §3.2 with the additional data k' of §3.6.
 *
 *   K = 0x00..00, V = 0x01..01
 *   K = HMAC_K(V || 0x00 || int2octets(x) || bits2octets(h1) || k')
 *   V = HMAC_K(V)
 *   K = HMAC_K(V || 0x01 || int2octets(x) || bits2octets(h1) || k')
 *   V = HMAC_K(V)
 *   candidate: V = HMAC_K(V), k = bits2int(V)   (hlen == flen here)
 *   retry:     K = HMAC_K(V || 0x00), V = HMAC_K(V), then a new candidate.
 *
 * With k' empty this is exactly RFC 6979; with k' fresh from the DRBG the
 * nonce stays secret even if the DRBG is weak (it depends on x) and stays
 * unpredictable even if the same (x, h) repeats.  Only public lengths are
 * branched on.
 */
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/hash/kc_hmac.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

KC_PRIV void kc_ec_nonce_mac_v(kc_ec_nonce *st, uint8_t *out)
{
	kc_hmac_ctx h;

	kc_hmac_init(&h, st->alg, st->K, st->hlen);
	kc_hmac_update(&h, st->V, st->hlen);
	kc_hmac_final(&h, out);
}

KC_API int kc_ec_nonce_init(kc_ec_nonce *st, uint32_t alg, const uint8_t *x, const uint8_t *h1,
                            uint32_t flen, const uint8_t *extra, size_t elen)
{
	kc_hmac_ctx h;
	uint8_t sep;
	uint32_t round;
	int rc;

	st->alg = alg;
	st->hlen = (uint32_t)kc_hash_len(alg);
	st->first = 1;
	if (st->hlen != flen || flen > KC_EC_MAX_FLEN_INT)
		return PV_ERR_GENERAL;
	kc_memset(st->K, 0x00, sizeof st->K);
	kc_memset(st->V, 0x01, sizeof st->V);
	for (round = 0; round < 2; round++) {
		sep = (uint8_t)round;
		rc = kc_hmac_init(&h, alg, st->K, st->hlen);
		if (rc != PV_OK)
			return rc;
		kc_hmac_update(&h, st->V, st->hlen);
		kc_hmac_update(&h, &sep, 1);
		kc_hmac_update(&h, x, flen);
		kc_hmac_update(&h, h1, flen);
		if (extra != NULL && elen > 0)
			kc_hmac_update(&h, extra, elen);
		kc_hmac_final(&h, st->K);
		kc_ec_nonce_mac_v(st, st->V);
	}
	return PV_OK;
}

KC_API void kc_ec_nonce_next(kc_ec_nonce *st, uint8_t *k)
{
	kc_hmac_ctx h;
	uint8_t zero = 0;

	if (!st->first) {
		kc_hmac_init(&h, st->alg, st->K, st->hlen);
		kc_hmac_update(&h, st->V, st->hlen);
		kc_hmac_update(&h, &zero, 1);
		kc_hmac_final(&h, st->K);
		kc_ec_nonce_mac_v(st, st->V);
	}
	st->first = 0;
	kc_ec_nonce_mac_v(st, st->V);
	kc_memcpy(k, st->V, st->hlen);
}
