/*
 * pk_general.c - general-purpose functions and the interfaces:
 * C_Initialize, C_Finalize, C_GetInfo, C_GetFunctionList,
 * C_GetInterfaceList, C_GetInterface, C_GetFunctionStatus,
 * C_CancelFunction.
 *
 * Interfaces offered: "PKCS 11" 3.0 (first, the default), "PKCS 11" 3.2
 * (3.0's functions, then 3.2's: the async ones of pk_async.c, the others
 * not offered) and "PKCS 11" 2.40.  CKF_INTERFACE_FORK_SAFE is not advertised: a forked child must
 * call C_Initialize again.
 */
#include <string.h>

#include "pkcs11/pk_int.h"
#include "pkcs11/pk_mech.h"

static void pk_pad(CK_UTF8CHAR *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	memset(dst, ' ', cap);
	memcpy(dst, src, n < cap ? n : cap);
}

CK_RV C_Initialize(CK_VOID_PTR init_args)
{
	CK_C_INITIALIZE_ARGS *a = init_args;
	tk_mutex_ops ops;
	int have, no_threads;

	if (a == NULL)
		return tk_initialize(NULL, 0);
	if (a->pReserved != NULL)
		return CKR_ARGUMENTS_BAD;
	have = (a->CreateMutex != NULL) + (a->DestroyMutex != NULL) +
	       (a->LockMutex != NULL) + (a->UnlockMutex != NULL);
	if (have != 0 && have != 4)
		return CKR_ARGUMENTS_BAD;
	/* CKF_LIBRARY_CANT_CREATE_OS_THREADS: in daemon mode the module creates
	 * no threads anyway; in embedded mode the vault then runs on the CPU
	 * backend without workers, each request in the calling thread. */
	no_threads = (a->flags & CKF_LIBRARY_CANT_CREATE_OS_THREADS) != 0;
	if (have == 4 && !(a->flags & CKF_OS_LOCKING_OK)) {
		ops.create = a->CreateMutex;
		ops.destroy = a->DestroyMutex;
		ops.lock = a->LockMutex;
		ops.unlock = a->UnlockMutex;
		return tk_initialize(&ops, no_threads);
	}
	/* OS locking allowed (with or without callbacks), or the application
	 * promised a single thread: the module's own pthread mutexes. */
	return tk_initialize(NULL, no_threads);
}

/* Not a call in flight itself: tk_finalize waits for those. */
CK_RV C_Finalize(CK_VOID_PTR reserved)
{
	if (reserved != NULL) {
		PK_CHECK_INIT();
		return CKR_ARGUMENTS_BAD;
	}
	return tk_finalize();
}

static CK_RV pk_get_info(CK_INFO_PTR info, CK_BYTE major, CK_BYTE minor)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG(info != NULL);
	memset(info, 0, sizeof *info);
	info->cryptokiVersion.major = major;
	info->cryptokiVersion.minor = minor;
	pk_pad(info->manufacturerID, sizeof info->manufacturerID, "PixelVault");
	pk_pad(info->libraryDescription, sizeof info->libraryDescription,
	       "PixelVault PKCS#11 module");
	info->flags = 0;
	info->libraryVersion.major = 0;
	info->libraryVersion.minor = 1;
	return CKR_OK;
}

CK_RV C_GetInfo(CK_INFO_PTR info)
{
	return pk_get_info(info, 2, 40);
}

static CK_RV pk_get_info_30(CK_INFO_PTR info)
{
	return pk_get_info(info, 3, 0);
}

static CK_RV pk_get_info_32(CK_INFO_PTR info)
{
	return pk_get_info(info, 3, 2);
}

CK_RV C_GetFunctionStatus(CK_SESSION_HANDLE h)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	return CKR_FUNCTION_NOT_PARALLEL;
}

CK_RV C_CancelFunction(CK_SESSION_HANDLE h)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	return CKR_FUNCTION_NOT_PARALLEL;
}

