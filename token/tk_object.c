/*
 * tk_object.c - objects: create, copy, destroy, attributes, find.
 *
 * Token objects live in the store and are read from it on every call (no
 * cache that another process could make stale); session objects live in
 * memory on the slot, owned by the session that made them.  Private
 * objects are visible only while the user is logged in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/pv_err.h"
#include "token/tk_auth.h"
#include "token/tk_int.h"
#include "token/tk_key.h"

#ifndef CKA_UNIQUE_ID
#define CKA_UNIQUE_ID 0x4aUL
#endif

/* What an object call needs to know about its session. */
typedef struct tk_ctx {
	tk_slot *slot;
	int rw;
	CK_USER_TYPE login;
} tk_ctx;

static CK_RV tk_ctx_get(CK_SESSION_HANDLE h, tk_ctx *c)
{
	tk_session *se = tk_session_get(h);

	if (se == NULL)
		return CKR_SESSION_HANDLE_INVALID;
	c->slot = se->slot;
	c->rw = (se->flags & CKF_RW_SESSION) != 0;
	c->login = tk_slot_login(se->slot);
	return CKR_OK;
}

/* tk_ctx_get under g.mu. */
static CK_RV tk_ctx_take(CK_SESSION_HANDLE h, tk_ctx *c)
{
	CK_RV rv;

	tk_mutex_lock(tk_g.mu);
	rv = tk_ctx_get(h, c);
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

static int tk_visible(const tk_obj *o, CK_USER_TYPE login)
{
	return !tk_obj_bool(o, CKA_PRIVATE, CK_FALSE) || login == CKU_USER;
}

/* Resolve a handle to the object: a reference the caller drops with
 * tk_obj_free, to be read only.  A session object is the one on the slot's
 * list (a reference taken under g.mu, nothing copied: C_DestroyObject or
 * C_SetAttributeValue meanwhile unlink or replace it and drop the list's
 * reference, and the caller's snapshot lives on until it drops its own);
 * a token object is read from the store, unshared. */
static CK_RV tk_resolve(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh, tk_ctx *c,
                        tk_obj **out)
{
	CK_RV rv;
	tk_obj *o = NULL;
	int64_t oid;
	tk_db *d;
	int rc;

	*out = NULL;
	tk_mutex_lock(tk_g.mu);
	rv = tk_ctx_get(h, c);
	if (rv == CKR_OK && tk_handle_is_session(oh)) {
		tk_obj *so;
		for (so = c->slot->sobjs; so != NULL; so = so->next)
			if (so->h == oh)
				break;
		if (so == NULL || !tk_visible(so, c->login))
			rv = CKR_OBJECT_HANDLE_INVALID;
		else
			o = tk_obj_ref(so);
	}
	tk_mutex_unlock(tk_g.mu);
	if (rv != CKR_OK || o != NULL) {
		*out = o;
		return rv;
	}
	oid = tk_handle_oid(c->slot, oh);
	if (oid <= 0)
		return CKR_OBJECT_HANDLE_INVALID;
	rc = tk_slot_db(c->slot, &d);
	if (rc < 0)
		return tk_rv_from_pv(rc);
	rc = tk_store_obj_load(d, oid, &o);
	tk_slot_db_put(c->slot, d);
	if (rc == PV_ERR_NOT_FOUND)
		return CKR_OBJECT_HANDLE_INVALID;
	if (rc < 0)
		return tk_rv_from_pv(rc);
	if (!tk_visible(o, c->login)) {
		tk_obj_free(o);
		return CKR_OBJECT_HANDLE_INVALID;
	}
	o->h = oh;
	*out = o;
	return CKR_OK;
}

/* Give o a fresh identity: 16 random bytes, CKA_UNIQUE_ID = their hex. */
static int tk_new_identity(tk_obj *o)
{
	char hex[2 * TK_UID_LEN + 1];
	int rc = tk_random(o->uid, TK_UID_LEN);

	if (rc < 0)
		return rc;
	tk_hex_encode(o->uid, TK_UID_LEN, hex);
	return tk_obj_set(o, CKA_UNIQUE_ID, hex, 2 * TK_UID_LEN);
}

/* Store a new object (token or session) built by the policy. */
static CK_RV tk_store_new(CK_SESSION_HANDLE h, const tk_ctx *c, tk_obj *o,
                          CK_OBJECT_HANDLE *out)
{
	int token = tk_obj_bool(o, CKA_TOKEN, CK_FALSE);
	int rc;

	if (token && !c->rw)
		return CKR_SESSION_READ_ONLY;
	if (tk_obj_bool(o, CKA_PRIVATE, CK_FALSE) && c->login != CKU_USER)
		return CKR_USER_NOT_LOGGED_IN;
	rc = tk_new_identity(o);
	if (rc < 0)
		return tk_rv_from_pv(rc);
	if (token) {
		tk_db *d;
		int64_t oid = 0;
		char fpr[TK_FPR_LEN];
		rc = tk_slot_db(c->slot, &d);
		if (rc < 0)
			return tk_rv_from_pv(rc);
		rc = tk_store_obj_insert_fpr(d, o, tk_obj_attr(o, TK_CKA_BLOB) != NULL ?
		                             tk_vault_master_fpr(fpr) : NULL, &oid);
		tk_slot_db_put(c->slot, d);
		if (rc == PV_ERR_WRAPPED)
			return CKR_KEY_FUNCTION_NOT_PERMITTED;   /* other master key */
		if (rc < 0)
			return tk_rv_from_pv(rc);
		*out = tk_handle_token(c->slot, oid);
		tk_obj_free(o);
		return CKR_OK;
	}
	tk_mutex_lock(tk_g.mu);
	if (tk_session_get(h) == NULL) {
		tk_mutex_unlock(tk_g.mu);
		return CKR_SESSION_HANDLE_INVALID;
	}
	o->h = TK_HANDLE_SESSION_BIT | tk_g.next_sobj++;
	o->owner = h;
	o->next = c->slot->sobjs;
	c->slot->sobjs = o;
	*out = o->h;
	tk_mutex_unlock(tk_g.mu);
	return CKR_OK;
}

CK_RV tk_create_object(CK_SESSION_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n,
                       CK_OBJECT_HANDLE *out)
{
	tk_ctx c;
	tk_obj *o;
	CK_RV rv;

	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	rv = tk_ctx_take(h, &c);
	if (rv != CKR_OK)
		return rv;
	rv = tk_policy_apply(TK_OP_CREATE, NULL, t, n, c.login == CKU_SO, &o);
	if (rv != CKR_OK)
		return rv;
	if (tk_obj_ulong(o, CKA_CLASS, 0) == CKO_SECRET_KEY) {
		/* the value goes into the vault; only the blob is kept */
		tk_auth a;
		rv = tk_auth_session(h, &a);
		if (rv == CKR_OK)
			rv = tk_key_import(o, &a);
		tk_auth_clear(&a);
		if (rv != CKR_OK) {
			tk_obj_free(o);
			return rv;
		}
	}
	rv = tk_store_new(h, &c, o, out);
	if (rv != CKR_OK)
		tk_obj_free(o);
	return rv;
}

CK_RV tk_copy_object(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh,
                     const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	tk_ctx c;
	tk_obj *base, *o;
	CK_RV rv;

	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	rv = tk_resolve(h, oh, &c, &base);
	if (rv != CKR_OK)
		return rv;
	if (!tk_obj_bool(base, CKA_COPYABLE, CK_TRUE)) {
		tk_obj_free(base);
		return CKR_ACTION_PROHIBITED;
	}
	rv = tk_policy_apply(TK_OP_COPY, base, t, n, c.login == CKU_SO, &o);
	tk_obj_free(base);
	if (rv != CKR_OK)
		return rv;
	o->h = 0;
	o->owner = 0;
	rv = tk_store_new(h, &c, o, out);
	if (rv != CKR_OK)
		tk_obj_free(o);
	return rv;
}

/* Remove a session object by handle (under g.mu); 1 if found. */
static int tk_sobj_unlink(tk_slot *s, CK_OBJECT_HANDLE oh, tk_obj **out)
{
	tk_obj **pp;

	for (pp = &s->sobjs; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->h == oh) {
			*out = *pp;
			*pp = (*pp)->next;
			return 1;
		}
	}
	return 0;
}

