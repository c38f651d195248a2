/*
 * tk_key.c - secret key objects: import (C_CreateObject), generation,
 * wrap/unwrap, HKDF derivation, the attribute rules that only keys have,
 * random numbers.
 *
 * Usage policy: a blob carries every usage (PV_USE_ALL) except EXTRACT,
 * which it carries only if the key was extractable when the blob was made.
 * CKA_ENCRYPT/DECRYPT/SIGN/VERIFY/WRAP/UNWRAP/DERIVE are enforced by the
 * token at operation init (tk_key_check), so C_SetAttributeValue can
 * change them without a re-wrap; CKA_ALLOWED_MECHANISMS of every key class
 * where the operation's key is resolved (tk_key_get); CKA_EXTRACTABLE can
 * only go TRUE -> FALSE and is checked by the token before every wrap, the
 * blob's EXTRACT bit being the vault's own backstop for keys that were
 * never extractable; CKA_WRAP_WITH_TRUSTED (which can only go FALSE ->
 * TRUE) before every wrap too.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/core/sym/kc_sym.h"
#include "include/pixelvault/pkcs11-vendor.h"
#include "token/tk_auth.h"
#include "token/tk_key.h"
/* after pkcs11.h: its compat macros (iv_len, aad_len) rename pv_req
 * fields consistently in this file */
#include "gpu/vault.h"

/* ---- small helpers ---- */
static uint32_t tk_ckk_pv(CK_KEY_TYPE k)
{
	switch (k) {
	case CKK_AES:            return PV_KEY_AES;
	case CKK_GENERIC_SECRET: return PV_KEY_GENERIC;
	case CKK_PV_SM4:         return PV_KEY_SM4;
	default:                 return 0;
	}
}

static int tk_len_ok(CK_KEY_TYPE k, size_t n)
{
	switch (k) {
	case CKK_AES:            return n == 16 || n == 24 || n == 32;
	case CKK_PV_SM4:         return n == 16;
	case CKK_GENERIC_SECRET: return n >= 1 && n <= PV_SECRET_MAX;
	default:                 return 0;
	}
}

/* Remove an attribute, wiping its value. */
static void tk_attr_drop(tk_obj *o, CK_ATTRIBUTE_TYPE t)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		if (o->a[i].type != t)
			continue;
		if (o->a[i].val != NULL) {
			kc_wipe(o->a[i].val, o->a[i].len);
			free(o->a[i].val);
		}
		o->a[i] = o->a[o->n - 1];
		o->n--;
		return;
	}
}

/* The usage bound into a secret key's blob: its CKA_ENCRYPT ...
 * CKA_EXTRACTABLE (tk_key_repolicy re-seals the blob when they change). */
uint32_t tk_key_usage(const tk_obj *o)
{
	static const struct { CK_ATTRIBUTE_TYPE a; uint32_t u; } map[] = {
		{ CKA_ENCRYPT, PV_USE_ENCRYPT }, { CKA_DECRYPT, PV_USE_DECRYPT },
		{ CKA_SIGN, PV_USE_SIGN }, { CKA_VERIFY, PV_USE_VERIFY },
		{ CKA_WRAP, PV_USE_WRAP }, { CKA_UNWRAP, PV_USE_UNWRAP },
		{ CKA_DERIVE, PV_USE_DERIVE }, { CKA_EXTRACTABLE, PV_USE_EXTRACT },
	};
	uint32_t u = 0;
	size_t i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (tk_obj_bool(o, map[i].a, CK_FALSE))
			u |= map[i].u;
	return u;
}

CK_RV tk_key_repolicy(CK_SESSION_HANDLE h, const tk_obj *old, tk_obj *o)
{
	uint8_t blob[PV_BLOB_MAX];
	const uint8_t *ob, *id;
	size_t obl;
	tk_auth a;
	pv_req r;
	CK_RV rv;
	int rc;

	if (tk_obj_ulong(o, CKA_CLASS, 0) != CKO_SECRET_KEY ||
	    tk_key_blob(o, &ob, &obl, &id) != CKR_OK ||
	    (tk_key_usage(o) == tk_key_usage(old) && tk_auth_policy(o) == tk_auth_policy(old)))
		return CKR_OK;                   /* nothing the blob binds changed */
	if ((rv = tk_auth_session(h, &a)) != CKR_OK)
		return rv;
	if ((rv = tk_auth_new(&a, o)) != CKR_OK ||  /* (it may move o's attributes) */
	    (rv = tk_key_blob(o, &ob, &obl, &id)) != CKR_OK)
		goto out;
	pv_req_init(&r, PV_OP_REPOLICY, PV_MECH_NONE);
	tk_auth_req(&a, &r);
	r.key = ob; r.key_len = obl; memcpy(r.key_id, id, PV_OBJ_ID_LEN);
	r.new_usage = tk_key_usage(o);
	r.out = blob; r.out_cap = sizeof blob;
	rc = tk_vault_call(&r);
	if (rc == PV_ERR_PERM)
		rv = CKR_KEY_FUNCTION_NOT_PERMITTED;  /* the blob disagrees with the store */
	else if (rc != PV_OK)
		rv = tk_rv_from_pv(rc);
	else if (tk_obj_set(o, TK_CKA_BLOB, blob, (CK_ULONG)r.out_len) < 0)
		rv = CKR_HOST_MEMORY;
out:
	tk_auth_clear(&a);
	kc_wipe(blob, sizeof blob);
	return rv;
}

