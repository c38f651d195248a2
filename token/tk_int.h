/*
 * tk_int.h - internals of the token layer (not for pkcs11/).
 *
 * Locking: one process-wide mutex (g.mu) guards the slot table, the
 * session table, login states and the slots' lists of session objects;
 * it is held only for short memory work, never across PBKDF2 or SQLite
 * I/O, and never to copy an object: a caller that resolves a session
 * object takes a reference under it (tk_obj) and reads the object after
 * unlocking.  Each token keeps a pool
 * of SQLite connections (tk_db); a thread takes a connection for the
 * duration of one store call, so readers run in parallel (WAL) and writers
 * serialise inside SQLite (BEGIN IMMEDIATE + busy_timeout).
 * Lock order: g.mu, then a slot's pool mutex; never the reverse.
 */
#ifndef TK_INT_H
#define TK_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sqlite3.h>

#include "token/tk.h"

/* ---- mutexes ---- */
typedef struct tk_mutex tk_mutex;
tk_mutex *tk_mutex_new(void);
void tk_mutex_free(tk_mutex *m);
void tk_mutex_lock(tk_mutex *m);
void tk_mutex_unlock(tk_mutex *m);
/* Select the implementation (NULL = pthreads).  Called by tk_initialize. */
void tk_mutex_setup(const tk_mutex_ops *ops);
/* pthread_mutex_init, adaptive where glibc has it (tk_lock.c); 0 or -1. */
int tk_mutex_init_adaptive(pthread_mutex_t *pm);

/* ---- attributes and objects in memory ---- */
typedef struct tk_attr {
	CK_ATTRIBUTE_TYPE type;
	CK_ULONG len;
	uint8_t *val;                 /* malloc'd, may be NULL when len == 0 */
} tk_attr;

/* An object in memory.  Reference counted: tk_obj_new gives the caller
 * the only reference, tk_obj_ref adds one, tk_obj_free drops one and frees
 * the object with the last.  Once an object is shared (a session object on
 * its slot's list, handed out by tk_resolve) it is immutable: nothing
 * changes h, owner, uid, a or n, and C_SetAttributeValue replaces the
 * object on the list by a new one (copy on write), so a holder keeps the
 * snapshot it took.  next belongs to the slot's list, under g.mu. */
typedef struct tk_obj {
	CK_OBJECT_HANDLE h;
	CK_SESSION_HANDLE owner;      /* session objects: the creating session */
	uint8_t uid[TK_UID_LEN];
	tk_attr *a;
	size_t n;
	unsigned refs;                /* atomic (__atomic builtins)          */
	struct tk_obj *next;
} tk_obj;

/* An empty object, one reference (NULL: no memory). */
tk_obj *tk_obj_new(void);
/* One more reference to o (the caller holds one, or holds g.mu while o is
 * on a slot's list); returns o. */
tk_obj *tk_obj_ref(tk_obj *o);
/* Drop one reference; the last frees o (NULL: nothing). */
void tk_obj_free(tk_obj *o);
tk_attr *tk_obj_attr(const tk_obj *o, CK_ATTRIBUTE_TYPE t);
CK_BBOOL tk_obj_bool(const tk_obj *o, CK_ATTRIBUTE_TYPE t, CK_BBOOL dflt);
CK_ULONG tk_obj_ulong(const tk_obj *o, CK_ATTRIBUTE_TYPE t, CK_ULONG dflt);
/* Set (replace or append) one attribute; PV_ERR_NOMEM. */
int tk_obj_set(tk_obj *o, CK_ATTRIBUTE_TYPE t, const void *v, CK_ULONG len);
/* A private, unshared copy (one reference): what copy on write starts from. */
tk_obj *tk_obj_dup(const tk_obj *o);

/* ---- attribute policy (tk_attr.c) ---- */
enum { TK_OP_CREATE, TK_OP_COPY, TK_OP_SET };
/* Validate tmpl for op against the policy table; on create build the
 * complete object (defaults, computed attributes) in *out (caller frees).
 * For copy/set, 'base' is the existing object and *out the result. */
CK_RV tk_policy_apply(int op, const tk_obj *base, const CK_ATTRIBUTE *t,
                      CK_ULONG n, int so_logged_in, tk_obj **out);
/* One template attribute of a key made outside the policy tables (key
 * pairs, imported private keys, ECDH-derived keys: tk_pk_keys.c), checked
 * as the tables check it where they know it: a boolean's size and value,
 * CKA_ALLOWED_MECHANISMS a whole number of mechanisms, CKA_TRUSTED TRUE
 * only by the SO (CKR_ATTRIBUTE_READ_ONLY). */
