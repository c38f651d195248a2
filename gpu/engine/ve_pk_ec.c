/*
 * ve_pk_ec.c - elliptic-curve requests: ECDSA (P-256, P-384) and SM2
 * signatures, EdDSA (Ed25519, Ed25519ctx, Ed25519ph), SM2 encryption
 * (C1||C3||C2) and ECDH1 derivation (CKD_NULL) into a new secret-key blob.
 * Signing keys come from blobs; verification and encryption take the public
 * point in `key` (key_type names the curve).  Workspace: ve_pkey + the
 * core's call (<= 3.5 KiB, see kc_ec.h).
 */
#include "ve_pk.h"

KC_PRIV int vec_open(const ve_req *r, uint32_t usage, ve_pkey *k, uint32_t t1, uint32_t t2)
{
	int rc = ve_pk_open(r, usage, k);

	if (rc == PV_OK && k->type != t1 && k->type != t2) {
		ve_pk_wipe(k);
		rc = PV_ERR_KEY_TYPE;
	}
	return rc;
}

KC_API int ve_pk_sm2_z(ve_req *r, uint8_t z[32])
{
	ve_pkey k;
	const uint8_t *id = r->d.aad.len ? ve_ptr(r, r->d.aad) : NULL;
	int rc;

	if (r->d.aad.len >= 8192u)
		return PV_ERR_MECH_PARAM;
	if (r->d.op == PV_OP_VERIFY) {
		if (r->d.key_type != PV_KEY_SM2)
			return PV_ERR_KEY_TYPE;
		return kc_sm2_z(ve_ptr(r, r->d.key), r->d.key.len, id, r->d.aad.len, z);
	}
	rc = vec_open(r, PV_USE_SIGN, &k, PV_KEY_SM2, PV_KEY_SM2);
	if (rc == PV_OK)
		rc = kc_sm2_z(k.pub, k.publen, id, r->d.aad.len, z);
	ve_pk_wipe(&k);
	return rc;
}

KC_API int ve_pk_ec_sign(ve_req *r, const uint8_t *hash, uint32_t hlen)
{
	ve_pkey k;
	uint8_t sig[KC_EC_MAX_SIGLEN];
	const int sm2 = r->d.mech == PV_MECH_SM2_SIGN;
	int rc;

	if (sm2)
		rc = vec_open(r, PV_USE_SIGN, &k, PV_KEY_SM2, PV_KEY_SM2);
	else
		rc = vec_open(r, PV_USE_SIGN, &k, PV_KEY_EC_P256, PV_KEY_EC_P384);
	if (rc != PV_OK)
		return rc;
	if ((rc = ve_out_room(r, 2u * k.flen)) != PV_OK)
		goto out;
	if (sm2 ? hlen != 32u : hlen == 0u) {
		rc = PV_ERR_DATA_LEN;
	} else {
		/* the nonce computed ahead if there is one for this curve (ECDSA's
		 * s = 0 with it: PV_ERR_GENERAL, sign again), then ve_idle's next
		 * one is for this curve */
		const int curve = ve_pk_curve(k.type);
		rc = PV_ERR_GENERAL;
		if (r->w->pre.curve == curve)
			rc = sm2 ? kc_sm2_sign_pre(k.d, hash, &r->w->pre, sig)
			         : kc_ecdsa_sign_pre(curve, k.d, hash, hlen, &r->w->pre, sig);
		if (rc == PV_ERR_GENERAL)
			rc = sm2 ? kc_sm2_sign_digest(k.d, hash, &r->w->drbg, sig)
			         : kc_ecdsa_sign(curve, k.d, hash, hlen, &r->w->drbg, sig);
		r->w->pre_curve = curve;
	}
	if (rc == PV_OK)
		kc_memcpy(ve_wptr(r, r->d.out), sig, 2u * k.flen);
out:
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	ve_pk_wipe(&k);
	kc_wipe(sig, sizeof sig);
	return rc;
}