CK_RV tk_key_blob(const tk_obj *o, const uint8_t **blob, size_t *len,
                  const uint8_t **id)
{
	const tk_attr *b = tk_obj_attr(o, TK_CKA_BLOB);
	const tk_attr *i = tk_obj_attr(o, TK_CKA_BLOB_ID);

	if (b == NULL || i == NULL || i->len != PV_OBJ_ID_LEN || b->len == 0)
		return CKR_KEY_HANDLE_INVALID;
	*blob = b->val;
	*len = b->len;
	*id = i->val;
	return CKR_OK;
}

/* CKA_CHECK_VALUE of an AES / SM4 key: E_K(0^128)[0..2]. */
static void tk_key_kcv(tk_obj *o, uint32_t pvk, const tk_auth *na)
{
	tk_auth a = *na;                  /* the new key's own list */
	static const uint8_t zero[16];
	uint8_t ct[16];
	const uint8_t *blob, *id;
	size_t blen;
	pv_req r;

	if (tk_key_blob(o, &blob, &blen, &id) != CKR_OK)
		return;
	pv_req_init(&r, PV_OP_ENCRYPT,
	            pvk == PV_KEY_AES ? PV_MECH_AES_ECB : PV_MECH_SM4_ECB);
	tk_auth_key(&a, o);
	tk_auth_req(&a, &r);
	r.key = blob; r.key_len = blen; memcpy(r.key_id, id, PV_OBJ_ID_LEN);
	r.in = zero; r.in_len = 16;
	r.out = ct; r.out_cap = sizeof ct;
	if (tk_vault_call(&r) == PV_OK)
		(void)tk_obj_set(o, CKA_CHECK_VALUE, ct, 3);
	tk_auth_clear(&a);
}

/* The computed attributes of a new secret key. */
static CK_RV tk_key_finish(tk_obj *o, const tk_auth *a, const uint8_t *blob, size_t blen,
                           const uint8_t id[PV_OBJ_ID_LEN], int local,
                           CK_MECHANISM_TYPE genmech, int always_sens,
                           int never_extr)
{
	CK_ULONG len = (CK_ULONG)(blen - PV_BLOB_OVERHEAD);
	CK_BBOOL b;
	uint32_t pvk = tk_ckk_pv(tk_obj_ulong(o, CKA_KEY_TYPE, 0));

	if (tk_obj_set(o, TK_CKA_BLOB, blob, (CK_ULONG)blen) < 0 ||
	    tk_obj_set(o, TK_CKA_BLOB_ID, id, PV_OBJ_ID_LEN) < 0 ||
	    tk_obj_set(o, CKA_VALUE_LEN, &len, sizeof len) < 0)
		return CKR_HOST_MEMORY;
	b = local ? CK_TRUE : CK_FALSE;
	if (tk_obj_set(o, CKA_LOCAL, &b, sizeof b) < 0 ||
	    tk_obj_set(o, CKA_KEY_GEN_MECHANISM, &genmech, sizeof genmech) < 0)
		return CKR_HOST_MEMORY;
	b = always_sens && tk_obj_bool(o, CKA_SENSITIVE, CK_FALSE);
	if (tk_obj_set(o, CKA_ALWAYS_SENSITIVE, &b, sizeof b) < 0)
		return CKR_HOST_MEMORY;
	b = never_extr && !tk_obj_bool(o, CKA_EXTRACTABLE, CK_FALSE);
	if (tk_obj_set(o, CKA_NEVER_EXTRACTABLE, &b, sizeof b) < 0)
		return CKR_HOST_MEMORY;
	if (pvk == PV_KEY_AES || pvk == PV_KEY_SM4)
		tk_key_kcv(o, pvk, a);
	return CKR_OK;
}

