/*
 * ve_blob.c - KeyStore blobs: token keys outside the vault exist only as
 * AES-256-GCM blobs under the KEK (HKDF-SHA256 of the master key).
 *
 *   off  len  field
 *    0    3   "PVK"
 *    3    1   version: 1, or 2 for an RSA key whose payload holds d last
 *                (ve_pk.c; a private operation then decrypts all but d)
 *    4    4   key type  (big-endian, PV_KEY_*)
 *    8    4   usage     (big-endian, PV_USE_*)
 *   12    4   key length L (big-endian)
 *   16   12   GCM nonce (vault DRBG)
 *   28    L   ciphertext of the key
 *   28+L 16   GCM tag
 *   AAD = bytes 0..15 || 16-byte object identity (from the token layer)
 *
 * Any mismatch (magic, version, length, tag, identity, expected type) is
 * PV_ERR_WRAPPED, with no hint which.  The version is in the AAD: a
 * blob's layout cannot be swapped.
 */
#include "ve_internal.h"

KC_API int ve_key_len_ok(uint32_t type, uint32_t len)
{
	switch (type) {
	case PV_KEY_AES:
		return (len == 16u || len == 24u || len == 32u) ? PV_OK : PV_ERR_KEY_SIZE;
	case PV_KEY_SM4:
		return len == 16u ? PV_OK : PV_ERR_KEY_SIZE;
	case PV_KEY_GENERIC:
		return (len >= 1u && len <= PV_SECRET_MAX) ? PV_OK : PV_ERR_KEY_SIZE;
	default:
		return PV_ERR_KEY_TYPE;
	}
}

KC_PRIV void ve_blob_hdr(uint8_t h[VE_BLOB_HDR], uint32_t ver, uint32_t type, uint32_t usage,
                         uint32_t len)
{
	h[0] = (uint8_t)'P';
	h[1] = (uint8_t)'V';
	h[2] = (uint8_t)'K';
	h[3] = (uint8_t)ver;
	kc_store_be32(h + 4, type);
	kc_store_be32(h + 8, usage);
	kc_store_be32(h + 12, len);
}

KC_API int ve_blob_parse(const uint8_t *blob, uint32_t blen, uint32_t max,
                         uint32_t want_type, uint32_t *ver, uint32_t *type,
                         uint32_t *usage, uint32_t *len)
{
	uint8_t hdr[VE_BLOB_HDR];

	if (blen < PV_BLOB_OVERHEAD || blen > max)
		return PV_ERR_WRAPPED;
	*ver = blob[3];
	*type = kc_load_be32(blob + 4);
	*usage = kc_load_be32(blob + 8);
	*len = kc_load_be32(blob + 12);
	if (*ver != VE_BLOB_VERSION && !(*ver == VE_BLOB_V_RSA_DLAST && *type == PV_KEY_RSA))
		return PV_ERR_WRAPPED;
	ve_blob_hdr(hdr, *ver, *type, *usage, *len);
	/* public header fields: branching on them is fine */
	if (!kc_ct_eq(hdr, blob, VE_BLOB_HDR) || *len != blen - PV_BLOB_OVERHEAD)
		return PV_ERR_WRAPPED;
	if (want_type != 0u && want_type != *type)
		return PV_ERR_WRAPPED;
	return PV_OK;
}

KC_API int ve_blob_decrypt(const ve_vault *v, const uint8_t *blob, uint32_t len,
                           const uint8_t id[PV_OBJ_ID_LEN], uint32_t plen, uint8_t *w)
{
	const uint8_t *ct = blob + VE_BLOB_HDR + VE_BLOB_NONCE;
	uint8_t aad[VE_BLOB_HDR + PV_OBJ_ID_LEN];
	int rc;

	/* the GHASH in passes over the KEK's powers of H, E(J0) and the
	 * plaintext in one CTR pass (kc_gcm_open_pw) */
	kc_memcpy(aad, blob, VE_BLOB_HDR);
	kc_memcpy(aad + VE_BLOB_HDR, id, PV_OBJ_ID_LEN);
	rc = kc_gcm_open_pw(&v->kek, v->kek_pow, blob + VE_BLOB_HDR, aad, sizeof aad, ct, len,
	                    ct + len, plen, w);
	return rc == PV_OK ? PV_OK : PV_ERR_WRAPPED;
}

