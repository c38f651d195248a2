/*
 * tk_pk_keys.c - public-key objects made by the token: C_GenerateKeyPair
 * (the pair generated in the vault, the private part kept as a blob) and
 * C_CreateObject of a private key (imported into the vault, wiped), each
 * with its public object under the same CKA_ID.  Encodings: tk_pk.c.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "include/pixelvault/pkcs11-vendor.h"
#include "token/tk_key.h"
#include "token/tk_pk.h"
#include "token/tk_auth.h"
#include "token/tk_pk_int.h"
/* after pkcs11.h (compat macros) */
#include "gpu/vault.h"

/* ---- key pair generation ---------------------------------------------------- */

const CK_ATTRIBUTE *tk_tfind(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE a)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if (t[i].type == a)
			return &t[i];
	return NULL;
}


/* Copy the template into o, refusing attributes the token computes. */
static int tk_secret_attr(CK_ATTRIBUTE_TYPE a)
{
	return a == CKA_VALUE || a == CKA_PRIVATE_EXPONENT || a == CKA_PRIME_1 ||
	       a == CKA_PRIME_2 || a == CKA_EXPONENT_1 || a == CKA_EXPONENT_2 ||
	       a == CKA_COEFFICIENT;
}

CK_RV tk_tcopy(tk_obj *o, const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_CLASS cls, int so)
{
	CK_ULONG i;
	CK_RV rv;
	int import = (cls & 0x80000000UL) != 0;

	cls &= ~0x80000000UL;
	for (i = 0; i < n; i++) {
		if (import && (tk_secret_attr(t[i].type) || t[i].type == CKA_MODULUS ||
		               t[i].type == CKA_PUBLIC_EXPONENT || t[i].type == CKA_EC_PARAMS ||
		               t[i].type == CKA_KEY_TYPE))
			continue;                 /* consumed by the import */
		switch (t[i].type) {
		case CKA_CLASS:
			if (t[i].ulValueLen != sizeof(CK_ULONG) || t[i].pValue == NULL ||
			    *(const CK_ULONG *)t[i].pValue != cls)
				return CKR_TEMPLATE_INCONSISTENT;
			break;
		case CKA_VALUE: case CKA_PRIVATE_EXPONENT: case CKA_PRIME_1: case CKA_PRIME_2:
		case CKA_EXPONENT_1: case CKA_EXPONENT_2: case CKA_COEFFICIENT: case CKA_LOCAL:
		case CKA_KEY_GEN_MECHANISM: case CKA_ALWAYS_SENSITIVE: case CKA_NEVER_EXTRACTABLE:
		case TK_CKA_BLOB: case TK_CKA_BLOB_ID: case TK_CKA_BLOB_MECHS:
			return CKR_ATTRIBUTE_READ_ONLY;
		case CKA_MODULUS: case CKA_EC_POINT:
			return CKR_TEMPLATE_INCONSISTENT;
		default:
			if (t[i].pValue == NULL && t[i].ulValueLen != 0)
				return CKR_ATTRIBUTE_VALUE_INVALID;
			if ((rv = tk_attr_key_check(&t[i], so)) != CKR_OK)
				return rv;
			if (tk_obj_set(o, t[i].type, t[i].pValue, t[i].ulValueLen) < 0)
				return CKR_HOST_MEMORY;
		}
	}
	return CKR_OK;
}

int tk_setu(tk_obj *o, CK_ATTRIBUTE_TYPE a, CK_ULONG v)
{
	return tk_obj_set(o, a, &v, sizeof v);
}

int tk_setb(tk_obj *o, CK_ATTRIBUTE_TYPE a, CK_BBOOL v)
{
	return tk_obj_set(o, a, &v, sizeof v);
}

void tk_dflt(tk_obj *o, CK_ATTRIBUTE_TYPE a, CK_BBOOL v)
{
	if (tk_obj_attr(o, a) == NULL)
		tk_setb(o, a, v);
}

