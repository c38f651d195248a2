/*
 * pk_sign.c - signatures and MACs, with recovery.  No mechanism is offered
 * until the vault is wired (issue 3).
 */
#include "pkcs11/pk_int.h"

CK_RV C_SignInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_Sign(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
             CK_BYTE_PTR sig, CK_ULONG_PTR sigl)
{ (void)in; (void)inl; (void)sig; (void)sigl; PK_STUB_OP(h); }
CK_RV C_SignUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{ (void)in; (void)inl; PK_STUB_OP(h); }
CK_RV C_SignFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG_PTR sigl)
{ (void)sig; (void)sigl; PK_STUB_OP(h); }
CK_RV C_SignRecoverInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                        CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_SignRecover(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                    CK_BYTE_PTR sig, CK_ULONG_PTR sigl)
{ (void)in; (void)inl; (void)sig; (void)sigl; PK_STUB_OP(h); }
CK_RV C_VerifyInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_Verify(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
               CK_BYTE_PTR sig, CK_ULONG sigl)
{ (void)in; (void)inl; (void)sig; (void)sigl; PK_STUB_OP(h); }
CK_RV C_VerifyUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{ (void)in; (void)inl; PK_STUB_OP(h); }
CK_RV C_VerifyFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG sigl)
{ (void)sig; (void)sigl; PK_STUB_OP(h); }
CK_RV C_VerifyRecoverInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                          CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_VerifyRecover(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG sigl,
                      CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)sig; (void)sigl; (void)out; (void)outl; PK_STUB_OP(h); }
