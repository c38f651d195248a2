/*
 * ve_keyops.c - key life cycle inside the vault: GENERATE_KEY, IMPORT_KEY,
 * WRAP_KEY / UNWRAP_KEY (AES key wrap, RFC 3394 / 5649), DERIVE_KEY (HKDF),
 * RANDOM and SEED.  Every new key goes straight into a new blob (out) under
 * the KEK; plaintext keys live only in ve_key locals, wiped on every path.
 */
#include "ve_internal.h"

/* Seal k (type/len set) into the out span: the request's new_id, usage
 * and policy (ve_req_seal). */
KC_PRIV int vk_emit(ve_req *r, ve_key *k)
{
	return ve_req_seal(r, k, r->d.out);
}

KC_API int ve_op_keygen(ve_req *r)
{
	ve_key k;
	uint32_t type, len = r->d.new_len;
	int rc;

	if (ve_mech_mode(r->d.mech) != VE_MODE_KEYGEN)
		return PV_ERR_MECHANISM;
	type = ve_mech_key_type(r->d.mech);
	if (r->d.new_type != 0u && r->d.new_type != type)
		return PV_ERR_KEY_TYPE;
	if (type == PV_KEY_SM4 && len == 0u)
		len = 16u;
	if ((rc = ve_key_len_ok(type, len)) != PV_OK)
		return rc;
	kc_memset(&k, 0, sizeof k);
	k.type = type;
	k.len = len;
	rc = ve_out_room(r, PV_BLOB_OVERHEAD + len);
	if (rc == PV_OK)
		rc = kc_drbg_generate(&r->w->drbg, k.k, len, NULL, 0);
	if (rc == PV_OK)
		rc = vk_emit(r, &k);
	kc_wipe(&k, sizeof k);
	return rc;
}

KC_API int ve_op_import(ve_req *r)
{
	ve_key k;
	int rc;

	if ((rc = ve_key_len_ok(r->d.new_type, r->d.in.len)) != PV_OK)
		return rc;
	kc_memset(&k, 0, sizeof k);
	k.type = r->d.new_type;
	k.len = r->d.in.len;
	kc_memcpy(k.k, ve_ptr(r, r->d.in), k.len);
	rc = vk_emit(r, &k);
	kc_wipe(&k, sizeof k);
	return rc;
}

/* The wrapping key: AES with the given usage (and PV_POL_TRUSTED when
 * trusted is set: the key to wrap is PV_POL_WRAP_TRUSTED). */
KC_PRIV int vk_kek(ve_req *r, uint32_t usage, uint32_t trusted, kc_bc *bc)
{
	ve_key k;
	int rc;

	rc = ve_req_key(r, usage, &k);
	if (rc != PV_OK)
		return rc;
	if (trusted && (k.policy & PV_POL_TRUSTED) == 0u)
		rc = PV_ERR_PERM;
	else
		rc = k.type == PV_KEY_AES ? kc_bc_init(bc, KC_BC_AES, k.k, k.len) : PV_ERR_KEY_TYPE;
	kc_wipe(&k, sizeof k);
	return rc;
}

