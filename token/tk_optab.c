/*
 * tk_optab.c - the table of the sessions' operations: one record per
 * session, keyed by the session handle in 1,024 buckets, each with a lock of
 * its own, so that a call finds its operation without the token's mutex.
 * A record holds one operation of each kind (encrypt, decrypt, digest,
 * sign, verify), of either family: symmetric and digests (tk_crypto.c,
 * tk_op in the record) or public-key (tk_pk.c, a tk_pkop it hangs there).
 *
 * A record is made by the session's first Init, under the token's mutex
 * (which proves the session exists), and is dropped or marked dead by the
 * session's close (tk_ops_forget, under the token's mutex, then the
 * bucket's: never the other order), so a live record means a live
 * session, and an Init that stores its operation in a live record cannot
 * outlive its session's close.  A session closed while one of its
 * operations runs leaves the record to the running call, whose put frees
 * it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "gpu/core/kc_util.h"
#include "token/tk_int.h"
#include "token/tk_op.h"

/* Session handles are handed out in order, so a thread's sessions fill
 * neighbouring buckets.  Each bucket has a cache line of its own, and
 * there are enough of them for the sessions of many threads: with 256
 * buckets of 48 bytes, 768 async sessions of 12 threads put three
 * threads' calls (7 lock / unlock pairs an async digest) on each bucket.
 * Measured alone they gain nothing - an async call's cost lies in the
 * ring producer's shared words (gpu/host/pv_slots.h) - but they keep the
 * token's locks from adding to it. */
#define TK_OPS_BUCKETS 1024u
typedef struct tk_opsbucket {
	pthread_mutex_t mu;
	tk_ops *recs;
} __attribute__((aligned(64))) tk_opsbucket;
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#define TK_OPS_MU_INIT PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP   /* tk_lock.c */
#else
#define TK_OPS_MU_INIT PTHREAD_MUTEX_INITIALIZER
#endif
static tk_opsbucket tk_ops_tab[TK_OPS_BUCKETS] = {
	[0 ... TK_OPS_BUCKETS - 1] = { TK_OPS_MU_INIT, NULL }
};

static tk_opsbucket *tk_ops_bucket(CK_SESSION_HANDLE h)
{
	return &tk_ops_tab[h % TK_OPS_BUCKETS];
}

/* Under the bucket lock: the live record of session h. */
static tk_ops *tk_ops_find(tk_opsbucket *b, CK_SESSION_HANDLE h)
{
	tk_ops *o;

	for (o = b->recs; o != NULL; o = o->next)
		if (o->h == h && !o->dead)
			return o;
	return NULL;
}

void tk_op_clear(tk_op *p)
{
	if (p->aad != NULL) {
		kc_wipe(p->aad, p->m.aad_len);
		free(p->aad);
	}
	if (p->buf != NULL) {
		kc_wipe(p->buf, p->buf_cap);
		free(p->buf);
	}
	tk_vsig_clear(&p->vsig);
	kc_wipe(p, sizeof *p);
}

static int tk_ops_busy(const tk_ops *o)
{
	int i;

	for (i = 0; i < TK_OPK_N; i++)
		if (o->busy[i])
			return 1;
	return 0;
}

/* Under the bucket lock: unlink o (the caller frees it). */
static void tk_ops_unlink(tk_opsbucket *b, tk_ops *o)
{
	tk_ops **pp;

	for (pp = &b->recs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == o) {
			*pp = o->next;
			return;
		}
}

static void tk_ops_really_free(tk_ops *o)
{
	int i;

	if (o == NULL)
		return;
	for (i = 0; i < TK_OPK_N; i++) {
		tk_op_clear(&o->op[i]);
		tk_pkop_free(o->pk[i]);
	}
	free(o);
}

/* Under b's lock with h's live record o, fn(o, arg) answers.  Without a
 * record: if create, one is made under the token's mutex when h is a
 * session (CKR_SESSION_HANDLE_INVALID otherwise); if not, the answer is
 * CKR_SESSION_HANDLE_INVALID or CKR_OPERATION_NOT_INITIALIZED. */
static CK_RV tk_ops_with(CK_SESSION_HANDLE h, int create,
                         CK_RV (*fn)(tk_ops *o, void *arg), void *arg)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o;
	CK_RV rv = CKR_OK;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	if (o != NULL)
		rv = fn(o, arg);
	pthread_mutex_unlock(&b->mu);
	if (o != NULL)
		return rv;
	if (!create) {
		rv = tk_session_check(h);
		return rv != CKR_OK ? rv : CKR_OPERATION_NOT_INITIALIZED;
	}
	/* the session's first operation: is it a session? */
	tk_mutex_lock(tk_g.mu);
	if (tk_session_get(h) == NULL) {
		tk_mutex_unlock(tk_g.mu);
		return CKR_SESSION_HANDLE_INVALID;
	}
	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	if (o == NULL && (o = calloc(1, sizeof *o)) != NULL) {
		o->h = h;
		o->async_ok = (tk_session_get(h)->flags & CKF_ASYNC_SESSION) != 0;
		o->next = b->recs;
		b->recs = o;
	}
	rv = o != NULL ? fn(o, arg) : CKR_HOST_MEMORY;
	pthread_mutex_unlock(&b->mu);
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

