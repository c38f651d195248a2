/*
 * pk_mech.c - the mechanism table and parameter decoding.
 *
 * Only mechanisms that work are listed.  Key sizes are in bytes (AES, SM4,
 * generic secrets).  CKF_HW is added when the vault runs on a GPU.  SM3/SM4
 * use our vendor constants (include/pixelvault/pkcs11-vendor.h); the IAIK/xipki generic codes
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

enum { P_NONE, P_IV16, P_CTR, P_GCM, P_MACLEN, P_HKDF };

#define ANYK ((CK_KEY_TYPE)-1)
#define F_CIPH (CKF_ENCRYPT | CKF_DECRYPT)
#define F_MAC  (CKF_SIGN | CKF_VERIFY)
#define F_WRAP (CKF_WRAP | CKF_UNWRAP)

typedef struct pk_mdef {
	CK_MECHANISM_TYPE ckm;
	uint32_t pv;
	CK_KEY_TYPE ckk;
	uint32_t pv_key;
	int param;
	uint32_t maclen;             /* full MAC / digest length */
	CK_ULONG min, max;
	CK_FLAGS flags;
} pk_mdef;

static const pk_mdef pk_mdefs[] = {
	/* AES */
	{ CKM_AES_KEY_GEN, PV_MECH_AES_KEY_GEN, CKK_AES, PV_KEY_AES, P_NONE, 0, 16, 32, CKF_GENERATE },
	{ CKM_AES_ECB, PV_MECH_AES_ECB, CKK_AES, PV_KEY_AES, P_NONE, 0, 16, 32, F_CIPH },
	{ CKM_AES_CBC, PV_MECH_AES_CBC, CKK_AES, PV_KEY_AES, P_IV16, 0, 16, 32, F_CIPH },
	{ CKM_AES_CBC_PAD, PV_MECH_AES_CBC_PAD, CKK_AES, PV_KEY_AES, P_IV16, 0, 16, 32, F_CIPH },
	{ CKM_AES_CTR, PV_MECH_AES_CTR, CKK_AES, PV_KEY_AES, P_CTR, 0, 16, 32, F_CIPH },
	{ CKM_AES_CFB128, PV_MECH_AES_CFB128, CKK_AES, PV_KEY_AES, P_IV16, 0, 16, 32, F_CIPH },
	{ CKM_AES_GCM, PV_MECH_AES_GCM, CKK_AES, PV_KEY_AES, P_GCM, 0, 16, 32, F_CIPH },
	{ CKM_AES_KEY_WRAP, PV_MECH_AES_KEY_WRAP, CKK_AES, PV_KEY_AES, P_NONE, 0, 16, 32, F_WRAP },
	{ CKM_AES_KEY_WRAP_PAD, PV_MECH_AES_KEY_WRAP_KWP, CKK_AES, PV_KEY_AES, P_NONE, 0, 16, 32, F_WRAP },
	{ CKM_AES_KEY_WRAP_KWP, PV_MECH_AES_KEY_WRAP_KWP, CKK_AES, PV_KEY_AES, P_NONE, 0, 16, 32, F_WRAP },
	{ CKM_AES_CMAC, PV_MECH_AES_CMAC, CKK_AES, PV_KEY_AES, P_NONE, 16, 16, 32, F_MAC },
	{ CKM_AES_CMAC_GENERAL, PV_MECH_AES_CMAC, CKK_AES, PV_KEY_AES, P_MACLEN, 16, 16, 32, F_MAC },
	/* SM4 (vendor) */
	{ CKM_PV_SM4_KEY_GEN, PV_MECH_SM4_KEY_GEN, CKK_PV_SM4, PV_KEY_SM4, P_NONE, 0, 16, 16, CKF_GENERATE },
	{ CKM_PV_SM4_ECB, PV_MECH_SM4_ECB, CKK_PV_SM4, PV_KEY_SM4, P_NONE, 0, 16, 16, F_CIPH },
	{ CKM_PV_SM4_CBC, PV_MECH_SM4_CBC, CKK_PV_SM4, PV_KEY_SM4, P_IV16, 0, 16, 16, F_CIPH },
	{ CKM_PV_SM4_CBC_PAD, PV_MECH_SM4_CBC_PAD, CKK_PV_SM4, PV_KEY_SM4, P_IV16, 0, 16, 16, F_CIPH },
	{ CKM_PV_SM4_CTR, PV_MECH_SM4_CTR, CKK_PV_SM4, PV_KEY_SM4, P_CTR, 0, 16, 16, F_CIPH },
	{ CKM_PV_SM4_GCM, PV_MECH_SM4_GCM, CKK_PV_SM4, PV_KEY_SM4, P_GCM, 0, 16, 16, F_CIPH },
	/* digests */
	{ CKM_SHA_1, PV_MECH_SHA1, ANYK, 0, P_NONE, 20, 0, 0, CKF_DIGEST },
	{ CKM_SHA224, PV_MECH_SHA224, ANYK, 0, P_NONE, 28, 0, 0, CKF_DIGEST },
	{ CKM_SHA256, PV_MECH_SHA256, ANYK, 0, P_NONE, 32, 0, 0, CKF_DIGEST },
	{ CKM_SHA384, PV_MECH_SHA384, ANYK, 0, P_NONE, 48, 0, 0, CKF_DIGEST },
	{ CKM_SHA512, PV_MECH_SHA512, ANYK, 0, P_NONE, 64, 0, 0, CKF_DIGEST },
	{ CKM_SHA3_224, PV_MECH_SHA3_224, ANYK, 0, P_NONE, 28, 0, 0, CKF_DIGEST },
	{ CKM_SHA3_256, PV_MECH_SHA3_256, ANYK, 0, P_NONE, 32, 0, 0, CKF_DIGEST },
	{ CKM_SHA3_384, PV_MECH_SHA3_384, ANYK, 0, P_NONE, 48, 0, 0, CKF_DIGEST },
	{ CKM_SHA3_512, PV_MECH_SHA3_512, ANYK, 0, P_NONE, 64, 0, 0, CKF_DIGEST },
	{ CKM_PV_SM3, PV_MECH_SM3, ANYK, 0, P_NONE, 32, 0, 0, CKF_DIGEST },
	/* HMAC (generic secret keys) */
	{ CKM_SHA_1_HMAC, PV_MECH_HMAC_SHA1, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 20, 1, 512, F_MAC },
	{ CKM_SHA_1_HMAC_GENERAL, PV_MECH_HMAC_SHA1, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 20, 1, 512, F_MAC },
	{ CKM_SHA224_HMAC, PV_MECH_HMAC_SHA224, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 28, 1, 512, F_MAC },
	{ CKM_SHA224_HMAC_GENERAL, PV_MECH_HMAC_SHA224, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 28, 1, 512, F_MAC },
	{ CKM_SHA256_HMAC, PV_MECH_HMAC_SHA256, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 32, 1, 512, F_MAC },
	{ CKM_SHA256_HMAC_GENERAL, PV_MECH_HMAC_SHA256, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 32, 1, 512, F_MAC },
	{ CKM_SHA384_HMAC, PV_MECH_HMAC_SHA384, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 48, 1, 512, F_MAC },
	{ CKM_SHA384_HMAC_GENERAL, PV_MECH_HMAC_SHA384, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 48, 1, 512, F_MAC },
	{ CKM_SHA512_HMAC, PV_MECH_HMAC_SHA512, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 64, 1, 512, F_MAC },
	{ CKM_SHA512_HMAC_GENERAL, PV_MECH_HMAC_SHA512, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 64, 1, 512, F_MAC },
	{ CKM_SHA3_224_HMAC, PV_MECH_HMAC_SHA3_224, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 28, 1, 512, F_MAC },
	{ CKM_SHA3_224_HMAC_GENERAL, PV_MECH_HMAC_SHA3_224, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 28, 1, 512, F_MAC },
	{ CKM_SHA3_256_HMAC, PV_MECH_HMAC_SHA3_256, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 32, 1, 512, F_MAC },
	{ CKM_SHA3_256_HMAC_GENERAL, PV_MECH_HMAC_SHA3_256, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 32, 1, 512, F_MAC },
	{ CKM_SHA3_384_HMAC, PV_MECH_HMAC_SHA3_384, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 48, 1, 512, F_MAC },
	{ CKM_SHA3_384_HMAC_GENERAL, PV_MECH_HMAC_SHA3_384, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 48, 1, 512, F_MAC },
	{ CKM_SHA3_512_HMAC, PV_MECH_HMAC_SHA3_512, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 64, 1, 512, F_MAC },
	{ CKM_SHA3_512_HMAC_GENERAL, PV_MECH_HMAC_SHA3_512, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_MACLEN, 64, 1, 512, F_MAC },
	{ CKM_PV_SM3_HMAC, PV_MECH_HMAC_SM3, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 32, 1, 512, F_MAC },
	/* generic secrets, HKDF */
	{ CKM_GENERIC_SECRET_KEY_GEN, PV_MECH_GENERIC_KEY_GEN, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_NONE, 0, 1, 512, CKF_GENERATE },
	{ CKM_HKDF_DERIVE, PV_MECH_HKDF, CKK_GENERIC_SECRET, PV_KEY_GENERIC, P_HKDF, 0, 1, 512, CKF_DERIVE },
};
#define PK_NDEFS (sizeof pk_mdefs / sizeof pk_mdefs[0])

