/*
 * tk_auth.c - the token layer's side of the vault's login (tk_auth.h).
 *
 * A PIN becomes a PIN key here: PBKDF2-HMAC-SHA256 over the PIN with the
 * record's salt and count, the cost every guess pays.  The PIN key goes to
 * the vault with the record; the store holds only records, so nothing in
 * it can be checked against a guess without the master key.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/host/pv_log.h"
#include "token/tk_auth.h"
#include "token/tk_crypto.h"
#include "token/tk_key.h"
#include "token/tk_pk_int.h"
/* after pkcs11.h: its compat macros (iv_len, aad_len) rename pv_req
 * fields consistently in this file */
#include "gpu/vault.h"

_Static_assert(TK_PIN_RECORD_LEN == PV_RECORD_LEN, "record size");
_Static_assert(TK_TICKET_LEN == PV_TICKET_LEN, "ticket size");
_Static_assert(TK_TOKEN_ID_LEN == PV_OBJ_ID_LEN, "token id size");
_Static_assert(CKU_SO == PV_WHO_SO && CKU_USER == PV_WHO_USER, "who");
_Static_assert(TK_MECHS_MAX == PV_MECHS_MAX, "allowed-list size");

void tk_auth_slot(const tk_slot *s, tk_auth *a)
{
	memset(a, 0, sizeof *a);
	memcpy(a->tid, s->tid, TK_TOKEN_ID_LEN);
	if (s->has_ticket && s->ticket_len == TK_TICKET_LEN) {
		memcpy(a->ticket, s->ticket, TK_TICKET_LEN);
		a->ticket_len = TK_TICKET_LEN;
	}
}

CK_RV tk_auth_session(CK_SESSION_HANDLE h, tk_auth *a)
{
	tk_session *se;

	tk_mutex_lock(tk_g.mu);
	se = tk_session_get(h);
	if (se != NULL)
		tk_auth_slot(se->slot, a);
	tk_mutex_unlock(tk_g.mu);
	return se != NULL ? CKR_OK : CKR_SESSION_HANDLE_INVALID;
}

/* A mechanism as an allowed-list entry (ve_login.c's form: mech << 16 |
 * variant << 8 | prf & 0xff, prf 0 = any; a secret-key mechanism: any
 * variant's prf, the mechanism itself); a mechanism nobody here knows
 * becomes an entry no request matches. */
static uint32_t tk_mech_entry(CK_MECHANISM_TYPE ckm)
{
	const tk_pkdef *d = tk_pkfind(ckm);
	const tk_symdef *s;

	if (d != NULL)
		return d->pv << 16 | (d->hashdata ? PV_MV_HASH_DATA : 0u) << 8 | (d->prf & 0xffu);
	s = tk_symfind(ckm);
	if (s != NULL && s->pv_key != 0)
		return s->pv << 16;
	return 0xffff0000u;
}

static int tk_u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

/* o's CKA_ALLOWED_MECHANISMS in the vault's form: sorted, each entry once,
 * big-endian (the same list the same attribute gives, every time). */
static CK_RV tk_auth_list(const tk_obj *o, uint8_t out[4 * TK_MECHS_MAX], size_t *len)
{
	const tk_attr *am = tk_obj_attr(o, CKA_ALLOWED_MECHANISMS);
	uint32_t e[TK_MECHS_MAX];
	size_t n = 0, i, j, k;

	*len = 0;
	if (am == NULL || am->len == 0)
		return CKR_OK;
	if (am->len % sizeof(CK_MECHANISM_TYPE) != 0)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	for (i = 0; i < am->len / sizeof(CK_MECHANISM_TYPE); i++) {
		CK_MECHANISM_TYPE m;
		uint32_t v;
		memcpy(&m, am->val + i * sizeof m, sizeof m);
		v = tk_mech_entry(m);
		for (j = 0; j < n && e[j] != v; j++)
			;
		if (j < n)
			continue;
		if (n == TK_MECHS_MAX)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		e[n++] = v;
	}
	qsort(e, n, sizeof e[0], tk_u32_cmp);
	for (k = 0; k < n; k++) {
		out[4 * k] = (uint8_t)(e[k] >> 24);
		out[4 * k + 1] = (uint8_t)(e[k] >> 16);
		out[4 * k + 2] = (uint8_t)(e[k] >> 8);
		out[4 * k + 3] = (uint8_t)e[k];
	}
	*len = 4 * n;
	return CKR_OK;
}

void tk_auth_key(tk_auth *a, const tk_obj *o)
{
	const tk_attr *m = tk_obj_attr(o, TK_CKA_BLOB_MECHS);

	a->mechs_len = 0;
	if (m != NULL && m->len <= sizeof a->mechs) {
		memcpy(a->mechs, m->val, m->len);
		a->mechs_len = m->len;
	}
}

