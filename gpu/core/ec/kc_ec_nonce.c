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
 * branched on.  Also here: kc_ec_rand_mod, a value mod m from the DRBG
 * alone (the blinds of a nonce computed ahead, which has no key).
 */
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/hash/kc_hmac.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

/* K changed: key the HMAC with it once (st->key); every HMAC_K then
 * starts from its chaining values (kc_hmac_key), which saves the two
 * compressions of the key blocks per HMAC (on a lone GPU thread each
 * compression is ~2.5 us) and the copy of a whole HMAC context. */
KC_PRIV int kc_ec_nonce_setk(kc_ec_nonce *st)
{
	return kc_hmac_key_init(&st->key, st->alg, st->K, st->hlen);
}

/* V = HMAC_K(V) */
KC_PRIV void kc_ec_nonce_mac_v(kc_ec_nonce *st)
{
	kc_hmac_md h;

	kc_hmac_md_start(&st->key, &h);
	kc_hmac_md_add(&st->key, &h, st->V, st->hlen);
	kc_hmac_md_end(&st->key, &h, st->V);
}

/* K = HMAC_K(V || sep || x || h1 || extra) (x NULL: V || sep alone),
 * then V = HMAC_K(V) with the new K */
KC_PRIV int kc_ec_nonce_update(kc_ec_nonce *st, uint8_t sep, const uint8_t *x, const uint8_t *h1,
                               uint32_t flen, const uint8_t *extra, size_t elen)
{
	kc_hmac_md h;
	int rc;

	kc_hmac_md_start(&st->key, &h);
	kc_hmac_md_add(&st->key, &h, st->V, st->hlen);
	kc_hmac_md_add(&st->key, &h, &sep, 1);
	if (x != NULL) {
		kc_hmac_md_add(&st->key, &h, x, flen);
		kc_hmac_md_add(&st->key, &h, h1, flen);
	}
	if (extra != NULL && elen > 0)
		kc_hmac_md_add(&st->key, &h, extra, elen);
	kc_hmac_md_end(&st->key, &h, st->K);
	rc = kc_ec_nonce_setk(st);
	if (rc == PV_OK)
		kc_ec_nonce_mac_v(st);
	return rc;
}

KC_API int kc_ec_nonce_init(kc_ec_nonce *st, uint32_t alg, const uint8_t *x, const uint8_t *h1,
                            uint32_t flen, const uint8_t *extra, size_t elen)
{
	uint32_t round;
	int rc;

	st->alg = alg;
	st->hlen = (uint32_t)kc_hash_len(alg);
	st->first = 1;
	if (st->hlen != flen || flen > KC_EC_MAX_FLEN_INT)
		return PV_ERR_GENERAL;
	kc_memset(st->K, 0x00, sizeof st->K);
	kc_memset(st->V, 0x01, sizeof st->V);
	rc = kc_ec_nonce_setk(st);
	for (round = 0; round < 2 && rc == PV_OK; round++)
		rc = kc_ec_nonce_update(st, (uint8_t)round, x, h1, flen, extra, elen);
	return rc;
}

KC_API void kc_ec_nonce_next(kc_ec_nonce *st, uint8_t *k)
{
	if (!st->first)
		(void)kc_ec_nonce_update(st, 0x00, (const uint8_t *)0, (const uint8_t *)0, 0,
		                         (const uint8_t *)0, 0);    /* alg checked at init */
	st->first = 0;
	kc_ec_nonce_mac_v(st);
	kc_memcpy(k, st->V, st->hlen);
}

/* b in [1, m) from HMAC_K(V || 0x02 || i || ctr), ctr = 0, 1, ...: a
 * candidate out of range is discarded (public decision, as for k). */
KC_PRIV int kc_ec_nonce_blind1(const kc_hmac_key *key, const kc_ec_nonce *st, uint8_t i,
                               const kc_ec_mod *m, uint32_t *b)
{
	kc_hmac_md h;
	uint8_t out[KC_EC_MAX_FLEN_INT], sfx[3];
	uint32_t ok = 0, ctr;

	for (ctr = 0; ctr < 8u && !ok; ctr++) {
		sfx[0] = 0x02;
		sfx[1] = i;
		sfx[2] = (uint8_t)ctr;
		kc_hmac_md_start(key, &h);
		kc_hmac_md_add(key, &h, st->V, st->hlen);
		kc_hmac_md_add(key, &h, sfx, sizeof sfx);
		kc_hmac_md_end(key, &h, out);
		ok = kc_ecf_decode(m, b, out) & (kc_ecf_is_zero(m, b) ^ 1u);
		ok = kc_ec_public_ctl(ok);
	}
	kc_wipe(out, sizeof out);
	return ok ? PV_OK : PV_ERR_GENERAL;
}

KC_API int kc_ec_nonce_blinds(const kc_ec_nonce *st, const kc_ec_mod *m0, uint32_t *b0,
                              const kc_ec_mod *m1, uint32_t *b1)
{
	int rc;

	if (4u * m0->nl != st->hlen || (m1 != NULL && 4u * m1->nl != st->hlen))
		return PV_ERR_GENERAL;
	rc = kc_ec_nonce_blind1(&st->key, st, 0, m0, b0);
	if (rc == PV_OK && m1 != NULL)
		rc = kc_ec_nonce_blind1(&st->key, st, 1, m1, b1);
	return rc;
}

KC_API int kc_ec_rand_mod(kc_drbg *drbg, const kc_ec_mod *m, uint32_t *b)
{
	uint8_t out[KC_EC_MAX_FLEN];
	uint32_t ok = 0;
	int i;

	for (i = 0; i < 8 && !ok; i++) {
		if (kc_drbg_generate(drbg, out, 4u * m->nl, NULL, 0) != PV_OK)
			break;
		ok = kc_ec_public_ctl(kc_ecf_decode(m, b, out) & (kc_ecf_is_zero(m, b) ^ 1u));
	}
	kc_wipe(out, sizeof out);
	return ok ? PV_OK : PV_ERR_RANDOM;
}
