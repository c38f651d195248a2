/*
 * tk_crypto.h - the token layer's crypto half: the vault handle,
 * secret key objects, per-session operations (encrypt, decrypt, digest,
 * sign, verify), key generation, wrap/unwrap, derive, random.
 *
 * pkcs11/ decodes a CK_MECHANISM into a tk_mech (pkcs11/pk_mech.c: the
 * mechanism table and the parameter checks) and calls these functions;
 * they return CK_RV.  The vault is reached only through gpu/vault.h and
 * never with a token lock held.
 */
#ifndef TK_CRYPTO_H
#define TK_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "token/tk.h"

/* Operation kinds: one active operation of each kind per session. */
enum {
	TK_OPK_ENCRYPT, TK_OPK_DECRYPT, TK_OPK_DIGEST, TK_OPK_SIGN,
	TK_OPK_VERIFY, TK_OPK_N,
	/* key-management uses (no session state) */
	TK_USE_WRAP = 16, TK_USE_UNWRAP, TK_USE_DERIVE, TK_USE_KEYGEN
};

/* Signature-first verification (PKCS#11 3.2 C_VerifySignature*) is the
 * kind TK_OPK_VERIFY_SIG: TK_OPK_VERIFY's operation (TK_KIND), whose Init
 * keeps a copy of the signature until the operation ends (a pending async
 * call included).  C_VerifySignature / _Update / _Final name this kind,
 * C_Verify / _Update / _Final TK_OPK_VERIFY, and each is
 * CKR_OPERATION_NOT_INITIALIZED to a verify operation of the other style. */
#define TK_VSIG 0x100
#define TK_OPK_VERIFY_SIG (TK_OPK_VERIFY | TK_VSIG)
#define TK_KIND(kind) ((kind) & ~TK_VSIG)
/* The longest signature of any mechanism (RSA-4096; MACs and EC
 * signatures are shorter): a longer one is CKR_SIGNATURE_LEN_RANGE. */
#define TK_SIG_MAX 512
typedef struct tk_vsig {
	uint8_t *sig;               /* non-NULL: a signature-first operation */
	size_t len;
} tk_vsig;
/* With kind TK_OPK_VERIFY_SIG, keep a copy of sig in v (CKR_OK,
 * CKR_SIGNATURE_LEN_RANGE, CKR_HOST_MEMORY); with any other kind, CKR_OK. */
CK_RV tk_vsig_keep(tk_vsig *v, int kind, const uint8_t *sig, size_t len);
/* 1 if a call of this kind may use the operation that holds v. */
int tk_vsig_fits(const tk_vsig *v, int kind);
void tk_vsig_clear(tk_vsig *v);

/* A decoded mechanism.  Pointers refer to the caller's CK_MECHANISM
 * parameter; tk_op_init copies what it keeps. */
typedef struct tk_mech {
	CK_MECHANISM_TYPE ckm;
	uint32_t pv;                /* PV_MECH_*                              */
	CK_KEY_TYPE ckk;            /* key type required ((CK_ULONG)-1: none) */
	uint32_t pv_key;            /* PV_KEY_* of that key type              */
	const uint8_t *iv;  size_t iv_len;
	const uint8_t *aad; size_t aad_len;
	uint32_t tag_len;           /* GCM tag bytes; MAC length (0 = full)   */
	uint32_t dlen;              /* full digest / MAC length               */
	uint32_t ctr_bits;
	/* HKDF */
	uint32_t prf, flags;        /* PV_MECH_SHA*, PV_F_*                   */
	const uint8_t *salt; size_t salt_len;
	CK_OBJECT_HANDLE salt_key;  /* CKF_HKDF_SALT_KEY, else 0              */
} tk_mech;

/* Our vendor value of a mechanism named by an IAIK/xipki alias
 * (include/pixelvault/pkcs11-vendor.h), else t itself (tk_key.c). */
CK_MECHANISM_TYPE tk_mech_unalias(CK_MECHANISM_TYPE t);

/* ---- the secret-key and digest mechanisms (tk_mechtab.c) ---- */
/* How a mechanism's parameter is decoded (pkcs11/pk_mech.c). */
enum { TK_P_NONE, TK_P_IV16, TK_P_CTR, TK_P_GCM, TK_P_MACLEN, TK_P_HKDF };
#define TK_ANYK ((CK_KEY_TYPE)-1)   /* digests: no key type */
typedef struct tk_symdef {
	CK_MECHANISM_TYPE ckm;
	uint32_t pv;                /* PV_MECH_*                              */
	CK_KEY_TYPE ckk;
	uint32_t pv_key;            /* PV_KEY_* of ckk; 0: no key (digests)   */
	int param;                  /* TK_P_*                                 */
	uint32_t maclen;            /* full MAC / digest length               */
	CK_ULONG min, max;          /* key sizes in bytes                     */
	CK_FLAGS flags;             /* CKF_ENCRYPT, CKF_SIGN, ...             */
} tk_symdef;
extern const tk_symdef tk_symdefs[];
extern const size_t tk_nsymdefs;
/* The row of mechanism t (an alias: its vendor value's), or NULL. */
const tk_symdef *tk_symfind(CK_MECHANISM_TYPE t);