CK_RV tk_attr_key_check(const CK_ATTRIBUTE *a, int so_logged_in);
/* 1 if the key object o already has a usage attribute (CKA_ENCRYPT,
 * DECRYPT, SIGN, VERIFY, SIGN_RECOVER, VERIFY_RECOVER, WRAP, UNWRAP,
 * DERIVE): its template asked for those usages, and every usage it left
 * out defaults to CK_FALSE.  (The standard leaves defaults to the token;
 * they "may depend on the values of other attributes".)  A template that
 * names none gets the defaults of the key's class and type. */
int tk_obj_names_usage(const tk_obj *o);
/* 1 if the template has a duplicate attribute type. */
int tk_tmpl_has_dup(const CK_ATTRIBUTE *t, CK_ULONG n);
/* CKR_ATTRIBUTE_VALUE_INVALID if a value of t is longer than
 * TK_ATTR_VALUE_MAX (no value is read): the first check of every call
 * that takes a template to make or change an object. */
CK_RV tk_tmpl_check(const CK_ATTRIBUTE *t, CK_ULONG n);
/* 1 if o matches every attribute of t (byte-exact). */
int tk_obj_match(const tk_obj *o, const CK_ATTRIBUTE *t, CK_ULONG n);

/* ---- the store (tk_store.c) ---- */
typedef struct tk_db tk_db;

typedef struct tk_tokinfo {
	CK_SLOT_ID slot_no;
	char serial[17];
	uint8_t label[32];
	int user_pin_set;
	int so_fails, user_fails;
	int no_login;                 /* a "no login" record is stored      */
	uint8_t nologin_rec[TK_PIN_RECORD_LEN];
} tk_tokinfo;

/* A PIN: the PBKDF2 salt and count of its PIN key and the vault's record
 * of the token key under it (vlen TK_PIN_RECORD_LEN), or in a store not
 * migrated yet the PBKDF2 verifier itself (vlen TK_PIN_VERIFIER_LEN). */
typedef struct tk_pinrec {
	uint8_t salt[TK_PIN_SALT_LEN];
	uint8_t verifier[TK_PIN_RECORD_LEN];
	uint32_t vlen;
	uint32_t iterations;
	int fails;
} tk_pinrec;

/* Create a new token database at path (fails if it exists). */
int tk_store_create(const char *path, CK_SLOT_ID slot_no, const char *serial,
                    const uint8_t label[32], const tk_pinrec *so);
/* Open a connection (WAL, busy_timeout, schema check); read-only where
 * this user cannot write the store (tk_store_writable). */
int tk_store_open(const char *path, tk_db **out);
void tk_store_close(tk_db *d);
int tk_store_info(tk_db *d, tk_tokinfo *ti);
/* Read-only peek at a token file's slot number (used by the slot scan). */
int tk_store_peek_slot(const char *path, CK_SLOT_ID *slot_no, char serial[17]);
/* 1 when this process may write the store at path: the file and its
 * directory (WAL keeps -wal and -shm files beside it). */
int tk_store_writable(const char *path);
/* A read-only SQLite connection to the store at path, also where this
 * user may read but not write it (tk_store_open and pvault use it then:
 * such a token is listed, read-only, rather than hidden). */
int tk_store_conn_ro(const char *path, struct sqlite3 **out);
/* The first column of sql's first row as a number, -1 if there is none. */
long tk_sql_count(struct sqlite3 *db, const char *sql);

/* One counted PIN try: tk_store_pin_try_begin fills it, the check reads
 * rec, tk_store_pin_try_end settles it.  Wipe it after use (rec). */
typedef struct tk_pintry {
	CK_USER_TYPE who;
	int64_t ticket;               /* its pin_tries row                    */
	int64_t period;               /* pins.period when it was counted      */
	tk_pinrec rec;                /* the PIN record it is checked against */
} tk_pintry;

/* who: CKU_SO or CKU_USER.  PV_ERR_NOT_FOUND if not set. */
int tk_store_pin_get(tk_db *d, CK_USER_TYPE who, tk_pinrec *p);
/* Set who's PIN record (C_InitPIN, C_SetPIN): a new period begins, and the
 * counter keeps only the tries still in flight. */
int tk_store_pin_put(tk_db *d, CK_USER_TYPE who, const tk_pinrec *p);
/* Count one try of who's PIN in advance, in one write transaction (rules:
 * docs/token-store.md, "Lockout policy"; tk_store.c).  PV_ERR_LOCKED when
 * the counter is at TK_PIN_MAX_FAILS; else the counter goes up by one, the
 * try is recorded as in flight, the transaction commits and *t gets the
 * PIN record.  Only after PV_OK may the caller check the PIN: any error
 * (PV_ERR_FULL, PV_ERR_IO, PV_ERR_PERM, PV_ERR_BUSY, ...) means nothing
 * was counted, so the PIN must not be checked.  PV_ERR_NOT_FOUND: who has
 * no PIN. */