/* Public attributes of the key (pub = the vault's public encoding) on o. */
static CK_RV tk_pubattrs(tk_obj *o, uint32_t pvk, const uint8_t *pub, size_t pl,
                         const uint8_t *ecp, size_t ecpl)
{
	if (pvk == PV_KEY_RSA) {
		CK_ULONG bits;
		size_t k = pl - 4, i = 0;
		const uint8_t *e = pub + k;
		while (i < 3 && e[i] == 0)
			i++;
		bits = 8 * k;
		{
			uint8_t t = pub[0];
			while (t < 0x80) { bits--; t <<= 1; }
		}
		if (tk_obj_set(o, CKA_MODULUS, pub, k) < 0 ||
		    tk_obj_set(o, CKA_PUBLIC_EXPONENT, e + i, 4 - i) < 0 ||
		    tk_setu(o, CKA_MODULUS_BITS, bits) < 0)
			return CKR_HOST_MEMORY;
		return CKR_OK;
	}
	if (tk_obj_set(o, CKA_EC_PARAMS, ecp, ecpl) < 0)
		return CKR_HOST_MEMORY;
	if (pvk == PV_KEY_ED25519)
		return tk_obj_set(o, CKA_EC_POINT, pub, pl) < 0 ? CKR_HOST_MEMORY : CKR_OK;
	{
		uint8_t d[2 + 97];
		d[0] = 0x04;
		d[1] = (uint8_t)pl;
		memcpy(d + 2, pub, pl);
		return tk_obj_set(o, CKA_EC_POINT, d, pl + 2) < 0 ? CKR_HOST_MEMORY : CKR_OK;
	}
}

/* The usage bound into a private key's blob: its CKA_SIGN, DECRYPT,
 * DERIVE, UNWRAP and EXTRACTABLE (a private key's attributes do not
 * change once it is made). */
uint32_t tk_pk_usage(const tk_obj *o)
{
	uint32_t u = 0;

	if (tk_obj_bool(o, CKA_SIGN, CK_FALSE))
		u |= PV_USE_SIGN;
	if (tk_obj_bool(o, CKA_DECRYPT, CK_FALSE))
		u |= PV_USE_DECRYPT;
	if (tk_obj_bool(o, CKA_DERIVE, CK_FALSE))
		u |= PV_USE_DERIVE;
	if (tk_obj_bool(o, CKA_UNWRAP, CK_FALSE))
		u |= PV_USE_UNWRAP;
	if (tk_obj_bool(o, CKA_EXTRACTABLE, CK_FALSE))
		u |= PV_USE_EXTRACT;
	return u;
}

CK_RV tk_tmpl_expect(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE type,
                     CK_ULONG want)
{
	const CK_ATTRIBUTE *a = tk_tfind(t, n, type);
	CK_ULONG v;
	CK_RV rv;

	if (a == NULL)
		return CKR_OK;
	if ((rv = tk_tmpl_ulong(a, &v)) != CKR_OK)
		return rv;
	return v == want ? CKR_OK : CKR_TEMPLATE_INCONSISTENT;
}

/* The defaults of a private key's attributes the template left out (the
 * same for generated and imported keys).  A template that names a usage
 * gets no other (tk_obj_names_usage). */
static void tk_priv_defaults(tk_obj *so, CK_KEY_TYPE kt)
{
	CK_BBOOL dflt_use = tk_obj_names_usage(so) ? CK_FALSE : CK_TRUE;

	tk_dflt(so, CKA_PRIVATE, CK_TRUE);
	tk_dflt(so, CKA_SENSITIVE, CK_TRUE);
	tk_dflt(so, CKA_EXTRACTABLE, CK_FALSE);
	tk_dflt(so, CKA_SIGN, dflt_use);
	tk_dflt(so, CKA_DECRYPT, dflt_use && (kt == CKK_RSA || kt == CKK_PV_SM2));
	tk_dflt(so, CKA_DERIVE, dflt_use && kt == CKK_EC);
	tk_dflt(so, CKA_UNWRAP, CK_FALSE);
	tk_dflt(so, CKA_SIGN_RECOVER, CK_FALSE);
	tk_dflt(so, CKA_ALWAYS_AUTHENTICATE, CK_FALSE);
	tk_dflt(so, CKA_WRAP_WITH_TRUSTED, CK_FALSE);
	tk_dflt(so, CKA_TOKEN, CK_FALSE);
	tk_dflt(so, CKA_MODIFIABLE, CK_TRUE);
	tk_dflt(so, CKA_COPYABLE, CK_TRUE);
	tk_dflt(so, CKA_DESTROYABLE, CK_TRUE);
}

/* Both halves of a pair: CKA_CLASS and CKA_KEY_TYPE, then the private
 * key's defaults.  CKR_HOST_MEMORY when an attribute cannot be set. */