/* Under the bucket lock: os's kind is no longer reserved; os itself goes
 * onto *fr (the caller frees it) if its session is gone and nothing else
 * runs. */
static void tk_ops_release(tk_opsbucket *b, tk_ops *os, int kind, tk_ops **fr)
{
	os->busy[kind] = 0;
	if (os->dead && !tk_ops_busy(os)) {
		tk_ops_unlink(b, os);
		*fr = os;
	}
}

/* Under g.mu (tk_session.c).  A pending async call is waited for here
 * (the vault needs no token lock to finish it), unless a thread is
 * looking at it: tk_ops_unpark_end then hands it to that thread. */
void tk_ops_forget(CK_SESSION_HANDLE h)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o, *fr = NULL;
	tk_async *a = NULL;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	if (o != NULL && o->async != NULL && !o->async->taken) {
		a = o->async;
		o->async = NULL;
	}
	if (o != NULL && tk_ops_busy(o)) {
		o->dead = 1;
	} else if (o != NULL) {
		tk_ops_unlink(b, o);
		fr = o;
	}
	pthread_mutex_unlock(&b->mu);
	if (a != NULL)
		tk_async_drop(a);             /* its put frees the dead record */
	tk_ops_really_free(fr);
}

void tk_ops_drop_parent(void)
{
	uint32_t i;

	for (i = 0; i < TK_OPS_BUCKETS; i++) {
		(void)tk_mutex_init_adaptive(&tk_ops_tab[i].mu);
		tk_ops_tab[i].recs = NULL;    /* the parent's: leaked, as tk_g is */
	}
}

/* Under the bucket lock: o's kind holds an operation of either family, or
 * a call has reserved it. */
static int tk_ops_kind_used(const tk_ops *o, int kind)
{
	return o->active[kind] || o->busy[kind] || o->pk[kind] != NULL;
}

/* Under the bucket lock: reserve o's symmetric operation of this kind. */
static CK_RV tk_ops_reserve(tk_ops *o, int kind, int need)
{
	if (o->busy[kind] || (need == NEED_IDLE && tk_ops_kind_used(o, kind)))
		return CKR_OPERATION_ACTIVE;
	if (need == NEED_ACTIVE && !o->active[kind])
		return CKR_OPERATION_NOT_INITIALIZED;
	o->busy[kind] = 1;
	return CKR_OK;
}

struct tk_take { int kind, need; tk_ops *os; };

static CK_RV tk_op_take_fn(tk_ops *o, void *arg)
{
	struct tk_take *t = arg;
	CK_RV rv = tk_ops_reserve(o, t->kind, t->need);

	if (rv == CKR_OK)
		t->os = o;
	return rv;
}

CK_RV tk_op_take(CK_SESSION_HANDLE h, int kind, int need, tk_ops **os,
                 tk_op **out)
{
	struct tk_take t = { TK_KIND(kind), need, NULL };
	CK_RV rv = tk_ops_with(h, need != NEED_ACTIVE, tk_op_take_fn, &t);

	if (rv != CKR_OK)
		return rv;
	*os = t.os;
	*out = &t.os->op[t.kind];
	if (need == NEED_ACTIVE && !tk_vsig_fits(&(*out)->vsig, kind)) {
		tk_op_put(t.os, *out, 0);
		return CKR_OPERATION_NOT_INITIALIZED;
	}
	return CKR_OK;
}

void tk_op_put(tk_ops *os, tk_op *p, int end)
{
	tk_opsbucket *b = tk_ops_bucket(os->h);
	size_t kind = (size_t)(p - os->op);
	tk_ops *fr = NULL;

	if (end)
		tk_op_clear(p);
	pthread_mutex_lock(&b->mu);
	os->active[kind] = !end;
	tk_ops_release(b, os, (int)kind, &fr);
	pthread_mutex_unlock(&b->mu);
	tk_ops_really_free(fr);
}

CK_RV tk_op_idle(CK_SESSION_HANDLE h, int kind)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o;
	int active = 0;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	if (o != NULL)
		active = tk_ops_kind_used(o, TK_KIND(kind));
	pthread_mutex_unlock(&b->mu);
	if (active)
		return CKR_OPERATION_ACTIVE;
	return o != NULL ? CKR_OK : tk_session_check(h);
}

struct tk_cancel { int kind; tk_ops *os; tk_pkop *pk; };

static CK_RV tk_cancel_fn(tk_ops *o, void *arg)
{
	struct tk_cancel *c = arg;

	if (o->busy[c->kind])
		return CKR_OPERATION_CANCEL_FAILED;
	if (o->pk[c->kind] != NULL) {
		c->pk = o->pk[c->kind];
		o->pk[c->kind] = NULL;
	} else if (o->active[c->kind]) {
		o->busy[c->kind] = 1;     /* this thread's until it is cleared */
		c->os = o;
	}
	return CKR_OK;
}