uint32_t tk_auth_policy(const tk_obj *o)
{
	CK_OBJECT_CLASS c = tk_obj_ulong(o, CKA_CLASS, CKO_SECRET_KEY);
	uint32_t p = 0;

	/* a key is the token's private key unless it says otherwise: the
	 * default of secret and private keys alike */
	if (tk_obj_bool(o, CKA_PRIVATE, c == CKO_SECRET_KEY || c == CKO_PRIVATE_KEY))
		p |= PV_POL_TOKEN;
	if (tk_obj_bool(o, CKA_SENSITIVE, CK_FALSE))
		p |= PV_POL_SENSITIVE;
	if (tk_obj_bool(o, CKA_TRUSTED, CK_FALSE))
		p |= PV_POL_TRUSTED;
	if (tk_obj_bool(o, CKA_WRAP_WITH_TRUSTED, CK_FALSE))
		p |= PV_POL_WRAP_TRUSTED;
	return p;
}

CK_RV tk_auth_new(tk_auth *a, tk_obj *o)
{
	CK_RV rv;

	a->new_policy = tk_auth_policy(o);
	rv = tk_auth_list(o, a->new_mechs, &a->new_mechs_len);
	if (rv == CKR_OK && a->new_mechs_len > 0 &&
	    tk_obj_set(o, TK_CKA_BLOB_MECHS, a->new_mechs, (CK_ULONG)a->new_mechs_len) < 0)
		rv = CKR_HOST_MEMORY;
	return rv;
}

void tk_auth_req(const tk_auth *a, pv_req *r)
{
	memcpy(r->token_id, a->tid, PV_OBJ_ID_LEN);
	r->ticket = a->ticket_len ? a->ticket : NULL;
	r->ticket_len = a->ticket_len;
	r->new_policy = a->new_policy;
	r->mechs = a->mechs_len ? a->mechs : NULL;
	r->mechs_len = a->mechs_len;
	r->new_mechs = a->new_mechs_len ? a->new_mechs : NULL;
	r->new_mechs_len = a->new_mechs_len;
}

void tk_auth_clear(tk_auth *a)
{
	kc_wipe(a, sizeof *a);
}

/* ---- PINs ---- */

static int tk_pin_key(const CK_UTF8CHAR *pin, CK_ULONG len, const tk_pinrec *rec,
                      uint8_t key[PV_PIN_KEY_LEN])
{
	if (len > TK_PIN_MAX)
		return PV_ERR_PIN_INCORRECT;
	return kc_pbkdf2_hmac(KC_HASH_SHA256, (const uint8_t *)pin, (size_t)len, rec->salt,
	                      TK_PIN_SALT_LEN, rec->iterations, key, PV_PIN_KEY_LEN);
}

/* A record of the request's kind (TOKEN_NEW / PIN_RECORD) for who into
 * out, the PIN key derived with a fresh salt (pin NULL: "no login"). */
static int tk_record(uint32_t op, const tk_auth *a, uint32_t who, const CK_UTF8CHAR *pin,
                     CK_ULONG len, uint32_t iter, const uint8_t tid[TK_TOKEN_ID_LEN],
                     tk_pinrec *out)
{
	uint8_t key[PV_PIN_KEY_LEN];
	pv_req r;
	int rc = PV_OK;

	memset(out, 0, sizeof *out);
	memset(key, 0, sizeof key);
	if (pin != NULL) {
		out->iterations = iter;
		rc = tk_random(out->salt, sizeof out->salt);
		if (rc == PV_OK)
			rc = tk_pin_key(pin, len, out, key);
	}
	if (rc == PV_OK) {
		pv_req_init(&r, op, PV_MECH_NONE);
		if (a != NULL)
			tk_auth_req(a, &r);
		memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
		r.new_policy = 0;
		r.who = who;
		r.in = key; r.in_len = sizeof key;
		r.out = out->verifier; r.out_cap = sizeof out->verifier;
		rc = tk_vault_call(&r);
		if (rc == PV_OK && r.out_len != TK_PIN_RECORD_LEN)
			rc = PV_ERR_GENERAL;
		out->vlen = TK_PIN_RECORD_LEN;
	}
	kc_wipe(key, sizeof key);
	if (rc != PV_OK)
		kc_wipe(out, sizeof *out);
	return rc;
}

int tk_auth_token_new(const uint8_t tid[TK_TOKEN_ID_LEN], const CK_UTF8CHAR *pin,
                      CK_ULONG len, tk_pinrec *so)
{
	return tk_record(PV_OP_TOKEN_NEW, NULL, PV_WHO_SO, pin, len, TK_PBKDF2_ITERATIONS, tid, so);
}

int tk_auth_pin_record(const tk_auth *a, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
                       CK_ULONG len, tk_pinrec *out)
{
	return tk_auth_pin_record_iter(a, who, pin, len, TK_PBKDF2_ITERATIONS, out);
}

int tk_auth_pin_record_iter(const tk_auth *a, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
                            CK_ULONG len, uint32_t iter, tk_pinrec *out)
{
	return tk_record(PV_OP_PIN_RECORD, a, pin == NULL ? PV_WHO_NOLOGIN : (uint32_t)who,
	                 pin, len, iter, a->tid, out);
}

