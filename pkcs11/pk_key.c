/*
 * pk_key.c - key generation, wrapping, unwrapping, derivation.  No
 * mechanism is offered until the vault is wired (issue 3).
 */
#include "pkcs11/pk_int.h"

CK_RV C_GenerateKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                    CK_ATTRIBUTE_PTR t, CK_ULONG n, CK_OBJECT_HANDLE_PTR k)
{ PK_CHECK_ARG(k != NULL && (t != NULL || n == 0)); PK_STUB_INIT(h, m); }
CK_RV C_GenerateKeyPair(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                        CK_ATTRIBUTE_PTR pt, CK_ULONG pn, CK_ATTRIBUTE_PTR st,
                        CK_ULONG sn, CK_OBJECT_HANDLE_PTR pub,
                        CK_OBJECT_HANDLE_PTR priv)
{
	PK_CHECK_ARG(pub != NULL && priv != NULL);
	PK_CHECK_ARG((pt != NULL || pn == 0) && (st != NULL || sn == 0));
	PK_STUB_INIT(h, m);
}
CK_RV C_WrapKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE wk,
                CK_OBJECT_HANDLE k, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)wk; (void)k; (void)out; PK_CHECK_ARG(outl != NULL); PK_STUB_INIT(h, m); }
CK_RV C_UnwrapKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE uk,
                  CK_BYTE_PTR in, CK_ULONG inl, CK_ATTRIBUTE_PTR t, CK_ULONG n,
                  CK_OBJECT_HANDLE_PTR k)
{
	(void)uk; (void)inl;
	PK_CHECK_ARG(in != NULL && k != NULL && (t != NULL || n == 0));
	PK_STUB_INIT(h, m);
}
CK_RV C_DeriveKey(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE bk,
                  CK_ATTRIBUTE_PTR t, CK_ULONG n, CK_OBJECT_HANDLE_PTR k)
{ (void)bk; PK_CHECK_ARG(k != NULL && (t != NULL || n == 0)); PK_STUB_INIT(h, m); }