CK_RV tk_destroy_object(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh)
{
	tk_ctx c;
	tk_obj *o;
	CK_RV rv = tk_resolve(h, oh, &c, &o);
	int token, rc;

	if (rv != CKR_OK)
		return rv;
	token = tk_obj_bool(o, CKA_TOKEN, CK_FALSE);
	if (!tk_obj_bool(o, CKA_DESTROYABLE, CK_TRUE))
		rv = CKR_ACTION_PROHIBITED;
	else if (token && !c.rw)
		rv = CKR_SESSION_READ_ONLY;
	tk_obj_free(o);
	if (rv != CKR_OK)
		return rv;
	if (token) {
		tk_db *d;
		rc = tk_slot_db(c.slot, &d);
		if (rc < 0)
			return tk_rv_from_pv(rc);
		rc = tk_store_obj_delete(d, tk_handle_oid(c.slot, oh));
		tk_slot_db_put(c.slot, d);
		if (rc == PV_ERR_NOT_FOUND)
			return CKR_OBJECT_HANDLE_INVALID;
		return tk_rv_from_pv(rc);
	}
	tk_mutex_lock(tk_g.mu);
	rv = tk_sobj_unlink(c.slot, oh, &o) ? CKR_OK : CKR_OBJECT_HANDLE_INVALID;
	tk_mutex_unlock(tk_g.mu);
	if (rv == CKR_OK)
		tk_obj_free(o);
	return rv;
}

