/*
 * pk_key.c - key generation (AES, SM4, generic secrets) and key pair
 * generation (token/tk_pk.h), wrapping and unwrapping (AES key wrap, RFC
 * 3394 / RFC 5649), derivation (HKDF, ECDH).
 */
#include "pkcs11/pk_mech.h"
#include "token/tk_pk.h"

/* The checks of a call that makes a key from a template, after the
 * caller's PK_CHECK_INIT: session, a mechanism, a template (or none) and
 * somewhere for the new handle. */
static CK_RV pk_key_args(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                         CK_ATTRIBUTE_PTR t, CK_ULONG n, CK_OBJECT_HANDLE_PTR k)
{
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(m != NULL && k != NULL && (t != NULL || n == 0));
	return CKR_OK;
}

CK_RV C_GenerateKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                    CK_ATTRIBUTE_PTR t, CK_ULONG n, CK_OBJECT_HANDLE_PTR k)
{
	tk_mech tm;
	CK_RV rv;

	PK_CHECK_INIT();
	rv = pk_key_args(h, m, t, n, k);
	if (rv != CKR_OK)
		return rv;
	rv = pk_mech_decode(m, CKF_GENERATE, &tm);
	if (rv != CKR_OK)
		return rv;
	return tk_generate_key(h, &tm, t, n, k);
}

CK_RV C_GenerateKeyPair(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                        CK_ATTRIBUTE_PTR pt, CK_ULONG pn, CK_ATTRIBUTE_PTR st,
                        CK_ULONG sn, CK_OBJECT_HANDLE_PTR pub,
                        CK_OBJECT_HANDLE_PTR priv)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(m != NULL && pub != NULL && priv != NULL);
	PK_CHECK_ARG((pt != NULL || pn == 0) && (st != NULL || sn == 0));
	if (!tk_pk_mech(m->mechanism))
		return CKR_MECHANISM_INVALID;
	return tk_pk_generate(h, m, pt, pn, st, sn, pub, priv);      /* token/tk_pk.c */
}

CK_RV C_WrapKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE wk,
                CK_OBJECT_HANDLE k, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	tk_mech tm;
	CK_RV rv;

	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(m != NULL && outl != NULL);
	rv = pk_mech_decode(m, CKF_WRAP, &tm);
	if (rv != CKR_OK)
		return rv;
	return tk_wrap_key(h, &tm, wk, k, out, outl);
}

CK_RV C_UnwrapKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE uk,
                  CK_BYTE_PTR in, CK_ULONG inl, CK_ATTRIBUTE_PTR t, CK_ULONG n,
                  CK_OBJECT_HANDLE_PTR k)
{
	tk_mech tm;
	CK_RV rv;

	PK_CHECK_INIT();
	rv = pk_key_args(h, m, t, n, k);
	if (rv != CKR_OK)
		return rv;
	PK_CHECK_ARG(in != NULL);
	rv = pk_mech_decode(m, CKF_UNWRAP, &tm);
	if (rv != CKR_OK)
		return rv;
	return tk_unwrap_key(h, &tm, uk, in, inl, t, n, k);
}

CK_RV C_DeriveKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE bk,
                  CK_ATTRIBUTE_PTR t, CK_ULONG n, CK_OBJECT_HANDLE_PTR k)
{
	tk_mech tm;
	CK_RV rv;

	PK_CHECK_INIT();
	rv = pk_key_args(h, m, t, n, k);
	if (rv != CKR_OK)
		return rv;
	if (tk_pk_mech(m->mechanism))          /* ECDH: token/tk_pk.c */
		return tk_pk_derive(h, m, bk, t, n, k);
	rv = pk_mech_decode(m, CKF_DERIVE, &tm);
	if (rv != CKR_OK)
		return rv;
	return tk_derive_key(h, &tm, bk, t, n, k);
}
