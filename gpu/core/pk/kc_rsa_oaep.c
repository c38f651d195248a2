/*
 * kc_rsa_oaep.c - RSAES-OAEP (RFC 8017 7.1) with any hash, any MGF1 hash
 * and a label.  Decoding is constant time: every check is folded into one
 * mask and the message is moved with kc_rsa_ct_unpad.
 */
#include "kc_rsa.h"
#include "kc_bn.h"
#include "../hash/kc_hash.h"
#include "../kc_util.h"
#include "../pv_err.h"

KC_API int kc_rsa_oaep_encrypt(const kc_rsa_pub *pk, kc_drbg *rng, uint32_t hash_alg,
                               uint32_t mgf_alg, const uint8_t *label, size_t llen,
                               const uint8_t *msg, size_t mlen, uint8_t *out)
{
	uint8_t em[KC_RSA_MAX_BYTES];
	size_t k, hl, dblen;
	uint8_t *seed, *db;
	int rc;

	rc = kc_rsa_pub_check(pk);
	if (rc != PV_OK)
		return rc;
	hl = kc_hash_len(hash_alg);
	if (hl == 0 || kc_hash_len(mgf_alg) == 0)
		return PV_ERR_MECHANISM;
	k = kc_rsa_len(pk->bits);
	if (k < 2 * hl + 2)
		return PV_ERR_MECH_PARAM;
	if (mlen > k - 2 * hl - 2)
		return PV_ERR_DATA_LEN;
	seed = em + 1;
	db = em + 1 + hl;
	dblen = k - hl - 1;
	kc_memset(em, 0, k);
	kc_hash(hash_alg, label, llen, db);
	db[dblen - mlen - 1] = 0x01;
	kc_memcpy(db + dblen - mlen, msg, mlen);
	if (kc_drbg_generate(rng, seed, hl, (const uint8_t *)0, 0) != 0) {
		kc_wipe(em, sizeof em);
		return PV_ERR_RANDOM;
	}
	kc_rsa_mgf1_xor(mgf_alg, seed, hl, db, dblen);
	kc_rsa_mgf1_xor(mgf_alg, db, dblen, seed, hl);
	rc = kc_rsa_public(pk, em, k, out);
	kc_wipe(em, sizeof em);
	return rc;
}

KC_API int kc_rsa_oaep_decrypt(const kc_rsa_priv *sk, kc_drbg *rng, uint32_t hash_alg,
                               uint32_t mgf_alg, const uint8_t *label, size_t llen,
                               const uint8_t *in, size_t inlen,
                               uint8_t *out, size_t *outlen)
{
	uint8_t lh[KC_HASH_MAX_LEN];
	uint32_t range = 0, good = 0, looking = 1, bad = 0, oidx = 0;
	size_t k, hl, dblen, i;
	uint8_t *seed, *db;
	int rc;

	*outlen = 0;
	if (sk->bits < KC_RSA_MIN_BITS || sk->bits > KC_RSA_MAX_BITS)
		return PV_ERR_KEY_SIZE;
	hl = kc_hash_len(hash_alg);
	if (hl == 0 || kc_hash_len(mgf_alg) == 0)
		return PV_ERR_MECHANISM;
	k = kc_rsa_len(sk->bits);
	if (k < 2 * hl + 2)
		return PV_ERR_MECH_PARAM;
	if (inlen != k)
		return PV_ERR_ENC_LEN;
	rc = kc_rsa_private_ct(sk, rng, in, inlen, out, &good, &range);
	if (rc != PV_OK)
		return rc;
	seed = out + 1;
	db = out + 1 + hl;
	dblen = k - hl - 1;
	kc_rsa_mgf1_xor(mgf_alg, db, dblen, seed, hl);
	kc_rsa_mgf1_xor(mgf_alg, seed, hl, db, dblen);
	kc_hash(hash_alg, label, llen, lh);
	good &= kc_ctl_eq32(out[0], 0);
	good &= kc_ct_eq(db, lh, hl);
	for (i = hl; i < dblen; i++) {
		uint32_t is0 = kc_ctl_eq32(db[i], 0), is1 = kc_ctl_eq32(db[i], 1);
		oidx = kc_ctl_mux32(looking & is1, (uint32_t)i, oidx);
		bad |= looking & ((is0 | is1) ^ 1u);
		looking &= is1 ^ 1u;
	}
	good &= (looking | bad) ^ 1u;
	rc = kc_rsa_ct_unpad(out, k, (uint32_t)(1 + hl + 1) + oidx, good, outlen);
	kc_wipe(lh, sizeof lh);
	kc_wipe(&good, sizeof good);
	return rc;
}