static CK_RV tk_pair_types(tk_obj *po, tk_obj *so, CK_KEY_TYPE kt)
{
	if (tk_setu(po, CKA_CLASS, CKO_PUBLIC_KEY) < 0 || tk_setu(so, CKA_CLASS, CKO_PRIVATE_KEY) < 0 ||
	    tk_setu(po, CKA_KEY_TYPE, kt) < 0 || tk_setu(so, CKA_KEY_TYPE, kt) < 0)
		return CKR_HOST_MEMORY;
	tk_priv_defaults(so, kt);
	return CKR_OK;
}

/* The vault call that makes the private-key blob (r's op, mechanism and
 * input already set): usage from so, identity id, the blob into blob
 * (PV_PKBLOB_MAX bytes), the public encoding into pubenc. */
static int tk_pair_seal(CK_SESSION_HANDLE h, pv_req *r, tk_obj *so,
                        const uint8_t id[PV_OBJ_ID_LEN], uint8_t *blob,
                        uint8_t pubenc[PV_PK_PUB_MAX])
{
	tk_auth a;
	int rc;

	if (tk_auth_session(h, &a) != CKR_OK)
		return PV_ERR_ARGS;
	if (tk_auth_new(&a, so) != CKR_OK)  /* the policy of the private key */
		return PV_ERR_ARGS;
	tk_auth_req(&a, r);
	r->new_usage = tk_pk_usage(so);
	memcpy(r->new_id, id, PV_OBJ_ID_LEN);
	r->out = blob; r->out_cap = PV_PKBLOB_MAX;
	r->out2 = pubenc; r->out2_cap = PV_PK_PUB_MAX;
	rc = tk_vault_call(r);
	tk_auth_clear(&a);
	return rc;
}

/* Store both halves, the public one first; when the private one cannot
 * be stored the public one is destroyed again.  What was stored is the
 * token's (*po, *so = NULL); the caller frees what is left. */
static CK_RV tk_pair_add(CK_SESSION_HANDLE h, tk_obj **po, tk_obj **so,
                         CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_RV rv = tk_object_add(h, *po, pub);

	if (rv != CKR_OK)
		return rv;
	*po = NULL;
	rv = tk_object_add(h, *so, priv);
	if (rv != CKR_OK) {
		CK_RV ign = tk_destroy_object(h, *pub);   /* the public half alone */
		(void)ign;
		return rv;
	}
	*so = NULL;
	return CKR_OK;
}

