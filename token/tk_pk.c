/*
 * tk_pk.c - public-key mechanisms, operations and ECDH derivation (tk_pk.h);
 * key pairs and private-key import are in tk_pk_keys.c.
 *
 * Encodings on the PKCS#11 side: CKA_EC_PARAMS is the named-curve OID in
 * DER (P-256, P-384, SM2) or, for Ed25519, the PrintableString
 * "edwards25519" or the OID 1.3.101.112; CKA_EC_POINT is a DER OCTET
 * STRING around the uncompressed point for CKK_EC / CKK_PV_SM2 and the raw
 * 32 bytes for CKK_EC_EDWARDS (both forms are accepted on input).
 */
#include <stdlib.h>
#include <string.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "include/pixelvault/pkcs11-vendor.h"
#include "token/tk_async.h"
#include "token/tk_key.h"
#include "token/tk_pk.h"
#include "token/tk_auth.h"
#include "token/tk_pk_int.h"
/* after pkcs11.h (compat macros) */
#include "gpu/vault.h"

#ifndef CKM_SHA3_256_RSA_PKCS
#define CKM_SHA3_256_RSA_PKCS 0x60UL
#define CKM_SHA3_384_RSA_PKCS 0x61UL
#define CKM_SHA3_512_RSA_PKCS 0x62UL
#endif
typedef struct tk_eddsa_params {
	CK_BBOOL phFlag;
	CK_ULONG ulContextDataLen;
	CK_BYTE_PTR pContextData;
} tk_eddsa_params;

#define F_SV (CKF_SIGN | CKF_VERIFY)
#define F_ED (CKF_ENCRYPT | CKF_DECRYPT)
#define F_EC_CAPS (CKF_EC_F_P | CKF_EC_NAMEDCURVE | CKF_EC_UNCOMPRESS)

enum { PP_NONE, PP_PSS, PP_OAEP, PP_EDDSA, PP_SM2ID };

static const tk_pkdef tk_pkdefs[] = {
	{ CKM_RSA_PKCS_KEY_PAIR_GEN, PV_MECH_RSA_KEY_PAIR_GEN, 0, 0, CKK_RSA, PP_NONE, 1024, 4096, CKF_GENERATE_KEY_PAIR },
	{ CKM_RSA_PKCS, PV_MECH_RSA_PKCS, 0, 0, CKK_RSA, PP_NONE, 1024, 4096, F_SV | F_ED },
	{ CKM_RSA_X_509, PV_MECH_RSA_X_509, 0, 0, CKK_RSA, PP_NONE, 1024, 4096, F_SV | F_ED },
	{ CKM_RSA_PKCS_OAEP, PV_MECH_RSA_PKCS_OAEP, 0, 0, CKK_RSA, PP_OAEP, 1024, 4096, F_ED },
	{ CKM_RSA_PKCS_PSS, PV_MECH_RSA_PKCS_PSS, 0, 0, CKK_RSA, PP_PSS, 1024, 4096, F_SV },
	{ CKM_SHA1_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA1, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA224_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA224, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA256_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA256, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA384_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA384, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA512_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA512, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA3_256_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA3_256, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA3_384_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA3_384, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA3_512_RSA_PKCS, PV_MECH_RSA_PKCS, PV_MECH_SHA3_512, 1, CKK_RSA, PP_NONE, 1024, 4096, F_SV },
	{ CKM_SHA1_RSA_PKCS_PSS, PV_MECH_RSA_PKCS_PSS, PV_MECH_SHA1, 1, CKK_RSA, PP_PSS, 1024, 4096, F_SV },
	{ CKM_SHA224_RSA_PKCS_PSS, PV_MECH_RSA_PKCS_PSS, PV_MECH_SHA224, 1, CKK_RSA, PP_PSS, 1024, 4096, F_SV },
	{ CKM_SHA256_RSA_PKCS_PSS, PV_MECH_RSA_PKCS_PSS, PV_MECH_SHA256, 1, CKK_RSA, PP_PSS, 1024, 4096, F_SV },
	{ CKM_SHA384_RSA_PKCS_PSS, PV_MECH_RSA_PKCS_PSS, PV_MECH_SHA384, 1, CKK_RSA, PP_PSS, 1024, 4096, F_SV },
	{ CKM_SHA512_RSA_PKCS_PSS, PV_MECH_RSA_PKCS_PSS, PV_MECH_SHA512, 1, CKK_RSA, PP_PSS, 1024, 4096, F_SV },
	{ CKM_EC_KEY_PAIR_GEN, PV_MECH_EC_KEY_PAIR_GEN, 0, 0, CKK_EC, PP_NONE, 256, 384, CKF_GENERATE_KEY_PAIR | F_EC_CAPS },
	{ CKM_ECDSA, PV_MECH_ECDSA, 0, 0, CKK_EC, PP_NONE, 256, 384, F_SV | F_EC_CAPS },
	{ CKM_ECDSA_SHA1, PV_MECH_ECDSA, PV_MECH_SHA1, 1, CKK_EC, PP_NONE, 256, 384, F_SV | F_EC_CAPS },
	{ CKM_ECDSA_SHA224, PV_MECH_ECDSA, PV_MECH_SHA224, 1, CKK_EC, PP_NONE, 256, 384, F_SV | F_EC_CAPS },
	{ CKM_ECDSA_SHA256, PV_MECH_ECDSA, PV_MECH_SHA256, 1, CKK_EC, PP_NONE, 256, 384, F_SV | F_EC_CAPS },
	{ CKM_ECDSA_SHA384, PV_MECH_ECDSA, PV_MECH_SHA384, 1, CKK_EC, PP_NONE, 256, 384, F_SV | F_EC_CAPS },
	{ CKM_ECDSA_SHA512, PV_MECH_ECDSA, PV_MECH_SHA512, 1, CKK_EC, PP_NONE, 256, 384, F_SV | F_EC_CAPS },
	{ CKM_ECDH1_DERIVE, PV_MECH_ECDH1_DERIVE, 0, 0, CKK_EC, PP_NONE, 256, 384, CKF_DERIVE | F_EC_CAPS },
	{ CKM_EC_EDWARDS_KEY_PAIR_GEN, PV_MECH_EDDSA_KEY_PAIR_GEN, 0, 0, CKK_EC_EDWARDS, PP_NONE, 255, 255, CKF_GENERATE_KEY_PAIR },
	{ CKM_EDDSA, PV_MECH_EDDSA, 0, 0, CKK_EC_EDWARDS, PP_EDDSA, 255, 255, F_SV },
	{ CKM_PV_SM2_KEY_PAIR_GEN, PV_MECH_SM2_KEY_PAIR_GEN, 0, 0, CKK_PV_SM2, PP_NONE, 256, 256, CKF_GENERATE_KEY_PAIR },
	{ CKM_PV_SM2, PV_MECH_SM2_SIGN, 0, 0, CKK_PV_SM2, PP_NONE, 256, 256, F_SV },
	{ CKM_PV_SM2_SM3, PV_MECH_SM2_SIGN, PV_MECH_SM3, 1, CKK_PV_SM2, PP_SM2ID, 256, 256, F_SV },
	{ CKM_PV_SM2_ENCRYPT, PV_MECH_SM2_ENCRYPT, 0, 0, CKK_PV_SM2, PP_NONE, 256, 256, F_ED },
};
#define TK_NPK (sizeof tk_pkdefs / sizeof tk_pkdefs[0])