int tk_store_pin_try_begin(tk_db *d, CK_USER_TYPE who, tk_pintry *t);
/* Settle a try that tk_store_pin_try_begin counted, in one write
 * transaction.  good 0 (a wrong PIN, or a check that failed): the count
 * stays.  good 1: the try takes back its own count, and when no other try
 * of who is in flight the counter is cleared and a new period begins.
 * Returns the failures left (>= 0), or an error: then the try stays
 * counted as a failure (until it goes stale, TK_PIN_TRY_STALE_S). */
int tk_store_pin_try_end(tk_db *d, const tk_pintry *t, int good);
/* Reinitialise: drop every object and the user PIN, set label; so (may be
 * NULL: kept) becomes the SO PIN record - one transaction. */
int tk_store_reinit(tk_db *d, const uint8_t label[32], const tk_pinrec *so);

/* Objects.  oid is the store row id (never reused). */
int tk_store_obj_insert(tk_db *d, const tk_obj *o, int64_t *oid);
/* Same, for an object holding a vault blob made under the master key with
 * fingerprint fpr (NULL / "": unknown, no check): in the same transaction
 * the store's pv_meta.master_fpr is recorded if absent, and a different
 * recorded value refuses the insert with PV_ERR_WRAPPED. */
/* C_InitToken: the store's recorded master key fingerprint becomes fpr
 * (NULL / "": none recorded; the first key blob records it). */
int tk_store_fpr_reset(tk_db *d, const char *fpr);
int tk_store_obj_insert_fpr(tk_db *d, const tk_obj *o, const char *fpr, int64_t *oid);
int tk_store_obj_load(tk_db *d, int64_t oid, tk_obj **out);
int tk_store_obj_delete(tk_db *d, int64_t oid);
/* Replace all attributes of oid by those of o (one transaction). */
int tk_store_obj_update(tk_db *d, int64_t oid, const tk_obj *o);
/* Ids of token objects matching tmpl; private ones only if priv_ok.
 * *ids is malloc'd. */
int tk_store_find(tk_db *d, const CK_ATTRIBUTE *t, CK_ULONG n, int priv_ok,
                  int64_t **ids, size_t *nids);

/* ---- slots (tk_slot.c) ---- */
typedef struct tk_slot {
	CK_SLOT_ID id;
	int initialized;              /* 0: the "new token" slot            */
	int read_only;                /* this user cannot write its store   */
	char serial[17];
	char dir[4200];
	char dbpath[4300];
	/* login state of this process on this token */
	CK_USER_TYPE login;           /* (CK_USER_TYPE)-1: nobody            */
	int no_login;                 /* token needs no login: read at session
	                               * open and C_GetTokenInfo            */
	uint8_t tid[TK_TOKEN_ID_LEN]; /* the vault's token id (the serial)   */
	uint8_t ticket[TK_TICKET_LEN];/* the vault's answer to this process's
	                               * login (tk_auth.c); empty in daemon
	                               * mode, where pvaultd keeps it         */
	size_t ticket_len;            /* 0 in daemon mode                    */
	int has_ticket;               /* a login (or "no login") is held     */
	unsigned warned;              /* TK_WARN_* said once (atomic)        */
	CK_ULONG nsess, nrw;
	tk_obj *sobjs;                /* session objects                    */
	/* connection pool */
	tk_mutex *pool_mu;
	tk_db *pool;
	struct tk_slot *next;
} tk_slot;

#define TK_NOBODY ((CK_USER_TYPE)-1)
/* the module's warnings about a token, each written once a process */
#define TK_WARN_NOLOGIN 1u
#define TK_WARN_LEGACY  2u
#define TK_WARN_FOREIGN 4u
#define TK_WARN_LOCKED_USER 8u
#define TK_WARN_LOCKED_SO 16u
#define TK_WARN_READONLY 32u
/* 1 the first time bit is asked for on s. */
int tk_warn_once(tk_slot *s, unsigned bit);

/* Under g.mu: the login state calls act on.  A token set to need no login
 * (the vault opened its "no login" record, docs/token-store.md) acts as user-logged-in
 * while nobody is logged in; an SO login still takes precedence. */
CK_USER_TYPE tk_slot_login(const tk_slot *s);

