/*
 * pk_encrypt.c - encryption and decryption, single and multi-part (AES and
 * SM4: ECB, CBC, CBC_PAD, CTR, CFB128, GCM; the public-key mechanisms via
 * token/tk_pk.c), and the init / one-call / final steps pk_sign.c shares.
 * The dual-function updates are not offered (CKR_FUNCTION_NOT_SUPPORTED).
 */
#include "pkcs11/pk_mech.h"
#include "token/tk_pk.h"

CK_RV pk_op_init(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k,
                 int kind, CK_FLAGS use, CK_BYTE_PTR sig, CK_ULONG sigl)
{
	tk_mech tm;
	CK_RV rv;

	PK_CHECK_INIT();
	if (m == NULL)                          /* 3.0: end the active one */
		return tk_op_cancel(h, kind);
	PK_CHECK_ARG_SESSION(h, sig != NULL || sigl == 0);
	if (tk_pk_mech(m->mechanism)) {        /* public key: token/tk_pk.c */
		rv = tk_op_idle(h, kind);
		return rv != CKR_OK ? rv : tk_pk_init(h, kind, m, k, sig, sigl);
	}
	rv = pk_mech_decode(m, use, &tm);
	if (rv != CKR_OK)
		return pk_op_refuse(h, kind, rv);
	return tk_op_init(h, kind, &tm, k, sig, sigl);
}

CK_RV pk_op_refuse(CK_SESSION_HANDLE h, int kind, CK_RV rv)
{
	CK_RV first = tk_op_idle(h, kind);   /* of either family */

	return first != CKR_OK ? first : rv;
}

CK_RV pk_op_oneshot(CK_SESSION_HANDLE h, int kind, CK_BYTE_PTR in, CK_ULONG inl,
                    CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, (in != NULL || inl == 0) && outl != NULL);
	if (tk_pk_active(h, kind))
		return tk_pk_oneshot(h, kind, in, inl, out, outl);
	return tk_op_oneshot(h, kind, in, inl, out, outl);
}

CK_RV pk_op_final(CK_SESSION_HANDLE h, int kind, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, outl != NULL);
	if (tk_pk_active(h, kind))
		return tk_pk_final(h, kind, out, outl);
	return tk_op_final(h, kind, out, outl);
}

CK_RV C_EncryptInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{
	return pk_op_init(h, m, k, TK_OPK_ENCRYPT, CKF_ENCRYPT, NULL, 0);
}

CK_RV C_Encrypt(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	return pk_op_oneshot(h, TK_OPK_ENCRYPT, in, inl, out, outl);
}

CK_RV C_EncryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                      CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, (in != NULL || inl == 0) && outl != NULL);
	if (tk_pk_active(h, TK_OPK_ENCRYPT))
		return CKR_FUNCTION_NOT_SUPPORTED;   /* single-part only */
	return tk_op_update(h, TK_OPK_ENCRYPT, in, inl, out, outl);
}

CK_RV C_EncryptFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	return pk_op_final(h, TK_OPK_ENCRYPT, out, outl);
}

CK_RV C_DecryptInit(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k)
{
	return pk_op_init(h, m, k, TK_OPK_DECRYPT, CKF_DECRYPT, NULL, 0);
}

CK_RV C_Decrypt(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	return pk_op_oneshot(h, TK_OPK_DECRYPT, in, inl, out, outl);
}

CK_RV C_DecryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                      CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG_SESSION(h, (in != NULL || inl == 0) && outl != NULL);
	if (tk_pk_active(h, TK_OPK_DECRYPT))
		return CKR_FUNCTION_NOT_SUPPORTED;   /* single-part only */
	return tk_op_update(h, TK_OPK_DECRYPT, in, inl, out, outl);
}

CK_RV C_DecryptFinal(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG_PTR outl)
{
	return pk_op_final(h, TK_OPK_DECRYPT, out, outl);
}

/* Dual-function updates: not offered. */
CK_RV C_DigestEncryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                            CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_30(h); }
CK_RV C_DecryptDigestUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                            CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_30(h); }
CK_RV C_SignEncryptUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                          CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_30(h); }
CK_RV C_DecryptVerifyUpdate(CK_SESSION_HANDLE h, CK_BYTE_PTR in, CK_ULONG inl,
                            CK_BYTE_PTR out, CK_ULONG_PTR outl)
{ (void)in; (void)inl; (void)out; (void)outl; PK_STUB_30(h); }