/* ---- vault (tk_vault.c) ---- */
/* The process's vault, opened on first use (and again in a forked child).
 * CKR_DEVICE_ERROR if it cannot be opened. */
struct pv_vault;
struct pv_req;
CK_RV tk_vault(struct pv_vault **out);
/* pv_vault_call on the process's vault; PV_ERR_DEVICE if there is none. */
int tk_vault_call(struct pv_req *r);
/* pv_vault_submit on the process's vault, which *v names after it (for
 * pv_vault_done / _wait); PV_ERR_DEVICE if there is none. */
int tk_vault_submit(struct pv_vault **v, struct pv_req *r);
/* 1 when requests run on a GPU (CKF_HW), 0 otherwise. */
int tk_vault_hw(void);
/* 1 when the vault is open and not sealed (CKF_RNG). */
int tk_vault_ready(void);
/* The vault's state: TK_VAULT_READY, _SEALED (open, no master key) or
 * _NONE (did not open: pvaultd unreachable, configuration), with why keys
 * cannot be used and what to do in why ("" when ready; the sentence the
 * module logged once as a warning). */
enum { TK_VAULT_READY, TK_VAULT_SEALED, TK_VAULT_NONE };
int tk_vault_why(char *why, size_t cap);
/* Largest inputs + outputs of one request (0: no vault). */
size_t tk_vault_max_data(void);
/* Fingerprint of the vault's master key (pv_vault_info.master_fpr) into
 * fpr, which it returns: "" when sealed, in daemon mode, or when the vault
 * cannot be opened. */
#define TK_FPR_LEN 17
const char *tk_vault_master_fpr(char fpr[TK_FPR_LEN]);
/* Called by tk_finalize. */
void tk_vault_close(void);

/* ---- operations (tk_crypto.c) ---- */
/* key is ignored for TK_OPK_DIGEST, sig (sig_len bytes) unless kind is
 * TK_OPK_VERIFY_SIG.  Every call below looks the session
 * up once, under the token's lock, and answers CKR_SESSION_HANDLE_INVALID
 * and CKR_OPERATION_ACTIVE / _NOT_INITIALIZED itself: the C_* shells need
 * no session check of their own before it. */
CK_RV tk_op_init(CK_SESSION_HANDLE h, int kind, const tk_mech *m,
                 CK_OBJECT_HANDLE key, const uint8_t *sig, size_t sig_len);
/* Single part: encrypt/decrypt/digest/sign.  out NULL: *out_len = size,
 * operation kept; CKR_BUFFER_TOO_SMALL keeps it too; anything else ends it. */
CK_RV tk_op_oneshot(CK_SESSION_HANDLE h, int kind, const uint8_t *in,
                    size_t in_len, uint8_t *out, CK_ULONG *out_len);
/* In a session opened with CKF_ASYNC_SESSION, tk_op_oneshot,
 * tk_op_verify (single part) and their public-key twins may answer
 * CKR_PENDING: the request runs, out must stay valid, and
 * tk_async_complete (C_AsyncComplete) with the function's name
 * ("C_Encrypt", "C_Decrypt", "C_Digest", "C_Sign", "C_Verify",
 * "C_VerifySignature") answers CKR_PENDING
 * until it has completed, then the call's own answer with *out / *out_len
 * its output; CKR_OPERATION_NOT_INITIALIZED if that function is not
 * pending in h.  Closing the session waits for its pending call.
 * tk_async_pending: CKR_OK if fn is pending in h, else as above. */
CK_RV tk_async_complete(CK_SESSION_HANDLE h, const char *fn, uint8_t **out,
                        CK_ULONG *out_len);
CK_RV tk_async_pending(CK_SESSION_HANDLE h, const char *fn);
/* Multi-part update: encrypt/decrypt write output (out/out_len), digest/
 * sign/verify do not (out NULL, out_len NULL). */
CK_RV tk_op_update(CK_SESSION_HANDLE h, int kind, const uint8_t *in,
                   size_t in_len, uint8_t *out, CK_ULONG *out_len);
CK_RV tk_op_final(CK_SESSION_HANDLE h, int kind, uint8_t *out,
                  CK_ULONG *out_len);
