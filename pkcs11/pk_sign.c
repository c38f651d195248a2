/*
 * pk_sign.c - MACs through C_Sign / C_Verify (HMAC over every digest,
 * AES-CMAC), single and multi-part.  Sign/verify with recovery is not
 * offered (no mechanism has it).
 */
#include "pkcs11/pk_mech.h"
#include "token/tk_pk.h"

CK_RV C_SignInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{
	return pk_op_init(h, m, k, TK_OPK_SIGN, CKF_SIGN);
}

CK_RV C_Sign(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
             CK_BYTE_PTR sig, CK_ULONG_PTR sigl)
{
	return pk_op_oneshot(h, TK_OPK_SIGN, in, inl, sig, sigl);
}

CK_RV C_SignUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, in != NULL || inl == 0);
	if (tk_pk_active(h, TK_OPK_SIGN))
		return tk_pk_update(h, TK_OPK_SIGN, in, inl);
	return tk_op_update(h, TK_OPK_SIGN, in, inl, NULL, NULL);
}

CK_RV C_SignFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG_PTR sigl)
{
	return pk_op_final(h, TK_OPK_SIGN, sig, sigl);
}

CK_RV C_SignRecoverInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                        CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_SignRecover(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                    CK_BYTE_PTR sig, CK_ULONG_PTR sigl)
{ (void)in; (void)inl; (void)sig; (void)sigl; PK_STUB_OP(h); }

CK_RV C_VerifyInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{
	return pk_op_init(h, m, k, TK_OPK_VERIFY, CKF_VERIFY);
}

CK_RV C_Verify(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
               CK_BYTE_PTR sig, CK_ULONG sigl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, (in != NULL || inl == 0) && (sig != NULL || sigl == 0));
	if (tk_pk_active(h, TK_OPK_VERIFY))
		return tk_pk_verify(h, in, inl, sig, sigl, 0);
	return tk_op_verify(h, in, inl, sig, sigl, 0);
}

CK_RV C_VerifyUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, in != NULL || inl == 0);
	if (tk_pk_active(h, TK_OPK_VERIFY))
		return tk_pk_update(h, TK_OPK_VERIFY, in, inl);
	return tk_op_update(h, TK_OPK_VERIFY, in, inl, NULL, NULL);
}

CK_RV C_VerifyFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG sigl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, sig != NULL || sigl == 0);
	if (tk_pk_active(h, TK_OPK_VERIFY))
		return tk_pk_verify(h, NULL, 0, sig, sigl, 1);
	return tk_op_verify(h, NULL, 0, sig, sigl, 1);
}

CK_RV C_VerifyRecoverInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                          CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_VerifyRecover(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG sigl,
                      CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)sig; (void)sigl; (void)out; (void)outl; PK_STUB_OP(h); }
