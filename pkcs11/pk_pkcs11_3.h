/*
 * pk_pkcs11_3.h - the PKCS#11 3.0 and 3.2 additions to p11-kit's 2.40
 * pkcs11.h (values and layouts from the OASIS PKCS#11 3.0 and 3.2
 * specifications, pkcs11t.h and pkcs11f.h).  The one header of ours on top
 * of <p11-kit/pkcs11.h>.
 */
#ifndef PK_PKCS11_3_H
#define PK_PKCS11_3_H

#include <p11-kit/pkcs11.h>

/* ---- constants ---- */
#ifndef CKF_INTERFACE_FORK_SAFE
#define CKF_INTERFACE_FORK_SAFE   0x00000001UL
#endif
#ifndef CKF_END_OF_MESSAGE
#define CKF_END_OF_MESSAGE        0x00000001UL
#endif
#ifndef CKF_MESSAGE_ENCRYPT
#define CKF_MESSAGE_ENCRYPT       0x00000002UL
#define CKF_MESSAGE_DECRYPT       0x00000004UL
#define CKF_MESSAGE_SIGN          0x00000008UL
#define CKF_MESSAGE_VERIFY        0x00000010UL
#define CKF_MULTI_MESSAGE         0x00000020UL
#endif
#ifndef CKF_FIND_OBJECTS
#define CKF_FIND_OBJECTS          0x00000040UL
#endif
#ifndef CKA_UNIQUE_ID
#define CKA_UNIQUE_ID             0x0000004aUL
#endif
#ifndef CKR_TOKEN_RESOURCE_EXCEEDED
#define CKR_TOKEN_RESOURCE_EXCEEDED 0x00000201UL
#endif

/* 3.2: asynchronous sessions - CKF_ASYNC_SESSION,
 * CKF_ASYNC_SESSION_SUPPORTED, CKR_PENDING - and 3.0's
 * CKR_OPERATION_CANCEL_FAILED are defined in token/tk.h
 * (the token layer keeps those sessions and includes nothing of
 * pkcs11/) */
#include "token/tk.h"

/* ---- interfaces ---- */
typedef struct CK_INTERFACE {
	CK_CHAR *pInterfaceName;
	CK_VOID_PTR pFunctionList;
	CK_FLAGS flags;
} CK_INTERFACE;
typedef CK_INTERFACE *CK_INTERFACE_PTR;
typedef CK_INTERFACE_PTR *CK_INTERFACE_PTR_PTR;

/* ---- 3.0 function types ---- */
typedef CK_RV (*CK_C_GetInterfaceList)(CK_INTERFACE_PTR pInterfacesList,
                                       CK_ULONG_PTR pulCount);
typedef CK_RV (*CK_C_GetInterface)(CK_UTF8CHAR_PTR pInterfaceName,
                                   CK_VERSION_PTR pVersion,
                                   CK_INTERFACE_PTR_PTR ppInterface,
                                   CK_FLAGS flags);
typedef CK_RV (*CK_C_LoginUser)(CK_SESSION_HANDLE hSession,
                                CK_USER_TYPE userType, CK_UTF8CHAR_PTR pPin,
                                CK_ULONG ulPinLen, CK_UTF8CHAR_PTR pUsername,
                                CK_ULONG ulUsernameLen);
typedef CK_RV (*CK_C_SessionCancel)(CK_SESSION_HANDLE hSession, CK_FLAGS flags);
typedef CK_RV (*CK_C_MessageEncryptInit)(CK_SESSION_HANDLE hSession,
                                         CK_MECHANISM_PTR pMechanism,
                                         CK_OBJECT_HANDLE hKey);
typedef CK_RV (*CK_C_EncryptMessage)(CK_SESSION_HANDLE hSession,
                                     CK_VOID_PTR pParameter,
                                     CK_ULONG ulParameterLen,
                                     CK_BYTE_PTR pAssociatedData,
                                     CK_ULONG ulAssociatedDataLen,
                                     CK_BYTE_PTR pPlaintext,
                                     CK_ULONG ulPlaintextLen,
                                     CK_BYTE_PTR pCiphertext,
                                     CK_ULONG_PTR pulCiphertextLen);
typedef CK_RV (*CK_C_EncryptMessageBegin)(CK_SESSION_HANDLE hSession,
                                          CK_VOID_PTR pParameter,
                                          CK_ULONG ulParameterLen,
                                          CK_BYTE_PTR pAssociatedData,
                                          CK_ULONG ulAssociatedDataLen);
