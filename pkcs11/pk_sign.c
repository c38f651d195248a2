/*
 * pk_sign.c - signatures and MACs through C_Sign / C_Verify (HMAC over
 * every digest, AES-CMAC; the public-key mechanisms via token/tk_pk.c),
 * single and multi-part, and PKCS#11 3.2's signature-first verification
 * (C_VerifySignatureInit with the signature, then C_VerifySignature or
 * _Update + _Final): the same verify operation, its style kept by the
 * token (TK_OPK_VERIFY_SIG).  Sign/verify with recovery is not offered
 * (no mechanism has it).
 */
#include "pkcs11/pk_mech.h"
#include "token/tk_pk.h"

CK_RV C_SignInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{
	return pk_op_init(h, m, k, TK_OPK_SIGN, CKF_SIGN, NULL, 0);
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

/* A verification of either style (kind TK_OPK_VERIFY or _VERIFY_SIG):
 * single part over in, or final over what the updates gave; sig is
 * C_Verify's / C_VerifyFinal's (the token holds a _VERIFY_SIG one's). */
static CK_RV pk_verify(CK_SESSION_HANDLE h, int kind, CK_BYTE_PTR in, CK_ULONG inl,
                       CK_BYTE_PTR sig, CK_ULONG sigl, int final)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, (in != NULL || inl == 0) && (sig != NULL || sigl == 0));
	if (tk_pk_active(h, kind))
		return tk_pk_verify(h, kind, in, inl, sig, sigl, final);
	return tk_op_verify(h, kind, in, inl, sig, sigl, final);
}

static CK_RV pk_verify_update(CK_SESSION_HANDLE h, int kind, CK_BYTE_PTR in, CK_ULONG inl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, in != NULL || inl == 0);
	if (tk_pk_active(h, kind))
		return tk_pk_update(h, kind, in, inl);
	return tk_op_update(h, kind, in, inl, NULL, NULL);
}

CK_RV C_VerifyInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{
	return pk_op_init(h, m, k, TK_OPK_VERIFY, CKF_VERIFY, NULL, 0);
}

CK_RV C_Verify(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
               CK_BYTE_PTR sig, CK_ULONG sigl)
{
	return pk_verify(h, TK_OPK_VERIFY, in, inl, sig, sigl, 0);
}

CK_RV C_VerifyUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{
	return pk_verify_update(h, TK_OPK_VERIFY, in, inl);
}

CK_RV C_VerifyFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG sigl)
{
	return pk_verify(h, TK_OPK_VERIFY, NULL, 0, sig, sigl, 1);
}

CK_RV C_VerifySignatureInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k,
                            CK_BYTE_PTR sig, CK_ULONG sigl)
{
	return pk_op_init(h, m, k, TK_OPK_VERIFY_SIG, CKF_VERIFY, sig, sigl);
}

CK_RV C_VerifySignature(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{
	return pk_verify(h, TK_OPK_VERIFY_SIG, in, inl, NULL, 0, 0);
}

CK_RV C_VerifySignatureUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl)
{
	return pk_verify_update(h, TK_OPK_VERIFY_SIG, in, inl);
}

CK_RV C_VerifySignatureFinal(CK_SESSION_HANDLE h)
{
	return pk_verify(h, TK_OPK_VERIFY_SIG, NULL, 0, NULL, 0, 1);
}

CK_RV C_VerifyRecoverInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m,
                          CK_OBJECT_HANDLE k)
{ (void)k; PK_STUB_INIT(h, m); }
CK_RV C_VerifyRecover(CK_SESSION_HANDLE h, CK_BYTE_PTR sig, CK_ULONG sigl,
                      CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)sig; (void)sigl; (void)out; (void)outl; PK_STUB_OP(h); }