/* ---- C_CreateObject ---- */
CK_RV tk_key_import(tk_obj *o, tk_auth *a)
{
	CK_KEY_TYPE kt = tk_obj_ulong(o, CKA_KEY_TYPE, CK_UNAVAILABLE_INFORMATION);
	const tk_attr *val = tk_obj_attr(o, CKA_VALUE);
	const tk_attr *vl = tk_obj_attr(o, CKA_VALUE_LEN);
	uint8_t id[PV_OBJ_ID_LEN], blob[PV_BLOB_MAX];
	uint32_t pvk = tk_ckk_pv(kt);
	pv_req r;
	CK_RV rv;
	int rc;

	if (pvk == 0)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (val == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	if (!tk_len_ok(kt, val->len))
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (vl != NULL && (vl->len != sizeof(CK_ULONG) ||
	                   *(const CK_ULONG *)vl->val != val->len))
		return CKR_TEMPLATE_INCONSISTENT;
	rc = tk_random(id, sizeof id);
	if (rc < 0)
		return tk_rv_from_pv(rc);
	if ((rv = tk_auth_new(a, o)) != CKR_OK)
		return rv;
	val = tk_obj_attr(o, CKA_VALUE);    /* tk_auth_new may have moved it */
	pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);
	tk_auth_req(a, &r);
	r.in = val->val; r.in_len = val->len;
	r.new_type = pvk;
	r.new_usage = tk_key_usage(o);
	memcpy(r.new_id, id, sizeof id);
	r.out = blob; r.out_cap = sizeof blob;
	rc = tk_vault_call(&r);
	tk_attr_drop(o, CKA_VALUE);
	if (rc != PV_OK)
		return tk_rv_from_pv(rc);
	rv = tk_key_finish(o, a, blob, r.out_len, id, 0, CK_UNAVAILABLE_INFORMATION,
	                   0, 0);
	return rv;
}

/* ---- attribute reads ---- */
/* The value of a non-sensitive extractable key: wrapped (KWP) in the vault
 * under a one-time key the token knows, unwrapped here. */
CK_RV tk_key_value(CK_SESSION_HANDLE h, const tk_obj *o, uint8_t *out, size_t *len)
{
	tk_auth a = TK_AUTH_INIT;
	uint8_t tk[32], tid[PV_OBJ_ID_LEN], tblob[PV_BLOB_MAX];
	uint8_t wr[PV_SECRET_MAX + 16];
	const uint8_t *blob, *id;
	size_t blen, tlen, olen = 0;
	kc_bc bc;
	pv_req r;
	CK_RV rv = tk_key_blob(o, &blob, &blen, &id);
	int rc;

	if (rv == CKR_OK)
		rv = tk_auth_session(h, &a);
	if (rv != CKR_OK)
		return rv;
	if ((rc = tk_random(tk, sizeof tk)) < 0 ||
	    (rc = tk_random(tid, sizeof tid)) < 0)
		return tk_rv_from_pv(rc);
	pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);    /* not the token's: no policy */
	r.in = tk; r.in_len = sizeof tk;
	r.new_type = PV_KEY_AES; r.new_usage = PV_USE_WRAP;
	memcpy(r.new_id, tid, sizeof tid);
	r.out = tblob; r.out_cap = sizeof tblob;
	rc = tk_vault_call(&r);
	tlen = r.out_len;
	if (rc == PV_OK) {
		pv_req_init(&r, PV_OP_WRAP_KEY, PV_MECH_AES_KEY_WRAP_KWP);
		tk_auth_req(&a, &r);
		r.key = tblob; r.key_len = tlen; memcpy(r.key_id, tid, sizeof tid);
		r.key2 = blob; r.key2_len = blen; memcpy(r.key2_id, id, PV_OBJ_ID_LEN);
		r.out = wr; r.out_cap = sizeof wr;
		rc = tk_vault_call(&r);
	}
	if (rc == PV_OK)
		rc = kc_bc_init(&bc, KC_BC_AES, tk, sizeof tk);
	if (rc == PV_OK) {
		rc = kc_kwp_unwrap(&bc, wr, r.out_len, out, &olen);
		kc_bc_clear(&bc);
	}
	kc_wipe(tk, sizeof tk);
	kc_wipe(wr, sizeof wr);
	tk_auth_clear(&a);
	if (rc != PV_OK)
		return rc == PV_ERR_SEALED ? CKR_DEVICE_ERROR :
		       rc == PV_ERR_NOT_LOGGED_IN ? CKR_USER_NOT_LOGGED_IN : CKR_FUNCTION_FAILED;
	*len = olen;
	return CKR_OK;
}

static int tk_key_class(const tk_obj *o)
{
	CK_OBJECT_CLASS c = tk_obj_ulong(o, CKA_CLASS, CK_UNAVAILABLE_INFORMATION);

	return c == CKO_SECRET_KEY || c == CKO_PRIVATE_KEY || c == CKO_PUBLIC_KEY;
}