typedef CK_RV (*CK_C_EncryptMessageNext)(CK_SESSION_HANDLE hSession,
                                         CK_VOID_PTR pParameter,
                                         CK_ULONG ulParameterLen,
                                         CK_BYTE_PTR pPlaintextPart,
                                         CK_ULONG ulPlaintextPartLen,
                                         CK_BYTE_PTR pCiphertextPart,
                                         CK_ULONG_PTR pulCiphertextPartLen,
                                         CK_FLAGS flags);
typedef CK_RV (*CK_C_MessageEncryptFinal)(CK_SESSION_HANDLE hSession);
typedef CK_RV (*CK_C_MessageDecryptInit)(CK_SESSION_HANDLE hSession,
                                         CK_MECHANISM_PTR pMechanism,
                                         CK_OBJECT_HANDLE hKey);
typedef CK_RV (*CK_C_DecryptMessage)(CK_SESSION_HANDLE hSession,
                                     CK_VOID_PTR pParameter,
                                     CK_ULONG ulParameterLen,
                                     CK_BYTE_PTR pAssociatedData,
                                     CK_ULONG ulAssociatedDataLen,
                                     CK_BYTE_PTR pCiphertext,
                                     CK_ULONG ulCiphertextLen,
                                     CK_BYTE_PTR pPlaintext,
                                     CK_ULONG_PTR pulPlaintextLen);
typedef CK_RV (*CK_C_DecryptMessageBegin)(CK_SESSION_HANDLE hSession,
                                          CK_VOID_PTR pParameter,
                                          CK_ULONG ulParameterLen,
                                          CK_BYTE_PTR pAssociatedData,
                                          CK_ULONG ulAssociatedDataLen);
typedef CK_RV (*CK_C_DecryptMessageNext)(CK_SESSION_HANDLE hSession,
                                         CK_VOID_PTR pParameter,
                                         CK_ULONG ulParameterLen,
                                         CK_BYTE_PTR pCiphertextPart,
                                         CK_ULONG ulCiphertextPartLen,
                                         CK_BYTE_PTR pPlaintextPart,
                                         CK_ULONG_PTR pulPlaintextPartLen,
                                         CK_FLAGS flags);
typedef CK_RV (*CK_C_MessageDecryptFinal)(CK_SESSION_HANDLE hSession);
typedef CK_RV (*CK_C_MessageSignInit)(CK_SESSION_HANDLE hSession,
                                      CK_MECHANISM_PTR pMechanism,
                                      CK_OBJECT_HANDLE hKey);
typedef CK_RV (*CK_C_SignMessage)(CK_SESSION_HANDLE hSession,
                                  CK_VOID_PTR pParameter,
                                  CK_ULONG ulParameterLen, CK_BYTE_PTR pData,
                                  CK_ULONG ulDataLen, CK_BYTE_PTR pSignature,
                                  CK_ULONG_PTR pulSignatureLen);
typedef CK_RV (*CK_C_SignMessageBegin)(CK_SESSION_HANDLE hSession,
                                       CK_VOID_PTR pParameter,
                                       CK_ULONG ulParameterLen);
typedef CK_RV (*CK_C_SignMessageNext)(CK_SESSION_HANDLE hSession,
                                      CK_VOID_PTR pParameter,
                                      CK_ULONG ulParameterLen,
                                      CK_BYTE_PTR pData, CK_ULONG ulDataLen,
                                      CK_BYTE_PTR pSignature,
                                      CK_ULONG_PTR pulSignatureLen);
typedef CK_RV (*CK_C_MessageSignFinal)(CK_SESSION_HANDLE hSession);
typedef CK_RV (*CK_C_MessageVerifyInit)(CK_SESSION_HANDLE hSession,
                                        CK_MECHANISM_PTR pMechanism,
                                        CK_OBJECT_HANDLE hKey);
typedef CK_RV (*CK_C_VerifyMessage)(CK_SESSION_HANDLE hSession,
                                    CK_VOID_PTR pParameter,
                                    CK_ULONG ulParameterLen, CK_BYTE_PTR pData,
                                    CK_ULONG ulDataLen, CK_BYTE_PTR pSignature,
                                    CK_ULONG ulSignatureLen);
typedef CK_RV (*CK_C_VerifyMessageBegin)(CK_SESSION_HANDLE hSession,
                                         CK_VOID_PTR pParameter,
                                         CK_ULONG ulParameterLen);
