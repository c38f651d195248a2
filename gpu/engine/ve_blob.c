/*
 * ve_blob.c - KeyStore blobs: keys outside the vault exist only as
 * AES-256-GCM blobs, under the master KEK (HKDF-SHA256 of the master key)
 * or, for a token's private keys (PV_POL_TOKEN), under that token's KEK
 * (ve_login.c), which only the user's login ticket gives.
 *
 *   off  len  field
 *    0    3   "PVK"
 *    3    1   version: 3, or 4 for an RSA key whose payload holds d last
 *                (ve_pk.c; a private operation then decrypts all but d)
 *    4    4   key type  (big-endian, PV_KEY_*)
 *    8    4   usage     (big-endian, PV_USE_*)
 *   12    4   key length L (big-endian)
 *   16    4   policy    (big-endian, PV_POL_*)
 *   20    4   allowed mechanisms: count (big-endian, 0 = any)
 *   24   16   allowed mechanisms: first 16 bytes of SHA-256 of the list
 *   40   12   GCM nonce (vault DRBG)
 *   52    L   ciphertext of the key
 *   52+L 16   GCM tag
 *   AAD = bytes 0..39 || 16-byte object identity (from the token layer)
 *
 * Everything that governs the key's use is in the authenticated header:
 * editing any of it (or the object's identity) makes the blob fail to
 * open.  Any mismatch (magic, version, length, tag, identity, expected
 * type) is PV_ERR_WRAPPED, with no hint which.  The version is in the
 * AAD: a blob's layout cannot be swapped.  Versions 1 and 2 had the first
 * 16 header bytes alone; they are opened only to be sealed again in this
 * format (ve_rewrap: `pvault master rotate`; on the host,
 * gpu/client/pv_legacy.c: `pvault token migrate`).
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

KC_PRIV void ve_blob_hdr(uint8_t o[VE_BLOB_HDR], const ve_bhdr *h)
{
	o[0] = (uint8_t)'P';
	o[1] = (uint8_t)'V';
	o[2] = (uint8_t)'K';
	o[3] = (uint8_t)h->ver;
	kc_store_be32(o + 4, h->type);
	kc_store_be32(o + 8, h->usage);
	kc_store_be32(o + 12, h->len);
	if (h->hlen == VE_BLOB_HDR) {
		kc_store_be32(o + 16, h->policy);
		kc_store_be32(o + 20, h->nmechs);
		kc_memcpy(o + 24, h->mdig, 16);
	}
}

KC_API int ve_blob_parse(const uint8_t *blob, uint32_t blen, uint32_t max,
                         uint32_t want_type, uint32_t flags, ve_bhdr *h)
{
	uint8_t hdr[VE_BLOB_HDR];
	uint32_t i, z = 0;

	kc_memset(h, 0, sizeof *h);
	if (blen < VE_BLOB_HDR_V1 + VE_BLOB_NONCE + VE_BLOB_TAG || blen > max)
		return PV_ERR_WRAPPED;
	h->ver = blob[3];
	h->type = kc_load_be32(blob + 4);
	h->usage = kc_load_be32(blob + 8);
	h->len = kc_load_be32(blob + 12);
	if (h->ver == VE_BLOB_VERSION || h->ver == VE_BLOB_V_RSA_DLAST) {
		if (blen < PV_BLOB_OVERHEAD)
			return PV_ERR_WRAPPED;
		h->hlen = VE_BLOB_HDR;
		h->policy = kc_load_be32(blob + 16);
		h->nmechs = kc_load_be32(blob + 20);
		kc_memcpy(h->mdig, blob + 24, 16);
	} else if ((h->ver == VE_BLOB_V1 || h->ver == VE_BLOB_V1_RSA_DLAST) &&
	           (flags & VE_BP_LEGACY) != 0u) {
		h->hlen = VE_BLOB_HDR_V1;
	} else {
		return PV_ERR_WRAPPED;
	}
	if (VE_BLOB_DLAST(h->ver) && h->type != PV_KEY_RSA)
		return PV_ERR_WRAPPED;
	/* public header fields: branching on them is fine */
	ve_blob_hdr(hdr, h);
	if (!kc_ct_eq(hdr, blob, h->hlen) ||
	    h->len != blen - h->hlen - VE_BLOB_NONCE - VE_BLOB_TAG)
		return PV_ERR_WRAPPED;
	for (i = 0; i < 16u; i++)
		z |= h->mdig[i];
	if ((h->policy & ~PV_POL_ALL) != 0u || h->nmechs > PV_MECHS_MAX ||
	    (h->nmechs == 0u && z != 0u))
		return PV_ERR_WRAPPED;
	if (want_type != 0u && want_type != h->type)
		return PV_ERR_WRAPPED;
	return PV_OK;
}