int tk_key_get_attr(CK_SESSION_HANDLE h, const tk_obj *o, CK_ATTRIBUTE *a, CK_RV *rv)
{
	uint8_t v[PV_SECRET_MAX + 8];
	size_t len = 0;

	if (a->type == TK_CKA_BLOB || a->type == TK_CKA_BLOB_ID || a->type == TK_CKA_BLOB_MECHS) {
		a->ulValueLen = CK_UNAVAILABLE_INFORMATION;
		*rv = CKR_ATTRIBUTE_TYPE_INVALID;
		return 1;
	}
	if (a->type == CKA_ALLOWED_MECHANISMS && tk_key_class(o) &&
	    tk_obj_attr(o, CKA_ALLOWED_MECHANISMS) == NULL) {
		/* every key has the attribute: an unrestricted one, the empty
		 * list (keys made before it was stored, generated pairs) */
		a->ulValueLen = 0;
		*rv = CKR_OK;
		return 1;
	}
	if (tk_obj_ulong(o, CKA_CLASS, 0) != CKO_SECRET_KEY || a->type != CKA_VALUE)
		return 0;
	if (tk_obj_bool(o, CKA_SENSITIVE, CK_TRUE) ||
	    !tk_obj_bool(o, CKA_EXTRACTABLE, CK_FALSE)) {
		a->ulValueLen = CK_UNAVAILABLE_INFORMATION;
		*rv = CKR_ATTRIBUTE_SENSITIVE;
		return 1;
	}
	*rv = tk_key_value(h, o, v, &len);
	if (*rv != CKR_OK) {
		a->ulValueLen = CK_UNAVAILABLE_INFORMATION;
	} else if (a->pValue == NULL) {
		a->ulValueLen = len;
	} else if (a->ulValueLen < len) {
		a->ulValueLen = CK_UNAVAILABLE_INFORMATION;
		*rv = CKR_BUFFER_TOO_SMALL;
	} else {
		memcpy(a->pValue, v, len);
		a->ulValueLen = len;
	}
	kc_wipe(v, sizeof v);
	return 1;
}

/* ---- checks at operation init ---- */
CK_MECHANISM_TYPE tk_mech_unalias(CK_MECHANISM_TYPE t)
{
	if ((t & ~0xffUL) == PV_ALIAS_XIPKI_BASE) {
		CK_ULONG lo = t & 0xffUL;
		if ((lo >= 0x01 && lo <= 0x08) || lo == 0x0b || lo == 0x0d)
			return PV_VENDOR_BASE | lo;
	}
	return t;
}

/* CKR_OK if o may be used with mechanism ckm: its CKA_ALLOWED_MECHANISMS
 * is absent or empty (no restriction) or names ckm (an alias counts as
 * the mechanism it stands for).  The refusal is CKR_MECHANISM_INVALID, as
 * SoftHSM answers: the base specification defines the attribute as "a
 * list of mechanisms allowed to be used with this key" (common key
 * attributes) and names no code of its own for one that is not;
 * CKR_MECHANISM_INVALID is its code for "an invalid mechanism was
 * specified to the cryptographic operation".  No template can store a
 * partial mechanism (tk_attr.c); one found in the store allows nothing. */
static CK_RV tk_key_allowed(const tk_obj *o, CK_MECHANISM_TYPE ckm)
{
	const tk_attr *am = tk_obj_attr(o, CKA_ALLOWED_MECHANISMS);
	size_t i, n;

	if (ckm == TK_CKM_OPERAND || am == NULL || am->len == 0)
		return CKR_OK;
	if (am->len % sizeof(CK_MECHANISM_TYPE) != 0)
		return CKR_MECHANISM_INVALID;
	n = am->len / sizeof(CK_MECHANISM_TYPE);
	ckm = tk_mech_unalias(ckm);
	for (i = 0; i < n; i++) {
		CK_MECHANISM_TYPE t;
		memcpy(&t, am->val + i * sizeof t, sizeof t);
		if (tk_mech_unalias(t) == ckm)
			return CKR_OK;
	}
	return CKR_MECHANISM_INVALID;
}

CK_RV tk_key_get(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE k, CK_MECHANISM_TYPE ckm,
                 tk_obj **out)
{
	CK_RV rv = tk_object_get(h, k, out);

	if (rv == CKR_OBJECT_HANDLE_INVALID)
		return CKR_KEY_HANDLE_INVALID;
	if (rv == CKR_OK && (rv = tk_key_allowed(*out, ckm)) != CKR_OK) {
		tk_obj_free(*out);
		*out = NULL;
	}
	return rv;
}

