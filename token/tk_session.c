/*
 * tk_session.c - sessions, login state, PIN management.
 *
 * Login state belongs to the application (this process) per token: every
 * session of the process on that token shares it, and closing the last
 * session logs out.  PIN failure counters live in the store, so they are
 * shared by every process; a token locks after TK_PIN_MAX_FAILS failures.
 * Each try is counted before it is checked (tk_pin_verify); the check
 * runs with no lock held.
 *
 * A PIN is checked by the vault: it opens the token key's record under
 * that PIN and answers a ticket (tk_auth.c), which every later request for
 * the token's private keys carries; the slot keeps it while the login
 * lasts (wiped at logout and when the last session closes).
 *
 * A token the operator set to need no login (`pvault token init
 * --no-login`, tk_set_no_login) clears CKF_LOGIN_REQUIRED and acts as if
 * the user were logged in whenever nobody is (tk_slot_login): C_Login as
 * the user answers CKR_USER_ALREADY_LOGGED_IN, C_Logout is harmless, the SO
 * can still log in.  Its "no login" record is the vault's too: the ticket
 * comes from it (tk_nologin_ticket), and a store that merely claims the
 * setting gets no ticket, so its private keys stay closed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/host/pv_log.h"
#include "token/tk_admin.h"
#include "token/tk_auth.h"
#include "token/tk_crypto.h"
#include "token/tk_int.h"
#include "token/tk_pk.h"

CK_USER_TYPE tk_slot_login(const tk_slot *s)
{
	if (s->login == TK_NOBODY && s->no_login)
		return CKU_USER;
	return s->login;
}

tk_session *tk_session_get(CK_SESSION_HANDLE h)
{
	if (h == 0 || h > tk_g.sess_cap)
		return NULL;
	return tk_g.sess[h - 1];
}

static void tk_find_clear(tk_session *se)
{
	free(se->found);
	se->found = NULL;
	se->nfound = se->pos = 0;
	se->finding = 0;
}

/* Under g.mu: destroy a session and the session objects it owns. */
static void tk_session_destroy(tk_session *se)
{
	tk_slot *s = se->slot;
	tk_obj **pp = &s->sobjs;

	while (*pp != NULL) {
		if ((*pp)->owner == se->h) {
			tk_obj *o = *pp;
			*pp = o->next;
			tk_obj_free(o);
		} else {
			pp = &(*pp)->next;
		}
	}
	s->nsess--;
	if (se->flags & CKF_RW_SESSION)
		s->nrw--;
	if (s->nsess == 0) {
		s->login = TK_NOBODY;
		tk_slot_drop_ticket(s);
	}
	tk_g.sess[se->h - 1] = NULL;
	tk_find_clear(se);
	tk_ops_forget(se->h);         /* its operations (tk_optab.c) */
	free(se);
}

void tk_sessions_free(void)
{
	size_t i;

	for (i = 0; i < tk_g.sess_cap; i++)
		if (tk_g.sess[i] != NULL)
			tk_session_destroy(tk_g.sess[i]);
	free(tk_g.sess);
	tk_g.sess = NULL;
	tk_g.sess_cap = 0;
}

