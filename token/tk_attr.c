/*
 * tk_attr.c - the attribute policy: which attributes each object class
 * has, which are required, defaulted, computed, modifiable; validation of
 * templates for C_CreateObject, C_CopyObject and C_SetAttributeValue.
 *
 * Table driven: a class is a list of attribute tables; key classes
 * (CKO_SECRET_KEY, CKO_PRIVATE_KEY) are listed and refused until the vault
 * stores their material (they are refused with CKR_ATTRIBUTE_VALUE_INVALID,
 * the precise code for "this CKA_CLASS value is not supported").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/pv_err.h"
#include "include/pixelvault/pkcs11-vendor.h"
#include "token/tk_int.h"

#ifndef CKA_UNIQUE_ID
#define CKA_UNIQUE_ID 0x4aUL           /* PKCS#11 3.0 */
#endif

enum { K_BYTES, K_BOOL, K_ULONG, K_DATE, K_MECHS };

#define A_REQ  0x01   /* must be in the create template            */
#define A_RO   0x02   /* computed by the token, never in a template */
#define A_MOD  0x04   /* C_SetAttributeValue may change it          */
#define A_COPY 0x08   /* a C_CopyObject template may change it      */
#define A_TF   0x10   /* may only go from CK_TRUE to CK_FALSE       */
#define A_SO   0x20   /* CK_TRUE only by the Security Officer       */
#define A_FT   0x40   /* may only go from CK_FALSE to CK_TRUE       */

enum { D_NONE, D_FALSE, D_TRUE, D_EMPTY, D_ZERO, D_UNAVAIL };

typedef struct tk_adef {
	CK_ATTRIBUTE_TYPE type;
	unsigned char kind, flags, dflt;
} tk_adef;

#define END { (CK_ATTRIBUTE_TYPE)-1, 0, 0, 0 }

/* CKA_PRIVATE is in each class's table: its default is the class's. */
static const tk_adef tk_common[] = {
	{ CKA_CLASS,       K_ULONG, A_REQ, D_NONE },
	{ CKA_TOKEN,       K_BOOL,  A_COPY, D_FALSE },
	{ CKA_MODIFIABLE,  K_BOOL,  A_COPY, D_TRUE },
	{ CKA_LABEL,       K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_COPYABLE,    K_BOOL,  A_TF, D_TRUE },
	{ CKA_DESTROYABLE, K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_UNIQUE_ID,   K_BYTES, A_RO, D_NONE },
	END
};

static const tk_adef tk_data[] = {
	{ CKA_PRIVATE,     K_BOOL,  A_COPY, D_FALSE },
	{ CKA_APPLICATION, K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_OBJECT_ID,   K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_VALUE,       K_BYTES, A_MOD | A_COPY, D_EMPTY },
	END
};

static const tk_adef tk_cert[] = {
	{ CKA_PRIVATE,              K_BOOL,  A_COPY, D_FALSE },
	{ CKA_CERTIFICATE_TYPE,     K_ULONG, A_REQ, D_NONE },
	{ CKA_TRUSTED,              K_BOOL,  A_SO, D_FALSE },
	{ CKA_CERTIFICATE_CATEGORY, K_ULONG, 0, D_ZERO },
	{ CKA_CHECK_VALUE,          K_BYTES, 0, D_NONE },
	{ CKA_START_DATE,           K_DATE,  A_MOD | A_COPY, D_EMPTY },
	{ CKA_END_DATE,             K_DATE,  A_MOD | A_COPY, D_EMPTY },
	{ CKA_PUBLIC_KEY_INFO,      K_BYTES, 0, D_EMPTY },
	/* X.509 */
	{ CKA_SUBJECT,              K_BYTES, A_REQ, D_NONE },
	{ CKA_ID,                   K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_ISSUER,               K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_SERIAL_NUMBER,        K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_VALUE,                K_BYTES, A_REQ, D_NONE },
	{ CKA_URL,                  K_BYTES, 0, D_NONE },
	{ CKA_HASH_OF_SUBJECT_PUBLIC_KEY, K_BYTES, 0, D_EMPTY },
	{ CKA_HASH_OF_ISSUER_PUBLIC_KEY,  K_BYTES, 0, D_EMPTY },
	{ CKA_JAVA_MIDP_SECURITY_DOMAIN,  K_ULONG, 0, D_ZERO },
	{ CKA_NAME_HASH_ALGORITHM,  K_ULONG, 0, D_NONE },
	END
};