typedef CK_RV (*CK_C_VerifyMessageNext)(CK_SESSION_HANDLE hSession,
                                        CK_VOID_PTR pParameter,
                                        CK_ULONG ulParameterLen,
                                        CK_BYTE_PTR pData, CK_ULONG ulDataLen,
                                        CK_BYTE_PTR pSignature,
                                        CK_ULONG ulSignatureLen);
typedef CK_RV (*CK_C_MessageVerifyFinal)(CK_SESSION_HANDLE hSession);

/* ---- the 3.0 function list: the 2.40 list, then the 3.0 functions ---- */
typedef struct CK_FUNCTION_LIST_3_0 {
	CK_VERSION version;
	CK_C_Initialize C_Initialize;
	CK_C_Finalize C_Finalize;
	CK_C_GetInfo C_GetInfo;
	CK_C_GetFunctionList C_GetFunctionList;
	CK_C_GetSlotList C_GetSlotList;
	CK_C_GetSlotInfo C_GetSlotInfo;
	CK_C_GetTokenInfo C_GetTokenInfo;
	CK_C_GetMechanismList C_GetMechanismList;
	CK_C_GetMechanismInfo C_GetMechanismInfo;
	CK_C_InitToken C_InitToken;
	CK_C_InitPIN C_InitPIN;
	CK_C_SetPIN C_SetPIN;
	CK_C_OpenSession C_OpenSession;
	CK_C_CloseSession C_CloseSession;
	CK_C_CloseAllSessions C_CloseAllSessions;
	CK_C_GetSessionInfo C_GetSessionInfo;
	CK_C_GetOperationState C_GetOperationState;
	CK_C_SetOperationState C_SetOperationState;
	CK_C_Login C_Login;
	CK_C_Logout C_Logout;
	CK_C_CreateObject C_CreateObject;
	CK_C_CopyObject C_CopyObject;
	CK_C_DestroyObject C_DestroyObject;
	CK_C_GetObjectSize C_GetObjectSize;
	CK_C_GetAttributeValue C_GetAttributeValue;
	CK_C_SetAttributeValue C_SetAttributeValue;
	CK_C_FindObjectsInit C_FindObjectsInit;
	CK_C_FindObjects C_FindObjects;
	CK_C_FindObjectsFinal C_FindObjectsFinal;
	CK_C_EncryptInit C_EncryptInit;
	CK_C_Encrypt C_Encrypt;
	CK_C_EncryptUpdate C_EncryptUpdate;
	CK_C_EncryptFinal C_EncryptFinal;
	CK_C_DecryptInit C_DecryptInit;
	CK_C_Decrypt C_Decrypt;
	CK_C_DecryptUpdate C_DecryptUpdate;
	CK_C_DecryptFinal C_DecryptFinal;
	CK_C_DigestInit C_DigestInit;
	CK_C_Digest C_Digest;
	CK_C_DigestUpdate C_DigestUpdate;
	CK_C_DigestKey C_DigestKey;
	CK_C_DigestFinal C_DigestFinal;
	CK_C_SignInit C_SignInit;
	CK_C_Sign C_Sign;
	CK_C_SignUpdate C_SignUpdate;
	CK_C_SignFinal C_SignFinal;
	CK_C_SignRecoverInit C_SignRecoverInit;
	CK_C_SignRecover C_SignRecover;
	CK_C_VerifyInit C_VerifyInit;
	CK_C_Verify C_Verify;
	CK_C_VerifyUpdate C_VerifyUpdate;
	CK_C_VerifyFinal C_VerifyFinal;
	CK_C_VerifyRecoverInit C_VerifyRecoverInit;
	CK_C_VerifyRecover C_VerifyRecover;
	CK_C_DigestEncryptUpdate C_DigestEncryptUpdate;
	CK_C_DecryptDigestUpdate C_DecryptDigestUpdate;
	CK_C_SignEncryptUpdate C_SignEncryptUpdate;
	CK_C_DecryptVerifyUpdate C_DecryptVerifyUpdate;
	CK_C_GenerateKey C_GenerateKey;
	CK_C_GenerateKeyPair C_GenerateKeyPair;
	CK_C_WrapKey C_WrapKey;
	CK_C_UnwrapKey C_UnwrapKey;
	CK_C_DeriveKey C_DeriveKey;
	CK_C_SeedRandom C_SeedRandom;
	CK_C_GenerateRandom C_GenerateRandom;
	CK_C_GetFunctionStatus C_GetFunctionStatus;
	CK_C_CancelFunction C_CancelFunction;
	CK_C_WaitForSlotEvent C_WaitForSlotEvent;
	/* 3.0 */
	CK_C_GetInterfaceList C_GetInterfaceList;
	CK_C_GetInterface C_GetInterface;
	CK_C_LoginUser C_LoginUser;
	CK_C_SessionCancel C_SessionCancel;
	CK_C_MessageEncryptInit C_MessageEncryptInit;
	CK_C_EncryptMessage C_EncryptMessage;
	CK_C_EncryptMessageBegin C_EncryptMessageBegin;
	CK_C_EncryptMessageNext C_EncryptMessageNext;
	CK_C_MessageEncryptFinal C_MessageEncryptFinal;
	CK_C_MessageDecryptInit C_MessageDecryptInit;
	CK_C_DecryptMessage C_DecryptMessage;
	CK_C_DecryptMessageBegin C_DecryptMessageBegin;
	CK_C_DecryptMessageNext C_DecryptMessageNext;
	CK_C_MessageDecryptFinal C_MessageDecryptFinal;
	CK_C_MessageSignInit C_MessageSignInit;
	CK_C_SignMessage C_SignMessage;
	CK_C_SignMessageBegin C_SignMessageBegin;
	CK_C_SignMessageNext C_SignMessageNext;
	CK_C_MessageSignFinal C_MessageSignFinal;
	CK_C_MessageVerifyInit C_MessageVerifyInit;
	CK_C_VerifyMessage C_VerifyMessage;
	CK_C_VerifyMessageBegin C_VerifyMessageBegin;
	CK_C_VerifyMessageNext C_VerifyMessageNext;
	CK_C_MessageVerifyFinal C_MessageVerifyFinal;
} CK_FUNCTION_LIST_3_0;
typedef CK_FUNCTION_LIST_3_0 *CK_FUNCTION_LIST_3_0_PTR;
typedef CK_FUNCTION_LIST_3_0_PTR *CK_FUNCTION_LIST_3_0_PTR_PTR;