CK_RV tk_open_session(CK_SLOT_ID id, CK_FLAGS flags, CK_SESSION_HANDLE *out)
{
	tk_slot *s;
	tk_session *se;
	tk_tokinfo ti;
	CK_RV rv = CKR_OK;
	int rc, initialized;

	tk_mutex_lock(tk_g.mu);
	if ((s = tk_slot_find(id)) == NULL) {
		(void)tk_slots_refresh();
		s = tk_slot_find(id);
	}
	/* read under the lock: the slot may be turning into a new token */
	initialized = s != NULL && s->initialized;
	tk_mutex_unlock(tk_g.mu);
	if (s == NULL)
		return CKR_SLOT_ID_INVALID;
	if (!initialized)
		return CKR_TOKEN_NOT_RECOGNIZED;
	/* make sure the store opens before handing out a session; its login
	 * setting applies from this session on */
	rc = tk_slot_store_info(s, &ti);
	if (rc < 0)
		return tk_rv_from_pv(rc);
	/* "no login" holds only if the vault opens the token's record */
	if (ti.no_login && tk_nologin_ticket(s, ti.nologin_rec) != PV_OK)
		ti.no_login = 0;
	kc_wipe(ti.nologin_rec, sizeof ti.nologin_rec);

	se = calloc(1, sizeof *se);
	if (se == NULL)
		return CKR_HOST_MEMORY;
	tk_mutex_lock(tk_g.mu);
	if ((flags & CKF_RW_SESSION) && s->read_only) {
		rv = CKR_TOKEN_WRITE_PROTECTED;     /* CKF_WRITE_PROTECTED */
	} else if (!(flags & CKF_RW_SESSION) && s->login == CKU_SO) {
		rv = CKR_SESSION_READ_WRITE_SO_EXISTS;
	} else if (s->nsess >= TK_MAX_SESSIONS) {
		rv = CKR_SESSION_COUNT;
	} else if (tk_g.next_sess > tk_g.sess_cap) {
		size_t cap = tk_g.sess_cap ? tk_g.sess_cap * 2 : 64;
		tk_session **ns = realloc(tk_g.sess, cap * sizeof *ns);
		if (ns == NULL) {
			rv = CKR_HOST_MEMORY;
		} else {
			memset(ns + tk_g.sess_cap, 0,
			       (cap - tk_g.sess_cap) * sizeof *ns);
			tk_g.sess = ns;
			tk_g.sess_cap = cap;
		}
	}
	if (rv == CKR_OK) {
		s->no_login = ti.no_login;
		se->h = tk_g.next_sess++;
		se->slot = s;
		se->flags = flags & (CKF_RW_SESSION | CKF_SERIAL_SESSION | CKF_ASYNC_SESSION);
		tk_g.sess[se->h - 1] = se;
		s->nsess++;
		if (flags & CKF_RW_SESSION)
			s->nrw++;
		*out = se->h;
	}
	tk_mutex_unlock(tk_g.mu);
	if (rv != CKR_OK)
		free(se);
	return rv;
}

CK_RV tk_close_session(CK_SESSION_HANDLE h)
{
	tk_session *se;

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se != NULL)
		tk_session_destroy(se);
	tk_mutex_unlock(tk_g.mu);
	return se != NULL ? CKR_OK : CKR_SESSION_HANDLE_INVALID;
}

CK_RV tk_close_all_sessions(CK_SLOT_ID id)
{
	size_t i;
	tk_slot *s;

	tk_mutex_lock(tk_g.mu);
	s = tk_slot_find(id);
	if (s != NULL)
		for (i = 0; i < tk_g.sess_cap; i++)
			if (tk_g.sess[i] != NULL && tk_g.sess[i]->slot == s)
				tk_session_destroy(tk_g.sess[i]);
	tk_mutex_unlock(tk_g.mu);
	return s != NULL ? CKR_OK : CKR_SLOT_ID_INVALID;
}

CK_RV tk_session_check(CK_SESSION_HANDLE h)
{
	CK_RV rv;

	tk_mutex_lock(tk_g.mu);
	rv = tk_session_get(h) != NULL ? CKR_OK : CKR_SESSION_HANDLE_INVALID;
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

CK_RV tk_session_info(CK_SESSION_HANDLE h, CK_SESSION_INFO *info)
{
	tk_session *se;
	int rw;

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se == NULL) {
		tk_mutex_unlock(tk_g.mu);
		return CKR_SESSION_HANDLE_INVALID;
	}
	rw = (se->flags & CKF_RW_SESSION) != 0;
	memset(info, 0, sizeof *info);
	info->slotID = se->slot->id;
	info->flags = se->flags;
	if (se->slot->login == CKU_SO)
		info->state = CKS_RW_SO_FUNCTIONS;
	else if (tk_slot_login(se->slot) == CKU_USER)
		info->state = rw ? CKS_RW_USER_FUNCTIONS : CKS_RO_USER_FUNCTIONS;
	else
		info->state = rw ? CKS_RW_PUBLIC_SESSION : CKS_RO_PUBLIC_SESSION;
	info->ulDeviceError = 0;
	tk_mutex_unlock(tk_g.mu);
	return CKR_OK;
}

CK_RV tk_session_cancel(CK_SESSION_HANDLE h, int find_objects)
{
	tk_session *se;

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se != NULL && find_objects)
		tk_find_clear(se);
	tk_mutex_unlock(tk_g.mu);
	return se != NULL ? CKR_OK : CKR_SESSION_HANDLE_INVALID;
}