KC_API int ve_blob_encrypt(const ve_vault *v, ve_worker *w, uint32_t ver, uint32_t type,
                           uint32_t usage, const uint8_t *pt, uint32_t len,
                           const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out)
{
	kc_gcm g;
	uint8_t tag[16];
	int rc;

	ve_blob_hdr(out, ver, type, usage, len);
	rc = kc_drbg_generate(&w->drbg, out + VE_BLOB_HDR, VE_BLOB_NONCE, NULL, 0);
	if (rc != PV_OK)
		return rc;
	rc = kc_gcm_init_h(&g, &v->kek, v->kek_pow[0], out + VE_BLOB_HDR, VE_BLOB_NONCE);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, out, VE_BLOB_HDR);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, id, PV_OBJ_ID_LEN);
	if (rc == PV_OK)
		rc = kc_gcm_encrypt(&g, pt, out + VE_BLOB_HDR + VE_BLOB_NONCE, len);
	if (rc == PV_OK) {
		kc_gcm_tag(&g, tag);
		kc_memcpy(out + VE_BLOB_HDR + VE_BLOB_NONCE + len, tag, VE_BLOB_TAG);
	}
	kc_gcm_clear(&g);
	kc_wipe(tag, sizeof tag);
	return rc;
}

KC_API int ve_blob_open(const ve_vault *v, const uint8_t *blob, uint32_t blen,
                        const uint8_t id[PV_OBJ_ID_LEN], uint32_t want_type,
                        ve_key *k)
{
	uint8_t w[VE_BLOB_W(PV_SECRET_MAX)] KC_ALIGN16;
	uint32_t ver, type, usage, len;

	kc_memset(k, 0, sizeof *k);
	if (ve_blob_parse(blob, blen, PV_BLOB_MAX, want_type, &ver, &type, &usage, &len) != PV_OK ||
	    ve_key_len_ok(type, len) != PV_OK)
		return PV_ERR_WRAPPED;
	if (ve_blob_decrypt(v, blob, len, id, len, w) != PV_OK) {
		kc_wipe(k, sizeof *k);
		return PV_ERR_WRAPPED;
	}
	kc_memcpy(k->k, w + 16, len);
	kc_wipe(w, VE_BLOB_W(len));
	k->type = type;
	k->usage = usage;
	k->len = len;
	return PV_OK;
}

KC_API int ve_blob_seal(const ve_vault *v, ve_worker *w, const ve_key *k,
                        const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out,
                        uint32_t cap, uint32_t *outlen)
{
	int rc;

	*outlen = PV_BLOB_OVERHEAD + k->len;
	if ((rc = ve_key_len_ok(k->type, k->len)) != PV_OK)
		return rc;
	if (cap < *outlen)
		return PV_ERR_BUF_SMALL;
	return ve_blob_encrypt(v, w, VE_BLOB_VERSION, k->type, k->usage, k->k, k->len, id, out);
}

KC_API int ve_req_key(const ve_req *r, uint32_t usage, ve_key *k)
{
	int rc;

	if (r->d.key.len == 0u)
		return PV_ERR_ARGS;
	rc = ve_blob_open(r->v, ve_ptr(r, r->d.key), r->d.key.len, r->d.key_id,
	                  r->d.key_type, k);
	if (rc != PV_OK)
		return rc;
	if ((k->usage & usage) != usage) {
		kc_wipe(k, sizeof *k);
		return PV_ERR_PERM;
	}
	return PV_OK;
}