static const pk_mdef *pk_mfind(CK_MECHANISM_TYPE t)
{
	size_t i;

	t = tk_mech_unalias(t);
	for (i = 0; i < PK_NDEFS; i++)
		if (pk_mdefs[i].ckm == t)
			return &pk_mdefs[i];
	return NULL;
}

int pk_mech_entry(CK_MECHANISM_TYPE t, uint32_t *entry)
{
	const pk_mdef *d = pk_mfind(t);

	if (d == NULL || d->pv_key == 0)
		return 0;                  /* unknown, or no key (digests) */
	*entry = d->pv << 16;          /* any variant's prf: the mechanism itself */
	return 1;
}

CK_RV pk_mech_list(CK_MECHANISM_TYPE *list, CK_ULONG *count)
{
	size_t i;
	CK_ULONG npk = tk_pk_mech_list(NULL, 0);   /* public key: token/tk_pk.c */

	if (list != NULL) {
		if (*count < PK_NDEFS + npk) {
			*count = PK_NDEFS + npk;
			return CKR_BUFFER_TOO_SMALL;
		}
		for (i = 0; i < PK_NDEFS; i++)
			list[i] = pk_mdefs[i].ckm;
		tk_pk_mech_list(list + PK_NDEFS, npk);
	}
	*count = PK_NDEFS + npk;
	return CKR_OK;
}