#define PK_FUNCS_240(getinfo) \
	.C_Initialize = C_Initialize, \
	.C_Finalize = C_Finalize, \
	.C_GetInfo = getinfo, \
	.C_GetFunctionList = C_GetFunctionList, \
	.C_GetSlotList = C_GetSlotList, \
	.C_GetSlotInfo = C_GetSlotInfo, \
	.C_GetTokenInfo = C_GetTokenInfo, \
	.C_GetMechanismList = C_GetMechanismList, \
	.C_GetMechanismInfo = C_GetMechanismInfo, \
	.C_InitToken = C_InitToken, \
	.C_InitPIN = C_InitPIN, \
	.C_SetPIN = C_SetPIN, \
	.C_OpenSession = C_OpenSession, \
	.C_CloseSession = C_CloseSession, \
	.C_CloseAllSessions = C_CloseAllSessions, \
	.C_GetSessionInfo = C_GetSessionInfo, \
	.C_GetOperationState = C_GetOperationState, \
	.C_SetOperationState = C_SetOperationState, \
	.C_Login = C_Login, \
	.C_Logout = C_Logout, \
	.C_CreateObject = C_CreateObject, \
	.C_CopyObject = C_CopyObject, \
	.C_DestroyObject = C_DestroyObject, \
	.C_GetObjectSize = C_GetObjectSize, \
	.C_GetAttributeValue = C_GetAttributeValue, \
	.C_SetAttributeValue = C_SetAttributeValue, \
	.C_FindObjectsInit = C_FindObjectsInit, \
	.C_FindObjects = C_FindObjects, \
	.C_FindObjectsFinal = C_FindObjectsFinal, \
	.C_EncryptInit = C_EncryptInit, \
	.C_Encrypt = C_Encrypt, \
	.C_EncryptUpdate = C_EncryptUpdate, \
	.C_EncryptFinal = C_EncryptFinal, \
	.C_DecryptInit = C_DecryptInit, \
	.C_Decrypt = C_Decrypt, \
	.C_DecryptUpdate = C_DecryptUpdate, \
	.C_DecryptFinal = C_DecryptFinal, \
	.C_DigestInit = C_DigestInit, \
	.C_Digest = C_Digest, \
	.C_DigestUpdate = C_DigestUpdate, \
	.C_DigestKey = C_DigestKey, \
	.C_DigestFinal = C_DigestFinal, \
	.C_SignInit = C_SignInit, \
	.C_Sign = C_Sign, \
	.C_SignUpdate = C_SignUpdate, \
	.C_SignFinal = C_SignFinal, \
	.C_SignRecoverInit = C_SignRecoverInit, \
	.C_SignRecover = C_SignRecover, \
	.C_VerifyInit = C_VerifyInit, \
	.C_Verify = C_Verify, \
	.C_VerifyUpdate = C_VerifyUpdate, \
	.C_VerifyFinal = C_VerifyFinal, \
	.C_VerifyRecoverInit = C_VerifyRecoverInit, \
	.C_VerifyRecover = C_VerifyRecover, \
	.C_DigestEncryptUpdate = C_DigestEncryptUpdate, \
	.C_DecryptDigestUpdate = C_DecryptDigestUpdate, \
	.C_SignEncryptUpdate = C_SignEncryptUpdate, \
	.C_DecryptVerifyUpdate = C_DecryptVerifyUpdate, \
	.C_GenerateKey = C_GenerateKey, \
	.C_GenerateKeyPair = C_GenerateKeyPair, \
	.C_WrapKey = C_WrapKey, \
	.C_UnwrapKey = C_UnwrapKey, \
	.C_DeriveKey = C_DeriveKey, \
	.C_SeedRandom = C_SeedRandom, \
	.C_GenerateRandom = C_GenerateRandom, \
	.C_GetFunctionStatus = C_GetFunctionStatus, \
	.C_CancelFunction = C_CancelFunction, \
	.C_WaitForSlotEvent = C_WaitForSlotEvent

static CK_FUNCTION_LIST pk_list_240 = {
	.version = { 2, 40 },
	PK_FUNCS_240(C_GetInfo),
};

#define PK_FUNCS_30 \
	.C_GetInterfaceList = C_GetInterfaceList, \
	.C_GetInterface = C_GetInterface, \
	.C_LoginUser = C_LoginUser, \
	.C_SessionCancel = C_SessionCancel, \
	.C_MessageEncryptInit = C_MessageEncryptInit, \
	.C_EncryptMessage = C_EncryptMessage, \
	.C_EncryptMessageBegin = C_EncryptMessageBegin, \
	.C_EncryptMessageNext = C_EncryptMessageNext, \
	.C_MessageEncryptFinal = C_MessageEncryptFinal, \
	.C_MessageDecryptInit = C_MessageDecryptInit, \
	.C_DecryptMessage = C_DecryptMessage, \
	.C_DecryptMessageBegin = C_DecryptMessageBegin, \
	.C_DecryptMessageNext = C_DecryptMessageNext, \
	.C_MessageDecryptFinal = C_MessageDecryptFinal, \
	.C_MessageSignInit = C_MessageSignInit, \
	.C_SignMessage = C_SignMessage, \
	.C_SignMessageBegin = C_SignMessageBegin, \
	.C_SignMessageNext = C_SignMessageNext, \
	.C_MessageSignFinal = C_MessageSignFinal, \
	.C_MessageVerifyInit = C_MessageVerifyInit, \
	.C_VerifyMessage = C_VerifyMessage, \
	.C_VerifyMessageBegin = C_VerifyMessageBegin, \
	.C_VerifyMessageNext = C_VerifyMessageNext, \
	.C_MessageVerifyFinal = C_MessageVerifyFinal

static CK_FUNCTION_LIST_3_0 pk_list_30 = {
	.version = { 3, 0 },
	PK_FUNCS_240(pk_get_info_30),
	PK_FUNCS_30,
};

/* 3.2 functions other than the async ones (pk_async.c).  No mechanism of
 * the token encapsulates keys or wraps them with associated data, so those
 * four answer CKR_MECHANISM_INVALID to any mechanism, as an Init does for
 * a mechanism the table lacks.  The module is not in a validated mode, so
 * the last operation's validation flags are 0.  Signature-first
 * verification (C_VerifySignature*) is pk_sign.c's. */