/* ---- the 3.2 function list: the 3.0 list, then the 3.2 functions ---- */
typedef struct CK_ASYNC_DATA {
	CK_ULONG ulVersion;
	CK_BYTE_PTR pValue;
	CK_ULONG ulValue;
	CK_OBJECT_HANDLE hObject;
	CK_OBJECT_HANDLE hAdditionalObject;
} CK_ASYNC_DATA;
typedef CK_ASYNC_DATA *CK_ASYNC_DATA_PTR;
typedef CK_ULONG CK_SESSION_VALIDATION_FLAGS_TYPE;
#define CKS_LAST_VALIDATION_OK 0x00000001UL

typedef CK_RV (*CK_C_EncapsulateKey)(CK_SESSION_HANDLE hSession,
                                     CK_MECHANISM_PTR pMechanism,
                                     CK_OBJECT_HANDLE hPublicKey,
                                     CK_ATTRIBUTE_PTR pTemplate,
                                     CK_ULONG ulAttributeCount,
                                     CK_BYTE_PTR pCiphertext,
                                     CK_ULONG_PTR pulCiphertextLen,
                                     CK_OBJECT_HANDLE_PTR phKey);
typedef CK_RV (*CK_C_DecapsulateKey)(CK_SESSION_HANDLE hSession,
                                     CK_MECHANISM_PTR pMechanism,
                                     CK_OBJECT_HANDLE hPrivateKey,
                                     CK_ATTRIBUTE_PTR pTemplate,
                                     CK_ULONG ulAttributeCount,
                                     CK_BYTE_PTR pCiphertext,
                                     CK_ULONG ulCiphertextLen,
                                     CK_OBJECT_HANDLE_PTR phKey);
typedef CK_RV (*CK_C_VerifySignatureInit)(CK_SESSION_HANDLE hSession,
                                          CK_MECHANISM_PTR pMechanism,
                                          CK_OBJECT_HANDLE hKey,
                                          CK_BYTE_PTR pSignature,
                                          CK_ULONG ulSignatureLen);
typedef CK_RV (*CK_C_VerifySignature)(CK_SESSION_HANDLE hSession,
                                      CK_BYTE_PTR pData, CK_ULONG ulDataLen);
typedef CK_RV (*CK_C_VerifySignatureUpdate)(CK_SESSION_HANDLE hSession,
                                            CK_BYTE_PTR pPart, CK_ULONG ulPartLen);
typedef CK_RV (*CK_C_VerifySignatureFinal)(CK_SESSION_HANDLE hSession);
typedef CK_RV (*CK_C_GetSessionValidationFlags)(CK_SESSION_HANDLE hSession,
                                                CK_SESSION_VALIDATION_FLAGS_TYPE type,
                                                CK_FLAGS *pFlags);