CK_RV tk_pk_generate(CK_SESSION_HANDLE h, const CK_MECHANISM *m,
                     const CK_ATTRIBUTE *pt, CK_ULONG pn,
                     const CK_ATTRIBUTE *st, CK_ULONG sn,
                     CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	const tk_pkdef *d = tk_pkfind(m->mechanism);
	const CK_ATTRIBUTE *a;
	tk_obj *po = NULL, *so = NULL;
	uint8_t *blob = NULL, pubenc[PV_PK_PUB_MAX], id[PV_OBJ_ID_LEN], ckaid[16];
	const uint8_t *ecp = NULL;
	size_t ecpl = 0;
	uint32_t pvk = 0, bits = 0;
	CK_KEY_TYPE kt;
	CK_BBOOL pub_use;
	pv_req r;
	CK_RV rv;
	int rc, by_so;

	if (d == NULL || !(d->flags & CKF_GENERATE_KEY_PAIR))
		return CKR_MECHANISM_INVALID;
	if ((pn > 0 && pt != NULL && (rv = tk_tmpl_check(pt, pn)) != CKR_OK) ||
	    (sn > 0 && st != NULL && (rv = tk_tmpl_check(st, sn)) != CKR_OK))
		return rv;
	if (m->ulParameterLen != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	kt = d->ckk;
	if ((rv = tk_tmpl_expect(pt, pn, CKA_KEY_TYPE, kt)) != CKR_OK ||
	    (rv = tk_tmpl_expect(st, sn, CKA_KEY_TYPE, kt)) != CKR_OK)
		return rv;
	pv_req_init(&r, PV_OP_GENERATE_PAIR, d->pv);
	if (kt == CKK_RSA) {
		CK_ULONG mb;
		a = tk_tfind(pt, pn, CKA_MODULUS_BITS);
		if (a == NULL)
			return CKR_TEMPLATE_INCOMPLETE;
		if ((rv = tk_tmpl_ulong(a, &mb)) != CKR_OK)
			return rv;
		if (mb != 1024 && mb != 2048 && mb != 3072 && mb != 4096)
			return CKR_KEY_SIZE_RANGE;
		bits = (uint32_t)mb;
		pvk = PV_KEY_RSA;
		a = tk_tfind(pt, pn, CKA_PUBLIC_EXPONENT);
		if (a != NULL && a->ulValueLen > 0) {
			if (a->pValue == NULL)
				return CKR_ATTRIBUTE_VALUE_INVALID;
			r.in = a->pValue;
			r.in_len = a->ulValueLen;
		}
	} else if (kt == CKK_PV_SM2) {
		pvk = PV_KEY_SM2;
		ecp = tk_oid_sm2;
		ecpl = sizeof tk_oid_sm2;
		a = tk_tfind(pt, pn, CKA_EC_PARAMS);
		if (a != NULL && (rv = tk_curve(kt, a->pValue, a->ulValueLen, &pvk)) != CKR_OK)
			return rv;
	} else {
		a = tk_tfind(pt, pn, CKA_EC_PARAMS);
		if (a == NULL)
			a = tk_tfind(st, sn, CKA_EC_PARAMS);
		if (a == NULL)
			return CKR_TEMPLATE_INCOMPLETE;
		if ((rv = tk_curve(kt, a->pValue, a->ulValueLen, &pvk)) != CKR_OK)
			return rv;
		ecp = a->pValue;
		ecpl = a->ulValueLen;
		if (pvk == PV_KEY_SM2)
			kt = CKK_EC;           /* SM2 curve under CKK_EC: ECDSA/ECDH only */
	}
	r.new_type = pvk == PV_KEY_ED25519 ? 0 : (kt == CKK_RSA ? 0 : pvk);
	r.new_len = bits;
	po = tk_obj_new();
	so = tk_obj_new();
	blob = malloc(PV_PKBLOB_MAX);
	if (po == NULL || so == NULL || blob == NULL) {
		rv = CKR_HOST_MEMORY;
		goto fail;
	}
	/* objects from the templates */
	by_so = tk_object_so(h);
	if ((rv = tk_tcopy(po, pt, pn, CKO_PUBLIC_KEY, by_so)) != CKR_OK ||
	    (rv = tk_tcopy(so, st, sn, CKO_PRIVATE_KEY, by_so)) != CKR_OK)
		goto fail;
	if ((rv = tk_pair_types(po, so, kt)) != CKR_OK)
		goto fail;
	pub_use = tk_obj_names_usage(po) ? CK_FALSE : CK_TRUE;
	tk_dflt(po, CKA_PRIVATE, CK_FALSE);
	tk_dflt(po, CKA_TOKEN, CK_FALSE);
	tk_dflt(po, CKA_VERIFY, pub_use);
	tk_dflt(po, CKA_ENCRYPT, pub_use && (kt == CKK_RSA || kt == CKK_PV_SM2));
	tk_dflt(po, CKA_DERIVE, CK_FALSE);
	tk_dflt(po, CKA_WRAP, CK_FALSE);
	tk_dflt(po, CKA_VERIFY_RECOVER, CK_FALSE);
	tk_dflt(po, CKA_TRUSTED, CK_FALSE);
	tk_dflt(po, CKA_MODIFIABLE, CK_TRUE);
	tk_dflt(po, CKA_COPYABLE, CK_TRUE);
	tk_dflt(po, CKA_DESTROYABLE, CK_TRUE);
	/* CKA_ID: the same non-zero value on both */
	a = tk_tfind(st, sn, CKA_ID);
	if (a == NULL || a->ulValueLen == 0)
		a = tk_tfind(pt, pn, CKA_ID);
	if (a != NULL && a->ulValueLen > 0) {
		if (tk_obj_set(po, CKA_ID, a->pValue, a->ulValueLen) < 0 ||
		    tk_obj_set(so, CKA_ID, a->pValue, a->ulValueLen) < 0) {
			rv = CKR_HOST_MEMORY;
			goto fail;
		}
	} else {
		if ((rc = tk_random(ckaid, sizeof ckaid)) < 0) {
			rv = tk_rv_from_pv(rc);
			goto fail;
		}
		ckaid[0] |= 1;
		if (tk_obj_set(po, CKA_ID, ckaid, sizeof ckaid) < 0 ||
		    tk_obj_set(so, CKA_ID, ckaid, sizeof ckaid) < 0) {
			rv = CKR_HOST_MEMORY;
			goto fail;
		}
	}
	/* the pair, inside the vault */
	if ((rc = tk_random(id, sizeof id)) < 0) {
		rv = tk_rv_from_pv(rc);
		goto fail;
	}
	rc = tk_pair_seal(h, &r, so, id, blob, pubenc);
	if (rc != PV_OK) {
		rv = tk_rv_from_pv(rc);
		goto fail;
	}
	if ((rv = tk_pubattrs(po, pvk, pubenc, r.out2_len, ecp, ecpl)) != CKR_OK ||
	    (rv = tk_pubattrs(so, pvk, pubenc, r.out2_len, ecp, ecpl)) != CKR_OK)
		goto fail;
	if (tk_obj_set(so, TK_CKA_BLOB, blob, r.out_len) < 0 ||
	    tk_obj_set(so, TK_CKA_BLOB_ID, id, sizeof id) < 0 ||
	    tk_setb(so, CKA_LOCAL, CK_TRUE) < 0 || tk_setb(po, CKA_LOCAL, CK_TRUE) < 0 ||
	    tk_setu(so, CKA_KEY_GEN_MECHANISM, d->ckm) < 0 ||
	    tk_setu(po, CKA_KEY_GEN_MECHANISM, d->ckm) < 0 ||
	    tk_setb(so, CKA_ALWAYS_SENSITIVE, tk_obj_bool(so, CKA_SENSITIVE, CK_TRUE)) < 0 ||
	    tk_setb(so, CKA_NEVER_EXTRACTABLE, !tk_obj_bool(so, CKA_EXTRACTABLE, CK_FALSE)) < 0) {
		rv = CKR_HOST_MEMORY;
		goto fail;
	}
	kc_wipe(blob, PV_PKBLOB_MAX);
	free(blob);
	blob = NULL;
	rv = tk_pair_add(h, &po, &so, pub, priv);
	if (rv != CKR_OK)
		goto fail;
	return CKR_OK;
fail:
	tk_obj_free(po);
	tk_obj_free(so);
	if (blob != NULL) {
		kc_wipe(blob, PV_PKBLOB_MAX);
		free(blob);
	}
	return rv;
}


/* ---- C_CreateObject of a private key --------------------------------------------- */

static const CK_ATTRIBUTE *tk_need(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE a, CK_RV *rv)
{
	const CK_ATTRIBUTE *x = tk_tfind(t, n, a);

	if (x == NULL || x->ulValueLen == 0) {
		*rv = CKR_TEMPLATE_INCOMPLETE;
		return NULL;
	}
	if (x->pValue == NULL) {
		*rv = CKR_ATTRIBUTE_VALUE_INVALID;
		return NULL;
	}
	return x;
}

CK_RV tk_pk_import(CK_SESSION_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	static const CK_ATTRIBUTE_TYPE rsa_f[8] = {
		CKA_MODULUS, CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT, CKA_PRIME_1,
		CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	const CK_ATTRIBUTE *a, *ep = NULL;
	CK_KEY_TYPE kt;
	uint32_t pvk = 0;
	uint8_t *enc = NULL, *blob = NULL, pubenc[PV_PK_PUB_MAX], id[PV_OBJ_ID_LEN], ckaid[16];
	size_t el = 0, i;
	tk_obj *so = NULL, *po = NULL;
	CK_OBJECT_HANDLE ph = 0;
	pv_req r;
	CK_RV rv = CKR_OK;
	int rc;

	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	a = tk_tfind(t, n, CKA_KEY_TYPE);
	if (a == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	if ((rv = tk_tmpl_ulong(a, &kt)) != CKR_OK)
		return rv;
	enc = malloc(4096);
	blob = malloc(PV_PKBLOB_MAX);
	so = tk_obj_new();
	po = tk_obj_new();
	if (enc == NULL || blob == NULL || so == NULL || po == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	if (kt == CKK_RSA) {
		pvk = PV_KEY_RSA;
		for (i = 0; i < 8; i++) {
			if ((a = tk_need(t, n, rsa_f[i], &rv)) == NULL)
				goto out;
			if (a->ulValueLen > 1024 || el + 2 + a->ulValueLen > 4096) {
				rv = CKR_ATTRIBUTE_VALUE_INVALID;
				goto out;
			}
			enc[el] = (uint8_t)(a->ulValueLen >> 8);
			enc[el + 1] = (uint8_t)a->ulValueLen;
			memcpy(enc + el + 2, a->pValue, a->ulValueLen);
			el += 2 + a->ulValueLen;
		}
	} else if (kt == CKK_EC || kt == CKK_EC_EDWARDS || kt == CKK_PV_SM2) {
		ep = tk_tfind(t, n, CKA_EC_PARAMS);
		if (ep == NULL && kt == CKK_PV_SM2) {
			pvk = PV_KEY_SM2;
		} else {
			if (ep == NULL) {
				rv = CKR_TEMPLATE_INCOMPLETE;
				goto out;
			}
			if ((rv = tk_curve(kt, ep->pValue, ep->ulValueLen, &pvk)) != CKR_OK)
				goto out;
		}
		if ((a = tk_need(t, n, CKA_VALUE, &rv)) == NULL)
			goto out;
		if (a->ulValueLen > 64) {
			rv = CKR_ATTRIBUTE_VALUE_INVALID;
			goto out;
		}
		memcpy(enc, a->pValue, a->ulValueLen);
		el = a->ulValueLen;
	} else {
		rv = CKR_ATTRIBUTE_VALUE_INVALID;
		goto out;
	}
	if ((rv = tk_tcopy(so, t, n, CKO_PRIVATE_KEY | 0x80000000UL, tk_object_so(h))) != CKR_OK)
		goto out;
	if ((rv = tk_pair_types(po, so, kt)) != CKR_OK)
		goto out;
	/* the public object: same token/label/id */
	tk_setb(po, CKA_TOKEN, tk_obj_bool(so, CKA_TOKEN, CK_FALSE));
	tk_setb(po, CKA_PRIVATE, CK_FALSE);
	tk_setb(po, CKA_VERIFY, CK_TRUE);
	tk_setb(po, CKA_ENCRYPT, kt == CKK_RSA || kt == CKK_PV_SM2);
	tk_setb(po, CKA_LOCAL, CK_FALSE);
	{
		const tk_attr *lb = tk_obj_attr(so, CKA_LABEL), *ia = tk_obj_attr(so, CKA_ID);
		if (lb != NULL)
			tk_obj_set(po, CKA_LABEL, lb->val, lb->len);
		if (ia == NULL || ia->len == 0) {
			if ((rc = tk_random(ckaid, sizeof ckaid)) < 0) {
				rv = tk_rv_from_pv(rc);
				goto out;
			}
			ckaid[0] |= 1;
			tk_obj_set(so, CKA_ID, ckaid, sizeof ckaid);
			ia = tk_obj_attr(so, CKA_ID);
		}
		if (ia == NULL || tk_obj_set(po, CKA_ID, ia->val, ia->len) < 0) {
			rv = CKR_HOST_MEMORY;
			goto out;
		}
	}
	if ((rc = tk_random(id, sizeof id)) < 0) {
		rv = tk_rv_from_pv(rc);
		goto out;
	}
	pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);
	r.in = enc; r.in_len = el;
	r.new_type = pvk;
	rc = tk_pair_seal(h, &r, so, id, blob, pubenc);
	if (rc != PV_OK) {
		/* invalid key material: out-of-range scalar, inconsistent RSA key */
		rv = (rc == PV_ERR_KEY_SIZE || rc == PV_ERR_PUBKEY || rc == PV_ERR_ARGS ||
		      rc == PV_ERR_GENERAL) ? CKR_ATTRIBUTE_VALUE_INVALID : tk_rv_from_pv(rc);
		goto out;
	}
	{
		const uint8_t *ecp = ep ? ep->pValue : tk_oid_sm2;
		size_t ecpl = ep ? ep->ulValueLen : sizeof tk_oid_sm2;
		if ((rv = tk_pubattrs(so, pvk, pubenc, r.out2_len, ecp, ecpl)) != CKR_OK ||
		    (rv = tk_pubattrs(po, pvk, pubenc, r.out2_len, ecp, ecpl)) != CKR_OK)
			goto out;
	}
	if (tk_obj_set(so, TK_CKA_BLOB, blob, r.out_len) < 0 ||
	    tk_obj_set(so, TK_CKA_BLOB_ID, id, sizeof id) < 0 ||
	    tk_setb(so, CKA_LOCAL, CK_FALSE) < 0 ||
	    tk_setu(so, CKA_KEY_GEN_MECHANISM, CK_UNAVAILABLE_INFORMATION) < 0 ||
	    tk_setb(so, CKA_ALWAYS_SENSITIVE, CK_FALSE) < 0 ||
	    tk_setb(so, CKA_NEVER_EXTRACTABLE, CK_FALSE) < 0) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = tk_pair_add(h, &po, &so, &ph, out);
out:
	tk_obj_free(so);
	tk_obj_free(po);
	if (enc) { kc_wipe(enc, 4096); free(enc); }
	if (blob) { kc_wipe(blob, PV_PKBLOB_MAX); free(blob); }
	return rv;
}
