/*
 * pk_int.h - internals of the PKCS#11 shell: precondition macros and the
 * function-list prototypes of the 3.0 and 3.2 entry points.
 *
 * Every C_* function is a thin shell: check initialisation (and the fork
 * pid) on its way into the module, check pointer arguments, call the
 * token layer (token/tk.h).
 */
#ifndef PK_INT_H
#define PK_INT_H

#include "pkcs11/pk_pkcs11_3.h"
#include "token/tk.h"

#define PK_EXPORT __attribute__((visibility("default")))

static inline void pk_leave(const int *in)
{
	if (*in)
		tk_leave();
}

/* Initialised in this process (a forked child is not until its own
 * C_Initialize), and the call counted in flight until the function that
 * says this returns (the cleanup attribute runs tk_leave on every return
 * path): C_Finalize waits for it before it frees anything.  Once per
 * C_* function, at its top level, before anything that touches the
 * token's state; a helper that checks it for its caller would let the
 * caller go on uncounted. */
#define PK_CHECK_INIT() \
	int pk_in_ __attribute__((cleanup(pk_leave))) = tk_enter(); \
	if (!pk_in_) \
		return CKR_CRYPTOKI_NOT_INITIALIZED

#define PK_CHECK_ARG(cond) do { \
	if (!(cond)) \
		return CKR_ARGUMENTS_BAD; \
} while (0)

/* A valid session is needed before any other answer. */
#define PK_CHECK_SESSION(h) do { \
	CK_RV pk_rv_ = tk_session_check(h); \
	if (pk_rv_ != CKR_OK) \
		return pk_rv_; \
} while (0)

/* A pointer check in a call whose token function looks the session up
 * anyway (tk_op_*, tk_pk_*): an invalid session still comes first, but a
 * good call takes the token's lock once fewer. */
#define PK_CHECK_ARG_SESSION(h, cond) do { \
	if (!(cond)) { \
		PK_CHECK_SESSION(h); \
		return CKR_ARGUMENTS_BAD; \
	} \
} while (0)

/* Crypto entry points until their family is implemented: an Init call
 * names a mechanism that is not in the (empty) mechanism table, any other
 * call finds no active operation. */
#define PK_STUB_INIT(h, mech) do { \
	PK_CHECK_INIT(); \
	PK_CHECK_SESSION(h); \
	PK_CHECK_ARG((mech) != NULL); \
	return CKR_MECHANISM_INVALID; \
} while (0)

#define PK_STUB_OP(h) do { \
	PK_CHECK_INIT(); \
	PK_CHECK_SESSION(h); \
	return CKR_OPERATION_NOT_INITIALIZED; \
} while (0)

/* 3.x functions not offered. */
#define PK_STUB_30(h) do { \
	PK_CHECK_INIT(); \
	PK_CHECK_SESSION(h); \
	return CKR_FUNCTION_NOT_SUPPORTED; \
} while (0)

/* 3.0 entry points (pk_general.c, pk_session.c, pk_message.c) */
CK_RV C_GetInterfaceList(CK_INTERFACE_PTR list, CK_ULONG_PTR count);
CK_RV C_GetInterface(CK_UTF8CHAR_PTR name, CK_VERSION_PTR version,
                     CK_INTERFACE_PTR_PTR iface, CK_FLAGS flags);
CK_RV C_LoginUser(CK_SESSION_HANDLE h, CK_USER_TYPE who, CK_UTF8CHAR_PTR pin,
                  CK_ULONG pin_len, CK_UTF8CHAR_PTR user, CK_ULONG user_len);
CK_RV C_SessionCancel(CK_SESSION_HANDLE h, CK_FLAGS flags);
CK_RV C_MessageEncryptInit(CK_SESSION_HANDLE, CK_MECHANISM_PTR, CK_OBJECT_HANDLE);
CK_RV C_EncryptMessage(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG, CK_BYTE_PTR,
                       CK_ULONG, CK_BYTE_PTR, CK_ULONG, CK_BYTE_PTR,
                       CK_ULONG_PTR);
CK_RV C_EncryptMessageBegin(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG,
                            CK_BYTE_PTR, CK_ULONG);
CK_RV C_EncryptMessageNext(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG,
                           CK_BYTE_PTR, CK_ULONG, CK_BYTE_PTR, CK_ULONG_PTR,
                           CK_FLAGS);
CK_RV C_MessageEncryptFinal(CK_SESSION_HANDLE);
CK_RV C_MessageDecryptInit(CK_SESSION_HANDLE, CK_MECHANISM_PTR, CK_OBJECT_HANDLE);
CK_RV C_DecryptMessage(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG, CK_BYTE_PTR,
                       CK_ULONG, CK_BYTE_PTR, CK_ULONG, CK_BYTE_PTR,
                       CK_ULONG_PTR);
CK_RV C_DecryptMessageBegin(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG,
                            CK_BYTE_PTR, CK_ULONG);
CK_RV C_DecryptMessageNext(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG,
                           CK_BYTE_PTR, CK_ULONG, CK_BYTE_PTR, CK_ULONG_PTR,
                           CK_FLAGS);
CK_RV C_MessageDecryptFinal(CK_SESSION_HANDLE);
CK_RV C_MessageSignInit(CK_SESSION_HANDLE, CK_MECHANISM_PTR, CK_OBJECT_HANDLE);
CK_RV C_SignMessage(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG, CK_BYTE_PTR,
                    CK_ULONG, CK_BYTE_PTR, CK_ULONG_PTR);
CK_RV C_SignMessageBegin(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG);
CK_RV C_SignMessageNext(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG, CK_BYTE_PTR,
                        CK_ULONG, CK_BYTE_PTR, CK_ULONG_PTR);
CK_RV C_MessageSignFinal(CK_SESSION_HANDLE);
CK_RV C_MessageVerifyInit(CK_SESSION_HANDLE, CK_MECHANISM_PTR, CK_OBJECT_HANDLE);
CK_RV C_VerifyMessage(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG, CK_BYTE_PTR,
                      CK_ULONG, CK_BYTE_PTR, CK_ULONG);
CK_RV C_VerifyMessageBegin(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG);
CK_RV C_VerifyMessageNext(CK_SESSION_HANDLE, CK_VOID_PTR, CK_ULONG,
                          CK_BYTE_PTR, CK_ULONG, CK_BYTE_PTR, CK_ULONG);
CK_RV C_MessageVerifyFinal(CK_SESSION_HANDLE);

/* 3.2 entry points (pk_async.c, pk_sign.c; the rest of 3.2, not offered:
 * pk_general.c) */
CK_RV C_VerifySignatureInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k,
                            CK_BYTE_PTR sig, CK_ULONG sigl);
CK_RV C_VerifySignature(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl);
CK_RV C_VerifySignatureUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl);
CK_RV C_VerifySignatureFinal(CK_SESSION_HANDLE h);
CK_RV C_AsyncComplete(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR fn, CK_ASYNC_DATA_PTR res);
CK_RV C_AsyncGetID(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR fn, CK_ULONG_PTR id);
CK_RV C_AsyncJoin(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR fn, CK_ULONG id,
                  CK_BYTE_PTR data, CK_ULONG len);

#endif /* PK_INT_H */