const tk_pkdef *tk_pkfind(CK_MECHANISM_TYPE t)
{
	size_t i;

	t = tk_mech_unalias(t);
	for (i = 0; i < TK_NPK; i++)
		if (tk_pkdefs[i].ckm == t)
			return &tk_pkdefs[i];
	return NULL;
}

int tk_pk_mech(CK_MECHANISM_TYPE ckm)
{
	return tk_pkfind(ckm) != NULL;
}

CK_ULONG tk_pk_mech_list(CK_MECHANISM_TYPE *list, CK_ULONG cap)
{
	CK_ULONG i;

	for (i = 0; list != NULL && i < TK_NPK && i < cap; i++)
		list[i] = tk_pkdefs[i].ckm;
	return TK_NPK;
}

CK_RV tk_pk_mech_info(CK_MECHANISM_TYPE ckm, CK_MECHANISM_INFO *info)
{
	const tk_pkdef *d = tk_pkfind(ckm);

	if (d == NULL)
		return CKR_MECHANISM_INVALID;
	info->ulMinKeySize = d->min;
	info->ulMaxKeySize = d->max;
	info->flags = d->flags | (tk_vault_hw() ? CKF_HW : 0);
	return CKR_OK;
}

/* ---- curves ---------------------------------------------------------------- */