CK_RV tk_op_cancel(CK_SESSION_HANDLE h, int kind)
{
	struct tk_cancel c = { TK_KIND(kind), NULL, NULL };
	CK_RV rv = tk_ops_with(h, 0, tk_cancel_fn, &c);

	tk_pkop_free(c.pk);
	if (c.os != NULL)
		tk_op_put(c.os, &c.os->op[c.kind], 1);
	return rv == CKR_OPERATION_NOT_INITIALIZED ? CKR_OK : rv;  /* no record */
}

int tk_ops_other_active(CK_SESSION_HANDLE h, int kind)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o;
	int i, other = 0;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	for (i = 0; o != NULL && i < TK_OPK_N; i++)
		if (i != kind && (o->active[i] || o->pk[i] != NULL))
			other = 1;
	pthread_mutex_unlock(&b->mu);
	return other;
}

/* ---- async calls (tk_async.c) ---- */

int tk_ops_async_ok(const tk_ops *os)
{
	return os->async_ok;
}

void tk_ops_park(tk_ops *os, tk_async *a)
{
	tk_opsbucket *b = tk_ops_bucket(os->h);

	pthread_mutex_lock(&b->mu);
	a->taken = 0;
	os->async = a;
	pthread_mutex_unlock(&b->mu);
}

struct tk_unpark { int call; tk_ops *os; tk_async *a; };

static CK_RV tk_unpark_fn(tk_ops *o, void *arg)
{
	struct tk_unpark *u = arg;

	if (o->async == NULL || o->async->call != u->call)
		return CKR_OPERATION_NOT_INITIALIZED;
	if (o->async->taken)
		return CKR_PENDING;
	o->async->taken = 1;
	u->os = o;
	u->a = o->async;
	return CKR_OK;
}

CK_RV tk_ops_unpark(CK_SESSION_HANDLE h, int call, tk_ops **os, tk_async **a)
{
	struct tk_unpark u = { call, NULL, NULL };
	CK_RV rv = tk_ops_with(h, 0, tk_unpark_fn, &u);

	*os = u.os;
	*a = u.a;
	return rv;
}

int tk_ops_unpark_end(tk_ops *os, tk_async *a, int done)
{
	tk_opsbucket *b = tk_ops_bucket(os->h);
	int mine;

	pthread_mutex_lock(&b->mu);
	a->taken = 0;
	mine = done || os->dead;
	if (mine)
		os->async = NULL;
	pthread_mutex_unlock(&b->mu);
	return mine;
}

/* ---- public-key operations (tk_pk.c) in the same records ---- */

struct tk_pkarg { int kind; tk_pkop *p; tk_ops *os; };

static CK_RV tk_pk_add_fn(tk_ops *o, void *arg)
{
	struct tk_pkarg *a = arg;

	if (tk_ops_kind_used(o, a->kind))
		return CKR_OPERATION_ACTIVE;
	o->pk[a->kind] = a->p;
	return CKR_OK;
}

CK_RV tk_ops_pk_add(CK_SESSION_HANDLE h, int kind, tk_pkop *p)
{
	struct tk_pkarg a = { kind, p, NULL };

	return tk_ops_with(h, 1, tk_pk_add_fn, &a);
}

static CK_RV tk_pk_take_fn(tk_ops *o, void *arg)
{
	struct tk_pkarg *a = arg;

	if (o->pk[a->kind] == NULL)
		return CKR_OPERATION_NOT_INITIALIZED;
	if (o->busy[a->kind])
		return CKR_OPERATION_ACTIVE;
	o->busy[a->kind] = 1;
	a->p = o->pk[a->kind];
	a->os = o;
	return CKR_OK;
}

tk_pkop *tk_ops_pk_take(CK_SESSION_HANDLE h, int kind, tk_ops **os, CK_RV *rv)
{
	struct tk_pkarg a = { kind, NULL, NULL };

	*rv = tk_ops_with(h, 0, tk_pk_take_fn, &a);
	*os = a.os;
	return *rv == CKR_OK ? a.p : NULL;
}

void tk_ops_pk_put(tk_ops *os, int kind, int end)
{
	tk_opsbucket *b = tk_ops_bucket(os->h);
	tk_ops *fr = NULL;
	tk_pkop *p = NULL;

	pthread_mutex_lock(&b->mu);
	if (end) {
		p = os->pk[kind];
		os->pk[kind] = NULL;
	}
	tk_ops_release(b, os, kind, &fr);
	pthread_mutex_unlock(&b->mu);
	tk_pkop_free(p);
	tk_ops_really_free(fr);
}

int tk_ops_pk_active(CK_SESSION_HANDLE h, int kind)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o;
	int a;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	a = o != NULL && o->pk[kind] != NULL;
	pthread_mutex_unlock(&b->mu);
	return a;
}

int tk_ops_pk_each(CK_SESSION_HANDLE h, int (*fn)(tk_pkop *p))
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o;
	int i, n = 0;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	for (i = 0; o != NULL && i < TK_OPK_N; i++)
		if (o->pk[i] != NULL)
			n += fn(o->pk[i]);
	pthread_mutex_unlock(&b->mu);
	return n;
}
