/*
 * ve_pk_rsa.c - RSA requests: SIGN / VERIFY (PKCS#1 v1.5 raw or with a
 * DigestInfo, PSS, X.509 raw) and ENCRYPT / DECRYPT (PKCS#1 v1.5, OAEP with
 * label, raw).  Private operations use the key from the request's blob,
 * public ones the RSA public encoding n || e in `key` (ve_pk_rsa_pub).
 *
 * Decryption: every padding failure is PV_ERR_ENC_INVALID after the same
 * work (the core decodes with masks); the message is moved to `out` only
 * after that.  Workspace: ve_pkey + one 512-byte block + the core's
 * private operation (see ve_pk.h).
 */
#include "ve_pk.h"

KC_PRIV int vrs_open(const ve_req *r, uint32_t usage, ve_pkey *k)
{
	int rc = ve_pk_open(r, usage, k);

	if (rc == PV_OK && k->type != PV_KEY_RSA) {
		ve_pk_wipe(k);
		rc = PV_ERR_KEY_TYPE;
	}
	return rc;
}

KC_PRIV int vrs_pub(const ve_req *r, kc_rsa_pub *pk)
{
	if (r->d.key_type != PV_KEY_RSA)
		return PV_ERR_KEY_TYPE;
	return ve_pk_rsa_pub(ve_ptr(r, r->d.key), r->d.key.len, pk);
}

/* Hash algs of the request: *alg from prf (0 allowed only if may0), *mgf
 * from tag_len (0 = *alg). */
KC_PRIV int vrs_algs(const ve_req *r, uint32_t may0, uint32_t *alg, uint32_t *mgf)
{
	*alg = ve_pk_hash(r->d.prf);
	if (r->d.prf != 0u && *alg == 0u)
		return PV_ERR_MECH_PARAM;
	if (*alg == 0u && !may0)
		return PV_ERR_MECH_PARAM;
	*mgf = r->d.tag_len == 0u ? *alg : ve_pk_hash(r->d.tag_len);
	if (*mgf == 0u && !may0)
		return PV_ERR_MECH_PARAM;
	return PV_OK;
}

KC_API int ve_pk_rsa_sign(ve_req *r, const uint8_t *in, uint32_t inlen, uint32_t hashed)
{
	ve_pkey k;
	uint8_t blk[KC_RSA_MAX_BYTES];
	uint32_t alg, mgf;
	size_t kb;
	int rc;

	(void)hashed;
	if ((rc = vrs_algs(r, r->d.mech != PV_MECH_RSA_PKCS_PSS, &alg, &mgf)) != PV_OK)
		return rc;
	if (r->d.mech == PV_MECH_RSA_X_509 && alg != 0u)
		return PV_ERR_MECH_PARAM;
	if ((rc = vrs_open(r, PV_USE_SIGN, &k)) != PV_OK)
		return rc;
	kb = kc_rsa_len(k.rsa.bits);
	if ((rc = ve_out_room(r, (uint32_t)kb)) != PV_OK)
		goto out;
	if (r->d.mech == PV_MECH_RSA_PKCS) {
		rc = kc_rsa_pkcs1_sign(&k.rsa, &r->w->drbg, alg, in, inlen, blk);
	} else if (r->d.mech == PV_MECH_RSA_PKCS_PSS) {
		if (inlen != kc_hash_len(alg))
			rc = PV_ERR_DATA_LEN;
		else
			rc = kc_rsa_pss_sign(&k.rsa, &r->w->drbg, alg, mgf, r->d.ctr_bits, in, inlen, blk);
	} else {
		if (inlen > kb) {
			rc = PV_ERR_DATA_LEN;
		} else {
			kc_memset(blk, 0, kb);
			kc_memcpy(blk + kb - inlen, in, inlen);
			rc = kc_rsa_private(&k.rsa, &r->w->drbg, blk, kb, blk);
			if (rc == PV_ERR_ENC_INVALID)
				rc = PV_ERR_DATA_LEN;     /* input >= n */
		}
	}
	if (rc == PV_OK)
		kc_memcpy(ve_wptr(r, r->d.out), blk, kb);
out:
	ve_pk_wipe(&k);
	kc_wipe(blk, sizeof blk);
	return rc;
}

KC_API int ve_pk_rsa_verify(ve_req *r, const uint8_t *in, uint32_t inlen, uint32_t hashed)
{
	kc_rsa_pub pk;
	uint8_t blk[KC_RSA_MAX_BYTES];
	const uint8_t *sig = ve_ptr(r, r->d.in2);
	uint32_t alg, mgf, siglen = r->d.in2.len;
	size_t kb;
	int rc;

	(void)hashed;
	r->res->out_len = 0;
	if ((rc = vrs_algs(r, r->d.mech != PV_MECH_RSA_PKCS_PSS, &alg, &mgf)) != PV_OK)
		return rc;
	if ((rc = vrs_pub(r, &pk)) != PV_OK)
		return rc;
	kb = kc_rsa_len(pk.bits);
	if (r->d.mech == PV_MECH_RSA_PKCS)
		return kc_rsa_pkcs1_verify(&pk, alg, in, inlen, sig, siglen);
	if (r->d.mech == PV_MECH_RSA_PKCS_PSS) {
		if (inlen != kc_hash_len(alg))
			return PV_ERR_DATA_LEN;
		return kc_rsa_pss_verify(&pk, alg, mgf, r->d.ctr_bits, in, inlen, sig, siglen);
	}
	/* X.509 raw: sig^e mod n == zero-padded data */
	if (siglen != kb)
		return PV_ERR_SIG_LEN;
	if (inlen > kb)
		return PV_ERR_DATA_LEN;
	rc = kc_rsa_public(&pk, sig, kb, blk);
	if (rc == PV_ERR_ENC_INVALID)
		return PV_ERR_SIG_INVALID;
	if (rc != PV_OK)
		return rc;
	{
		uint32_t i, bad = 0;
		for (i = 0; i < kb - inlen; i++)
			bad |= blk[i];
		if (bad != 0u || !kc_ct_eq(blk + kb - inlen, in, inlen))
			rc = PV_ERR_SIG_INVALID;
	}
	return rc;
}