KC_API int ve_pk_ec_verify(ve_req *r, const uint8_t *hash, uint32_t hlen)
{
	const uint8_t *pub = ve_ptr(r, r->d.key);

	r->res->out_len = 0;
	if (r->d.mech == PV_MECH_SM2_SIGN) {
		if (r->d.key_type != PV_KEY_SM2)
			return PV_ERR_KEY_TYPE;
		if (hlen != 32u)
			return PV_ERR_DATA_LEN;
		return kc_sm2_verify_digest(pub, r->d.key.len, hash, ve_ptr(r, r->d.in2), r->d.in2.len);
	}
	if (r->d.key_type != PV_KEY_EC_P256 && r->d.key_type != PV_KEY_EC_P384)
		return PV_ERR_KEY_TYPE;
	return kc_ecdsa_verify(ve_pk_curve(r->d.key_type), pub, r->d.key.len, hash, hlen,
	                       ve_ptr(r, r->d.in2), r->d.in2.len);
}

KC_API int ve_pk_eddsa(ve_req *r)
{
	ve_pkey k;
	uint8_t sig[64];
	const uint8_t *in = ve_ptr(r, r->d.in);
	const uint8_t *ctx = r->d.aad.len ? ve_ptr(r, r->d.aad) : NULL;
	uint32_t ex = (r->d.flags & (PV_F_EDDSA_CTX | PV_F_EDDSA_PH)) != 0u;
	uint32_t mode = (r->d.flags & PV_F_EDDSA_PH) ? KC_ED25519_PH : KC_ED25519_CTX;
	int rc;

	if (r->d.prf != 0u || (r->d.flags & PV_F_HASH_DATA) || (!ex && r->d.aad.len != 0u))
		return PV_ERR_MECH_PARAM;
	if (r->d.op == PV_OP_VERIFY) {
		r->res->out_len = 0;
		if (r->d.key_type != PV_KEY_ED25519)
			return PV_ERR_KEY_TYPE;
		if (r->d.key.len != 32u)
			return PV_ERR_PUBKEY;
		if (ex)
			return kc_ed25519_verify_ex(ve_ptr(r, r->d.key), mode, ctx, r->d.aad.len, in,
			                            r->d.in.len, ve_ptr(r, r->d.in2), r->d.in2.len);
		return kc_ed25519_verify(ve_ptr(r, r->d.key), in, r->d.in.len,
		                         ve_ptr(r, r->d.in2), r->d.in2.len);
	}
	rc = vec_open(r, PV_USE_SIGN, &k, PV_KEY_ED25519, PV_KEY_ED25519);
	if (rc != PV_OK)
		return rc;
	if ((rc = ve_out_room(r, 64u)) == PV_OK) {
		if (ex)
			rc = kc_ed25519_sign_ex(k.d, k.pub, mode, ctx, r->d.aad.len, in, r->d.in.len, sig);
		else
			rc = kc_ed25519_sign(k.d, k.pub, in, r->d.in.len, sig);
		if (rc == PV_OK)
			kc_memcpy(ve_wptr(r, r->d.out), sig, 64u);
	}
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	ve_pk_wipe(&k);
	kc_wipe(sig, sizeof sig);
	return rc;
}

