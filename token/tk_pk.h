/*
 * tk_pk.h - public-key keys and operations in the token layer (wire4):
 * C_GenerateKeyPair (RSA, EC P-256/P-384, Ed25519, SM2) and the sign /
 * verify / encrypt / decrypt operations of the public-key mechanisms.
 *
 * pkcs11/ asks tk_pk_mech() first: if the mechanism is a public-key one it
 * calls these functions instead of the tk_op_* ones.  Operations keep the
 * whole input of multi-part calls and run one vault request at the end
 * (the vault hashes in the *_SHA*_ mechanisms).  Private keys live only as
 * vault blobs in the hidden TK_CKA_BLOB / TK_CKA_BLOB_ID attributes.
 */
#ifndef TK_PK_H
#define TK_PK_H

#include <stddef.h>
#include <stdint.h>

#include "token/tk.h"

/* 1 if ckm is a public-key mechanism handled by tk_pk (any use). */
int tk_pk_mech(CK_MECHANISM_TYPE ckm);
/* Mechanism list / info of the public-key mechanisms. */
CK_ULONG tk_pk_mech_list(CK_MECHANISM_TYPE *list, CK_ULONG cap);
CK_RV tk_pk_mech_info(CK_MECHANISM_TYPE ckm, CK_MECHANISM_INFO *info);

CK_RV tk_pk_generate(CK_SESSION_HANDLE h, const CK_MECHANISM *m,
                     const CK_ATTRIBUTE *pt, CK_ULONG pn,
                     const CK_ATTRIBUTE *st, CK_ULONG sn,
                     CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv);

/* kind: TK_OPK_ENCRYPT / DECRYPT / SIGN / VERIFY / VERIFY_SIG (tk_crypto.h;
 * sig only for VERIFY_SIG), as tk_op_init / tk_op_verify do. */
CK_RV tk_pk_init(CK_SESSION_HANDLE h, int kind, const CK_MECHANISM *m,
                 CK_OBJECT_HANDLE key, const uint8_t *sig, size_t sl);
int tk_pk_active(CK_SESSION_HANDLE h, int kind);
CK_RV tk_pk_oneshot(CK_SESSION_HANDLE h, int kind, const uint8_t *in,
                    size_t n, uint8_t *out, CK_ULONG *outl);
CK_RV tk_pk_update(CK_SESSION_HANDLE h, int kind, const uint8_t *in, size_t n);
CK_RV tk_pk_final(CK_SESSION_HANDLE h, int kind, uint8_t *out, CK_ULONG *outl);
CK_RV tk_pk_verify(CK_SESSION_HANDLE h, int kind, const uint8_t *in, size_t n,
                   const uint8_t *sig, size_t sl, int final);

/* C_CreateObject of a CKO_PRIVATE_KEY (RSA with all CRT components, EC /
 * SM2 / Ed25519 with CKA_EC_PARAMS + CKA_VALUE): the material goes into a
 * vault blob (validated there), a public-key object with the same CKA_ID
 * is created beside it; *out = the private object. */
CK_RV tk_pk_import(CK_SESSION_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n,
                   CK_OBJECT_HANDLE *out);
/* C_DeriveKey with CKM_ECDH1_DERIVE (CKD_NULL, peer point raw or DER):
 * a new CKK_GENERIC_SECRET (or CKK_AES with CKA_VALUE_LEN) object; with
 * CKA_VALUE_LEN shorter than the secret, its trailing bytes. */
CK_RV tk_pk_derive(CK_SESSION_HANDLE h, const CK_MECHANISM *m, CK_OBJECT_HANDLE bk,
                   const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out);
/* Context-specific login (CKA_ALWAYS_AUTHENTICATE): 1 if session h has a
 * public-key operation waiting for it; mark it authenticated (CKR_OK, or
 * CKR_OPERATION_NOT_INITIALIZED). */
int tk_pk_ctx_pending(CK_SESSION_HANDLE h);
CK_RV tk_pk_ctx_authed(CK_SESSION_HANDLE h);

#endif