/* C_Verify (single) and C_VerifyFinal (sig against the accumulated data);
 * kind TK_OPK_VERIFY_SIG: C_VerifySignature / _Final, against the Init's
 * signature (sig is ignored). */
CK_RV tk_op_verify(CK_SESSION_HANDLE h, int kind, const uint8_t *in, size_t in_len,
                   const uint8_t *sig, size_t sig_len, int final);
/* C_DigestKey: the key's value enters the digest inside the vault. */
CK_RV tk_op_digest_key(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE key);
/* C_GetOperationState / C_SetOperationState (digests only). */
CK_RV tk_op_get_state(CK_SESSION_HANDLE h, uint8_t *out, CK_ULONG *len);
CK_RV tk_op_set_state(CK_SESSION_HANDLE h, const uint8_t *in, size_t len);
/* The digest mechanism recorded in a saved state; set it with the decoded
 * mechanism (pkcs11/ decodes ckm again). */
CK_RV tk_op_state_mech(const uint8_t *in, size_t len, CK_MECHANISM_TYPE *ckm);
CK_RV tk_op_set_state_mech(CK_SESSION_HANDLE h, const uint8_t *in, size_t len,
                           const tk_mech *m);

/* ---- the sessions' operation table (tk_optab.c) ---- */
/* A session's record there, and a public-key operation (tk_pk.c). */
typedef struct tk_ops tk_ops;
typedef struct tk_pkop tk_pkop;
/* CKR_SESSION_HANDLE_INVALID, CKR_OPERATION_ACTIVE (this kind is
 * initialised, of either family, or being initialised), or CKR_OK. */
CK_RV tk_op_idle(CK_SESSION_HANDLE h, int kind);
/* An Init with no mechanism (PKCS#11 3.0): end h's operation of this kind,
 * of either family, if it has one (CKR_OK either way);
 * CKR_OPERATION_CANCEL_FAILED while a call runs it or has it pending,
 * CKR_SESSION_HANDLE_INVALID. */
CK_RV tk_op_cancel(CK_SESSION_HANDLE h, int kind);
/* Session teardown (tk_session.c, under the token's lock): frees the
 * session's operations, or leaves them to the call running one. */
void tk_ops_forget(CK_SESSION_HANDLE h);
/* A forked child's C_Initialize: drop the parent's operations without
 * touching them (their bucket locks may be held by parent threads that do
 * not exist here; a child's new session must not find the parent's
 * operation under a reused handle). */
void tk_ops_drop_parent(void);
/* Public-key operations: store p as session h's operation of this kind
 * (the table owns it from CKR_OK on; CKR_SESSION_HANDLE_INVALID,
 * CKR_OPERATION_ACTIVE if one of either family is there); reserve it for
 * a call (CKR_OPERATION_NOT_INITIALIZED, _ACTIVE, SESSION_HANDLE_INVALID
 * otherwise) and give it back (end: freed), as tk_op_take / tk_op_put. */
CK_RV tk_ops_pk_add(CK_SESSION_HANDLE h, int kind, tk_pkop *p);
tk_pkop *tk_ops_pk_take(CK_SESSION_HANDLE h, int kind, tk_ops **os, CK_RV *rv);
void tk_ops_pk_put(tk_ops *os, int kind, int end);
/* 1 if h has a public-key operation of this kind. */
int tk_ops_pk_active(CK_SESSION_HANDLE h, int kind);
/* fn on each of h's public-key operations, under its bucket's lock; the
 * sum of its answers. */
int tk_ops_pk_each(CK_SESSION_HANDLE h, int (*fn)(tk_pkop *p));
/* tk_pk.c: free a public-key operation (NULL: nothing). */
void tk_pkop_free(tk_pkop *p);

/* ---- keys (tk_key.c) ---- */
CK_RV tk_generate_key(CK_SESSION_HANDLE h, const tk_mech *m,
                      const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out);
CK_RV tk_wrap_key(CK_SESSION_HANDLE h, const tk_mech *m, CK_OBJECT_HANDLE wk,
                  CK_OBJECT_HANDLE k, uint8_t *out, CK_ULONG *out_len);
CK_RV tk_unwrap_key(CK_SESSION_HANDLE h, const tk_mech *m, CK_OBJECT_HANDLE uk,
                    const uint8_t *in, size_t in_len, const CK_ATTRIBUTE *t,
                    CK_ULONG n, CK_OBJECT_HANDLE *out);
CK_RV tk_derive_key(CK_SESSION_HANDLE h, const tk_mech *m, CK_OBJECT_HANDLE bk,
                    const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out);
CK_RV tk_generate_random(CK_SESSION_HANDLE h, uint8_t *out, size_t len);
CK_RV tk_seed_random(CK_SESSION_HANDLE h, const uint8_t *seed, size_t len);

#endif /* TK_CRYPTO_H */
