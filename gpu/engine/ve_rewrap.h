/*
 * ve_rewrap.h - master key rotation inside the vault: a blob sealed under
 * one vault's KEK is opened and sealed again under another's, the key
 * living only in a local of this call (wiped before return).
 *
 * Portable engine code (KC_API).  The host side that boots a vault holding
 * both KEKs is gpu/client/pv_rewrap.h.
 */
#ifndef VE_REWRAP_H
#define VE_REWRAP_H

#include "ve_engine.h"

/* Re-seal blob (identity id) from `from` to `to` in the current format,
 * with a fresh nonce from w's DRBG (a token-bound blob is copied).
 * PV_ERR_WRAPPED if blob does not open under from's KEK (wrong master key,
 * corrupted blob, a blob format this op does not know), PV_ERR_BUF_SMALL
 * if cap < blen + 24 (*outlen = that), PV_ERR_SEALED if either vault is
 * sealed. */
KC_API int ve_rewrap(const ve_vault *from, const ve_vault *to, ve_worker *w,
                     const uint8_t *blob, uint32_t blen,
                     const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out,
                     uint32_t cap, uint32_t *outlen);

#endif /* VE_REWRAP_H */