KC_API int ve_op_wrap(ve_req *r)
{
	ve_key t;
	kc_bc bc;
	uint32_t mode = ve_mech_mode(r->d.mech);
	size_t need, olen = 0;
	int rc;

	if (mode != VE_MODE_KW && mode != VE_MODE_KWP)
		return PV_ERR_MECHANISM;
	if (r->d.iv.len != 0u)
		return PV_ERR_MECH_PARAM;    /* default ICVs only */
	if (r->d.key2.len == 0u)
		return PV_ERR_ARGS;
	kc_memset(&bc, 0, sizeof bc);
	{
		const ve_kek *kek;
		ve_bhdr h;
		rc = ve_req_blob(r, r->d.key2, 0u, PV_BLOB_MAX, 0u, &h, &kek);
		if (rc == PV_OK)
			rc = ve_blob_open(kek, &h, ve_ptr(r, r->d.key2), r->d.key2_id, &t);
		else
			kc_memset(&t, 0, sizeof t);
	}
	if (rc != PV_OK)
		goto out;
	if ((t.usage & PV_USE_EXTRACT) == 0u) {
		rc = PV_ERR_PERM;
		goto out;
	}
	if (mode == VE_MODE_KW && ((t.len & 7u) != 0u || t.len < 16u)) {
		rc = PV_ERR_DATA_LEN;
		goto out;
	}
	need = mode == VE_MODE_KW ? (size_t)t.len + 8u : (((size_t)t.len + 7u) & ~(size_t)7u) + 8u;
	if ((rc = ve_out_room(r, (uint32_t)need)) != PV_OK)
		goto out;
	if ((rc = vk_kek(r, PV_USE_WRAP, (t.policy & PV_POL_WRAP_TRUSTED) != 0u, &bc)) != PV_OK)
		goto out;
	if (mode == VE_MODE_KW)
		rc = kc_kw_wrap(&bc, t.k, t.len, ve_wptr(r, r->d.out));
	else
		rc = kc_kwp_wrap(&bc, t.k, t.len, ve_wptr(r, r->d.out), &olen);
out:
	kc_wipe(&t, sizeof t);
	kc_bc_clear(&bc);
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	return rc;
}

KC_API int ve_op_unwrap(ve_req *r)
{
	ve_key k;
	kc_bc bc;
	uint32_t mode = ve_mech_mode(r->d.mech);
	size_t inlen = r->d.in.len, klen = 0;
	int rc;

	if (mode != VE_MODE_KW && mode != VE_MODE_KWP)
		return PV_ERR_MECHANISM;
	if (r->d.iv.len != 0u)
		return PV_ERR_MECH_PARAM;
	if (inlen < 16u || (inlen & 7u) != 0u || (mode == VE_MODE_KW && inlen < 24u))
		return PV_ERR_ENC_LEN;
	if (inlen - 8u > PV_SECRET_MAX)
		return PV_ERR_KEY_SIZE;
	if ((rc = ve_out_room(r, PV_BLOB_OVERHEAD + (uint32_t)(inlen - 8u))) != PV_OK &&
	    mode == VE_MODE_KW)
		return rc;         /* KWP: the exact size is known after unwrap */
	if ((rc = vk_kek(r, PV_USE_UNWRAP, 0u, &bc)) != PV_OK)
		return rc;
	kc_memset(&k, 0, sizeof k);
	if (mode == VE_MODE_KW) {
		rc = kc_kw_unwrap(&bc, ve_ptr(r, r->d.in), inlen, k.k);
		klen = inlen - 8u;
	} else {
		rc = kc_kwp_unwrap(&bc, ve_ptr(r, r->d.in), inlen, k.k, &klen);
	}
	if (rc == PV_OK) {
		k.type = r->d.new_type;
		k.len = (uint32_t)klen;
		rc = ve_key_len_ok(k.type, k.len);
	} else if (rc == PV_ERR_ENC_LEN) {
		rc = PV_ERR_WRAPPED;
	}
	if (rc == PV_OK)
		rc = vk_emit(r, &k);
	kc_wipe(&k, sizeof k);
	kc_bc_clear(&bc);
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	return rc;
}

