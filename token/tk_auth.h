/*
 * tk_auth.h - what the vault needs to know about who asks: the token a
 * request acts for, this process's login ticket for it, and the policy of
 * a key the request makes (tk_auth.c).  Also the PIN operations that go
 * through the vault: records, login, logout.
 *
 * The vault enforces; the token layer only carries: a token's private
 * keys (CKA_PRIVATE) are sealed under its token key, which opens only
 * with a ticket the vault answers to a right PIN (docs/token-store.md,
 * "Token key and PINs").
 */
#ifndef TK_AUTH_H
#define TK_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "token/tk_int.h"

struct pv_req;

#define TK_MECHS_MAX 64             /* PV_MECHS_MAX */
typedef struct tk_auth {
	uint8_t tid[TK_TOKEN_ID_LEN];
	uint8_t ticket[TK_TICKET_LEN];
	size_t ticket_len;
	uint32_t new_policy;            /* PV_POL_* of a key the request makes */
	uint8_t mechs[4 * TK_MECHS_MAX];     /* the key's list (vault form)    */
	size_t mechs_len;
	uint8_t new_mechs[4 * TK_MECHS_MAX]; /* a new key's list               */
	size_t new_mechs_len;
} tk_auth;
#define TK_AUTH_INIT { .ticket_len = 0 }

/* The token id and this process's ticket of session h's token (none: not
 * logged in).  CKR_SESSION_HANDLE_INVALID. */
CK_RV tk_auth_session(CK_SESSION_HANDLE h, tk_auth *a);
/* Under g.mu: the same from a slot. */
void tk_auth_slot(const tk_slot *s, tk_auth *a);
/* The policy of new key object o (CKA_PRIVATE, SENSITIVE, TRUSTED,
 * WRAP_WITH_TRUSTED, CKA_ALLOWED_MECHANISMS in the vault's form, which
 * also goes into o as TK_CKA_BLOB_MECHS) for the requests that make it.
 * CKR_ATTRIBUTE_VALUE_INVALID for a list of more than TK_MECHS_MAX
 * mechanisms the vault tells apart, CKR_HOST_MEMORY. */
CK_RV tk_auth_new(tk_auth *a, tk_obj *o);
/* The PV_POL_* flags o's attributes give (tk_auth_new's policy). */
uint32_t tk_auth_policy(const tk_obj *o);
/* The allowed list of key object o, for the requests that use it. */
void tk_auth_key(tk_auth *a, const tk_obj *o);

/* Put a's token id, ticket and new policy into r. */
void tk_auth_req(const tk_auth *a, struct pv_req *r);
void tk_auth_clear(tk_auth *a);

/* ---- PINs through the vault ---- */
/* A new token key for token tid and the SO's record of it under pin
 * (fresh PBKDF2 salt) into so. */
int tk_auth_token_new(const uint8_t tid[TK_TOKEN_ID_LEN], const CK_UTF8CHAR *pin,
                      CK_ULONG len, tk_pinrec *so);
/* Log in as who (CKU_SO / CKU_USER) with pin against rec: the ticket
 * into ticket (TK_TICKET_LEN; *tlen 0 in daemon mode, where pvaultd keeps
 * it).  PV_ERR_PIN_INCORRECT for a wrong PIN, PV_ERR_CORRUPT for a store
 * not migrated to records. */
int tk_auth_login(const uint8_t tid[TK_TOKEN_ID_LEN], CK_USER_TYPE who,
                  const tk_pinrec *rec, const CK_UTF8CHAR *pin, CK_ULONG len,
                  uint8_t ticket[TK_TICKET_LEN], size_t *tlen);
/* The same with the "no login" record (no PIN). */
int tk_auth_login_none(const uint8_t tid[TK_TOKEN_ID_LEN], const uint8_t rec[TK_PIN_RECORD_LEN],
                       uint8_t ticket[TK_TICKET_LEN], size_t *tlen);
/* A record of the token key for who under pin (CKU_SO / CKU_USER; pin
 * NULL: the "no login" record), made with the ticket of a's login. */
int tk_auth_pin_record(const tk_auth *a, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
                       CK_ULONG len, tk_pinrec *out);
/* The same with iter PBKDF2 iterations (tests that storm logins). */
int tk_auth_pin_record_iter(const tk_auth *a, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
                            CK_ULONG len, uint32_t iter, tk_pinrec *out);
/* Tell pvaultd this process's login to tid ended (embedded: nothing). */
void tk_auth_logout(const uint8_t tid[TK_TOKEN_ID_LEN]);
/* The "no login" ticket of s from its record rec, unless s holds a login
 * already (no lock held; tk_session.c).  PV_OK, or why the vault refused. */
int tk_nologin_ticket(tk_slot *s, const uint8_t rec[TK_PIN_RECORD_LEN]);
/* Under g.mu: forget s's ticket (wiped). */
void tk_slot_drop_ticket(tk_slot *s);
/* A PIN record that the vault's master key does not open: say so. */
void tk_foreign_record_warn(tk_slot *s);
/* A store whose PINs predate the vault's records: say what to do. */
void tk_legacy_store_warn(tk_slot *s);
/* who's PIN is locked: say how it is unlocked (once, until a login of
 * who succeeds again). */
void tk_locked_warn(tk_slot *s, CK_USER_TYPE who);
void tk_locked_clear(tk_slot *s, CK_USER_TYPE who);
/* s's store is read-only for this user: say why no login is possible. */
void tk_readonly_warn(tk_slot *s);

#endif