CK_RV tk_key_check(const tk_obj *o, const tk_mech *m, int use)
{
	CK_ATTRIBUTE_TYPE flag;
	CK_KEY_TYPE kt = tk_obj_ulong(o, CKA_KEY_TYPE, CK_UNAVAILABLE_INFORMATION);

	if (tk_obj_ulong(o, CKA_CLASS, 0) != CKO_SECRET_KEY)
		return CKR_KEY_TYPE_INCONSISTENT;
	if (m->ckk != (CK_KEY_TYPE)-1 && kt != m->ckk)
		return CKR_KEY_TYPE_INCONSISTENT;
	switch (use) {
	case TK_OPK_ENCRYPT: flag = CKA_ENCRYPT; break;
	case TK_OPK_DECRYPT: flag = CKA_DECRYPT; break;
	case TK_OPK_SIGN:    flag = CKA_SIGN; break;
	case TK_OPK_VERIFY:  flag = CKA_VERIFY; break;
	case TK_USE_WRAP:    flag = CKA_WRAP; break;
	case TK_USE_UNWRAP:  flag = CKA_UNWRAP; break;
	case TK_USE_DERIVE:  flag = CKA_DERIVE; break;
	default:             return CKR_KEY_FUNCTION_NOT_PERMITTED;
	}
	if (!tk_obj_bool(o, flag, CK_FALSE))
		return CKR_KEY_FUNCTION_NOT_PERMITTED;
	return CKR_OK;
}

/* ---- new keys from a template ---- */
/* Build the object of a new secret key: the template plus CKA_CLASS and
 * CKA_KEY_TYPE (kt, if the template has none; (CK_ULONG)-1: required). */
static CK_RV tk_key_new_obj(const CK_ATTRIBUTE *t, CK_ULONG n, CK_KEY_TYPE kt,
                            tk_obj **out)
{
	CK_ATTRIBUTE *x;
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_ULONG i, k = 0;
	int has_cls = 0, has_kt = 0;
	CK_RV rv;

	*out = NULL;
	x = calloc(n + 2, sizeof *x);
	if (x == NULL)
		return CKR_HOST_MEMORY;
	for (i = 0; i < n; i++) {
		if (t[i].type == CKA_VALUE) {
			free(x);
			return CKR_TEMPLATE_INCONSISTENT;
		}
		if (t[i].type == CKA_CLASS) {
			if (t[i].ulValueLen != sizeof(CK_ULONG) || t[i].pValue == NULL ||
			    *(const CK_ULONG *)t[i].pValue != CKO_SECRET_KEY) {
				free(x);
				return CKR_TEMPLATE_INCONSISTENT;
			}
			has_cls = 1;
		}
		if (t[i].type == CKA_KEY_TYPE) {
			if (t[i].ulValueLen != sizeof(CK_ULONG) || t[i].pValue == NULL) {
				free(x);
				return CKR_ATTRIBUTE_VALUE_INVALID;
			}
			if (kt != (CK_KEY_TYPE)-1 && *(const CK_ULONG *)t[i].pValue != kt) {
				free(x);
				return CKR_TEMPLATE_INCONSISTENT;
			}
			has_kt = 1;
		}
		x[k++] = t[i];
	}
	if (!has_cls) {
		x[k].type = CKA_CLASS; x[k].pValue = &cls;
		x[k++].ulValueLen = sizeof cls;
	}
	if (!has_kt) {
		if (kt == (CK_KEY_TYPE)-1) {
			free(x);
			return CKR_TEMPLATE_INCOMPLETE;
		}
		x[k].type = CKA_KEY_TYPE; x[k].pValue = &kt;
		x[k++].ulValueLen = sizeof kt;
	}
	rv = tk_policy_apply(TK_OP_CREATE, NULL, x, k, 0, out);
	free(x);
	if (rv == CKR_OK && tk_ckk_pv(tk_obj_ulong(*out, CKA_KEY_TYPE, 0)) == 0) {
		tk_obj_free(*out);
		*out = NULL;
		rv = CKR_TEMPLATE_INCONSISTENT;
	}
	return rv;
}

/* The requested length of a new key: CKA_VALUE_LEN, or the type's only
 * size; 0 if neither. */
static size_t tk_key_want_len(const tk_obj *o)
{
	CK_KEY_TYPE kt = tk_obj_ulong(o, CKA_KEY_TYPE, 0);
	const tk_attr *vl = tk_obj_attr(o, CKA_VALUE_LEN);

	if (vl != NULL && vl->len == sizeof(CK_ULONG))
		return *(const CK_ULONG *)vl->val;
	return kt == CKK_PV_SM4 ? 16 : 0;
}

/* Store the finished object; on error free it. */
static CK_RV tk_key_store(CK_SESSION_HANDLE h, tk_obj *o, CK_OBJECT_HANDLE *out)
{
	CK_RV rv = tk_object_add(h, o, out);

	if (rv != CKR_OK)
		tk_obj_free(o);
	return rv;
}

