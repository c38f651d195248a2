/*
 * tk_pk_int.h - what tk_pk.c (mechanisms, operations, ECDH) and
 * tk_pk_keys.c (key pair generation, private-key import) share.  Internal
 * to token/.
 */
#ifndef TK_PK_INT_H
#define TK_PK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "token/tk_int.h"
#include "gpu/vault.h"

/* tk_pk.c: the mechanism table, the vault call, the curves */
typedef struct tk_pkdef {
	CK_MECHANISM_TYPE ckm;
	uint32_t pv, prf, hashdata;
	CK_KEY_TYPE ckk;
	int param;
	CK_ULONG min, max;
	CK_FLAGS flags;
} tk_pkdef;
extern const uint8_t tk_oid_sm2[10];     /* DER OID of SM2's curve */
const tk_pkdef *tk_pkfind(CK_MECHANISM_TYPE t);
CK_RV tk_curve(CK_KEY_TYPE kt, const uint8_t *p, size_t n, uint32_t *pvk);

/* tk_pk_keys.c: object building from templates */
const CK_ATTRIBUTE *tk_tfind(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE a);
/* The template t into o (a key of class cls; with 0x80000000 in cls an
 * imported private key's, whose key material and type are skipped),
 * refusing what the token computes; so: the SO is logged in
 * (tk_attr_key_check). */
CK_RV tk_tcopy(tk_obj *o, const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_CLASS cls, int so);
int tk_setu(tk_obj *o, CK_ATTRIBUTE_TYPE a, CK_ULONG v);
int tk_setb(tk_obj *o, CK_ATTRIBUTE_TYPE a, CK_BBOOL v);
void tk_dflt(tk_obj *o, CK_ATTRIBUTE_TYPE a, CK_BBOOL v);
/* A CK_ULONG attribute the template may carry: absent or equal to want.
 * CKR_ATTRIBUTE_VALUE_INVALID if malformed, CKR_TEMPLATE_INCONSISTENT if
 * different. */
CK_RV tk_tmpl_expect(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE type, CK_ULONG want);

#endif