/* One PIN try in three steps (docs/token-store.md, "Lockout policy"):
 * count it as a failure in its own committed transaction, check it with
 * no lock or store connection held, then settle it (a right PIN takes
 * back its count).  A try that could not be counted is not checked.  If
 * settling fails, the try stays counted and the answer still follows the
 * check: the PIN was verified, the counter errs on the safe side.  The
 * check is the vault's (tk_pin_try_check): a right PIN's ticket goes into
 * ticket / *tlen. */
CK_RV tk_pin_verify(tk_slot *s, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
                    CK_ULONG len, uint8_t ticket[TK_TICKET_LEN], size_t *tlen)
{
	tk_pintry t;
	tk_db *d;
	int rc, ok;

	*tlen = 0;
	/* a PIN of a length the token never accepts cannot be right: no try
	 * is spent on it (the range is public: C_GetTokenInfo) */
	if (tk_pin_len_check(pin, len) != CKR_OK)
		return CKR_PIN_INCORRECT;
	if (s->read_only) {
		tk_readonly_warn(s);
		return CKR_DEVICE_ERROR;      /* as any store that cannot count */
	}
	/* a vault that cannot check the PIN (sealed, pvaultd away): refused
	 * before a try is counted, so the store stays as it was (the module
	 * logged why, once) */
	if (!tk_vault_ready())
		return CKR_DEVICE_ERROR;
	rc = tk_slot_db(s, &d);
	if (rc == PV_OK) {
		rc = tk_store_pin_try_begin(d, who, &t);
		tk_slot_db_put(s, d);
	}
	if (rc == PV_ERR_NOT_FOUND)
		return who == CKU_USER ? CKR_USER_PIN_NOT_INITIALIZED
		                       : CKR_GENERAL_ERROR;
	if (rc == PV_ERR_LOCKED)
		tk_locked_warn(s, who);
	if (rc < 0)
		return tk_rv_pin_count(rc);

	if (t.rec.vlen != TK_PIN_RECORD_LEN) {
		/* a store of the old scheme: nothing to check here */
		if (tk_slot_db(s, &d) == PV_OK) {
			(void)tk_store_pin_try_end(d, &t, 1);
			tk_slot_db_put(s, d);
		}
		kc_wipe(&t, sizeof t);
		tk_legacy_store_warn(s);
		return CKR_DEVICE_ERROR;
	}
	ok = tk_pin_try_check(s, &t, pin, len, ticket, tlen);

	/* an error (a record made under another master key, a sealed vault)
	 * is no wrong PIN: the try takes its count back */
	if (tk_slot_db(s, &d) == PV_OK) {
		(void)tk_store_pin_try_end(d, &t, ok != 0);
		tk_slot_db_put(s, d);
	}
	if (ok == PV_ERR_WRAPPED)
		tk_foreign_record_warn(s);
	kc_wipe(&t, sizeof t);
	if (ok != 1) {
		kc_wipe(ticket, TK_TICKET_LEN);
		*tlen = 0;
	} else {
		tk_locked_clear(s, who);
	}
	if (ok == PV_ERR_WRAPPED)
		return CKR_DEVICE_ERROR;
	return ok < 0 ? tk_rv_from_pv(ok) : ok ? CKR_OK : CKR_PIN_INCORRECT;
}