/* Take / give back a store connection of an initialised slot. */
int tk_slot_db(tk_slot *s, tk_db **out);
void tk_slot_db_put(tk_slot *s, tk_db *d);
/* tk_store_info of an initialised slot's store (a pooled connection). */
int tk_slot_store_info(tk_slot *s, tk_tokinfo *ti);
tk_db *tk_db_next(tk_db *d);
void tk_db_set_next(tk_db *d, tk_db *n);
/* Under g.mu: rescan the token directory; find a slot. */
int tk_slots_refresh(void);
tk_slot *tk_slot_find(CK_SLOT_ID id);
void tk_slots_free(void);

/* ---- sessions (tk_session.c) ---- */
typedef struct tk_session {
	CK_SESSION_HANDLE h;
	tk_slot *slot;
	CK_FLAGS flags;
	int finding;
	CK_OBJECT_HANDLE *found;
	size_t nfound, pos;
} tk_session;

/* Under g.mu. NULL if invalid. */
tk_session *tk_session_get(CK_SESSION_HANDLE h);
/* Check pin of who on s as one counted try (begin, check, end; no lock
 * held): CKR_OK, CKR_PIN_INCORRECT, CKR_PIN_LOCKED,
 * CKR_USER_PIN_NOT_INITIALIZED, or the error of counting it
 * (tk_rv_pin_count: the PIN was not checked). */
CK_RV tk_pin_verify(tk_slot *s, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
                    CK_ULONG len, uint8_t ticket[TK_TICKET_LEN], size_t *tlen);
void tk_sessions_free(void);

/* ---- PINs (tk_pin.c) ---- */
/* The check of one counted try t of slot s: 1 right (the vault's ticket
 * into ticket / *tlen), 0 wrong, <0 error.  The one call that knows how a
 * PIN is checked (by the vault, tk_auth_login); the caller holds no lock
 * and no store connection (it is the slow part). */
int tk_pin_try_check(tk_slot *s, const tk_pintry *t, const CK_UTF8CHAR *pin,
                     CK_ULONG len, uint8_t ticket[TK_TICKET_LEN], size_t *tlen);
CK_RV tk_pin_len_check(const CK_UTF8CHAR *pin, CK_ULONG len);

/* ---- process state ---- */
struct tk_global {
	int init;
	pid_t pid;
	tk_mutex *mu;
	char token_dir[4096];
	tk_slot *slots;
	tk_session **sess;            /* indexed by handle - 1 */
	size_t sess_cap;
	CK_SESSION_HANDLE next_sess;
	CK_OBJECT_HANDLE next_sobj;
	int no_threads;               /* CKF_LIBRARY_CANT_CREATE_OS_THREADS */
};
extern struct tk_global tk_g;

/* A CK_ULONG template value: CKR_ATTRIBUTE_VALUE_INVALID unless the
 * attribute holds exactly one (tk_attr.c). */
CK_RV tk_tmpl_ulong(const CK_ATTRIBUTE *a, CK_ULONG *v);

/* Object handle <-> store id. */
CK_OBJECT_HANDLE tk_handle_token(const tk_slot *s, int64_t oid);
int tk_handle_is_session(CK_OBJECT_HANDLE h);
int64_t tk_handle_oid(const tk_slot *s, CK_OBJECT_HANDLE h); /* 0 if foreign */

/* n bytes as 2n lower-case hex digits and a NUL into out; back: 0, or -1
 * unless hex is exactly 2n hex digits. */
void tk_hex_encode(const uint8_t *in, size_t n, char *out);
int tk_hex_decode(const char *hex, uint8_t *out, size_t n);

/* Random bytes (OS).  PV_ERR_RANDOM. */
int tk_random(void *p, size_t n);

/* The directory part of path into out (cap bytes): "." when path has no
 * '/', "/" for a file at the root. */
void tk_dirname(const char *path, char *out, size_t cap);

/* The token directory's flock (<token_dir>/.lock), held by whoever adds,
 * replaces or removes a token directory: C_InitToken, pvault token
 * delete, restore and migrate.  Waits up to wait_ms (TK_DIR_LOCK_BLOCK:
 * as long as it takes); PV_OK with the descriptor in *fd (tk_dir_unlock
 * releases it), PV_ERR_BUSY if another process kept it, PV_ERR_PERM or
 * PV_ERR_IO if the file cannot be opened. */
#define TK_DIR_LOCK_BLOCK (-1)
int tk_dir_lock(const char *token_dir, int wait_ms, int *fd);
void tk_dir_unlock(int fd);

/* Read the token directory from pixelvault.conf. */
int tk_conf_token_dir(char *out, size_t cap);

#endif /* TK_INT_H */
