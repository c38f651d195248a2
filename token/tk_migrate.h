/*
 * tk_migrate.h - a token store of the format before token keys made into
 * one of today's, for `pvault token migrate` (docs/token-store.md,
 * "Migrating older stores").
 *
 * Such a "legacy" store holds its PINs as PBKDF2-HMAC-SHA256 verifiers
 * (pins.alg 'pbkdf2-hmac-sha256', 32 bytes) and every key blob under the
 * master key alone, with no policy bound in.  The migration builds the new
 * store in <token_dir>/.mig-<serial>/, a copy of the old one in which a
 * new token key (made by the vault for the token's serial), the SO's and
 * the user's PIN records replace the verifiers and every key is sealed
 * again for the token with the policy its attributes give, then swaps the
 * two directories in one rename (RENAME_EXCHANGE) and keeps the old store
 * at <token_dir>/.legacy-<serial>/.
 *
 *   tk_mig *m;  tk_mig_info i;
 *   tk_mig_begin(dir, serial, &m, &i);     // lock; i.state, i.user_pin_set
 *   tk_mig_pin_check(m, CKU_SO, pin, len); // against the old verifier
 *   tk_mig_run(m, &pins, &cb, &i);         // build, swap
 *   tk_mig_end(m);
 *
 * Crash safety: until the swap the old store is not written (its
 * connection holds it exclusively and never checkpoints); killed at any
 * point, the next tk_mig_begin removes an unfinished .mig-<serial> (the
 * token is still legacy) or, if the swap happened, moves the old store
 * from there to .legacy-<serial> (TK_MIG_FINISHED).
 *
 * Functions return PV_OK or a negative PV_ERR_*; tk_mig_why says why in a
 * sentence when there is more to say than the code.
 */
#ifndef TK_MIGRATE_H
#define TK_MIGRATE_H

#include <stddef.h>
#include <stdint.h>

#include "token/tk.h"

typedef struct tk_mig tk_mig;

enum {
	TK_MIG_LEGACY = 1,     /* to be migrated                                */
	TK_MIG_CURRENT,        /* in today's format: nothing to do              */
	TK_MIG_FINISHED        /* an interrupted migration's swap had happened:
	                          begin finished it                             */
};

typedef struct tk_mig_info {
	int state;             /* TK_MIG_*                                      */
	int user_pin_set;      /* the legacy store has a user PIN               */
	long nkeys;            /* objects holding a key blob                    */
	long npublic;          /* ... of them not CKA_PRIVATE (after tk_mig_run):
	                          usable without a login, as they were          */
	int had_no_login;      /* the old store said "no login" (not carried over:
	                          nothing authenticated it)                     */
	char legacy_dir[4400]; /* where the old store is kept (FINISHED, or
	                          after tk_mig_run)                             */
} tk_mig_info;

/* Take the token directory's flock, finish or clean up what an earlier run
 * left, and (state TK_MIG_LEGACY) open the legacy store of token serial
 * exclusively.  PV_ERR_BUSY: a process has the store open (or the flock
 * stayed taken 15 s); PV_ERR_PERM: the store or the directory is not
 * writable by this user; PV_ERR_NOT_FOUND: no such token. */
int tk_mig_begin(const char *token_dir, const char *serial, tk_mig **out,
                 tk_mig_info *info);
/* Check pin against who's (CKU_SO / CKU_USER) legacy verifier, in
 * constant time, counting nothing: PV_OK, PV_ERR_PIN_INCORRECT,
 * PV_ERR_NOT_FOUND (no such PIN). */
int tk_mig_pin_check(tk_mig *m, CK_USER_TYPE who, const CK_UTF8CHAR *pin, CK_ULONG len);

/* The key of a legacy blob (identity id) in PV_OP_IMPORT_KEY's form into
 * key (cap bytes), its PV_KEY_* type into *type, and what the blob's
 * authenticated header bound (the old vault enforced it): PV_USE_* into
 * *usage, PV_POL_* into *policy, or TK_MIG_NO_POLICY for a blob format
 * that bound none (gpu/client/pv_legacy.h). */
#define TK_MIG_NO_POLICY 0xffffffffu
typedef int (*tk_mig_key_fn)(void *arg, const uint8_t *blob, size_t len, const uint8_t id[16],
                             uint8_t *key, size_t cap, size_t *klen, uint32_t *type,
                             uint32_t *usage, uint32_t *policy);
/* The allowed list the same blob binds (entries, 0 for none; the first
 * 16 bytes of its SHA-256), after key opened it. */
typedef int (*tk_mig_mechs_fn)(const uint8_t *blob, size_t len, uint32_t *n,
                               uint8_t dig[16]);
typedef struct tk_mig_cb {
	tk_mig_key_fn key;
	tk_mig_mechs_fn mechs;
	void *arg;
	const char *master_fpr;  /* the key fn's master key (16 hex digits)     */
	/* after each key sealed again (may be NULL) */
	void (*progress)(void *arg, unsigned long done, unsigned long total);
	unsigned delay_us;       /* test hook: a pause after each key and around
	                            the swap (PVAULT_TEST_MIGRATE_DELAY_US)      */
} tk_mig_cb;

/* Build the new store (SO PIN so, user PIN user or NULL when none is set,
 * both checked by tk_mig_pin_check first) and swap it in.  PV_ERR_WRAPPED:
 * a blob does not open under the master key, or the store records another
 * master key; PV_ERR_SEALED / PV_ERR_DEVICE: the vault cannot make the
 * token key; other errors from the store or the file system.  On error the
 * old store is as it was and nothing else is left. */
int tk_mig_run(tk_mig *m, const CK_UTF8CHAR *so, CK_ULONG so_len, const CK_UTF8CHAR *user,
               CK_ULONG user_len, const tk_mig_cb *cb, tk_mig_info *info);
/* Why the last call failed, when it says more than its code ("" if not). */
const char *tk_mig_why(const tk_mig *m);
/* Release the store and the flock.  NULL is a no-op. */
void tk_mig_end(tk_mig *m);

#endif /* TK_MIGRATE_H */
