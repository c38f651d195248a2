/*
 * pk_async.c - PKCS#11 3.2 asynchronous sessions: C_AsyncComplete,
 * C_AsyncGetID, C_AsyncJoin.
 *
 * A session opened with CKF_ASYNC_SESSION may answer CKR_PENDING to a
 * single-part C_Encrypt, C_Decrypt, C_Digest, C_Sign, C_Verify and
 * C_VerifySignature (every
 * mechanism family; a message that fits one vault request, an output
 * buffer large enough for any answer; token/tk_async.c): the request is
 * in the vault and the caller's output buffer must stay valid.
 * C_AsyncComplete with that function's name answers CKR_PENDING until it
 * completes, then the call's own answer, pResult->pValue the output
 * buffer and pResult->ulValue the output's length (C_Verify,
 * C_VerifySignature: NULL and 0, the answer is the CK_RV).  Every other call, in any
 * session, completes before it returns.  Pending calls do not outlive
 * their session (closing it waits for them) or C_Finalize, so
 * C_AsyncGetID answers CKR_STATE_UNSAVEABLE and C_AsyncJoin
 * CKR_SAVED_STATE_INVALID.
 */
#include "pkcs11/pk_int.h"
#include "token/tk_crypto.h"

CK_RV C_AsyncComplete(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR fn, CK_ASYNC_DATA_PTR res)
{
	uint8_t *out = NULL;
	CK_ULONG len = 0;
	CK_RV rv;

	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, fn != NULL && res != NULL);
	rv = tk_async_complete(h, (const char *)fn, &out, &len);
	if (rv != CKR_PENDING && rv != CKR_OPERATION_NOT_INITIALIZED &&
	    rv != CKR_SESSION_HANDLE_INVALID) {
		res->pValue = out;
		res->ulValue = len;
	}
	return rv;
}

CK_RV C_AsyncGetID(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR fn, CK_ULONG_PTR id)
{
	CK_RV rv;

	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, fn != NULL && id != NULL);
	rv = tk_async_pending(h, (const char *)fn);
	return rv == CKR_OK ? CKR_STATE_UNSAVEABLE : rv;
}

CK_RV C_AsyncJoin(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR fn, CK_ULONG id,
                  CK_BYTE_PTR data, CK_ULONG len)
{
	(void)id;
	(void)data;
	(void)len;
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(fn != NULL);
	return CKR_SAVED_STATE_INVALID;     /* no ID is ever handed out */
}
