/*
 * ve_rewrap.c - re-seal a key blob from one KEK to another (ve_rewrap.h).
 *
 * Only secret-key blobs (ve_blob.c format) today; a blob the format does
 * not describe is PV_ERR_WRAPPED, so a rotation over a store holding one
 * fails as a whole and changes nothing.
 */
#include "ve_internal.h"
#include "ve_rewrap.h"
#include "ve_pk.h"

KC_API int ve_rewrap(const ve_vault *from, const ve_vault *to, ve_worker *w,
                     const uint8_t *blob, uint32_t blen,
                     const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out,
                     uint32_t cap, uint32_t *outlen)
{
	ve_key k;
	int rc;

	*outlen = blen;
	if (from->sealed || to->sealed)
		return PV_ERR_SEALED;
	if (cap < blen)
		return PV_ERR_BUF_SMALL;
	if (ve_pk_blob_is_pk(blob, blen))       /* private keys: ve_pk.c */
		return ve_pk_rewrap(from, to, w, blob, blen, id, out, cap, outlen);
	rc = ve_blob_open(from, blob, blen, id, 0u, &k);
	if (rc == PV_OK)
		rc = ve_blob_seal(to, w, &k, id, out, cap, outlen);
	kc_wipe(&k, sizeof k);
	return rc;
}
