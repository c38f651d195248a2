/*
 * tk_optab.c - the table of a session's symmetric operations and digests:
 * records keyed by the session handle in 256 buckets, each with a lock of
 * its own, so that a call finds its operation without the token's mutex
 * (as tk_pk.c keeps the public-key operations).
 *
 * A record is made by the session's first Init, under the token's mutex
 * (which proves the session exists), and is dropped or marked dead by the
 * session's close (tk_ops_forget, under the token's mutex, then the
 * bucket's: never the other order), so a live record means a live
 * session.  A session closed while one of its operations runs leaves the
 * record to the running call, whose put frees it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "gpu/core/kc_util.h"
#include "token/tk_int.h"
#include "token/tk_op.h"

#define TK_OPS_BUCKETS 256u
typedef struct tk_opsbucket {
	pthread_mutex_t mu;
	tk_ops *recs;
} tk_opsbucket;
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
	for (i = 0; i < TK_OPK_N; i++)
		tk_op_clear(&o->op[i]);
	free(o);
}

/* Under g.mu (tk_session.c). */
void tk_ops_forget(CK_SESSION_HANDLE h)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o, *fr = NULL;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	if (o != NULL && tk_ops_busy(o)) {
		o->dead = 1;
	} else if (o != NULL) {
		tk_ops_unlink(b, o);
		fr = o;
	}
	pthread_mutex_unlock(&b->mu);
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

/* Under the bucket lock: reserve o's operation of this kind. */
static CK_RV tk_ops_reserve(tk_ops *o, int kind, int need)
{
	if (o->busy[kind])
		return CKR_OPERATION_ACTIVE;
	if (need == NEED_IDLE && o->active[kind])
		return CKR_OPERATION_ACTIVE;
	if (need == NEED_ACTIVE && !o->active[kind])
		return CKR_OPERATION_NOT_INITIALIZED;
	o->busy[kind] = 1;
	return CKR_OK;
}

CK_RV tk_op_take(CK_SESSION_HANDLE h, int kind, int need, tk_ops **os,
                 tk_op **out)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o;
	CK_RV rv;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	rv = o != NULL ? tk_ops_reserve(o, kind, need) : CKR_OK;
	pthread_mutex_unlock(&b->mu);
	if (o == NULL && need == NEED_ACTIVE) {
		rv = tk_session_check(h);
		return rv != CKR_OK ? rv : CKR_OPERATION_NOT_INITIALIZED;
	}
	if (o == NULL) {
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
			o->next = b->recs;
			b->recs = o;
		}
		rv = o != NULL ? tk_ops_reserve(o, kind, need) : CKR_HOST_MEMORY;
		pthread_mutex_unlock(&b->mu);
		tk_mutex_unlock(tk_g.mu);
	}
	if (rv == CKR_OK) {
		*os = o;
		*out = &o->op[kind];
	}
	return rv;
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
	os->busy[kind] = 0;
	if (os->dead && !tk_ops_busy(os)) {
		tk_ops_unlink(b, os);
		fr = os;
	}
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
		active = o->active[kind] || o->busy[kind];
	pthread_mutex_unlock(&b->mu);
	if (active)
		return CKR_OPERATION_ACTIVE;
	return o != NULL ? CKR_OK : tk_session_check(h);
}

int tk_ops_other_active(CK_SESSION_HANDLE h, int kind)
{
	tk_opsbucket *b = tk_ops_bucket(h);
	tk_ops *o;
	int i, other = 0;

	pthread_mutex_lock(&b->mu);
	o = tk_ops_find(b, h);
	for (i = 0; o != NULL && i < TK_OPK_N; i++)
		if (i != kind && o->active[i])
			other = 1;
	pthread_mutex_unlock(&b->mu);
	return other;
}
