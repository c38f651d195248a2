/*
 * tk_async.c - PKCS#11 3.2 asynchronous sessions in the token layer.
 *
 * In a session opened with CKF_ASYNC_SESSION, a single-part C_Encrypt,
 * C_Decrypt, C_Digest, C_Sign, C_Verify or C_VerifySignature whose message
 * fits one vault request and whose output buffer (none for the
 * verifications) is large enough for
 * any answer submits its request and returns CKR_PENDING at once
 * (tk_crypto.c for symmetric mechanisms, digests and MACs; tk_pk.c for
 * public-key ones).  A size query, a buffer that may be short, a message
 * split over several requests, multi-part calls and everything else run
 * synchronously, as the specification allows (those cannot answer
 * CKR_PENDING, or need no wait).  The request runs like any
 * other, so many sessions of one thread fill the ring without a thread
 * asleep per request; C_AsyncComplete takes the answer.  A session's
 * pending call is its record's (tk_optab.c: one per session), its
 * operation stays reserved meanwhile, and the session's close waits for
 * it.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "token/tk_async.h"
#include "token/tk_int.h"

static const struct { const char *fn; int call; } tk_async_fn[] = {
	{ "C_Encrypt", TK_OPK_ENCRYPT }, { "C_Decrypt", TK_OPK_DECRYPT },
	{ "C_Digest", TK_OPK_DIGEST }, { "C_Sign", TK_OPK_SIGN },
	{ "C_Verify", TK_OPK_VERIFY }, { "C_VerifySignature", TK_OPK_VERIFY_SIG },
};

/* The kind of call fn names; -1: none that can pend. */
static int tk_async_call(const char *fn)
{
	size_t i;

	for (i = 0; fn != NULL && i < sizeof tk_async_fn / sizeof tk_async_fn[0]; i++)
		if (strcmp(fn, tk_async_fn[i].fn) == 0)
			return tk_async_fn[i].call;
	return -1;
}

tk_async *tk_async_new(tk_ops *os, int call, CK_RV (*rv_of)(int, int),
                       void (*end)(tk_async *), void *op)
{
	tk_async *a = calloc(1, sizeof *a);

	if (a != NULL) {
		a->kind = TK_KIND(call);
		a->call = call;
		a->os = os;
		a->op = op;
		a->rv_of = rv_of;
		a->end = end;
	}
	return a;
}

static void tk_async_free(tk_async *a)
{
	kc_wipe(a, sizeof *a);
	free(a);
}

CK_RV tk_async_start(tk_async *a)
{
	int rc = tk_vault_submit(&a->v, &a->r);
	CK_RV rv;

	if (rc != PV_OK) {
		rv = a->rv_of(rc, a->kind);
		a->end(a);
		tk_async_free(a);
		return rv;
	}
	tk_ops_park(a->os, a);          /* the inputs are in the ring now */
	return CKR_PENDING;
}

/* The answer of a's request (waiting for it if it runs), its operation
 * ended. */
static CK_RV tk_async_finish(tk_async *a, uint8_t **out, CK_ULONG *out_len)
{
	int rc = pv_vault_wait(a->v, &a->r);
	CK_RV rv = a->rv_of(rc, a->kind);

	if (rc == PV_OK && out != NULL) {
		*out = a->r.out;
		*out_len = (CK_ULONG)a->r.out_len;
	}
	a->end(a);
	tk_async_free(a);
	return rv;
}

void tk_async_drop(tk_async *a)
{
	(void)tk_async_finish(a, NULL, NULL);
}

/* h's pending call fn, taken to look at (tk_ops_unpark's answers; an
 * unknown fn is not pending). */
static CK_RV tk_async_look(CK_SESSION_HANDLE h, const char *fn, tk_ops **os, tk_async **a)
{
	int call = tk_async_call(fn);
	CK_RV rv;

	if (call < 0) {
		rv = tk_session_check(h);
		return rv != CKR_OK ? rv : CKR_OPERATION_NOT_INITIALIZED;
	}
	return tk_ops_unpark(h, call, os, a);
}

CK_RV tk_async_complete(CK_SESSION_HANDLE h, const char *fn, uint8_t **out,
                        CK_ULONG *out_len)
{
	tk_async *a;
	tk_ops *os;
	CK_RV rv = tk_async_look(h, fn, &os, &a);
	int done;

	if (rv != CKR_OK)
		return rv;
	done = pv_vault_done(a->v, &a->r);
	if (!tk_ops_unpark_end(os, a, done))
		return CKR_PENDING;
	if (!done) {                    /* its session closed meanwhile */
		tk_async_drop(a);
		return CKR_SESSION_HANDLE_INVALID;
	}
	return tk_async_finish(a, out, out_len);
}

CK_RV tk_async_pending(CK_SESSION_HANDLE h, const char *fn)
{
	tk_async *a;
	tk_ops *os;
	CK_RV rv = tk_async_look(h, fn, &os, &a);

	if (rv == CKR_PENDING)
		return CKR_OK;                /* another thread is looking at it */
	if (rv != CKR_OK)
		return rv;
	if (tk_ops_unpark_end(os, a, 0)) {
		tk_async_drop(a);
		return CKR_SESSION_HANDLE_INVALID;
	}
	return CKR_OK;
}