static const tk_adef tk_key[] = {
	{ CKA_KEY_TYPE,          K_ULONG, A_REQ, D_NONE },
	{ CKA_ID,                K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_START_DATE,        K_DATE,  A_MOD | A_COPY, D_EMPTY },
	{ CKA_END_DATE,          K_DATE,  A_MOD | A_COPY, D_EMPTY },
	{ CKA_DERIVE,            K_BOOL,  A_MOD | A_COPY, D_FALSE },
	{ CKA_LOCAL,             K_BOOL,  A_RO, D_FALSE },
	{ CKA_KEY_GEN_MECHANISM, K_ULONG, A_RO, D_UNAVAIL },
	/* fixed at creation: a key's restriction is not lifted later */
	{ CKA_ALLOWED_MECHANISMS, K_MECHS, 0, D_NONE },
	END
};

static const tk_adef tk_pub[] = {
	{ CKA_PRIVATE,         K_BOOL,  A_COPY, D_FALSE },
	{ CKA_SUBJECT,         K_BYTES, A_MOD | A_COPY, D_EMPTY },
	{ CKA_ENCRYPT,         K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_VERIFY,          K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_VERIFY_RECOVER,  K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_WRAP,            K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_TRUSTED,         K_BOOL,  A_SO, D_FALSE },
	{ CKA_PUBLIC_KEY_INFO, K_BYTES, 0, D_EMPTY },
	END
};

/* Secret keys: the value goes into the vault (tk_key.c).  Private by
 * default, as private keys are (tk_pk_keys.c): a key made without
 * CKA_PRIVATE is usable only after C_Login.  CKA_TRUSTED only by the SO;
 * CKA_WRAP_WITH_TRUSTED, once TRUE, stays TRUE. */
static const tk_adef tk_secret[] = {
	{ CKA_PRIVATE,           K_BOOL,  A_COPY, D_TRUE },
	{ CKA_SENSITIVE,         K_BOOL,  A_FT, D_TRUE },
	{ CKA_EXTRACTABLE,       K_BOOL,  A_TF, D_FALSE },
	{ CKA_ALWAYS_SENSITIVE,  K_BOOL,  A_RO, D_FALSE },
	{ CKA_NEVER_EXTRACTABLE, K_BOOL,  A_RO, D_FALSE },
	{ CKA_ENCRYPT,           K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_DECRYPT,           K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_SIGN,              K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_VERIFY,            K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_WRAP,              K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_UNWRAP,            K_BOOL,  A_MOD | A_COPY, D_TRUE },
	{ CKA_TRUSTED,           K_BOOL,  A_SO, D_FALSE },
	{ CKA_WRAP_WITH_TRUSTED, K_BOOL,  A_FT, D_FALSE },
	{ CKA_CHECK_VALUE,       K_BYTES, A_RO, D_NONE },
	{ CKA_VALUE,             K_BYTES, 0, D_NONE },
	{ CKA_VALUE_LEN,         K_ULONG, 0, D_NONE },
	END
};

static const tk_adef tk_rsa_pub[] = {
	{ CKA_MODULUS,         K_BYTES, A_REQ, D_NONE },
	{ CKA_PUBLIC_EXPONENT, K_BYTES, A_REQ, D_NONE },
	{ CKA_MODULUS_BITS,    K_ULONG, A_RO, D_NONE },   /* computed */
	END
};

/* CKK_EC, CKK_EC_EDWARDS and CKK_PV_SM2 (whose CKA_EC_PARAMS is the SM2
 * curve's OID, as on the public objects C_GenerateKeyPair makes): the
 * curve and the point are checked when the key is used (tk_pk.c). */
static const tk_adef tk_ec_pub[] = {
	{ CKA_EC_PARAMS, K_BYTES, A_REQ, D_NONE },
	{ CKA_EC_POINT,  K_BYTES, A_REQ, D_NONE },
	END
};

#define TK_MAX_TABLES 4

typedef struct tk_classdef {
	CK_OBJECT_CLASS cls;
	int supported;
	const tk_adef *t[TK_MAX_TABLES];
} tk_classdef;

