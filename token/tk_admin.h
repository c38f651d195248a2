/*
 * tk_admin.h - administration of token stores, for the pvault CLI.
 *
 * Works on the token directories directly (no PKCS#11 session): list the
 * tokens under a token_dir, read one token's summary (label, slot, object
 * counts by class), record metadata beside the PKCS#11 tables (the master
 * key fingerprint the store's blobs are wrapped under, the owner and group
 * the operator named), and delete a token directory.
 *
 * Metadata lives in its own table, created on first write:
 *   CREATE TABLE pv_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
 * Keys: "master_fpr" (16 hex digits, gpu/host/pv_master.h), "owner",
 * "group", "login" ("none": the token needs no login, read by the module
 * too; absent: a login is required).  Readers treat a missing table as
 * "nothing recorded".
 *
 * All functions return PV_OK or a negative PV_ERR_* (gpu/core/pv_err.h).
 */
#ifndef TK_ADMIN_H
#define TK_ADMIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct tk_admin_token {
	char serial[17];
	char dir[4200];             /* <token_dir>/<serial>               */
	char dbpath[4300];          /* <dir>/token.db                     */
	long slot_no;
	char label[33];             /* blank padding removed              */
	int64_t created;            /* unix time                          */
	int64_t changes;            /* committed changes                  */
	int user_pin_set;
	int so_fails, user_fails;
	long nobjects, nsecret, nprivate, npublic, ncert, ndata;
	long nwrapped;              /* objects holding a vault blob       */
	char master_fpr[17];        /* "" when not recorded               */
	char owner[64], group[64];  /* "" when not recorded               */
	int no_login;               /* a "no login" record is stored      */
	int read_only;              /* this user may read, not write it   */
	int legacy;                 /* of the format before token keys (PIN
	                               verifiers): pvault token migrate   */
} tk_admin_token;

/* The token directory named by pixelvault.conf. */
int tk_admin_token_dir(char *out, size_t cap);

/* Summary of the token store at dbpath (read-only open). */
int tk_admin_get(const char *dbpath, tk_admin_token *t);

/* Every token under token_dir, ordered by slot number; *out is malloc'd
 * (free()).  A token directory that cannot be read is skipped. */
int tk_admin_list(const char *token_dir, tk_admin_token **out, size_t *n);

/* Find a token by serial or label (exact).  PV_ERR_NOT_FOUND, or
 * PV_ERR_ARGS when a label names more than one token. */
int tk_admin_find(const char *token_dir, const char *name, tk_admin_token *t);

/* Set metadata keys in one transaction (n pairs); a NULL value removes
 * its key (back to "nothing recorded"). */
int tk_admin_meta_set(const char *dbpath, const char *const *keys,
                      const char *const *values, size_t n);

/* Master key rotation of one store, in ONE transaction (BEGIN IMMEDIATE ..
 * COMMIT): every key blob is passed to fn (which re-seals it under the
 * new master key; out has cap bytes) and replaced, and pv_meta.master_fpr
 * becomes new_fpr.  A crash at any point leaves either the old state or
 * the new one.  Returns PV_OK, 1 if the store already records new_fpr
 * (nothing done), PV_ERR_WRAPPED if it records neither fingerprint, or
 * fn's error (everything rolled back).  progress (may be NULL) is called
 * after each blob with (done, total). */
typedef int (*tk_admin_rewrap_fn)(void *arg, const uint8_t *blob, size_t len,
                                  const uint8_t id[16], uint8_t *out, size_t cap,
                                  size_t *out_len);
int tk_admin_rewrap(const char *dbpath, const char *old_fpr, const char *new_fpr,
                    tk_admin_rewrap_fn fn, void *arg,
                    void (*progress)(void *arg, unsigned long done, unsigned long total));

/* Remove a token directory: renamed to <token_dir>/.del-<serial> first
 * (atomic: the token disappears at once), then its files removed. */
int tk_admin_delete(const char *token_dir, const char *serial);

#endif /* TK_ADMIN_H */
