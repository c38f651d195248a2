/*
 * pk_mech.c - the mechanism list and info, and parameter decoding, over
 * the token layer's tables (token/tk_mechtab.c for secret keys and
 * digests, token/tk_pk.c for public keys).
 *
 * Only mechanisms that work are listed.  CKF_HW is added when the vault
 * runs on a GPU.  SM3/SM4 use our vendor constants
 * (include/pixelvault/pkcs11-vendor.h); the IAIK/xipki generic codes
 * 0xFFFFF0xx with the same low byte are accepted as aliases.
 * docs/mechanisms.md describes every entry.
 */
#include <string.h>

#include "pkcs11/pk_mech.h"
#include "include/pixelvault/pkcs11-vendor.h"
#include "token/tk_pk.h"
/* after pkcs11.h: its compat macros (iv_len, aad_len) rename pv_req
 * fields consistently in this file */
#include "gpu/vault.h"

CK_RV pk_mech_list(CK_MECHANISM_TYPE *list, CK_ULONG *count)
{
	size_t i;
	CK_ULONG npk = tk_pk_mech_list(NULL, 0);   /* public key: token/tk_pk.c */

	if (list != NULL) {
		if (*count < tk_nsymdefs + npk) {
			*count = tk_nsymdefs + npk;
			return CKR_BUFFER_TOO_SMALL;
		}
		for (i = 0; i < tk_nsymdefs; i++)
			list[i] = tk_symdefs[i].ckm;
		tk_pk_mech_list(list + tk_nsymdefs, npk);
	}
	*count = tk_nsymdefs + npk;
	return CKR_OK;
}

CK_RV pk_mech_info(CK_MECHANISM_TYPE type, CK_MECHANISM_INFO *info)
{
	const tk_symdef *d = tk_symfind(type);

	if (d == NULL && tk_pk_mech(type))
		return tk_pk_mech_info(type, info);
	if (d == NULL)
		return CKR_MECHANISM_INVALID;
	info->ulMinKeySize = d->min;
	info->ulMaxKeySize = d->max;
	info->flags = d->flags | (tk_vault_hw() ? CKF_HW : 0);
	return CKR_OK;
}

/* The 2.40 CK_GCM_PARAMS of some headers lacks ulIvBits. */
typedef struct pk_gcm240 {
	CK_BYTE_PTR pIv;
	CK_ULONG ulIvLen;
	CK_BYTE_PTR pAAD;
	CK_ULONG ulAADLen;
	CK_ULONG ulTagBits;
} pk_gcm240;

static uint32_t pk_digest_pv(CK_MECHANISM_TYPE t)
{
	const tk_symdef *d = tk_symfind(t);

	return d != NULL && d->flags == CKF_DIGEST ? d->pv : 0;
}

static CK_RV pk_params(const tk_symdef *d, const CK_MECHANISM *m, tk_mech *o)
{
	const void *p = m->pParameter;
	CK_ULONG n = m->ulParameterLen;

	switch (d->param) {
	case TK_P_NONE:
		return n == 0 ? CKR_OK : CKR_MECHANISM_PARAM_INVALID;
	case TK_P_IV16:
		if (p == NULL || n != 16)
			return CKR_MECHANISM_PARAM_INVALID;
		o->iv = p;
		o->iv_len = 16;
		return CKR_OK;
	case TK_P_CTR: {
		const CK_AES_CTR_PARAMS *c = p;
		if (p == NULL || n != sizeof *c || c->ulCounterBits == 0 ||
		    c->ulCounterBits > 128)
			return CKR_MECHANISM_PARAM_INVALID;
		o->iv = c->cb;
		o->iv_len = 16;
		o->ctr_bits = (uint32_t)c->ulCounterBits;
		return CKR_OK;
	}
	case TK_P_GCM: {
		const uint8_t *iv, *aad;
		CK_ULONG ivl, aadl, tagb;
		if (p != NULL && n == sizeof(CK_GCM_PARAMS)) {
			const CK_GCM_PARAMS *g = p;
			iv = g->pIv; ivl = g->ulIvLen; aad = g->pAAD;
			aadl = g->ulAADLen; tagb = g->ulTagBits;
		} else if (p != NULL && n == sizeof(pk_gcm240)) {
			const pk_gcm240 *g = p;
			iv = g->pIv; ivl = g->ulIvLen; aad = g->pAAD;
			aadl = g->ulAADLen; tagb = g->ulTagBits;
		} else {
			return CKR_MECHANISM_PARAM_INVALID;
		}
		if (iv == NULL || ivl == 0 || ivl > PV_IV_MAX ||
		    (aad == NULL && aadl != 0) || tagb % 8 != 0 || tagb < 32 ||
		    tagb > 128)
			return CKR_MECHANISM_PARAM_INVALID;
		o->iv = iv; o->iv_len = ivl;
		o->aad = aad; o->aad_len = aadl;
		o->tag_len = (uint32_t)(tagb / 8);
		return CKR_OK;
	}
	case TK_P_MACLEN: {
		CK_ULONG l;
		if (p == NULL || n != sizeof(CK_ULONG))
			return CKR_MECHANISM_PARAM_INVALID;
		memcpy(&l, p, sizeof l);
		if (l == 0 || l > d->maclen)
			return CKR_MECHANISM_PARAM_INVALID;
		o->tag_len = (uint32_t)l;
		return CKR_OK;
	}
	case TK_P_HKDF: {
		const CK_HKDF_PARAMS *h = p;
		if (p == NULL || n != sizeof *h)
			return CKR_MECHANISM_PARAM_INVALID;
		o->prf = pk_digest_pv(h->prfHashMechanism);
		if (o->prf == 0 || o->prf == PV_MECH_SM3 ||
		    (!h->bExtract && !h->bExpand))
			return CKR_MECHANISM_PARAM_INVALID;
		if (!h->bExtract)
			o->flags |= PV_F_HKDF_NO_EXTRACT;
		if (!h->bExpand)
			o->flags |= PV_F_HKDF_NO_EXPAND;
		if (h->bExtract) {
			if (h->ulSaltType == CKF_HKDF_SALT_DATA) {
				if (h->pSalt == NULL && h->ulSaltLen != 0)
					return CKR_MECHANISM_PARAM_INVALID;
				o->salt = h->pSalt;
				o->salt_len = h->ulSaltLen;
			} else if (h->ulSaltType != CKF_HKDF_SALT_NULL) {
				return CKR_MECHANISM_PARAM_INVALID;  /* SALT_KEY: not offered */
			}
		}
		if (h->pInfo == NULL && h->ulInfoLen != 0)
			return CKR_MECHANISM_PARAM_INVALID;
		o->aad = h->pInfo;
		o->aad_len = h->bExpand ? h->ulInfoLen : 0;
		return CKR_OK;
	}
	default:
		return CKR_MECHANISM_PARAM_INVALID;
	}
}

CK_RV pk_mech_decode(const CK_MECHANISM *m, CK_FLAGS use, tk_mech *out)
{
	const tk_symdef *d = tk_symfind(m->mechanism);

	memset(out, 0, sizeof *out);
	if (d == NULL || (d->flags & use) == 0)
		return CKR_MECHANISM_INVALID;
	if (m->pParameter == NULL && m->ulParameterLen != 0)
		return CKR_ARGUMENTS_BAD;
	out->ckm = d->ckm;
	out->pv = d->pv;
	out->ckk = d->ckk;
	out->pv_key = d->pv_key;
	out->dlen = d->maclen;
	return pk_params(d, m, out);
}
