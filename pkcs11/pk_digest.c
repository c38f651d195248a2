/*
 * pk_digest.c - message digests.  No mechanism is offered until the vault
 * is wired (issue 3).
 */
#include "pkcs11/pk_int.h"

CK_RV C_DigestInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m)
{ PK_STUB_INIT(h, m); }
CK_RV C_Digest(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
               CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_DigestUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{ (void)in; (void)inl; PK_STUB_OP(h); }
CK_RV C_DigestKey(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_OP(h); }
CK_RV C_DigestFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)out; (void)outl; PK_STUB_OP(h); }