KC_API int ve_op_derive(ve_req *r)
{
	ve_key base, nk;
	uint8_t prk[KC_HASH_MAX_LEN];
	uint32_t alg, hlen, len = r->d.new_len;
	uint32_t want = PV_USE_DERIVE;
	uint32_t data = (r->d.flags & PV_F_DERIVE_DATA) != 0u;
	int rc;

	if (r->d.mech != PV_MECH_HKDF)
		return PV_ERR_MECHANISM;
	alg = ve_mech_hash(r->d.prf);
	if (alg == 0u || ve_mech_mode(r->d.prf) != VE_MODE_DIGEST)
		return PV_ERR_MECH_PARAM;
	hlen = (uint32_t)kc_hash_len(alg);
	if ((r->d.flags & PV_F_HKDF_NO_EXTRACT) && (r->d.flags & PV_F_HKDF_NO_EXPAND))
		return PV_ERR_MECH_PARAM;
	if (r->d.flags & PV_F_HKDF_NO_EXPAND) {
		if (len != 0u && len != hlen)
			return PV_ERR_KEY_SIZE;
		len = hlen;
	}
	if (len == 0u || len > 255u * hlen)
		return data ? PV_ERR_DATA_LEN : PV_ERR_KEY_SIZE;
	if (data) {
		want |= PV_USE_EXTRACT;
		if ((rc = ve_out_room(r, len)) != PV_OK)
			return rc;
	} else {
		if ((rc = ve_key_len_ok(r->d.new_type, len)) != PV_OK)
			return rc;
		if ((rc = ve_out_room(r, PV_BLOB_OVERHEAD + len)) != PV_OK)
			return rc;
	}
	rc = ve_req_key(r, want, &base);
	if (rc != PV_OK)
		return rc;
	kc_memset(&nk, 0, sizeof nk);
	if (base.type != PV_KEY_GENERIC) {
		rc = PV_ERR_KEY_TYPE;
		goto out;
	}
	/* PRK */
	if (r->d.flags & PV_F_HKDF_NO_EXTRACT) {
		if (base.len > sizeof prk) {
			rc = PV_ERR_KEY_SIZE;
			goto out;
		}
		kc_memcpy(prk, base.k, base.len);
		hlen = base.len;
	} else {
		rc = kc_hkdf_extract(alg, r->d.salt.len ? ve_ptr(r, r->d.salt) : NULL,
		                     r->d.salt.len, base.k, base.len, prk);
		if (rc != PV_OK)
			goto out;
	}
	if (r->d.flags & PV_F_HKDF_NO_EXPAND) {
		if (data)
			kc_memcpy(ve_wptr(r, r->d.out), prk, hlen);
		else
			kc_memcpy(nk.k, prk, hlen);
	} else {
		rc = kc_hkdf_expand(alg, prk, hlen, r->d.aad.len ? ve_ptr(r, r->d.aad) : NULL,
		                    r->d.aad.len, data ? ve_wptr(r, r->d.out) : nk.k, len);
		if (rc != PV_OK)
			goto out;
	}
	if (!data) {
		nk.type = r->d.new_type;
		nk.len = len;
		rc = vk_emit(r, &nk);
	}
out:
	kc_wipe(&base, sizeof base);
	kc_wipe(&nk, sizeof nk);
	kc_wipe(prk, sizeof prk);
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	return rc;
}

KC_API int ve_op_random(ve_req *r)
{
	int rc;

	r->res->out_len = r->d.out.len;
	rc = kc_drbg_generate(&r->w->drbg, ve_wptr(r, r->d.out), r->d.out.len,
	                      r->d.in.len ? ve_ptr(r, r->d.in) : NULL, r->d.in.len);
	if (rc != PV_OK)
		r->res->out_len = 0;
	return rc;
}

/* SEED: >= 32 bytes reseed the worker's DRBG with them as entropy; shorter
 * seeds are stirred in as additional input of a discarded generate. */
KC_API int ve_op_seed(ve_req *r)
{
	uint8_t junk[32];
	int rc;

	if (r->d.in.len == 0u)
		return PV_ERR_ARGS;
	if (r->d.in.len >= KC_DRBG_MIN_ENTROPY)
		rc = kc_drbg_reseed(&r->w->drbg, ve_ptr(r, r->d.in), r->d.in.len, NULL, 0);
	else
		rc = kc_drbg_generate(&r->w->drbg, junk, sizeof junk, ve_ptr(r, r->d.in), r->d.in.len);
	kc_wipe(junk, sizeof junk);
	return rc;
}