CK_RV pk_mech_info(CK_MECHANISM_TYPE type, CK_MECHANISM_INFO *info)
{
	const pk_mdef *d = pk_mfind(type);

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
	const pk_mdef *d = pk_mfind(t);

	return d != NULL && d->flags == CKF_DIGEST ? d->pv : 0;
}

static CK_RV pk_params(const pk_mdef *d, const CK_MECHANISM *m, tk_mech *o)
{
	const void *p = m->pParameter;
	CK_ULONG n = m->ulParameterLen;

	switch (d->param) {
	case P_NONE:
		return n == 0 ? CKR_OK : CKR_MECHANISM_PARAM_INVALID;
	case P_IV16:
		if (p == NULL || n != 16)
			return CKR_MECHANISM_PARAM_INVALID;
		o->iv = p;
		o->iv_len = 16;
		return CKR_OK;
	case P_CTR: {
		const CK_AES_CTR_PARAMS *c = p;
		if (p == NULL || n != sizeof *c || c->ulCounterBits == 0 ||
		    c->ulCounterBits > 128)
			return CKR_MECHANISM_PARAM_INVALID;
		o->iv = c->cb;
		o->iv_len = 16;
		o->ctr_bits = (uint32_t)c->ulCounterBits;
		return CKR_OK;
	}
	case P_GCM: {
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
	case P_MACLEN: {
		CK_ULONG l;
		if (p == NULL || n != sizeof(CK_ULONG))
			return CKR_MECHANISM_PARAM_INVALID;
		memcpy(&l, p, sizeof l);
		if (l == 0 || l > d->maclen)
			return CKR_MECHANISM_PARAM_INVALID;
		o->tag_len = (uint32_t)l;
		return CKR_OK;
	}
	case P_HKDF: {
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
	const pk_mdef *d = pk_mfind(m->mechanism);

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