static const tk_classdef tk_classes[] = {
	{ CKO_DATA,        1, { tk_common, tk_data, NULL, NULL } },
	{ CKO_CERTIFICATE, 1, { tk_common, tk_cert, NULL, NULL } },
	{ CKO_PUBLIC_KEY,  1, { tk_common, tk_key, tk_pub, NULL } },
	/* arrive with the vault: wrapped material in objects.wrapped */
	{ CKO_PRIVATE_KEY, 0, { NULL, NULL, NULL, NULL } },
	{ CKO_SECRET_KEY,  1, { tk_common, tk_key, tk_secret, NULL } },
};

typedef struct tk_keydef {
	CK_KEY_TYPE kt;
	const tk_adef *t;
} tk_keydef;

static const tk_keydef tk_pub_keys[] = {
	{ CKK_RSA, tk_rsa_pub },
	{ CKK_EC, tk_ec_pub },
	{ CKK_EC_EDWARDS, tk_ec_pub },
	{ CKK_PV_SM2, tk_ec_pub },
};

/* The applicable tables of one object: class tables plus key-type table. */
typedef struct tk_policy {
	const tk_adef *t[TK_MAX_TABLES + 1];
} tk_policy;

static const tk_adef *tk_pol_find(const tk_policy *p, CK_ATTRIBUTE_TYPE type)
{
	int i, j;

	for (i = 0; p->t[i] != NULL; i++)
		for (j = 0; p->t[i][j].type != (CK_ATTRIBUTE_TYPE)-1; j++)
			if (p->t[i][j].type == type)
				return &p->t[i][j];
	return NULL;
}

static const CK_ATTRIBUTE *tk_tmpl_find(const CK_ATTRIBUTE *t, CK_ULONG n,
                                        CK_ATTRIBUTE_TYPE type)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if (t[i].type == type)
			return &t[i];
	return NULL;
}

CK_RV tk_tmpl_check(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if (t[i].ulValueLen > TK_ATTR_VALUE_MAX)
			return CKR_ATTRIBUTE_VALUE_INVALID;
	return CKR_OK;
}

CK_RV tk_tmpl_ulong(const CK_ATTRIBUTE *a, CK_ULONG *v)
{
	if (a->ulValueLen != sizeof(CK_ULONG) || a->pValue == NULL)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	memcpy(v, a->pValue, sizeof *v);
	return CKR_OK;
}

/* Build the policy of an object of class cls (and key type / cert type
 * taken from src: a template on create, the object otherwise). */
static CK_RV tk_policy_for(CK_OBJECT_CLASS cls, const CK_ATTRIBUTE *t,
                           CK_ULONG n, const tk_obj *base, tk_policy *p)
{
	size_t i, k;
	const tk_classdef *cd = NULL;

	memset(p, 0, sizeof *p);
	for (i = 0; i < sizeof tk_classes / sizeof tk_classes[0]; i++)
		if (tk_classes[i].cls == cls)
			cd = &tk_classes[i];
	if (cd == NULL || !cd->supported)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	for (k = 0; k < TK_MAX_TABLES && cd->t[k] != NULL; k++)
		p->t[k] = cd->t[k];
	if (cls == CKO_CERTIFICATE) {
		CK_ULONG ct;
		if (base != NULL) {
			ct = tk_obj_ulong(base, CKA_CERTIFICATE_TYPE, CKC_X_509);
		} else {
			const CK_ATTRIBUTE *a = tk_tmpl_find(t, n, CKA_CERTIFICATE_TYPE);
			if (a == NULL)
				return CKR_TEMPLATE_INCOMPLETE;
			if (tk_tmpl_ulong(a, &ct) != CKR_OK)
				return CKR_ATTRIBUTE_VALUE_INVALID;
		}
		if (ct != CKC_X_509)
			return CKR_ATTRIBUTE_VALUE_INVALID;
	}
	if (cls == CKO_PUBLIC_KEY) {
		CK_ULONG kt;
		const tk_adef *kd = NULL;
		if (base != NULL) {
			kt = tk_obj_ulong(base, CKA_KEY_TYPE, CK_UNAVAILABLE_INFORMATION);
		} else {
			const CK_ATTRIBUTE *a = tk_tmpl_find(t, n, CKA_KEY_TYPE);
			if (a == NULL)
				return CKR_TEMPLATE_INCOMPLETE;
			if (tk_tmpl_ulong(a, &kt) != CKR_OK)
				return CKR_ATTRIBUTE_VALUE_INVALID;
		}
		for (i = 0; i < sizeof tk_pub_keys / sizeof tk_pub_keys[0]; i++)
			if (tk_pub_keys[i].kt == kt)
				kd = tk_pub_keys[i].t;
		if (kd == NULL)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		p->t[k] = kd;
	}
	return CKR_OK;
}