CK_RV tk_object_size(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh, CK_ULONG *size)
{
	tk_ctx c;
	tk_obj *o;
	CK_RV rv = tk_resolve(h, oh, &c, &o);
	size_t i;
	CK_ULONG sz = 0;

	if (rv != CKR_OK)
		return rv;
	/* the stored size: attribute values plus their (oid, type) keys */
	for (i = 0; i < o->n; i++)
		sz += o->a[i].len + 16;
	*size = sz + TK_UID_LEN;
	tk_obj_free(o);
	return CKR_OK;
}

CK_RV tk_get_attributes(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh,
                        CK_ATTRIBUTE *t, CK_ULONG n)
{
	tk_ctx c;
	tk_obj *o;
	CK_RV rv = tk_resolve(h, oh, &c, &o), ret = CKR_OK;
	CK_ULONG i;

	if (rv != CKR_OK)
		return rv;
	for (i = 0; i < n; i++) {
		const tk_attr *a = tk_obj_attr(o, t[i].type);
		CK_RV krv;
		if (tk_key_get_attr(h, o, &t[i], &krv)) {
			/* hidden attributes, a secret key's value (tk_key.c) */
			if (krv != CKR_OK && ret == CKR_OK)
				ret = krv;
			continue;
		}
		if (a == NULL) {
			t[i].ulValueLen = CK_UNAVAILABLE_INFORMATION;
			ret = CKR_ATTRIBUTE_TYPE_INVALID;
		} else if (t[i].pValue == NULL) {
			t[i].ulValueLen = a->len;
		} else if (t[i].ulValueLen >= a->len) {
			if (a->len > 0)
				memcpy(t[i].pValue, a->val, a->len);
			t[i].ulValueLen = a->len;
		} else {
			t[i].ulValueLen = CK_UNAVAILABLE_INFORMATION;
			if (ret == CKR_OK)
				ret = CKR_BUFFER_TOO_SMALL;
		}
	}
	tk_obj_free(o);
	return ret;
}

CK_RV tk_set_attributes(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh,
                        const CK_ATTRIBUTE *t, CK_ULONG n)
{
	tk_ctx c;
	tk_obj *o, *no, *old;
	CK_RV rv;
	int token, rc;

	if (n > 0 && t != NULL && (rv = tk_tmpl_check(t, n)) != CKR_OK)
		return rv;
	rv = tk_resolve(h, oh, &c, &o);
	if (rv != CKR_OK)
		return rv;
	token = tk_obj_bool(o, CKA_TOKEN, CK_FALSE);
	if (token && !c.rw)
		rv = CKR_SESSION_READ_ONLY;
	else if (!tk_obj_bool(o, CKA_MODIFIABLE, CK_TRUE))
		rv = CKR_ACTION_PROHIBITED;
	else
		rv = tk_policy_apply(TK_OP_SET, o, t, n, c.login == CKU_SO, &no);
	if (rv == CKR_OK && (rv = tk_key_repolicy(h, o, no)) != CKR_OK)
		tk_obj_free(no);
	tk_obj_free(o);
	if (rv != CKR_OK)
		return rv;
	if (token) {
		tk_db *d;
		rc = tk_slot_db(c.slot, &d);
		if (rc == PV_OK) {
			rc = tk_store_obj_update(d, tk_handle_oid(c.slot, oh), no);
			tk_slot_db_put(c.slot, d);
		}
		tk_obj_free(no);
		if (rc == PV_ERR_NOT_FOUND)
			return CKR_OBJECT_HANDLE_INVALID;
		return tk_rv_from_pv(rc);
	}
	/* copy on write: holders of the old object keep their snapshot */
	tk_mutex_lock(tk_g.mu);
	if (tk_sobj_unlink(c.slot, oh, &old)) {
		no->h = old->h;
		no->owner = old->owner;
		no->next = c.slot->sobjs;
		c.slot->sobjs = no;
		tk_obj_free(old);
		no = NULL;
	} else {
		rv = CKR_OBJECT_HANDLE_INVALID;
	}
	tk_mutex_unlock(tk_g.mu);
	tk_obj_free(no);
	return rv;
}

