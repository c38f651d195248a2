/*
 * pk_encrypt.c - encryption, decryption and the dual-function updates.
 * No mechanism is offered until the vault is wired (issue 3).
 */
#include "pkcs11/pk_int.h"

CK_RV C_EncryptInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_Encrypt(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_EncryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                      CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_EncryptFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_DecryptInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_Decrypt(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_DecryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                      CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_DecryptFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_DigestEncryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                            CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_DecryptDigestUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                            CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_SignEncryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                          CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
CK_RV C_DecryptVerifyUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                            CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_OP(h); }
