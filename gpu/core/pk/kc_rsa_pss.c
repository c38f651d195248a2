/*
 * kc_rsa_pss.c - RSASSA-PSS (RFC 8017 8.1, EMSA-PSS 9.1) with any hash,
 * any MGF1 hash and an explicit salt length.  The input is the message
 * digest mHash.  Verification works on public data only.
 */
#include "kc_rsa.h"
#include "../hash/kc_hash.h"
#include "../kc_util.h"
#include "../pv_err.h"

/* H = Hash(00^8 || mhash || salt) */
KC_PRIV void kc_rsa_pss_h(uint32_t alg, const uint8_t *mhash, size_t hlen,
                          const uint8_t *salt, size_t slen, uint8_t *h)
{
	static const uint8_t zeros[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	kc_hash_ctx c;
	kc_hash_init(&c, alg);
	kc_hash_update(&c, zeros, 8);
	kc_hash_update(&c, mhash, hlen);
	kc_hash_update(&c, salt, slen);
	kc_hash_final(&c, h);
}

KC_API int kc_rsa_pss_sign(const kc_rsa_priv *sk, kc_drbg *rng, uint32_t hash_alg,
                           uint32_t mgf_alg, size_t slen,
                           const uint8_t *mhash, size_t hlen, uint8_t *sig)
{
	uint8_t blk[KC_RSA_MAX_BYTES], salt[KC_RSA_MAX_BYTES];
	size_t k, embits, emlen, dblen, off, hl;
	uint8_t *em;
	int rc;

	if (sk->bits < KC_RSA_MIN_BITS || sk->bits > KC_RSA_MAX_BITS)
		return PV_ERR_KEY_SIZE;
	hl = kc_hash_len(hash_alg);
	if (hl == 0 || kc_hash_len(mgf_alg) == 0)
		return PV_ERR_MECHANISM;
	if (hlen != hl)
		return PV_ERR_DATA_LEN;
	k = kc_rsa_len(sk->bits);
	embits = (size_t)sk->bits - 1;
	emlen = (embits + 7) / 8;
	if (emlen < hl + slen + 2)
		return PV_ERR_MECH_PARAM;
	off = k - emlen;                 /* 0 or 1 leading zero byte */
	em = blk + off;
	dblen = emlen - hl - 1;
	if (slen && kc_drbg_generate(rng, salt, slen, (const uint8_t *)0, 0) != 0)
		return PV_ERR_RANDOM;
	kc_memset(blk, 0, k);
	/* H at em[dblen], DB = PS || 01 || salt, masked with MGF(H) */
	kc_rsa_pss_h(hash_alg, mhash, hlen, salt, slen, em + dblen);
	em[dblen - slen - 1] = 0x01;
	kc_memcpy(em + dblen - slen, salt, slen);
	rc = kc_rsa_mgf1_xor(mgf_alg, em + dblen, hl, em, dblen);
	if (rc != PV_OK)
		return rc;
	em[0] &= (uint8_t)(0xffu >> (8 * emlen - embits));
	em[emlen - 1] = 0xbc;
	rc = kc_rsa_private(sk, rng, blk, k, sig);
	kc_wipe(blk, sizeof blk);
	kc_wipe(salt, sizeof salt);
	return rc;
}

KC_API int kc_rsa_pss_verify(const kc_rsa_pub *pk, uint32_t hash_alg,
                             uint32_t mgf_alg, size_t slen,
                             const uint8_t *mhash, size_t hlen,
                             const uint8_t *sig, size_t siglen)
{
	uint8_t blk[KC_RSA_MAX_BYTES], h2[KC_HASH_MAX_LEN];
	size_t k, embits, emlen, dblen, off, hl, i;
	uint8_t *em;
	uint32_t bad = 0;
	int rc;

	rc = kc_rsa_pub_check(pk);
	if (rc != PV_OK)
		return rc;
	hl = kc_hash_len(hash_alg);
	if (hl == 0 || kc_hash_len(mgf_alg) == 0)
		return PV_ERR_MECHANISM;
	if (hlen != hl)
		return PV_ERR_DATA_LEN;
	k = kc_rsa_len(pk->bits);
	if (siglen != k)
		return PV_ERR_SIG_LEN;
	embits = (size_t)pk->bits - 1;
	emlen = (embits + 7) / 8;
	if (emlen < hl + slen + 2)
		return PV_ERR_SIG_INVALID;
	rc = kc_rsa_public(pk, sig, siglen, blk);
	if (rc == PV_ERR_ENC_INVALID)
		return PV_ERR_SIG_INVALID;
	if (rc != PV_OK)
		return rc;
	off = k - emlen;
	for (i = 0; i < off; i++)
		bad |= blk[i];
	em = blk + off;
	dblen = emlen - hl - 1;
	bad |= (uint32_t)(em[emlen - 1] ^ 0xbc);
	bad |= (uint32_t)(em[0] & (uint8_t)~(0xffu >> (8 * emlen - embits)));
	rc = kc_rsa_mgf1_xor(mgf_alg, em + dblen, hl, em, dblen);
	if (rc != PV_OK)
		return rc;
	em[0] &= (uint8_t)(0xffu >> (8 * emlen - embits));
	for (i = 0; i < dblen - slen - 1; i++)
		bad |= em[i];
	bad |= (uint32_t)(em[dblen - slen - 1] ^ 0x01);
	kc_rsa_pss_h(hash_alg, mhash, hlen, em + dblen - slen, slen, h2);
	bad |= kc_ct_eq(h2, em + dblen, hl) ^ 1u;
	return bad ? PV_ERR_SIG_INVALID : PV_OK;
}