static CK_RV tk_check_value(const tk_adef *d, const CK_ATTRIBUTE *a,
                            int so_logged_in)
{
	if (a->ulValueLen > 0 && a->pValue == NULL)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	switch (d->kind) {
	case K_BOOL:
		if (a->ulValueLen != sizeof(CK_BBOOL))
			return CKR_ATTRIBUTE_VALUE_INVALID;
		if (*(const CK_BBOOL *)a->pValue > 1)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		if ((d->flags & A_SO) && *(const CK_BBOOL *)a->pValue &&
		    !so_logged_in)
			return CKR_ATTRIBUTE_READ_ONLY;
		break;
	case K_ULONG:
		if (a->ulValueLen != sizeof(CK_ULONG))
			return CKR_ATTRIBUTE_VALUE_INVALID;
		break;
	case K_DATE:
		if (a->ulValueLen != 0 && a->ulValueLen != sizeof(CK_DATE))
			return CKR_ATTRIBUTE_VALUE_INVALID;
		break;
	case K_MECHS:
		/* an array of CK_MECHANISM_TYPE: a partial element is no list */
		if (a->ulValueLen % sizeof(CK_MECHANISM_TYPE) != 0)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		break;
	default:
		break;
	}
	return CKR_OK;
}

CK_RV tk_attr_key_check(const CK_ATTRIBUTE *a, int so_logged_in)
{
	static const tk_adef *const tabs[] = { tk_key, tk_secret, tk_pub };
	size_t i, j;

	for (i = 0; i < sizeof tabs / sizeof tabs[0]; i++)
		for (j = 0; tabs[i][j].type != (CK_ATTRIBUTE_TYPE)-1; j++)
			if (tabs[i][j].type == a->type)
				return tk_check_value(&tabs[i][j], a, so_logged_in);
	return CKR_OK;
}

/* Usage attributes: a template naming any of them leaves the others
 * CK_FALSE (tk_int.h, tk_obj_names_usage). */
static const CK_ATTRIBUTE_TYPE tk_usage[] = {
	CKA_ENCRYPT, CKA_DECRYPT, CKA_SIGN, CKA_VERIFY, CKA_SIGN_RECOVER,
	CKA_VERIFY_RECOVER, CKA_WRAP, CKA_UNWRAP, CKA_DERIVE,
};

static int tk_is_usage(CK_ATTRIBUTE_TYPE type)
{
	size_t i;

	for (i = 0; i < sizeof tk_usage / sizeof tk_usage[0]; i++)
		if (tk_usage[i] == type)
			return 1;
	return 0;
}

static int tk_tmpl_names_usage(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if (tk_is_usage(t[i].type))
			return 1;
	return 0;
}

int tk_obj_names_usage(const tk_obj *o)
{
	size_t i;

	for (i = 0; i < sizeof tk_usage / sizeof tk_usage[0]; i++)
		if (tk_obj_attr(o, tk_usage[i]) != NULL)
			return 1;
	return 0;
}

/* d's default in o; asked: the template names a usage, so an unnamed
 * usage is CK_FALSE. */
static int tk_set_default(tk_obj *o, const tk_adef *d, int asked)
{
	CK_BBOOL b;
	CK_ULONG u;

	if (asked && tk_is_usage(d->type)) {
		b = CK_FALSE;
		return tk_obj_set(o, d->type, &b, sizeof b);
	}
	switch (d->dflt) {
	case D_FALSE: b = CK_FALSE; return tk_obj_set(o, d->type, &b, sizeof b);
	case D_TRUE:  b = CK_TRUE;  return tk_obj_set(o, d->type, &b, sizeof b);
	case D_EMPTY: return tk_obj_set(o, d->type, NULL, 0);
	case D_ZERO:  u = 0; return tk_obj_set(o, d->type, &u, sizeof u);
	case D_UNAVAIL:
		u = CK_UNAVAILABLE_INFORMATION;
		return tk_obj_set(o, d->type, &u, sizeof u);
	default: return PV_OK;
	}
}