typedef CK_RV (*CK_C_AsyncComplete)(CK_SESSION_HANDLE hSession,
                                    CK_UTF8CHAR_PTR pFunctionName,
                                    CK_ASYNC_DATA_PTR pResult);
typedef CK_RV (*CK_C_AsyncGetID)(CK_SESSION_HANDLE hSession,
                                 CK_UTF8CHAR_PTR pFunctionName, CK_ULONG_PTR pulID);
typedef CK_RV (*CK_C_AsyncJoin)(CK_SESSION_HANDLE hSession,
                                CK_UTF8CHAR_PTR pFunctionName, CK_ULONG ulID,
                                CK_BYTE_PTR pData, CK_ULONG ulData);
typedef CK_RV (*CK_C_WrapKeyAuthenticated)(CK_SESSION_HANDLE hSession,
                                           CK_MECHANISM_PTR pMechanism,
                                           CK_OBJECT_HANDLE hWrappingKey,
                                           CK_OBJECT_HANDLE hKey,
                                           CK_BYTE_PTR pAssociatedData,
                                           CK_ULONG ulAssociatedDataLen,
                                           CK_BYTE_PTR pWrappedKey,
                                           CK_ULONG_PTR pulWrappedKeyLen);
typedef CK_RV (*CK_C_UnwrapKeyAuthenticated)(CK_SESSION_HANDLE hSession,
                                             CK_MECHANISM_PTR pMechanism,
                                             CK_OBJECT_HANDLE hUnwrappingKey,
                                             CK_BYTE_PTR pWrappedKey,
                                             CK_ULONG ulWrappedKeyLen,
                                             CK_ATTRIBUTE_PTR pTemplate,
                                             CK_ULONG ulAttributeCount,
                                             CK_BYTE_PTR pAssociatedData,
                                             CK_ULONG ulAssociatedDataLen,
                                             CK_OBJECT_HANDLE_PTR phKey);

/* The 3.0 list's members, in order, then these. */
typedef struct CK_FUNCTION_LIST_3_2 {
	CK_FUNCTION_LIST_3_0 v30;
	CK_C_EncapsulateKey C_EncapsulateKey;
	CK_C_DecapsulateKey C_DecapsulateKey;
	CK_C_VerifySignatureInit C_VerifySignatureInit;
	CK_C_VerifySignature C_VerifySignature;
	CK_C_VerifySignatureUpdate C_VerifySignatureUpdate;
	CK_C_VerifySignatureFinal C_VerifySignatureFinal;
	CK_C_GetSessionValidationFlags C_GetSessionValidationFlags;
	CK_C_AsyncComplete C_AsyncComplete;
	CK_C_AsyncGetID C_AsyncGetID;
	CK_C_AsyncJoin C_AsyncJoin;
	CK_C_WrapKeyAuthenticated C_WrapKeyAuthenticated;
	CK_C_UnwrapKeyAuthenticated C_UnwrapKeyAuthenticated;
} CK_FUNCTION_LIST_3_2;
typedef CK_FUNCTION_LIST_3_2 *CK_FUNCTION_LIST_3_2_PTR;

/* ---- 3.0 mechanisms and parameters the token offers ---- */
/* CKM_SHA3_*, CKM_AES_KEY_WRAP_KWP and CKM_HKDF_*: token/tk.h (the
 * token layer's mechanism table names them) */
#ifndef CKK_HKDF
#define CKK_HKDF                  0x00000042UL
#endif
#ifndef CKF_HKDF_SALT_NULL
#define CKF_HKDF_SALT_NULL        0x00000001UL
#define CKF_HKDF_SALT_DATA        0x00000002UL
#define CKF_HKDF_SALT_KEY         0x00000004UL
typedef struct CK_HKDF_PARAMS {
	CK_BBOOL bExtract;
	CK_BBOOL bExpand;
	CK_MECHANISM_TYPE prfHashMechanism;
	CK_ULONG ulSaltType;
	CK_BYTE_PTR pSalt;
	CK_ULONG ulSaltLen;
	CK_OBJECT_HANDLE hSaltKey;
	CK_BYTE_PTR pInfo;
	CK_ULONG ulInfoLen;
} CK_HKDF_PARAMS;
typedef CK_HKDF_PARAMS *CK_HKDF_PARAMS_PTR;
#endif

#endif /* PK_PKCS11_3_H */
