/*
 * pk_mech.h - the mechanism table (pk_mech.c): what C_GetMechanismList and
 * C_GetMechanismInfo report, and the decoding of a CK_MECHANISM (with its
 * parameter checks) into the token layer's tk_mech.
 */
#ifndef PK_MECH_H
#define PK_MECH_H

#include "pkcs11/pk_int.h"
#include "token/tk_crypto.h"

/* use: one CKF_ENCRYPT / DECRYPT / DIGEST / SIGN / VERIFY / GENERATE /
 * WRAP / UNWRAP / DERIVE.  CKR_MECHANISM_INVALID if the mechanism is
 * unknown or does not do that; CKR_MECHANISM_PARAM_INVALID for a bad
 * parameter. */
CK_RV pk_mech_decode(const CK_MECHANISM *m, CK_FLAGS use, tk_mech *out);
CK_RV pk_mech_list(CK_MECHANISM_TYPE *list, CK_ULONG *count);
CK_RV pk_mech_info(CK_MECHANISM_TYPE type, CK_MECHANISM_INFO *info);

/* The init / one-call / final steps shared by the encrypt, decrypt and
 * sign families (pk_encrypt.c): public-key mechanisms go to token/tk_pk.c,
 * the others to the symmetric operations of token/tk_crypto.c.  sig: the
 * signature of a TK_OPK_VERIFY_SIG Init (NULL and 0 otherwise).  m NULL
 * ends the session's operation of this kind (PKCS#11 3.0, tk_op_cancel). */
CK_RV pk_op_init(CK_SESSION_HANDLE h, CK_MECHANISM_PTR m, CK_OBJECT_HANDLE k,
                 int kind, CK_FLAGS use, CK_BYTE_PTR sig, CK_ULONG sigl);
CK_RV pk_op_oneshot(CK_SESSION_HANDLE h, int kind, CK_BYTE_PTR in, CK_ULONG inl,
                    CK_BYTE_PTR out, CK_ULONG_PTR outl);
CK_RV pk_op_final(CK_SESSION_HANDLE h, int kind, CK_BYTE_PTR out, CK_ULONG_PTR outl);
/* An init refused before the token was asked (rv, e.g. a bad mechanism):
 * the session's own answers (an invalid handle, an operation of this kind
 * already active) come first. */
CK_RV pk_op_refuse(CK_SESSION_HANDLE h, int kind, CK_RV rv);

/* C_GetOperationState / C_SetOperationState (pk_digest.c). */
CK_RV pk_op_state_get(CK_SESSION_HANDLE h, CK_BYTE_PTR state, CK_ULONG_PTR len);
CK_RV pk_op_state_set(CK_SESSION_HANDLE h, CK_BYTE_PTR state, CK_ULONG len,
                      CK_OBJECT_HANDLE enc_key, CK_OBJECT_HANDLE auth_key);

#endif
