/*
 * tk_op.h - a session's symmetric operations and digests (private to
 * tk_crypto.c, which runs them, and tk_optab.c, which keeps them).
 */
#ifndef TK_OP_H
#define TK_OP_H

#include "token/tk_auth.h"
#include "token/tk_crypto.h"
/* after pkcs11.h: its compat macros (iv_len, aad_len) rename pv_req
 * fields consistently in the files that include this one */
#include "gpu/vault.h"
#include "token/tk_async.h"

/* Owned by the thread that reserved it (tk_op_take). */
typedef struct tk_op {
	int multi;
	uint32_t pvop;
	tk_mech m;
	uint8_t iv[PV_IV_MAX];
	uint8_t *aad;
	uint8_t blob[PV_BLOB_MAX];
	size_t blob_len;
	uint8_t id[PV_OBJ_ID_LEN];
	tk_auth auth;                      /* the session's token and login   */
	uint8_t state[PV_STATE_MAX];
	size_t state_len;
	uint8_t nstate[PV_STATE_MAX];      /* the next state, until committed */
	uint8_t *buf;                      /* GCM decrypt: ciphertext so far  */
	size_t buf_len, buf_cap;
	tk_vsig vsig;                      /* C_VerifySignatureInit's signature */
} tk_op;

/* A session's operations, one of each kind, of either family: its record
 * in tk_optab.c's table. */
struct tk_ops {
	struct tk_ops *next;
	CK_SESSION_HANDLE h;
	int dead;                          /* session gone; last user frees   */
	int async_ok;                      /* opened with CKF_ASYNC_SESSION    */
	tk_async *async;                   /* under the bucket lock: its pending call */
	/* under the bucket lock: */
	uint8_t active[TK_OPK_N];          /* op[k] initialised               */
	uint8_t busy[TK_OPK_N];            /* kind k reserved by a call       */
	tk_pkop *pk[TK_OPK_N];             /* or kind k's public-key operation */
	tk_op op[TK_OPK_N];
};

enum { NEED_IDLE, NEED_ACTIVE, NEED_ANY };

/* Reserve the session's operation of this kind (need: NEED_IDLE for an
 * Init, NEED_ACTIVE for a call on an initialised one, NEED_ANY to
 * replace it); answers CKR_SESSION_HANDLE_INVALID, CKR_OPERATION_ACTIVE
 * or CKR_OPERATION_NOT_INITIALIZED itself (also to a NEED_ACTIVE call
 * of the other verification style: tk_vsig_fits).  The token's lock is taken only
 * by a session's first Init and on the way to an error. */
CK_RV tk_op_take(CK_SESSION_HANDLE h, int kind, int need, tk_ops **os, tk_op **out);
/* Give the operation back, active or ended (end: cleared and wiped
 * first, while it is still this thread's). */
void tk_op_put(tk_ops *os, tk_op *p, int end);
/* Free what p holds and wipe it. */
void tk_op_clear(tk_op *p);
/* 1 if an operation of a kind other than kind is initialised in h. */
int tk_ops_other_active(CK_SESSION_HANDLE h, int kind);

#endif