CK_RV tk_generate_key(CK_SESSION_HANDLE h, const tk_mech *m,
                      const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	uint8_t id[PV_OBJ_ID_LEN], blob[PV_BLOB_MAX];
	tk_auth a = TK_AUTH_INIT;
	tk_obj *o;
	size_t len;
	pv_req r;
	CK_RV rv;
	int rc;

	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	if ((rv = tk_key_new_obj(t, n, m->ckk, &o)) != CKR_OK)
		return rv;
	len = tk_key_want_len(o);
	if (len == 0) {
		rv = tk_obj_attr(o, CKA_VALUE_LEN) ? CKR_ATTRIBUTE_VALUE_INVALID
		                                   : CKR_TEMPLATE_INCOMPLETE;
		tk_obj_free(o);
		return rv;
	}
	if (!tk_len_ok(m->ckk, len)) {
		tk_obj_free(o);
		return CKR_ATTRIBUTE_VALUE_INVALID;
	}
	if ((rc = tk_random(id, sizeof id)) < 0) {
		tk_obj_free(o);
		return tk_rv_from_pv(rc);
	}
	rv = tk_auth_session(h, &a);
	if (rv == CKR_OK)
		rv = tk_auth_new(&a, o);
	if (rv != CKR_OK) {
		tk_obj_free(o);
		return rv;
	}
	pv_req_init(&r, PV_OP_GENERATE_KEY, m->pv);
	tk_auth_req(&a, &r);
	r.new_len = (uint32_t)len;
	r.new_type = m->pv_key;
	r.new_usage = tk_key_usage(o);
	memcpy(r.new_id, id, sizeof id);
	r.out = blob; r.out_cap = sizeof blob;
	rc = tk_vault_call(&r);
	if (rc != PV_OK) {
		tk_obj_free(o);
		return tk_rv_from_pv(rc);
	}
	rv = tk_key_finish(o, &a, blob, r.out_len, id, 1, m->ckm, 1, 1);
	tk_auth_clear(&a);
	if (rv != CKR_OK) {
		tk_obj_free(o);
		return rv;
	}
	return tk_key_store(h, o, out);
}

CK_RV tk_wrap_key(CK_SESSION_HANDLE h, const tk_mech *m, CK_OBJECT_HANDLE wk,
                  CK_OBJECT_HANDLE k, uint8_t *out, CK_ULONG *out_len)
{
	tk_auth a = TK_AUTH_INIT;
	tk_obj *w = NULL, *o = NULL;
	const uint8_t *wb, *wid, *kb, *kid;
	size_t wbl, kbl;
	pv_req r;
	CK_RV rv;
	int rc;

	rv = tk_key_get(h, wk, m->ckm, &w);
	if (rv == CKR_KEY_HANDLE_INVALID)
		rv = CKR_WRAPPING_KEY_HANDLE_INVALID;
	if (rv == CKR_OK) {
		rv = tk_key_check(w, m, TK_USE_WRAP);
		if (rv == CKR_KEY_TYPE_INCONSISTENT)
			rv = CKR_WRAPPING_KEY_TYPE_INCONSISTENT;
	}
	if (rv == CKR_OK)
		rv = tk_key_get(h, k, TK_CKM_OPERAND, &o);
	if (rv == CKR_OK && tk_obj_ulong(o, CKA_CLASS, 0) != CKO_SECRET_KEY)
		rv = CKR_KEY_NOT_WRAPPABLE;
	if (rv == CKR_OK && !tk_obj_bool(o, CKA_EXTRACTABLE, CK_FALSE))
		rv = CKR_KEY_UNEXTRACTABLE;
	/* a key with CKA_WRAP_WITH_TRUSTED leaves the token only under a
	 * wrapping key the SO has marked CKA_TRUSTED (PKCS#11 base, secret key
	 * objects); C_WrapKey's code for a key that cannot be wrapped for a
	 * reason other than CKA_EXTRACTABLE is CKR_KEY_NOT_WRAPPABLE */
	if (rv == CKR_OK && tk_obj_bool(o, CKA_WRAP_WITH_TRUSTED, CK_FALSE) &&
	    !tk_obj_bool(w, CKA_TRUSTED, CK_FALSE))
		rv = CKR_KEY_NOT_WRAPPABLE;
	if (rv == CKR_OK)
		rv = tk_key_blob(w, &wb, &wbl, &wid);
	if (rv == CKR_OK)
		rv = tk_key_blob(o, &kb, &kbl, &kid);
	if (rv == CKR_OK)
		rv = tk_auth_session(h, &a);
	if (rv == CKR_OK) {
		tk_auth_key(&a, w);
		pv_req_init(&r, PV_OP_WRAP_KEY, m->pv);
		tk_auth_req(&a, &r);
		r.key = wb; r.key_len = wbl; memcpy(r.key_id, wid, PV_OBJ_ID_LEN);
		r.key2 = kb; r.key2_len = kbl; memcpy(r.key2_id, kid, PV_OBJ_ID_LEN);
		r.out = out; r.out_cap = out != NULL ? *out_len : 0;
		rc = tk_vault_call(&r);
		if (rc == PV_OK || rc == PV_ERR_BUF_SMALL)
			*out_len = (CK_ULONG)r.out_len;
		if (rc == PV_ERR_BUF_SMALL && out == NULL)
			rc = PV_OK;
		if (rc == PV_ERR_DATA_LEN)
			rv = CKR_KEY_SIZE_RANGE;
		else if (rc == PV_ERR_PERM)
			rv = CKR_KEY_UNEXTRACTABLE;
		else
			rv = tk_rv_from_pv(rc);
	}
	tk_auth_clear(&a);
	tk_obj_free(w);
	tk_obj_free(o);
	return rv;
}