static int tk_login_key(const uint8_t tid[TK_TOKEN_ID_LEN], uint32_t who, const uint8_t *rec,
                        const uint8_t key[PV_PIN_KEY_LEN], uint8_t ticket[TK_TICKET_LEN],
                        size_t *tlen)
{
	pv_req r;
	int rc;

	pv_req_init(&r, PV_OP_LOGIN, PV_MECH_NONE);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.who = who;
	r.key = rec; r.key_len = TK_PIN_RECORD_LEN;
	r.in = key; r.in_len = PV_PIN_KEY_LEN;
	r.out = ticket; r.out_cap = TK_TICKET_LEN;
	rc = tk_vault_call(&r);
	*tlen = rc == PV_OK ? r.out_len : 0;
	return rc;
}

int tk_auth_login(const uint8_t tid[TK_TOKEN_ID_LEN], CK_USER_TYPE who,
                  const tk_pinrec *rec, const CK_UTF8CHAR *pin, CK_ULONG len,
                  uint8_t ticket[TK_TICKET_LEN], size_t *tlen)
{
	uint8_t key[PV_PIN_KEY_LEN];
	int rc;

	*tlen = 0;
	if (rec->vlen != TK_PIN_RECORD_LEN)
		return PV_ERR_CORRUPT;        /* a store of the old scheme */
	rc = tk_pin_key(pin, len, rec, key);
	if (rc == PV_OK)
		rc = tk_login_key(tid, (uint32_t)who, rec->verifier, key, ticket, tlen);
	kc_wipe(key, sizeof key);
	return rc;
}

int tk_auth_login_none(const uint8_t tid[TK_TOKEN_ID_LEN], const uint8_t rec[TK_PIN_RECORD_LEN],
                       uint8_t ticket[TK_TICKET_LEN], size_t *tlen)
{
	static const uint8_t zero[PV_PIN_KEY_LEN];
	return tk_login_key(tid, PV_WHO_NOLOGIN, rec, zero, ticket, tlen);
}

void tk_auth_logout(const uint8_t tid[TK_TOKEN_ID_LEN])
{
	pv_req r;

	pv_req_init(&r, PV_OP_LOGOUT, PV_MECH_NONE);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	(void)tk_vault_call(&r);
}

void tk_slot_drop_ticket(tk_slot *s)
{
	kc_wipe(s->ticket, sizeof s->ticket);
	s->ticket_len = 0;
	s->has_ticket = 0;
}

int tk_warn_once(tk_slot *s, unsigned bit)
{
	return (__atomic_fetch_or(&s->warned, bit, __ATOMIC_RELAXED) & bit) == 0;
}

void tk_legacy_store_warn(tk_slot *s)
{
	if (!tk_warn_once(s, TK_WARN_LEGACY))
		return;
	pv_log(PV_LOG_WARN, "token %s: its store was made by an older PixelVault (PIN "
	       "verifiers instead of the vault's PIN records), which this version does not "
	       "use; with the master key file at hand, and no program using the token, "
	       "convert it: `pvault token migrate %s` (same PINs and keys)", s->serial,
	       s->serial);
}

static unsigned tk_locked_bit(CK_USER_TYPE who)
{
	return who == CKU_SO ? TK_WARN_LOCKED_SO : TK_WARN_LOCKED_USER;
}

void tk_locked_warn(tk_slot *s, CK_USER_TYPE who)
{
	if (!tk_warn_once(s, tk_locked_bit(who)))
		return;
	pv_log(PV_LOG_WARN, "token %s: the %s PIN is locked after %d failed tries: %s",
	       s->serial, who == CKU_SO ? "SO" : "user", TK_PIN_MAX_FAILS,
	       who == CKU_SO ? TK_SO_LOCKED : TK_USER_UNLOCK);
}

void tk_locked_clear(tk_slot *s, CK_USER_TYPE who)
{
	__atomic_fetch_and(&s->warned, ~tk_locked_bit(who), __ATOMIC_RELAXED);
}

void tk_readonly_warn(tk_slot *s)
{
	if (!tk_warn_once(s, TK_WARN_READONLY))
		return;
	pv_log(PV_LOG_WARN, "token %s: this user (uid %u) may read but not write its store "
	       "%s: a PIN try cannot be counted there, so no login is possible; give this "
	       "user write access to that directory and its files (owner or group, "
	       "as `pvault token init --owner/--group` sets them)",
	       s->serial, (unsigned)geteuid(), s->dir);
}

void tk_foreign_record_warn(tk_slot *s)
{
	if (!tk_warn_once(s, TK_WARN_FOREIGN))
		return;
	pv_log(PV_LOG_WARN, "token %s: its PIN records do not open under the master key the "
	       "vault runs with (they were made under another one): load the master key "
	       "the token was made with (`pvault token info` shows its fingerprint)",
	       s->serial);
}
