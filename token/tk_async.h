/*
 * tk_async.h - PKCS#11 3.2 asynchronous sessions in the token layer
 * (tk_async.c; used by tk_crypto.c and tk_pk.c, kept in tk_optab.c's
 * records).
 */
#ifndef TK_ASYNC_H
#define TK_ASYNC_H

#include "token/tk_crypto.h"
#include "gpu/vault.h"

/* A single-part call of an async session (CKF_ASYNC_SESSION) that
 * answered CKR_PENDING (tk_async.c): its request is in the vault, its
 * operation (of either family) stays reserved until C_AsyncComplete or
 * the session's close takes the answer.  r's output is the caller's
 * buffer, which the 3.2 specification makes the caller keep until then. */
typedef struct tk_async {
	int kind;                          /* its operation's (TK_KIND)        */
	int call;                          /* the call's: TK_OPK_VERIFY_SIG too */
	int taken;                         /* under the bucket lock: a thread looks at it */
	struct tk_ops *os;
	void *op;                          /* the family's operation          */
	CK_RV (*rv_of)(int rc, int kind);  /* a vault answer's CK_RV          */
	void (*end)(struct tk_async *a);   /* gives op back, ended            */
	struct pv_vault *v;
	pv_req r;
} tk_async;

/* A pending call of os's operation op, a call of this kind (NULL: no
 * memory);
 * the caller fills r, then tk_async_start submits it and answers
 * CKR_PENDING, or ends the operation at once with the CK_RV of a
 * refused submission (a is gone either way). */
tk_async *tk_async_new(struct tk_ops *os, int kind, CK_RV (*rv_of)(int, int),
                       void (*end)(tk_async *), void *op);
CK_RV tk_async_start(tk_async *a);
/* Wait for a's request and end its operation (the answer is dropped: the
 * session closed). */
void tk_async_drop(tk_async *a);

/* 1 if os's session was opened with CKF_ASYNC_SESSION. */
int tk_ops_async_ok(const tk_ops *os);
/* Async calls (tk_optab.c): park a (its operation reserved by this
 * thread) as os's pending call.  Unpark: take h's pending call of this
 * kind (tk_async.call) to look at (CKR_OK; CKR_PENDING: another thread has it;
 * CKR_OPERATION_NOT_INITIALIZED: none of that kind;
 * CKR_SESSION_HANDLE_INVALID), then end the look: done (1) or its
 * session closed meanwhile, and the call is this thread's to finish
 * (returns 1), or it stays parked (returns 0). */
void tk_ops_park(tk_ops *os, tk_async *a);
CK_RV tk_ops_unpark(CK_SESSION_HANDLE h, int call, tk_ops **os, tk_async **a);
int tk_ops_unpark_end(tk_ops *os, tk_async *a, int done);
#endif