CK_RV tk_unwrap_key(CK_SESSION_HANDLE h, const tk_mech *m, CK_OBJECT_HANDLE uk,
                    const uint8_t *in, size_t in_len, const CK_ATTRIBUTE *t,
                    CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	uint8_t id[PV_OBJ_ID_LEN], blob[PV_BLOB_MAX];
	tk_auth a = TK_AUTH_INIT;
	tk_obj *u = NULL, *o = NULL;
	const uint8_t *ub, *uid;
	size_t ubl, want;
	pv_req r;
	CK_RV rv;
	int rc;

	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	rv = tk_key_get(h, uk, m->ckm, &u);
	if (rv == CKR_KEY_HANDLE_INVALID)
		rv = CKR_UNWRAPPING_KEY_HANDLE_INVALID;
	if (rv == CKR_OK) {
		rv = tk_key_check(u, m, TK_USE_UNWRAP);
		if (rv == CKR_KEY_TYPE_INCONSISTENT)
			rv = CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT;
	}
	if (rv == CKR_OK)
		rv = tk_key_blob(u, &ub, &ubl, &uid);
	if (rv == CKR_OK)
		rv = tk_key_new_obj(t, n, (CK_KEY_TYPE)-1, &o);
	if (rv == CKR_OK && (rc = tk_random(id, sizeof id)) < 0)
		rv = tk_rv_from_pv(rc);
	if (rv == CKR_OK)
		rv = tk_auth_session(h, &a);
	if (rv == CKR_OK)
		rv = tk_auth_new(&a, o);
	if (rv == CKR_OK) {
		tk_auth_key(&a, u);
		pv_req_init(&r, PV_OP_UNWRAP_KEY, m->pv);
		tk_auth_req(&a, &r);
		r.key = ub; r.key_len = ubl; memcpy(r.key_id, uid, PV_OBJ_ID_LEN);
		r.in = in; r.in_len = in_len;
		r.new_type = tk_ckk_pv(tk_obj_ulong(o, CKA_KEY_TYPE, 0));
		r.new_usage = tk_key_usage(o);
		memcpy(r.new_id, id, sizeof id);
		r.out = blob; r.out_cap = sizeof blob;
		rc = tk_vault_call(&r);
		if (rc == PV_ERR_ENC_LEN || rc == PV_ERR_ENC_INVALID)
			rc = PV_ERR_WRAPPED;
		if (rc == PV_ERR_KEY_SIZE || rc == PV_ERR_DATA_LEN)
			rv = CKR_TEMPLATE_INCONSISTENT;
		else
			rv = tk_rv_from_pv(rc);
	}
	if (rv == CKR_OK) {
		want = tk_key_want_len(o);
		if (r.out_len <= PV_BLOB_OVERHEAD ||
		    !tk_len_ok(tk_obj_ulong(o, CKA_KEY_TYPE, 0), r.out_len - PV_BLOB_OVERHEAD))
			rv = CKR_TEMPLATE_INCONSISTENT;
		else if (want != 0 && want != r.out_len - PV_BLOB_OVERHEAD)
			rv = CKR_TEMPLATE_INCONSISTENT;
	}
	if (rv == CKR_OK)
		rv = tk_key_finish(o, &a, blob, r.out_len, id, 0,
		                   CK_UNAVAILABLE_INFORMATION, 0, 0);
	tk_auth_clear(&a);
	tk_obj_free(u);
	if (rv != CKR_OK) {
		tk_obj_free(o);
		return rv;
	}
	return tk_key_store(h, o, out);
}