/* Computed attributes: CKA_MODULUS_BITS of an RSA public key. */
static int tk_computed(tk_obj *o)
{
	const tk_attr *m = tk_obj_attr(o, CKA_MODULUS);
	CK_ULONG bits = 0, i;

	if (m == NULL)
		return PV_OK;
	for (i = 0; i < m->len; i++) {
		if (m->val[i] != 0) {
			uint8_t v = m->val[i];
			bits = (m->len - i - 1) * 8;
			while (v) {
				bits++;
				v >>= 1;
			}
			break;
		}
	}
	return tk_obj_set(o, CKA_MODULUS_BITS, &bits, sizeof bits);
}

CK_RV tk_policy_apply(int op, const tk_obj *base, const CK_ATTRIBUTE *t,
                      CK_ULONG n, int so_logged_in, tk_obj **out)
{
	tk_policy p;
	CK_OBJECT_CLASS cls;
	CK_ULONG i;
	CK_RV rv;
	tk_obj *o;
	int k, j, asked;

	*out = NULL;
	if (n > 0 && t == NULL)
		return CKR_ARGUMENTS_BAD;
	if (tk_tmpl_has_dup(t, n))
		return CKR_TEMPLATE_INCONSISTENT;
	if (op == TK_OP_CREATE) {
		const CK_ATTRIBUTE *a = tk_tmpl_find(t, n, CKA_CLASS);
		if (a == NULL)
			return CKR_TEMPLATE_INCOMPLETE;
		if (tk_tmpl_ulong(a, &cls) != CKR_OK)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		rv = tk_policy_for(cls, t, n, NULL, &p);
	} else {
		cls = tk_obj_ulong(base, CKA_CLASS, CK_UNAVAILABLE_INFORMATION);
		rv = tk_policy_for(cls, NULL, 0, base, &p);
	}
	if (rv != CKR_OK)
		return rv;

	/* every template attribute: known for this class, allowed for op */
	for (i = 0; i < n; i++) {
		const tk_adef *d = tk_pol_find(&p, t[i].type);
		if (d == NULL)
			return CKR_ATTRIBUTE_TYPE_INVALID;
		if (d->flags & A_RO)
			return CKR_ATTRIBUTE_READ_ONLY;
		rv = tk_check_value(d, &t[i], so_logged_in);
		if (rv != CKR_OK)
			return rv;
		if (op != TK_OP_CREATE) {
			const tk_attr *cur = tk_obj_attr(base, t[i].type);
			int same = cur != NULL && cur->len == t[i].ulValueLen &&
			           (cur->len == 0 ||
			            memcmp(cur->val, t[i].pValue, cur->len) == 0);
			int allowed = (d->flags & A_MOD) ||
			              (op == TK_OP_COPY && (d->flags & A_COPY));
			if (d->flags & A_TF)
				allowed = *(const CK_BBOOL *)t[i].pValue == CK_FALSE;
			if (d->flags & A_FT)
				allowed = *(const CK_BBOOL *)t[i].pValue == CK_TRUE;
			if (!allowed && !same)
				return CKR_ATTRIBUTE_READ_ONLY;
		}
	}

	if (op == TK_OP_CREATE) {
		o = tk_obj_new();
		if (o == NULL)
			return CKR_HOST_MEMORY;
		/* required attributes present */
		for (k = 0; p.t[k] != NULL; k++)
			for (j = 0; p.t[k][j].type != (CK_ATTRIBUTE_TYPE)-1; j++)
				if ((p.t[k][j].flags & A_REQ) &&
				    tk_tmpl_find(t, n, p.t[k][j].type) == NULL) {
					tk_obj_free(o);
					return CKR_TEMPLATE_INCOMPLETE;
				}
		/* defaults first, then the template overrides them */
		asked = tk_tmpl_names_usage(t, n);
		for (k = 0; p.t[k] != NULL; k++)
			for (j = 0; p.t[k][j].type != (CK_ATTRIBUTE_TYPE)-1; j++)
				if (tk_set_default(o, &p.t[k][j], asked) < 0) {
					tk_obj_free(o);
					return CKR_HOST_MEMORY;
				}
	} else {
		o = tk_obj_dup(base);
		if (o == NULL)
			return CKR_HOST_MEMORY;
	}
	for (i = 0; i < n; i++) {
		if (tk_obj_set(o, t[i].type, t[i].pValue, t[i].ulValueLen) < 0) {
			tk_obj_free(o);
			return CKR_HOST_MEMORY;
		}
	}
	if (tk_computed(o) < 0) {
		tk_obj_free(o);
		return CKR_HOST_MEMORY;
	}
	*out = o;
	return CKR_OK;
}