KC_API int ve_blob_decrypt(const ve_kek *kek, const ve_bhdr *h, const uint8_t *blob,
                           const uint8_t id[PV_OBJ_ID_LEN], uint32_t plen, uint8_t *w)
{
	const uint8_t *ct = blob + h->hlen + VE_BLOB_NONCE;
	uint8_t aad[VE_BLOB_HDR + PV_OBJ_ID_LEN];
	int rc;

	/* the GHASH in passes over the KEK's powers of H, E(J0) and the
	 * plaintext in one CTR pass (kc_gcm_open_pw) */
	kc_memcpy(aad, blob, h->hlen);
	kc_memcpy(aad + h->hlen, id, PV_OBJ_ID_LEN);
	rc = kc_gcm_open_pw(&kek->bc, kek->pow, blob + h->hlen, aad, h->hlen + PV_OBJ_ID_LEN,
	                    ct, h->len, ct + h->len, plen, w);
	return rc == PV_OK ? PV_OK : PV_ERR_WRAPPED;
}

KC_API int ve_blob_encrypt(const ve_kek *kek, ve_worker *w, const ve_bhdr *h,
                           const uint8_t *pt, const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out)
{
	ve_bhdr c = *h;
	kc_gcm g;
	uint8_t tag[16];
	int rc;

	c.hlen = VE_BLOB_HDR;
	ve_blob_hdr(out, &c);
	rc = kc_drbg_generate(&w->drbg, out + VE_BLOB_HDR, VE_BLOB_NONCE, NULL, 0);
	if (rc != PV_OK)
		return rc;
	rc = kc_gcm_init_h(&g, &kek->bc, kek->pow[0], out + VE_BLOB_HDR, VE_BLOB_NONCE);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, out, VE_BLOB_HDR);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, id, PV_OBJ_ID_LEN);
	if (rc == PV_OK)
		rc = kc_gcm_encrypt(&g, pt, out + VE_BLOB_HDR + VE_BLOB_NONCE, c.len);
	if (rc == PV_OK) {
		kc_gcm_tag(&g, tag);
		kc_memcpy(out + VE_BLOB_HDR + VE_BLOB_NONCE + c.len, tag, VE_BLOB_TAG);
	}
	kc_gcm_clear(&g);
	kc_wipe(tag, sizeof tag);
	return rc;
}

KC_API int ve_blob_open(const ve_kek *kek, const ve_bhdr *h, const uint8_t *blob,
                        const uint8_t id[PV_OBJ_ID_LEN], ve_key *k)
{
	uint8_t w[VE_BLOB_W(PV_SECRET_MAX)] KC_ALIGN16;

	kc_memset(k, 0, sizeof *k);
	if (ve_key_len_ok(h->type, h->len) != PV_OK)
		return PV_ERR_WRAPPED;
	if (ve_blob_decrypt(kek, h, blob, id, h->len, w) != PV_OK) {
		kc_wipe(k, sizeof *k);
		return PV_ERR_WRAPPED;
	}
	kc_memcpy(k->k, w + 16, h->len);
	kc_wipe(w, VE_BLOB_W(h->len));
	k->type = h->type;
	k->usage = h->usage;
	k->len = h->len;
	k->policy = h->policy;
	return PV_OK;
}

KC_API int ve_blob_seal(const ve_kek *kek, ve_worker *w, const ve_key *k, uint32_t nmechs,
                        const uint8_t mdig[16], const uint8_t id[PV_OBJ_ID_LEN],
                        uint8_t *out, uint32_t cap, uint32_t *outlen)
{
	ve_bhdr h;
	int rc;

	*outlen = PV_BLOB_OVERHEAD + k->len;
	if ((rc = ve_key_len_ok(k->type, k->len)) != PV_OK)
		return rc;
	if (cap < *outlen)
		return PV_ERR_BUF_SMALL;
	kc_memset(&h, 0, sizeof h);
	h.ver = VE_BLOB_VERSION;
	h.type = k->type;
	h.usage = k->usage;
	h.len = k->len;
	h.policy = k->policy;
	h.nmechs = nmechs;
	kc_memcpy(h.mdig, mdig, 16);
	return ve_blob_encrypt(kek, w, &h, k->k, id, out);
}