CK_RV tk_derive_key(CK_SESSION_HANDLE h, const tk_mech *m, CK_OBJECT_HANDLE bk,
                    const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	uint8_t id[PV_OBJ_ID_LEN], blob[PV_BLOB_MAX];
	tk_auth a = TK_AUTH_INIT;
	tk_obj *b = NULL, *o = NULL;
	const uint8_t *bb, *bid;
	size_t bbl, len = 0;
	pv_req r;
	CK_RV rv;
	int rc;

	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	rv = tk_key_get(h, bk, m->ckm, &b);
	if (rv == CKR_OK)
		rv = tk_key_check(b, m, TK_USE_DERIVE);
	if (rv == CKR_OK)
		rv = tk_key_blob(b, &bb, &bbl, &bid);
	if (rv == CKR_OK)
		rv = tk_key_new_obj(t, n, (CK_KEY_TYPE)-1, &o);
	if (rv == CKR_OK) {
		len = tk_key_want_len(o);
		if (len == 0)
			rv = tk_obj_attr(o, CKA_VALUE_LEN) ? CKR_ATTRIBUTE_VALUE_INVALID
			                                   : CKR_TEMPLATE_INCOMPLETE;
		else if (!tk_len_ok(tk_obj_ulong(o, CKA_KEY_TYPE, 0), len))
			rv = CKR_ATTRIBUTE_VALUE_INVALID;
	}
	if (rv == CKR_OK && (rc = tk_random(id, sizeof id)) < 0)
		rv = tk_rv_from_pv(rc);
	if (rv == CKR_OK)
		rv = tk_auth_session(h, &a);
	if (rv == CKR_OK)
		rv = tk_auth_new(&a, o);
	if (rv == CKR_OK) {
		tk_auth_key(&a, b);
		pv_req_init(&r, PV_OP_DERIVE_KEY, m->pv);
		tk_auth_req(&a, &r);
		r.prf = m->prf;
		r.flags = m->flags;
		r.key = bb; r.key_len = bbl; memcpy(r.key_id, bid, PV_OBJ_ID_LEN);
		r.salt = m->salt; r.salt_len = m->salt_len;
		r.aad = m->aad; r.aad_len = m->aad_len;
		r.new_len = (uint32_t)len;
		r.new_type = tk_ckk_pv(tk_obj_ulong(o, CKA_KEY_TYPE, 0));
		r.new_usage = tk_key_usage(o);
		memcpy(r.new_id, id, sizeof id);
		r.out = blob; r.out_cap = sizeof blob;
		rc = tk_vault_call(&r);
		rv = rc == PV_ERR_KEY_SIZE ? CKR_TEMPLATE_INCONSISTENT : tk_rv_from_pv(rc);
	}
	if (rv == CKR_OK)
		rv = tk_key_finish(o, &a, blob, r.out_len, id, 0,
		                   CK_UNAVAILABLE_INFORMATION,
		                   tk_obj_bool(b, CKA_ALWAYS_SENSITIVE, CK_FALSE),
		                   tk_obj_bool(b, CKA_NEVER_EXTRACTABLE, CK_FALSE));
	tk_auth_clear(&a);
	tk_obj_free(b);
	if (rv != CKR_OK) {
		tk_obj_free(o);
		return rv;
	}
	return tk_key_store(h, o, out);
}

/* ---- random ---- */
CK_RV tk_generate_random(CK_SESSION_HANDLE h, uint8_t *out, size_t len)
{
	CK_RV rv = tk_session_check(h);
	pv_req r;
	int rc;

	if (rv == CKR_OK && !tk_vault_ready())
		return CKR_RANDOM_NO_RNG;      /* no CKF_RNG: sealed or no vault */
	while (rv == CKR_OK && len > 0) {
		size_t n = len > (512u << 10) ? (512u << 10) : len;
		pv_req_init(&r, PV_OP_RANDOM, PV_MECH_RANDOM);
		r.out = out; r.out_cap = n;
		rc = tk_vault_call(&r);
		rv = tk_rv_from_pv(rc);
		out += n;
		len -= n;
	}
	return rv;
}

CK_RV tk_seed_random(CK_SESSION_HANDLE h, const uint8_t *seed, size_t len)
{
	CK_RV rv = tk_session_check(h);
	pv_req r;

	if (rv != CKR_OK)
		return rv;
	if (!tk_vault_ready())
		return CKR_RANDOM_NO_RNG;
	if (len == 0)
		return CKR_OK;
	if (len > (512u << 10))
		return CKR_ARGUMENTS_BAD;
	pv_req_init(&r, PV_OP_SEED, PV_MECH_NONE);
	r.in = seed; r.in_len = len;
	return tk_rv_from_pv(tk_vault_call(&r));
}
