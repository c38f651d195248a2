/*
 * pk_message.c - PKCS#11 3.0 message-based encryption and signatures.
 * Not implemented yet: every function returns CKR_FUNCTION_NOT_SUPPORTED
 * (after the initialisation and session checks).
 */
#include "pkcs11/pk_int.h"

CK_RV C_MessageEncryptInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                           CK_OBJECT_HANDLE k)
{ (void)m; (void)k; PK_STUB_30(h); }
CK_RV C_EncryptMessage(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                       CK_BYTE_PTR ad, CK_ULONG adl, CK_BYTE_PTR in,
                       CK_ULONG inl, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)p; (void)pl; (void)ad; (void)adl; (void)in; (void)inl; (void)out;
  (void)outl; PK_STUB_30(h); }
CK_RV C_EncryptMessageBegin(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                            CK_BYTE_PTR ad, CK_ULONG adl)
{ (void)p; (void)pl; (void)ad; (void)adl; PK_STUB_30(h); }
CK_RV C_EncryptMessageNext(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                           CK_BYTE_PTR in, CK_ULONG inl, CK_BYTE_PTR out,
                           CK_ULONG_PTR outl, CK_FLAGS f)
{ (void)p; (void)pl; (void)in; (void)inl; (void)out; (void)outl; (void)f;
  PK_STUB_30(h); }
CK_RV C_MessageEncryptFinal(CK_SESSION_HANDLE h)
{ PK_STUB_30(h); }
CK_RV C_MessageDecryptInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                           CK_OBJECT_HANDLE k)
{ (void)m; (void)k; PK_STUB_30(h); }
CK_RV C_DecryptMessage(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                       CK_BYTE_PTR ad, CK_ULONG adl, CK_BYTE_PTR in,
                       CK_ULONG inl, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)p; (void)pl; (void)ad; (void)adl; (void)in; (void)inl; (void)out;
  (void)outl; PK_STUB_30(h); }
CK_RV C_DecryptMessageBegin(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                            CK_BYTE_PTR ad, CK_ULONG adl)
{ (void)p; (void)pl; (void)ad; (void)adl; PK_STUB_30(h); }
CK_RV C_DecryptMessageNext(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                           CK_BYTE_PTR in, CK_ULONG inl, CK_BYTE_PTR out,
                           CK_ULONG_PTR outl, CK_FLAGS f)
{ (void)p; (void)pl; (void)in; (void)inl; (void)out; (void)outl; (void)f;
  PK_STUB_30(h); }
CK_RV C_MessageDecryptFinal(CK_SESSION_HANDLE h)
{ PK_STUB_30(h); }
CK_RV C_MessageSignInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                        CK_OBJECT_HANDLE k)
{ (void)m; (void)k; PK_STUB_30(h); }
CK_RV C_SignMessage(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                    CK_BYTE_PTR in, CK_ULONG inl, CK_BYTE_PTR sig,
                    CK_ULONG_PTR sigl)
{ (void)p; (void)pl; (void)in; (void)inl; (void)sig; (void)sigl;
  PK_STUB_30(h); }
CK_RV C_SignMessageBegin(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl)
{ (void)p; (void)pl; PK_STUB_30(h); }
CK_RV C_SignMessageNext(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                        CK_BYTE_PTR in, CK_ULONG inl, CK_BYTE_PTR sig,
                        CK_ULONG_PTR sigl)
{ (void)p; (void)pl; (void)in; (void)inl; (void)sig; (void)sigl;
  PK_STUB_30(h); }
CK_RV C_MessageSignFinal(CK_SESSION_HANDLE h)
{ PK_STUB_30(h); }
CK_RV C_MessageVerifyInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                          CK_OBJECT_HANDLE k)
{ (void)m; (void)k; PK_STUB_30(h); }
CK_RV C_VerifyMessage(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                      CK_BYTE_PTR in, CK_ULONG inl, CK_BYTE_PTR sig,
                      CK_ULONG sigl)
{ (void)p; (void)pl; (void)in; (void)inl; (void)sig; (void)sigl;
  PK_STUB_30(h); }
CK_RV C_VerifyMessageBegin(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl)
{ (void)p; (void)pl; PK_STUB_30(h); }
CK_RV C_VerifyMessageNext(CK_SESSION_HANDLE h, CK_VOID_PTR p, CK_ULONG pl,
                          CK_BYTE_PTR in, CK_ULONG inl, CK_BYTE_PTR sig,
                          CK_ULONG sigl)
{ (void)p; (void)pl; (void)in; (void)inl; (void)sig; (void)sigl;
  PK_STUB_30(h); }
CK_RV C_MessageVerifyFinal(CK_SESSION_HANDLE h)
{ PK_STUB_30(h); }