CK_RV tk_login(CK_SESSION_HANDLE h, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
               CK_ULONG len)
{
	uint8_t ticket[TK_TICKET_LEN];
	size_t tlen = 0;
	tk_session *se;
	tk_slot *s;
	CK_RV rv = CKR_OK;

	if (who != CKU_SO && who != CKU_USER && who != CKU_CONTEXT_SPECIFIC)
		return CKR_USER_TYPE_INVALID;
	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se == NULL) {
		tk_mutex_unlock(tk_g.mu);
		return CKR_SESSION_HANDLE_INVALID;
	}
	s = se->slot;
	if (who == CKU_CONTEXT_SPECIFIC)     /* CKA_ALWAYS_AUTHENTICATE keys: tk_pk.c */
		rv = !tk_pk_ctx_pending(h) ? CKR_OPERATION_NOT_INITIALIZED :
		     tk_slot_login(s) != CKU_USER ? CKR_USER_NOT_LOGGED_IN : CKR_OK;
	else if (tk_slot_login(s) == who)   /* a no-login token: already the user */
		rv = CKR_USER_ALREADY_LOGGED_IN;
	else if (s->login != TK_NOBODY)
		rv = CKR_USER_ANOTHER_ALREADY_LOGGED_IN;
	else if (who == CKU_SO && s->nsess > s->nrw)
		rv = CKR_SESSION_READ_ONLY_EXISTS;
	tk_mutex_unlock(tk_g.mu);
	if (rv != CKR_OK)
		return rv;
	if (pin == NULL)
		return CKR_ARGUMENTS_BAD;

	rv = tk_pin_verify(s, who == CKU_CONTEXT_SPECIFIC ? CKU_USER : who, pin, len, ticket, &tlen);
	if (rv != CKR_OK)
		return rv;
	if (who == CKU_CONTEXT_SPECIFIC) {
		kc_wipe(ticket, sizeof ticket);
		return tk_pk_ctx_authed(h);
	}

	tk_mutex_lock(tk_g.mu);
	if (tk_session_get(h) == NULL)
		rv = CKR_SESSION_HANDLE_INVALID;
	else if (s->login == who)
		rv = CKR_USER_ALREADY_LOGGED_IN;
	else if (s->login != TK_NOBODY)
		rv = CKR_USER_ANOTHER_ALREADY_LOGGED_IN;
	else if (who == CKU_SO && s->nsess > s->nrw)
		rv = CKR_SESSION_READ_ONLY_EXISTS;
	else {
		s->login = who;
		memcpy(s->ticket, ticket, sizeof ticket);
		s->ticket_len = tlen;
		s->has_ticket = 1;
	}
	tk_mutex_unlock(tk_g.mu);
	kc_wipe(ticket, sizeof ticket);
	return rv;
}

CK_RV tk_logout(CK_SESSION_HANDLE h)
{
	uint8_t tid[TK_TOKEN_ID_LEN];
	tk_session *se;
	CK_RV rv = CKR_OK;
	int told = 0;

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se == NULL) {
		rv = CKR_SESSION_HANDLE_INVALID;
	} else if (tk_slot_login(se->slot) == TK_NOBODY) {
		rv = CKR_USER_NOT_LOGGED_IN;
	} else if (se->slot->login != TK_NOBODY) {
		se->slot->login = TK_NOBODY;
		tk_slot_drop_ticket(se->slot);
		memcpy(tid, se->slot->tid, sizeof tid);
		told = 1;
	}
	tk_mutex_unlock(tk_g.mu);
	if (told)
		tk_auth_logout(tid);          /* pvaultd's copy of the login */
	return rv;
}

/* Session, slot and login state for PIN changes. */
static CK_RV tk_pin_session(CK_SESSION_HANDLE h, tk_slot **s,
                            CK_USER_TYPE *login)
{
	tk_session *se;
	CK_RV rv = CKR_OK;

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se == NULL) {
		rv = CKR_SESSION_HANDLE_INVALID;
	} else if (!(se->flags & CKF_RW_SESSION)) {
		rv = CKR_SESSION_READ_ONLY;
	} else {
		*s = se->slot;
		*login = se->slot->login;
	}
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

/* A new record for who under pin, made with the ticket of the login that
 * a holds, stored. */
static CK_RV tk_pin_store(tk_slot *s, const tk_auth *a, CK_USER_TYPE who,
                          const CK_UTF8CHAR *pin, CK_ULONG len)
{
	tk_pinrec rec;
	tk_db *d;
	int rc = tk_auth_pin_record(a, who, pin, len, &rec);

	if (rc == PV_OK)
		rc = tk_slot_db(s, &d);
	if (rc == PV_OK) {
		rc = tk_store_pin_put(d, who, &rec);
		tk_slot_db_put(s, d);
	}
	kc_wipe(&rec, sizeof rec);
	return tk_rv_from_pv(rc);
}

CK_RV tk_init_pin(CK_SESSION_HANDLE h, const CK_UTF8CHAR *pin, CK_ULONG len)
{
	tk_slot *s = NULL;
	CK_USER_TYPE login = TK_NOBODY;
	CK_RV rv = tk_pin_session(h, &s, &login);
	tk_auth a;

	if (rv != CKR_OK)
		return rv;
	if (login != CKU_SO)
		return CKR_USER_NOT_LOGGED_IN;
	rv = tk_pin_len_check(pin, len);
	if (rv != CKR_OK)
		return rv;
	rv = tk_auth_session(h, &a);
	if (rv == CKR_OK)
		rv = tk_pin_store(s, &a, CKU_USER, pin, len);
	tk_auth_clear(&a);
	return rv;
}

