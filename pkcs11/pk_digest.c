/*
 * pk_digest.c - message digests: C_DigestInit, C_Digest, C_DigestUpdate,
 * C_DigestKey, C_DigestFinal, and the operation state of a digest
 * (C_GetOperationState / C_SetOperationState; other operations are
 * CKR_STATE_UNSAVEABLE).
 */
#include "pkcs11/pk_mech.h"

CK_RV C_DigestInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m)
{
	tk_mech tm;
	CK_RV rv;

	PK_CHECK_INIT();
	if (m == NULL)                          /* 3.0: end the active one */
		return tk_op_cancel(h, TK_OPK_DIGEST);
	rv = pk_mech_decode(m, CKF_DIGEST, &tm);
	if (rv != CKR_OK)
		return pk_op_refuse(h, TK_OPK_DIGEST, rv);
	return tk_op_init(h, TK_OPK_DIGEST, &tm, CK_INVALID_HANDLE, NULL, 0);
}

CK_RV C_Digest(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
               CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, (in != NULL || inl == 0) && outl != NULL);
	return tk_op_oneshot(h, TK_OPK_DIGEST, in, inl, out, outl);
}

CK_RV C_DigestUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, in != NULL || inl == 0);
	return tk_op_update(h, TK_OPK_DIGEST, in, inl, NULL, NULL);
}

CK_RV C_DigestKey(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE k)
{
	PK_CHECK_INIT();
	return tk_op_digest_key(h, k);
}

CK_RV C_DigestFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, outl != NULL);
	return tk_op_final(h, TK_OPK_DIGEST, out, outl);
}

CK_RV pk_op_state_get(CK_SESSION_HANDLE h, CK_BYTE_PTR state, CK_ULONG_PTR len)
{
	return tk_op_get_state(h, state, len);
}

CK_RV pk_op_state_set(CK_SESSION_HANDLE h, CK_BYTE_PTR state, CK_ULONG len,
                      CK_OBJECT_HANDLE enc_key, CK_OBJECT_HANDLE auth_key)
{
	CK_MECHANISM m = { 0, NULL, 0 };
	tk_mech tm;
	CK_RV rv;

	if (enc_key != CK_INVALID_HANDLE || auth_key != CK_INVALID_HANDLE)
		return CKR_KEY_NOT_NEEDED;
	rv = tk_op_state_mech(state, len, &m.mechanism);
	if (rv != CKR_OK)
		return rv;
	if (pk_mech_decode(&m, CKF_DIGEST, &tm) != CKR_OK)
		return CKR_SAVED_STATE_INVALID;
	return tk_op_set_state_mech(h, state, len, &tm);
}