static CK_RV pk_encapsulate(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k,
                            CK_ATTRIBUTE_PTR t, CK_ULONG n, CK_BYTE_PTR ct,
                            CK_ULONG_PTR ctl, CK_OBJECT_HANDLE_PTR out)
{ (void)k; (void)t; (void)n; (void)ct; (void)ctl; (void)out; PK_STUB_INIT(h, m); }
static CK_RV pk_decapsulate(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k,
                            CK_ATTRIBUTE_PTR t, CK_ULONG n, CK_BYTE_PTR ct,
                            CK_ULONG ctl, CK_OBJECT_HANDLE_PTR out)
{ (void)k; (void)t; (void)n; (void)ct; (void)ctl; (void)out; PK_STUB_INIT(h, m); }
static CK_RV pk_validation_flags(CK_SESSION_HANDLE h, CK_SESSION_VALIDATION_FLAGS_TYPE t,
                                 CK_FLAGS *f)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(f != NULL && t == CKS_LAST_VALIDATION_OK);
	*f = 0;                        /* no validation authority accepted it */
	return CKR_OK;
}
static CK_RV pk_wrap_auth(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE wk,
                          CK_OBJECT_HANDLE k, CK_BYTE_PTR ad, CK_ULONG adl,
                          CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)wk; (void)k; (void)ad; (void)adl; (void)out; (void)outl; PK_STUB_INIT(h, m); }
static CK_RV pk_unwrap_auth(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE uk,
                            CK_BYTE_PTR in, CK_ULONG inl, CK_ATTRIBUTE_PTR t, CK_ULONG n,
                            CK_BYTE_PTR ad, CK_ULONG adl, CK_OBJECT_HANDLE_PTR out)
{ (void)uk; (void)in; (void)inl; (void)t; (void)n; (void)ad; (void)adl; (void)out; PK_STUB_INIT(h, m); }

static CK_FUNCTION_LIST_3_2 pk_list_32 = {
	.v30 = {
		.version = { 3, 2 },
		PK_FUNCS_240(pk_get_info_32),
		PK_FUNCS_30,
	},
	.C_EncapsulateKey = pk_encapsulate,
	.C_DecapsulateKey = pk_decapsulate,
	.C_VerifySignatureInit = C_VerifySignatureInit,
	.C_VerifySignature = C_VerifySignature,
	.C_VerifySignatureUpdate = C_VerifySignatureUpdate,
	.C_VerifySignatureFinal = C_VerifySignatureFinal,
	.C_GetSessionValidationFlags = pk_validation_flags,
	.C_AsyncComplete = C_AsyncComplete,
	.C_AsyncGetID = C_AsyncGetID,
	.C_AsyncJoin = C_AsyncJoin,
	.C_WrapKeyAuthenticated = pk_wrap_auth,
	.C_UnwrapKeyAuthenticated = pk_unwrap_auth,
};

static CK_CHAR pk_iface_name[] = "PKCS 11";

static CK_INTERFACE pk_ifaces[] = {
	{ pk_iface_name, &pk_list_30, 0 },
	{ pk_iface_name, &pk_list_32, 0 },
	{ pk_iface_name, &pk_list_240, 0 },
};

#define PK_NIFACES (sizeof pk_ifaces / sizeof pk_ifaces[0])

PK_EXPORT CK_RV C_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR list)
{
	PK_CHECK_ARG(list != NULL);
	*list = &pk_list_240;
	return CKR_OK;
}

PK_EXPORT CK_RV C_GetInterfaceList(CK_INTERFACE_PTR list, CK_ULONG_PTR count)
{
	CK_ULONG i;

	PK_CHECK_ARG(count != NULL);
	if (list == NULL) {
		*count = PK_NIFACES;
		return CKR_OK;
	}
	if (*count < PK_NIFACES) {
		*count = PK_NIFACES;
		return CKR_BUFFER_TOO_SMALL;
	}
	for (i = 0; i < PK_NIFACES; i++)
		list[i] = pk_ifaces[i];
	*count = PK_NIFACES;
	return CKR_OK;
}

PK_EXPORT CK_RV C_GetInterface(CK_UTF8CHAR_PTR name, CK_VERSION_PTR version,
                               CK_INTERFACE_PTR_PTR iface, CK_FLAGS flags)
{
	size_t i;

	PK_CHECK_ARG(iface != NULL);
	for (i = 0; i < PK_NIFACES; i++) {
		const CK_VERSION *v = pk_ifaces[i].pFunctionList;
		if (name != NULL &&
		    strcmp((const char *)name, (const char *)pk_ifaces[i].pInterfaceName))
			continue;
		if (version != NULL &&
		    (version->major != v->major || version->minor != v->minor))
			continue;
		if ((pk_ifaces[i].flags & flags) != flags)
			continue;
		*iface = &pk_ifaces[i];
		return CKR_OK;
	}
	return CKR_ARGUMENTS_BAD;
}