KC_PRIV int vrs_encrypt(ve_req *r)
{
	kc_rsa_pub pk;
	uint8_t blk[KC_RSA_MAX_BYTES];
	const uint8_t *in = ve_ptr(r, r->d.in);
	uint32_t inlen = r->d.in.len, alg, mgf;
	size_t kb;
	int rc;

	if ((rc = vrs_algs(r, r->d.mech != PV_MECH_RSA_PKCS_OAEP, &alg, &mgf)) != PV_OK)
		return rc;
	if (r->d.mech != PV_MECH_RSA_PKCS_OAEP && (alg != 0u || r->d.aad.len != 0u))
		return PV_ERR_MECH_PARAM;
	if ((rc = vrs_pub(r, &pk)) != PV_OK)
		return rc;
	kb = kc_rsa_len(pk.bits);
	if ((rc = ve_out_room(r, (uint32_t)kb)) != PV_OK)
		return rc;
	if (r->d.mech == PV_MECH_RSA_PKCS) {
		rc = kc_rsa_pkcs1_encrypt(&pk, &r->w->drbg, in, inlen, blk);
	} else if (r->d.mech == PV_MECH_RSA_PKCS_OAEP) {
		rc = kc_rsa_oaep_encrypt(&pk, &r->w->drbg, alg, mgf,
		                         r->d.aad.len ? ve_ptr(r, r->d.aad) : NULL, r->d.aad.len,
		                         in, inlen, blk);
	} else {
		if (inlen > kb)
			return PV_ERR_DATA_LEN;
		kc_memset(blk, 0, kb);
		kc_memcpy(blk + kb - inlen, in, inlen);
		rc = kc_rsa_public(&pk, blk, kb, blk);
		if (rc == PV_ERR_ENC_INVALID)
			rc = PV_ERR_DATA_LEN;
	}
	if (rc == PV_OK)
		kc_memcpy(ve_wptr(r, r->d.out), blk, kb);
	else
		r->res->out_len = 0;
	kc_wipe(blk, sizeof blk);
	return rc;
}

KC_PRIV int vrs_decrypt(ve_req *r)
{
	ve_pkey k;
	uint8_t blk[KC_RSA_MAX_BYTES];
	const uint8_t *in = ve_ptr(r, r->d.in);
	uint32_t inlen = r->d.in.len, alg, mgf;
	size_t kb, ml = 0;
	int rc;

	if ((rc = vrs_algs(r, r->d.mech != PV_MECH_RSA_PKCS_OAEP, &alg, &mgf)) != PV_OK)
		return rc;
	if (r->d.mech != PV_MECH_RSA_PKCS_OAEP && (alg != 0u || r->d.aad.len != 0u))
		return PV_ERR_MECH_PARAM;
	if ((rc = vrs_open(r, PV_USE_DECRYPT, &k)) != PV_OK)
		return rc;
	kb = kc_rsa_len(k.rsa.bits);
	if (inlen != kb) {
		rc = PV_ERR_ENC_LEN;
		goto out;
	}
	if (r->d.mech == PV_MECH_RSA_PKCS) {
		rc = kc_rsa_pkcs1_decrypt(&k.rsa, &r->w->drbg, in, inlen, blk, &ml);
	} else if (r->d.mech == PV_MECH_RSA_PKCS_OAEP) {
		rc = kc_rsa_oaep_decrypt(&k.rsa, &r->w->drbg, alg, mgf,
		                         r->d.aad.len ? ve_ptr(r, r->d.aad) : NULL, r->d.aad.len,
		                         in, inlen, blk, &ml);
	} else {
		rc = kc_rsa_private(&k.rsa, &r->w->drbg, in, inlen, blk);
		ml = kb;
	}
	if (rc == PV_OK) {
		rc = ve_out_room(r, (uint32_t)ml);
		if (rc == PV_OK)
			kc_memcpy(ve_wptr(r, r->d.out), blk, ml);
	}
out:
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	ve_pk_wipe(&k);
	kc_wipe(blk, sizeof blk);
	return rc;
}

KC_API int ve_pk_rsa_crypt(ve_req *r)
{
	return r->d.op == PV_OP_ENCRYPT ? vrs_encrypt(r) : vrs_decrypt(r);
}