KC_API int ve_pk_sm2_crypt(ve_req *r)
{
	ve_pkey k;
	const uint8_t *in = ve_ptr(r, r->d.in);
	uint32_t len = r->d.in.len;
	size_t olen;
	int rc;

	if (r->d.prf != 0u || r->d.aad.len != 0u)
		return PV_ERR_MECH_PARAM;
	if (r->d.op == PV_OP_ENCRYPT) {
		if (r->d.key_type != PV_KEY_SM2)
			return PV_ERR_KEY_TYPE;
		if (len == 0u)
			return PV_ERR_DATA_LEN;
		if ((rc = ve_out_room(r, len + KC_SM2_ENC_OVERHEAD)) != PV_OK)
			return rc;
		olen = r->d.out.len;
		rc = kc_sm2_encrypt(ve_ptr(r, r->d.key), r->d.key.len, in, len, &r->w->drbg,
		                    ve_wptr(r, r->d.out), &olen);
		if (rc != PV_OK)
			r->res->out_len = 0;
		return rc;
	}
	if (len <= KC_SM2_ENC_OVERHEAD)
		return PV_ERR_ENC_LEN;
	rc = vec_open(r, PV_USE_DECRYPT, &k, PV_KEY_SM2, PV_KEY_SM2);
	if (rc != PV_OK)
		return rc;
	if ((rc = ve_out_room(r, len - KC_SM2_ENC_OVERHEAD)) == PV_OK) {
		olen = r->d.out.len;
		rc = kc_sm2_decrypt(k.d, in, len, ve_wptr(r, r->d.out), &olen);
	}
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	ve_pk_wipe(&k);
	return rc;
}

/* Peer point: raw (04||X||Y or 02/03||X) or a DER OCTET STRING around it. */
KC_PRIV int vec_peer(const ve_req *r, uint32_t flen, const uint8_t **p, uint32_t *plen)
{
	const uint8_t *b = ve_ptr(r, r->d.in2);
	uint32_t n = r->d.in2.len;

	*p = b;
	*plen = n;
	if (n == 1u + 2u * flen || n == 1u + flen)
		return PV_OK;
	if (n >= 2u && b[0] == 0x04u && b[1] < 0x80u && (uint32_t)b[1] + 2u == n) {
		*p = b + 2;
		*plen = n - 2u;
		return PV_OK;
	}
	if (n >= 3u && b[0] == 0x04u && b[1] == 0x81u && b[2] >= 0x80u && (uint32_t)b[2] + 3u == n) {
		*p = b + 3;
		*plen = n - 3u;
		return PV_OK;
	}
	return PV_ERR_PUBKEY;
}

KC_API int ve_pk_ecdh(ve_req *r)
{
	ve_pkey k;
	ve_key nk;
	uint8_t s[KC_EC_MAX_FLEN];
	const uint8_t *peer;
	uint32_t plen, len;
	uint32_t data = (r->d.flags & PV_F_DERIVE_DATA) != 0u;
	int rc;

	if (r->d.prf != 0u || r->d.salt.len != 0u || r->d.aad.len != 0u)
		return PV_ERR_MECH_PARAM;   /* CKD_NULL only */
	rc = ve_pk_open(r, PV_USE_DERIVE | (data ? PV_USE_EXTRACT : 0u), &k);
	if (rc != PV_OK)
		return rc;
	kc_memset(&nk, 0, sizeof nk);
	if (ve_pk_curve(k.type) == 0) {
		rc = PV_ERR_KEY_TYPE;
		goto out;
	}
	len = r->d.new_len == 0u ? k.flen : r->d.new_len;
	if (len > k.flen) {
		rc = data ? PV_ERR_DATA_LEN : PV_ERR_KEY_SIZE;
		goto out;
	}
	if (!data && (rc = ve_key_len_ok(r->d.new_type, len)) != PV_OK)
		goto out;
	if ((rc = ve_out_room(r, data ? len : PV_BLOB_OVERHEAD + len)) != PV_OK)
		goto out;
	if ((rc = vec_peer(r, k.flen, &peer, &plen)) != PV_OK)
		goto out;
	rc = kc_ecdh(ve_pk_curve(k.type), k.d, peer, plen, s);
	if (rc != PV_OK)
		goto out;
	if (data) {
		kc_memcpy(ve_wptr(r, r->d.out), s + k.flen - len, len);
	} else {
		nk.type = r->d.new_type;
		nk.len = len;
		kc_memcpy(nk.k, s + k.flen - len, len);
		rc = ve_req_seal(r, &nk, r->d.out);
	}
out:
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	ve_pk_wipe(&k);
	kc_wipe(&nk, sizeof nk);
	kc_wipe(s, sizeof s);
	return rc;
}