CK_RV tk_set_pin(CK_SESSION_HANDLE h, const CK_UTF8CHAR *old, CK_ULONG old_len,
                 const CK_UTF8CHAR *new_pin, CK_ULONG new_len)
{
	tk_slot *s = NULL;
	CK_USER_TYPE login = TK_NOBODY, who;
	CK_RV rv = tk_pin_session(h, &s, &login);
	tk_auth a;

	if (rv != CKR_OK)
		return rv;
	if (old == NULL || new_pin == NULL)
		return CKR_ARGUMENTS_BAD;
	who = login == CKU_SO ? CKU_SO : CKU_USER;
	rv = tk_pin_len_check(new_pin, new_len);
	if (rv != CKR_OK)
		return rv;
	/* the old PIN's ticket makes the new record (in daemon mode it
	 * replaces pvaultd's copy of this process's login: the same rights) */
	memset(&a, 0, sizeof a);
	memcpy(a.tid, s->tid, sizeof a.tid);
	rv = tk_pin_verify(s, who, old, old_len, a.ticket, &a.ticket_len);
	if (rv == CKR_OK)
		rv = tk_pin_store(s, &a, who, new_pin, new_len);
	tk_auth_clear(&a);
	return rv;
}

CK_RV tk_set_no_login(CK_SESSION_HANDLE h, int on)
{
	static const char *const key = "login_record";
	char hex[2 * TK_PIN_RECORD_LEN + 1], path[sizeof ((tk_slot *)0)->dbpath];
	const char *val = NULL;
	tk_pinrec rec;
	tk_session *se;
	tk_auth a;
	int rc = PV_OK;

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se == NULL) {
		tk_mutex_unlock(tk_g.mu);
		return CKR_SESSION_HANDLE_INVALID;
	}
	if (se->slot->login == TK_NOBODY) {
		tk_mutex_unlock(tk_g.mu);
		return CKR_USER_NOT_LOGGED_IN;
	}
	tk_auth_slot(se->slot, &a);
	memcpy(path, se->slot->dbpath, sizeof path);
	tk_mutex_unlock(tk_g.mu);
	memset(&rec, 0, sizeof rec);
	if (on) {
		rc = tk_auth_pin_record(&a, CKU_USER, NULL, 0, &rec);
		if (rc == PV_OK)
			tk_hex_encode(rec.verifier, TK_PIN_RECORD_LEN, hex);
		val = hex;
	}
	if (rc == PV_OK)
		rc = tk_admin_meta_set(path, &key, &val, 1);
	kc_wipe(&rec, sizeof rec);
	tk_auth_clear(&a);
	return tk_rv_from_pv(rc);
}

int tk_nologin_ticket(tk_slot *s, const uint8_t rec[TK_PIN_RECORD_LEN])
{
	uint8_t t[TK_TICKET_LEN];
	size_t tl = 0;
	int need, rc;

	tk_mutex_lock(tk_g.mu);
	need = !s->has_ticket && s->login == TK_NOBODY;
	tk_mutex_unlock(tk_g.mu);
	if (!need)
		return PV_OK;
	rc = tk_auth_login_none(s->tid, rec, t, &tl);
	if (rc == PV_OK) {
		tk_mutex_lock(tk_g.mu);
		if (!s->has_ticket && s->login == TK_NOBODY) {
			memcpy(s->ticket, t, sizeof t);
			s->ticket_len = tl;
			s->has_ticket = 1;
		}
		tk_mutex_unlock(tk_g.mu);
	} else if (rc != PV_ERR_SEALED && tk_warn_once(s, TK_WARN_NOLOGIN)) {
		pv_log(PV_LOG_WARN, "token %s: its store says it needs no login, but the vault "
		       "does not accept its \"no login\" record (the store was edited, or made "
		       "under another master key); log in with the user PIN, or set it again "
		       "with `pvault token set-login --serial %s none`", s->serial, s->serial);
	}
	kc_wipe(t, sizeof t);
	return rc;
}