static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t oid_p384[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
const uint8_t tk_oid_sm2[10] = { 0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d };
static const uint8_t oid_ed[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
static const uint8_t str_ed[] = { 0x13, 0x0c, 'e', 'd', 'w', 'a', 'r', 'd', 's', '2', '5', '5', '1', '9' };

#define EQ(a, n, o) ((n) == sizeof(o) && memcmp((a), (o), sizeof(o)) == 0)

/* PV key type of CKA_EC_PARAMS for key type kt; CKR on error. */
CK_RV tk_curve(CK_KEY_TYPE kt, const uint8_t *p, size_t n, uint32_t *pvk)
{
	if (p == NULL || n < 2)
		return CKR_DOMAIN_PARAMS_INVALID;
	if (kt == CKK_EC_EDWARDS) {
		if (EQ(p, n, oid_ed) || EQ(p, n, str_ed)) {
			*pvk = PV_KEY_ED25519;
			return CKR_OK;
		}
	} else if (kt == CKK_EC) {
		if (EQ(p, n, oid_p256)) { *pvk = PV_KEY_EC_P256; return CKR_OK; }
		if (EQ(p, n, oid_p384)) { *pvk = PV_KEY_EC_P384; return CKR_OK; }
		if (EQ(p, n, tk_oid_sm2)) { *pvk = PV_KEY_SM2; return CKR_OK; }
	} else if (kt == CKK_PV_SM2) {
		if (EQ(p, n, tk_oid_sm2)) { *pvk = PV_KEY_SM2; return CKR_OK; }
	}
	if (p[0] != 0x06 && p[0] != 0x13)
		return CKR_DOMAIN_PARAMS_INVALID;     /* explicit parameters etc. */
	return CKR_CURVE_NOT_SUPPORTED;
}

/* ---- operations ---------------------------------------------------------------- */

/* A session's public-key operation, kept in its record of tk_optab.c's
 * table (tk_ops_pk_*); owned by the call that reserved it. */
struct tk_pkop {
	int kind;
	tk_ops *os;                   /* its record, while reserved */
	int need_auth, authed;        /* CKA_ALWAYS_AUTHENTICATE */
	const tk_pkdef *d;
	uint32_t prf, mgf, slen, flags, key_type;
	uint8_t *aad; size_t aadl;
	uint8_t *key; size_t keyl;
	uint8_t id[PV_OBJ_ID_LEN];
	uint8_t *buf; size_t bl, bcap;
	size_t outmax;
	tk_vsig vsig;                 /* C_VerifySignatureInit's signature */
	tk_auth auth;                 /* the session's token and login */
};

void tk_pkop_free(tk_pkop *p)
{
	if (p == NULL)
		return;
	if (p->aad) { kc_wipe(p->aad, p->aadl); free(p->aad); }
	if (p->key) { kc_wipe(p->key, p->keyl); free(p->key); }
	if (p->buf) { kc_wipe(p->buf, p->bcap); free(p->buf); }
	tk_vsig_clear(&p->vsig);
	tk_auth_clear(&p->auth);
	free(p);
}

int tk_pk_active(CK_SESSION_HANDLE h, int kind)
{
	return tk_ops_pk_active(h, TK_KIND(kind));
}

static uint32_t tk_hash_pv(CK_MECHANISM_TYPE t)
{
	switch (t) {
	case CKM_SHA_1: return PV_MECH_SHA1;
	case CKM_SHA224: return PV_MECH_SHA224;
	case CKM_SHA256: return PV_MECH_SHA256;
	case CKM_SHA384: return PV_MECH_SHA384;
	case CKM_SHA512: return PV_MECH_SHA512;
	default: return 0;
	}
}

static uint32_t tk_mgf_pv(CK_ULONG g)
{
	switch (g) {
	case CKG_MGF1_SHA1: return PV_MECH_SHA1;
	case CKG_MGF1_SHA224: return PV_MECH_SHA224;
	case CKG_MGF1_SHA256: return PV_MECH_SHA256;
	case CKG_MGF1_SHA384: return PV_MECH_SHA384;
	case CKG_MGF1_SHA512: return PV_MECH_SHA512;
	default: return 0;
	}
}

static CK_RV tk_pk_params(tk_pkop *p, const CK_MECHANISM *m)
{
	const void *pp = m->pParameter;
	CK_ULONG n = m->ulParameterLen;
	const uint8_t *aad = NULL;
	size_t aadl = 0;

	switch (p->d->param) {
	case PP_NONE:
		if (n != 0)
			return CKR_MECHANISM_PARAM_INVALID;
		break;
	case PP_PSS: {
		const CK_RSA_PKCS_PSS_PARAMS *x = pp;
		if (pp == NULL || n != sizeof *x)
			return CKR_MECHANISM_PARAM_INVALID;
		p->prf = tk_hash_pv(x->hashAlg);
		p->mgf = tk_mgf_pv(x->mgf);
		p->slen = (uint32_t)x->sLen;
		if (p->prf == 0 || p->mgf == 0 || x->sLen > 512 ||
		    (p->d->prf != 0 && p->d->prf != p->prf))
			return CKR_MECHANISM_PARAM_INVALID;
		break;
	}
	case PP_OAEP: {
		const CK_RSA_PKCS_OAEP_PARAMS *x = pp;
		if (pp == NULL || n != sizeof *x)
			return CKR_MECHANISM_PARAM_INVALID;
		p->prf = tk_hash_pv(x->hashAlg);
		p->mgf = tk_mgf_pv(x->mgf);
		if (p->prf == 0 || p->mgf == 0)
			return CKR_MECHANISM_PARAM_INVALID;
		if (x->source == CKZ_DATA_SPECIFIED) {
			if (x->pSourceData == NULL && x->ulSourceDataLen != 0)
				return CKR_MECHANISM_PARAM_INVALID;
			aad = x->pSourceData;
			aadl = x->ulSourceDataLen;
		} else if (x->source != 0 || x->ulSourceDataLen != 0) {
			return CKR_MECHANISM_PARAM_INVALID;
		}
		break;
	}
	case PP_EDDSA: {
		const tk_eddsa_params *x = pp;
		if (n == 0)
			break;
		if (pp == NULL || n != sizeof *x || x->ulContextDataLen > 255 ||
		    (x->pContextData == NULL && x->ulContextDataLen != 0))
			return CKR_MECHANISM_PARAM_INVALID;
		p->flags |= x->phFlag ? PV_F_EDDSA_PH : PV_F_EDDSA_CTX;
		aad = x->pContextData;
		aadl = x->ulContextDataLen;
		break;
	}
	case PP_SM2ID:
		if (n >= 8192 || (pp == NULL && n != 0))
			return CKR_MECHANISM_PARAM_INVALID;
		aad = pp;
		aadl = n;
		break;
	}
	if (aadl > 0) {
		if ((p->aad = malloc(aadl)) == NULL)
			return CKR_HOST_MEMORY;
		memcpy(p->aad, aad, aadl);
		p->aadl = aadl;
	}
	return CKR_OK;
}

/* Length of the curve's point as the engine takes it: 04||X||Y, or
 * Ed25519's 32 bytes; 0 if unknown. */
static size_t tk_pk_pointlen(uint32_t pvk)
{
	switch (pvk) {
	case PV_KEY_EC_P256: case PV_KEY_SM2: return 65;
	case PV_KEY_EC_P384: return 97;
	case PV_KEY_ED25519: return 32;
	default: return 0;
	}
}

/* EC point of a public object: DER OCTET STRING or bare.  The DER form is
 * recognised by its length, the curve's point length plus its header: a
 * bare uncompressed point starts with 04 too, and its next byte (the first
 * of X) equals "the rest's length" once in 256 keys. */
static CK_RV tk_pk_point(const tk_attr *a, uint32_t pvk, uint8_t *out, size_t *len)
{
	const size_t want = tk_pk_pointlen(pvk);
	const uint8_t *v;
	size_t n;

	if (a == NULL || a->len == 0)
		return CKR_KEY_HANDLE_INVALID;
	v = a->val;
	n = a->len;
	if (want != 0 && n == want + 2 && v[0] == 0x04 && v[1] == want) {
		v += 2; n -= 2;
	} else if (want != 0 && n == want + 3 && v[0] == 0x04 && v[1] == 0x81 && v[2] == want) {
		v += 3; n -= 3;
	}
	if (n > PV_PK_PUB_MAX)
		return CKR_PUBLIC_KEY_INVALID;
	memcpy(out, v, n);
	*len = n;
	return CKR_OK;
}

/* Public encoding + key type of an object (public or private). */
static CK_RV tk_pk_pubenc(const tk_obj *o, CK_KEY_TYPE kt, uint8_t *out, size_t *len, uint32_t *pvk)
{
	if (kt == CKK_RSA) {
		const tk_attr *n = tk_obj_attr(o, CKA_MODULUS), *e = tk_obj_attr(o, CKA_PUBLIC_EXPONENT);
		const uint8_t *nv, *ev;
		size_t nl, el;
		if (n == NULL || e == NULL)
			return CKR_KEY_HANDLE_INVALID;
		nv = n->val; nl = n->len; ev = e->val; el = e->len;
		while (nl > 0 && nv[0] == 0) { nv++; nl--; }
		while (el > 0 && ev[0] == 0) { ev++; el--; }
		if (nl == 0 || nl > 512 || el == 0 || el > 4)
			return CKR_PUBLIC_KEY_INVALID;
		memcpy(out, nv, nl);
		memset(out + nl, 0, 4);
		memcpy(out + nl + 4 - el, ev, el);
		*len = nl + 4;
		*pvk = PV_KEY_RSA;
		return CKR_OK;
	}
	{
		const tk_attr *ep = tk_obj_attr(o, CKA_EC_PARAMS);
		CK_RV rv;
		if (ep == NULL)
			return CKR_KEY_HANDLE_INVALID;
		if ((rv = tk_curve(kt, ep->val, ep->len, pvk)) != CKR_OK)
			return rv;
		return tk_pk_point(tk_obj_attr(o, CKA_EC_POINT), *pvk, out, len);
	}
}

CK_RV tk_pk_init(CK_SESSION_HANDLE h, int call, const CK_MECHANISM *m,
                 CK_OBJECT_HANDLE key, const uint8_t *sig, size_t sl)
{
	const int kind = TK_KIND(call);
	const tk_pkdef *d = tk_pkfind(m->mechanism);
	CK_FLAGS need;
	CK_ATTRIBUTE_TYPE flag;
	CK_OBJECT_CLASS cls;
	CK_KEY_TYPE kt;
	tk_obj *o = NULL;
	tk_pkop *p;
	uint8_t pub[PV_PK_PUB_MAX];
	size_t pl = 0;
	uint32_t pvk = 0;
	CK_RV rv;

	switch (kind) {
	case TK_OPK_SIGN: need = CKF_SIGN; flag = CKA_SIGN; break;
	case TK_OPK_VERIFY: need = CKF_VERIFY; flag = CKA_VERIFY; break;
	case TK_OPK_ENCRYPT: need = CKF_ENCRYPT; flag = CKA_ENCRYPT; break;
	case TK_OPK_DECRYPT: need = CKF_DECRYPT; flag = CKA_DECRYPT; break;
	default: return CKR_MECHANISM_INVALID;
	}
	if (d == NULL || !(d->flags & need))
		return CKR_MECHANISM_INVALID;
	p = calloc(1, sizeof *p);
	if (p == NULL)
		return CKR_HOST_MEMORY;
	p->kind = kind;
	p->d = d;
	p->prf = d->prf;
	p->flags = d->hashdata ? PV_F_HASH_DATA : 0;
	if ((rv = tk_pk_params(p, m)) != CKR_OK)
		goto fail;
	if ((rv = tk_vsig_keep(&p->vsig, call, sig, sl)) != CKR_OK)
		goto fail;
	rv = tk_key_get(h, key, d->ckm, &o);
	if (rv != CKR_OK)
		goto fail;
	cls = tk_obj_ulong(o, CKA_CLASS, CK_UNAVAILABLE_INFORMATION);
	kt = tk_obj_ulong(o, CKA_KEY_TYPE, CK_UNAVAILABLE_INFORMATION);
	if (kt != d->ckk && !(d->ckk == CKK_EC && kt == CKK_PV_SM2 && 0)) {
		rv = CKR_KEY_TYPE_INCONSISTENT;
		goto fail;
	}
	if (!tk_obj_bool(o, flag, CK_FALSE)) {
		rv = CKR_KEY_FUNCTION_NOT_PERMITTED;
		goto fail;
	}
	if (kind == TK_OPK_SIGN || kind == TK_OPK_DECRYPT) {
		const uint8_t *b, *id;
		size_t bl;
		if (cls != CKO_PRIVATE_KEY) {
			rv = CKR_KEY_TYPE_INCONSISTENT;
			goto fail;
		}
		if ((rv = tk_key_blob(o, &b, &bl, &id)) != CKR_OK)
			goto fail;
		if ((p->key = malloc(bl)) == NULL) {
			rv = CKR_HOST_MEMORY;
			goto fail;
		}
		memcpy(p->key, b, bl);
		p->keyl = bl;
		memcpy(p->id, id, PV_OBJ_ID_LEN);
		if ((rv = tk_auth_session(h, &p->auth)) != CKR_OK)
			goto fail;
		tk_auth_key(&p->auth, o);
		p->need_auth = tk_obj_bool(o, CKA_ALWAYS_AUTHENTICATE, CK_FALSE) != CK_FALSE;
		/* size of the output, from the public attributes it carries */
		if ((rv = tk_pk_pubenc(o, kt, pub, &pl, &pvk)) != CKR_OK)
			goto fail;
	} else {
		if (cls != CKO_PUBLIC_KEY && cls != CKO_PRIVATE_KEY) {
			rv = CKR_KEY_TYPE_INCONSISTENT;
			goto fail;
		}
		if ((rv = tk_pk_pubenc(o, kt, pub, &pl, &pvk)) != CKR_OK)
			goto fail;
		if ((p->key = malloc(pl)) == NULL) {
			rv = CKR_HOST_MEMORY;
			goto fail;
		}
		memcpy(p->key, pub, pl);
		p->keyl = pl;
		p->key_type = pvk;
	}
	if (pvk == PV_KEY_RSA)
		p->outmax = pl - 4;
	else if (pvk == PV_KEY_ED25519)
		p->outmax = 64;
	else
		p->outmax = pl - 1;            /* r||s: 2 flen */
	tk_obj_free(o);
	/* stored only while the session lives (its record: tk_optab.c) */
	rv = tk_ops_pk_add(h, kind, p);
	if (rv != CKR_OK)
		tk_pkop_free(p);
	return rv;
fail:
	tk_obj_free(o);
	tk_pkop_free(p);
	return rv;
}

/* The last use of p: with end it is freed. */
static void tk_pk_put(tk_pkop *p, int end)
{
	tk_ops_pk_put(p->os, p->kind, end);
}

/* h's operation for a call of this kind (tk_vsig_fits), reserved. */
static tk_pkop *tk_pk_take(CK_SESSION_HANDLE h, int kind, CK_RV *rv)
{
	tk_ops *os;
	tk_pkop *p = tk_ops_pk_take(h, TK_KIND(kind), &os, rv);

	if (p == NULL)
		return NULL;
	p->os = os;
	if (!tk_vsig_fits(&p->vsig, kind)) {
		tk_pk_put(p, 0);
		*rv = CKR_OPERATION_NOT_INITIALIZED;
		return NULL;
	}
	return p;
}

static CK_RV tk_pk_rv(int rc, int kind)
{
	if (rc == PV_ERR_PERM)
		return CKR_KEY_FUNCTION_NOT_PERMITTED;
	if (rc == PV_ERR_DATA_LEN && kind == TK_OPK_DECRYPT)
		return CKR_ENCRYPTED_DATA_LEN_RANGE;
	if (rc == PV_ERR_ENC_LEN && kind == TK_OPK_DECRYPT)
		return CKR_ENCRYPTED_DATA_LEN_RANGE;
	return tk_rv_from_pv(rc);
}

/* The most output p's call over n bytes can make. */
static size_t tk_pk_need(const tk_pkop *p, size_t n)
{
	if (p->d->pv == PV_MECH_SM2_ENCRYPT)
		return p->kind == TK_OPK_ENCRYPT ? n + 97 : (n > 97 ? n - 97 : 0);
	return p->outmax;
}

/* p's request over in (its output left to the caller). */
static void tk_pk_req(const tk_pkop *p, pv_req *r, const uint8_t *in, size_t n)
{
	static const uint32_t ops[] = { PV_OP_ENCRYPT, PV_OP_DECRYPT, 0, PV_OP_SIGN, PV_OP_VERIFY };

	pv_req_init(r, ops[p->kind], p->d->pv);
	r->prf = p->prf;
	r->flags = p->flags;
	r->tag_len = p->mgf;
	r->ctr_bits = p->slen;
	r->aad = p->aad;
	r->aad_len = p->aadl;
	r->key = p->key;
	r->key_len = p->keyl;
	r->key_type = p->key_type;
	if (p->key_type == 0) {
		memcpy(r->key_id, p->id, PV_OBJ_ID_LEN);
		tk_auth_req(&p->auth, r);
	}
	r->in = in;
	r->in_len = n;
}

/* Run p over in; sig for VERIFY.  Output into out (cap *outl). */
static CK_RV tk_pk_run(tk_pkop *p, const uint8_t *in, size_t n, const uint8_t *sig,
                       size_t sl, uint8_t *out, CK_ULONG *outl, int *keep)
{
	size_t need = tk_pk_need(p, n);
	uint8_t *tmp = NULL;
	pv_req r;
	int rc;

	*keep = 0;
	if (p->need_auth && !p->authed && out != NULL) {
		*keep = 1;                /* C_Login(CKU_CONTEXT_SPECIFIC) first */
		return CKR_USER_NOT_LOGGED_IN;
	}
	if (p->kind != TK_OPK_VERIFY) {
		if (out == NULL) {
			*outl = need;
			*keep = 1;
			return CKR_OK;
		}
		if (*outl < need && p->kind != TK_OPK_DECRYPT) {
			*outl = need;
			*keep = 1;
			return CKR_BUFFER_TOO_SMALL;
		}
	}
	tk_pk_req(p, &r, in, n);
	if (p->kind == TK_OPK_VERIFY) {
		r.in2 = sig;
		r.in2_len = sl;
		rc = tk_vault_call(&r);
		return tk_pk_rv(rc, p->kind);
	}
	tmp = malloc(need + 1);
	if (tmp == NULL)
		return CKR_HOST_MEMORY;
	r.out = tmp;
	r.out_cap = need;
	rc = tk_vault_call(&r);
	if (rc == PV_OK) {
		if (*outl < r.out_len) {
			*outl = r.out_len;
			*keep = 1;
			kc_wipe(tmp, need);
			free(tmp);
			return CKR_BUFFER_TOO_SMALL;
		}
		memcpy(out, tmp, r.out_len);
		*outl = r.out_len;
	}
	kc_wipe(tmp, need);
	free(tmp);
	return tk_pk_rv(rc, p->kind);
}

/* Async sessions (tk_async.c): the end of a pending call's operation. */
static void tk_pk_async_end(tk_async *a)
{
	tk_ops_pk_put(a->os, a->kind, 1);
}

/* p's single-part call as a pending one, straight into out (large
 * enough for any answer; C_Verify: none, sig the signature). */
static CK_RV tk_pk_pend(tk_pkop *p, const uint8_t *in, size_t n, const uint8_t *sig,
                        size_t sl, uint8_t *out, size_t need)
{
	tk_async *a = tk_async_new(p->os, p->vsig.sig != NULL ? TK_OPK_VERIFY_SIG : p->kind, tk_pk_rv,
	                           tk_pk_async_end, p);

	if (a == NULL) {
		tk_pk_put(p, 1);
		return CKR_HOST_MEMORY;
	}
	tk_pk_req(p, &a->r, in, n);
	a->r.in2 = sig;
	a->r.in2_len = sl;
	a->r.out = out;
	a->r.out_cap = need;
	return tk_async_start(a);
}

CK_RV tk_pk_oneshot(CK_SESSION_HANDLE h, int kind, const uint8_t *in,
                    size_t n, uint8_t *out, CK_ULONG *outl)
{
	CK_RV rv;
	tk_pkop *p = tk_pk_take(h, kind, &rv);
	int keep = 0;

	if (p == NULL)
		return rv;
	if (p->bl > 0) {
		tk_pk_put(p, 1);
		return CKR_OPERATION_ACTIVE;
	}
	if (tk_ops_async_ok(p->os) && out != NULL && *outl >= tk_pk_need(p, n) &&
	    !(p->need_auth && !p->authed))
		return tk_pk_pend(p, in, n, NULL, 0, out, tk_pk_need(p, n));
	rv = tk_pk_run(p, in, n, NULL, 0, out, outl, &keep);
	tk_pk_put(p, !keep);
	return rv;
}

CK_RV tk_pk_update(CK_SESSION_HANDLE h, int kind, const uint8_t *in, size_t n)
{
	CK_RV rv;
	tk_pkop *p = tk_pk_take(h, kind, &rv);

	if (p == NULL)
		return rv;
	if (p->kind == TK_OPK_ENCRYPT || p->kind == TK_OPK_DECRYPT || !p->d->hashdata) {
		/* PKCS#11: single-part only for the raw / encryption mechanisms */
		if (!(p->d->pv == PV_MECH_EDDSA)) {
			tk_pk_put(p, 1);
			return CKR_FUNCTION_NOT_SUPPORTED;
		}
	}
	if (p->bl + n > p->bcap) {
		size_t nc = (p->bl + n) * 2 + 64;
		uint8_t *nb = malloc(nc);
		if (nb == NULL) {
			tk_pk_put(p, 1);
			return CKR_HOST_MEMORY;
		}
		if (p->bl)
			memcpy(nb, p->buf, p->bl);
		if (p->buf) {
			kc_wipe(p->buf, p->bcap);
			free(p->buf);
		}
		p->buf = nb;
		p->bcap = nc;
	}
	if (n)
		memcpy(p->buf + p->bl, in, n);
	p->bl += n;
	tk_pk_put(p, 0);
	return CKR_OK;
}

CK_RV tk_pk_final(CK_SESSION_HANDLE h, int kind, uint8_t *out, CK_ULONG *outl)
{
	CK_RV rv;
	tk_pkop *p = tk_pk_take(h, kind, &rv);
	int keep = 0;

	if (p == NULL)
		return rv;
	rv = tk_pk_run(p, p->buf, p->bl, NULL, 0, out, outl, &keep);
	tk_pk_put(p, !keep);
	return rv;
}

CK_RV tk_pk_verify(CK_SESSION_HANDLE h, int kind, const uint8_t *in, size_t n,
                   const uint8_t *sig, size_t sl, int final)
{
	CK_RV rv;
	tk_pkop *p = tk_pk_take(h, kind, &rv);
	int keep = 0;

	if (p == NULL)
		return rv;
	if (!final && p->bl > 0) {
		tk_pk_put(p, 0);               /* a single part after updates */
		return CKR_OPERATION_ACTIVE;
	}
	if (p->vsig.sig != NULL) {
		sig = p->vsig.sig;
		sl = p->vsig.len;
	}
	if (!final && p->bl == 0 && tk_ops_async_ok(p->os))
		return tk_pk_pend(p, in, n, sig, sl, NULL, 0);
	if (final)
		rv = tk_pk_run(p, p->buf, p->bl, sig, sl, NULL, NULL, &keep);
	else
		rv = tk_pk_run(p, in, n, sig, sl, NULL, NULL, &keep);
	tk_pk_put(p, 1);
	return rv;
}

/* ---- C_DeriveKey with CKM_ECDH1_DERIVE (CKD_NULL) ------------------------------ */

CK_RV tk_pk_derive(CK_SESSION_HANDLE h, const CK_MECHANISM *m, CK_OBJECT_HANDLE bk,
                   const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	const CK_ECDH1_DERIVE_PARAMS *ep = m->pParameter;
	const CK_ATTRIBUTE *a;
	tk_obj *b = NULL, *o = NULL;
	const uint8_t *blob, *bid;
	size_t bl;
	uint8_t nb[PV_BLOB_MAX], id[PV_OBJ_ID_LEN];
	tk_auth au = TK_AUTH_INIT;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET, bkt;
	CK_ULONG vlen = 0;
	uint32_t pvt = PV_KEY_GENERIC;
	pv_req r;
	CK_RV rv;
	int rc;

	if (m->mechanism != CKM_ECDH1_DERIVE)
		return CKR_MECHANISM_INVALID;
	if (ep == NULL || m->ulParameterLen != sizeof *ep || ep->kdf != CKD_NULL ||
	    ep->ulSharedDataLen != 0 || ep->pPublicData == NULL || ep->ulPublicDataLen == 0)
		return CKR_MECHANISM_PARAM_INVALID;
	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	if ((rv = tk_tmpl_expect(t, n, CKA_CLASS, CKO_SECRET_KEY)) != CKR_OK)
		return rv;
	if ((a = tk_tfind(t, n, CKA_KEY_TYPE)) != NULL) {
		if ((rv = tk_tmpl_ulong(a, &kt)) != CKR_OK)
			return rv;
		if (kt == CKK_AES)
			pvt = PV_KEY_AES;
		else if (kt != CKK_GENERIC_SECRET)
			return CKR_TEMPLATE_INCONSISTENT;
	}
	if ((a = tk_tfind(t, n, CKA_VALUE_LEN)) != NULL) {
		if ((rv = tk_tmpl_ulong(a, &vlen)) != CKR_OK)
			return rv;
		if (vlen == 0 || vlen > 48)
			return CKR_ATTRIBUTE_VALUE_INVALID;
	} else if (kt == CKK_AES) {
		return CKR_TEMPLATE_INCOMPLETE;
	}
	rv = tk_key_get(h, bk, CKM_ECDH1_DERIVE, &b);
	if (rv != CKR_OK)
		return rv;
	bkt = tk_obj_ulong(b, CKA_KEY_TYPE, CK_UNAVAILABLE_INFORMATION);
	if (tk_obj_ulong(b, CKA_CLASS, 0) != CKO_PRIVATE_KEY || (bkt != CKK_EC && bkt != CKK_PV_SM2)) {
		rv = CKR_KEY_TYPE_INCONSISTENT;
		goto out;
	}
	if (!tk_obj_bool(b, CKA_DERIVE, CK_FALSE)) {
		rv = CKR_KEY_FUNCTION_NOT_PERMITTED;
		goto out;
	}
	if ((rv = tk_key_blob(b, &blob, &bl, &bid)) != CKR_OK)
		goto out;
	if ((o = tk_obj_new()) == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	if ((rv = tk_tcopy(o, t, n, CKO_SECRET_KEY, tk_object_so(h))) != CKR_OK)
		goto out;
	tk_setu(o, CKA_CLASS, CKO_SECRET_KEY);
	tk_setu(o, CKA_KEY_TYPE, kt);
	tk_dflt(o, CKA_TOKEN, CK_FALSE);
	tk_dflt(o, CKA_PRIVATE, CK_TRUE);
	tk_dflt(o, CKA_SENSITIVE, CK_TRUE);
	tk_dflt(o, CKA_EXTRACTABLE, CK_FALSE);
	tk_dflt(o, CKA_ENCRYPT, CK_FALSE);
	tk_dflt(o, CKA_DECRYPT, CK_FALSE);
	tk_dflt(o, CKA_SIGN, CK_FALSE);
	tk_dflt(o, CKA_VERIFY, CK_FALSE);
	tk_dflt(o, CKA_WRAP, CK_FALSE);
	tk_dflt(o, CKA_UNWRAP, CK_FALSE);
	tk_dflt(o, CKA_DERIVE, CK_FALSE);
	tk_dflt(o, CKA_MODIFIABLE, CK_TRUE);
	tk_dflt(o, CKA_DESTROYABLE, CK_TRUE);
	if ((rc = tk_random(id, sizeof id)) < 0) {
		rv = tk_rv_from_pv(rc);
		goto out;
	}
	if ((rv = tk_auth_session(h, &au)) != CKR_OK || (rv = tk_auth_new(&au, o)) != CKR_OK)
		goto out;
	tk_auth_key(&au, b);
	pv_req_init(&r, PV_OP_DERIVE_KEY, PV_MECH_ECDH1_DERIVE);
	tk_auth_req(&au, &r);
	r.key = blob; r.key_len = bl; memcpy(r.key_id, bid, PV_OBJ_ID_LEN);
	r.in2 = ep->pPublicData; r.in2_len = ep->ulPublicDataLen;
	r.new_type = pvt;
	r.new_len = (uint32_t)vlen;
	r.new_usage = tk_key_usage(o);
	memcpy(r.new_id, id, sizeof id);
	r.out = nb; r.out_cap = sizeof nb;
	rc = tk_vault_call(&r);
	if (rc != PV_OK) {
		rv = rc == PV_ERR_KEY_SIZE ? CKR_ATTRIBUTE_VALUE_INVALID : tk_rv_from_pv(rc);
		goto out;
	}
	vlen = r.out_len - PV_BLOB_OVERHEAD;
	if (tk_obj_set(o, TK_CKA_BLOB, nb, r.out_len) < 0 ||
	    tk_obj_set(o, TK_CKA_BLOB_ID, id, sizeof id) < 0 ||
	    tk_setu(o, CKA_VALUE_LEN, vlen) < 0 ||
	    tk_setb(o, CKA_LOCAL, CK_FALSE) < 0 ||
	    tk_setu(o, CKA_KEY_GEN_MECHANISM, CK_UNAVAILABLE_INFORMATION) < 0 ||
	    tk_setb(o, CKA_ALWAYS_SENSITIVE, tk_obj_bool(o, CKA_SENSITIVE, CK_TRUE) &&
	                                     tk_obj_bool(b, CKA_ALWAYS_SENSITIVE, CK_FALSE)) < 0 ||
	    tk_setb(o, CKA_NEVER_EXTRACTABLE, !tk_obj_bool(o, CKA_EXTRACTABLE, CK_FALSE) &&
	                                      tk_obj_bool(b, CKA_NEVER_EXTRACTABLE, CK_FALSE)) < 0) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = tk_object_add(h, o, out);
	if (rv == CKR_OK)
		o = NULL;
out:
	kc_wipe(nb, sizeof nb);
	tk_auth_clear(&au);
	tk_obj_free(o);
	tk_obj_free(b);
	return rv;
}

static int tk_pk_auth_pending(tk_pkop *p)
{
	return p->need_auth && !p->authed;
}

static int tk_pk_auth_mark(tk_pkop *p)
{
	if (!tk_pk_auth_pending(p))
		return 0;
	p->authed = 1;
	return 1;
}

int tk_pk_ctx_pending(CK_SESSION_HANDLE h)
{
	return tk_ops_pk_each(h, tk_pk_auth_pending) > 0;
}

CK_RV tk_pk_ctx_authed(CK_SESSION_HANDLE h)
{
	return tk_ops_pk_each(h, tk_pk_auth_mark) > 0 ? CKR_OK : CKR_OPERATION_NOT_INITIALIZED;
}
