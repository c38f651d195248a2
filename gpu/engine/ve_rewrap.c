/*
 * ve_rewrap.c - re-seal a key blob from one KEK to another (ve_rewrap.h).
 *
 * Blobs under the master KEK (secret keys, private keys, PIN records) are
 * opened under `from` and sealed again under `to` in the current format,
 * with their policy and allowed-list digest unchanged (legacy versions 1
 * and 2 get policy 0).  Blobs sealed under a token KEK (PV_POL_TOKEN) do
 * not depend on the master key: they are copied as they are.  A blob the
 * format does not describe is PV_ERR_WRAPPED, so a rotation over a store
 * holding one fails as a whole and changes nothing.
 */
#include "ve_internal.h"
#include "ve_rewrap.h"
#include "ve_pk.h"

KC_API int ve_rewrap(const ve_vault *from, const ve_vault *to, ve_worker *w,
                     const uint8_t *blob, uint32_t blen,
                     const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out,
                     uint32_t cap, uint32_t *outlen)
{
	uint8_t buf[VE_BLOB_W(PV_SECRET_MAX)] KC_ALIGN16;
	ve_bhdr h;
	int rc;

	*outlen = blen + (VE_BLOB_HDR - VE_BLOB_HDR_V1);
	if (from->sealed || to->sealed)
		return PV_ERR_SEALED;
	if (cap < *outlen)
		return PV_ERR_BUF_SMALL;
	rc = ve_blob_parse(blob, blen, PV_PKBLOB_MAX, 0u, VE_BP_LEGACY, &h);
	if (rc != PV_OK)
		return rc;
	if (h.policy & PV_POL_TOKEN) {
		kc_memcpy(out, blob, blen);
		*outlen = blen;
		return PV_OK;
	}
	if (ve_pk_is_type(h.type))              /* private keys: ve_pk.c */
		return ve_pk_rewrap(&from->kek, &to->kek, w, &h, blob, id, out, cap, outlen);
	if (h.len > PV_SECRET_MAX)
		return PV_ERR_WRAPPED;
	rc = ve_blob_decrypt(&from->kek, &h, blob, id, h.len, buf);
	if (rc == PV_OK) {
		h.ver = VE_BLOB_VERSION;
		*outlen = PV_BLOB_OVERHEAD + h.len;
		rc = ve_blob_encrypt(&to->kek, w, &h, buf + 16, id, out);
	}
	kc_wipe(buf, sizeof buf);
	return rc;
}
