/*
 * tk_key.h - internals shared by tk_key.c, tk_crypto.c and the object code
 * (not for pkcs11/).
 *
 * A secret key object keeps its material only as a vault blob, in two
 * hidden attributes that no template can name and C_GetAttributeValue
 * never returns: TK_CKA_BLOB (the blob), TK_CKA_BLOB_MECHS (its allowed
 * mechanisms as the vault knows them) and TK_CKA_BLOB_ID (the 16-byte
 * identity bound into it; copies share the blob and its identity).
 */
#ifndef TK_KEY_H
#define TK_KEY_H

#include "token/tk_crypto.h"
#include "token/tk_int.h"

#define TK_CKA_BLOB    (CKA_VENDOR_DEFINED | 0x5056F001UL)
#define TK_CKA_BLOB_ID (CKA_VENDOR_DEFINED | 0x5056F002UL)
/* The vault's form of CKA_ALLOWED_MECHANISMS (tk_auth.c), as bound into
 * the blob when it was made: what every request with the key hands the
 * vault.  Hidden like the blob; absent for an unrestricted key. */
#define TK_CKA_BLOB_MECHS (CKA_VENDOR_DEFINED | 0x5056F003UL)

/* C_CreateObject of a CKO_SECRET_KEY (o built by the policy): checks type
 * and length, imports CKA_VALUE into the vault, wipes it, sets the blob
 * and the computed attributes. */
struct tk_auth;
CK_RV tk_key_import(tk_obj *o, struct tk_auth *a);
/* C_GetAttributeValue hook: 1 if the attribute was handled here (hidden
 * attributes, a secret key's CKA_VALUE), *rv set; 0 otherwise. */
int tk_key_get_attr(CK_SESSION_HANDLE h, const tk_obj *o, CK_ATTRIBUTE *a, CK_RV *rv);
/* The PV_USE_* flags of a secret key object's attributes. */
uint32_t tk_key_usage(const tk_obj *o);
/* The PV_USE_* flags of a private key object's attributes (tk_pk_keys.c). */
uint32_t tk_pk_usage(const tk_obj *o);
/* C_SetAttributeValue of secret key o (made from old): when a usage flag
 * or a policy attribute changed, the vault seals the blob again with them
 * (PV_OP_REPOLICY), into o.  CKR_KEY_FUNCTION_NOT_PERMITTED when the vault
 * refuses (the store's attributes disagree with the blob). */
CK_RV tk_key_repolicy(CK_SESSION_HANDLE h, const tk_obj *old, tk_obj *o);
/* The secret-key checks at operation init: class, type, usage flag
 * (CKA_ALLOWED_MECHANISMS is tk_key_get's). */
CK_RV tk_key_check(const tk_obj *o, const tk_mech *m, int use);
/* The value of a key (caller checks it may be revealed); out holds
 * PV_SECRET_MAX bytes. */
CK_RV tk_key_value(CK_SESSION_HANDLE h, const tk_obj *o, uint8_t *out, size_t *len);
/* The key's blob and identity (CKR_KEY_HANDLE_INVALID if none). */
CK_RV tk_key_blob(const tk_obj *o, const uint8_t **blob, size_t *len,
                  const uint8_t **id);

/* tk_object.c: the object behind a handle, a reference to a read-only
 * snapshot (tk_obj_free drops it; tk_int.h, tk_obj); store a new object
 * (o is consumed on success). */
CK_RV tk_object_get(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh, tk_obj **out);
CK_RV tk_object_add(CK_SESSION_HANDLE h, tk_obj *o, CK_OBJECT_HANDLE *out);
/* 1 if the Security Officer is logged in to h's token. */
int tk_object_so(CK_SESSION_HANDLE h);

/* The key of an operation with mechanism ckm (tk_key.c): every operation
 * that takes a key (encrypt, decrypt, sign, verify, the wrapping key of a
 * wrap, the unwrapping key of an unwrap, the base key of a derivation, a
 * digested key) resolves it here, so CKA_ALLOWED_MECHANISMS is enforced
 * in this one place, for every key class: CKR_MECHANISM_INVALID when the
 * key's list is not empty and lacks ckm (nothing is started).  ckm
 * TK_CKM_OPERAND: a key that an operation acts on rather than with (the
 * key C_WrapKey wraps).  CKR_KEY_HANDLE_INVALID where tk_object_get says
 * CKR_OBJECT_HANDLE_INVALID. */
#define TK_CKM_OPERAND CK_UNAVAILABLE_INFORMATION
CK_RV tk_key_get(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE k, CK_MECHANISM_TYPE ckm,
                 tk_obj **out);

#endif /* TK_KEY_H */