/* ---- find ---- */
CK_RV tk_find_init(CK_SESSION_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n)
{
	tk_session *se;
	tk_ctx c;
	CK_OBJECT_HANDLE *found = NULL;
	size_t nf = 0, cap = 0, i;
	int64_t *ids = NULL;
	size_t nids = 0;
	const tk_obj *o;
	CK_RV rv;
	int rc;

	for (i = 0; i < n; i++)
		if (t[i].pValue == NULL && t[i].ulValueLen > 0)
			return CKR_ARGUMENTS_BAD;
	tk_mutex_lock(tk_g.mu);
	rv = tk_ctx_get(h, &c);
	se = tk_session_get(h);
	if (rv == CKR_OK && se->finding)
		rv = CKR_OPERATION_ACTIVE;
	if (rv == CKR_OK) {
		se->finding = 1;          /* reserve; results follow */
		for (o = c.slot->sobjs; o != NULL && rv == CKR_OK; o = o->next) {
			if (!tk_visible(o, c.login) || !tk_obj_match(o, t, n))
				continue;
			if (nf == cap) {
				CK_OBJECT_HANDLE *nfd;
				cap = cap ? cap * 2 : 16;
				nfd = realloc(found, cap * sizeof *nfd);
				if (nfd == NULL) {
					rv = CKR_HOST_MEMORY;
					break;
				}
				found = nfd;
			}
			found[nf++] = o->h;
		}
	}
	tk_mutex_unlock(tk_g.mu);
	if (rv == CKR_OPERATION_ACTIVE || rv == CKR_SESSION_HANDLE_INVALID)
		return rv;

	if (rv == CKR_OK) {
		tk_db *d;
		rc = tk_slot_db(c.slot, &d);
		if (rc == PV_OK) {
			rc = tk_store_find(d, t, n, c.login == CKU_USER, &ids, &nids);
			tk_slot_db_put(c.slot, d);
		}
		rv = tk_rv_from_pv(rc);
	}
	if (rv == CKR_OK && nids > 0) {
		CK_OBJECT_HANDLE *nfd = realloc(found, (nf + nids) * sizeof *nfd);
		if (nfd == NULL) {
			rv = CKR_HOST_MEMORY;
		} else {
			found = nfd;
			for (i = 0; i < nids; i++)
				found[nf++] = tk_handle_token(c.slot, ids[i]);
		}
	}
	free(ids);

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se == NULL) {
		rv = CKR_SESSION_HANDLE_INVALID;
	} else if (rv != CKR_OK) {
		se->finding = 0;
	} else {
		free(se->found);
		se->found = found;
		se->nfound = nf;
		se->pos = 0;
		found = NULL;
	}
	tk_mutex_unlock(tk_g.mu);
	free(found);
	return rv;
}

/* Under g.mu: session h, which must be in a find operation. */
static CK_RV tk_finding(CK_SESSION_HANDLE h, tk_session **se)
{
	*se = tk_session_get(h);
	if (*se == NULL)
		return CKR_SESSION_HANDLE_INVALID;
	return (*se)->finding ? CKR_OK : CKR_OPERATION_NOT_INITIALIZED;
}

CK_RV tk_find(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE *out, CK_ULONG max,
              CK_ULONG *count)
{
	tk_session *se;
	CK_RV rv;
	CK_ULONG k = 0;

	tk_mutex_lock(tk_g.mu);
	rv = tk_finding(h, &se);
	if (rv == CKR_OK) {
		while (k < max && se->pos < se->nfound)
			out[k++] = se->found[se->pos++];
		*count = k;
	}
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

CK_RV tk_find_final(CK_SESSION_HANDLE h)
{
	tk_session *se;
	CK_RV rv;

	tk_mutex_lock(tk_g.mu);
	rv = tk_finding(h, &se);
	if (rv == CKR_OK) {
		free(se->found);
		se->found = NULL;
		se->nfound = se->pos = 0;
		se->finding = 0;
	}
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

/* ---- for the key code (tk_key.h) ---- */
CK_RV tk_object_get(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE oh, tk_obj **out)
{
	tk_ctx c;

	return tk_resolve(h, oh, &c, out);
}

int tk_object_so(CK_SESSION_HANDLE h)
{
	tk_ctx c;

	return tk_ctx_take(h, &c) == CKR_OK && c.login == CKU_SO;
}

CK_RV tk_object_add(CK_SESSION_HANDLE h, tk_obj *o, CK_OBJECT_HANDLE *out)
{
	tk_ctx c;
	CK_RV rv;

	rv = tk_ctx_take(h, &c);
	if (rv != CKR_OK)
		return rv;
	return tk_store_new(h, &c, o, out);
}
