/*
 * tk_migrate.c - legacy token stores into today's format (tk_migrate.h).
 *
 * The states of the token directory, and what tk_mig_begin does with
 * each (live = <serial>/, work = .mig-<serial>/):
 *
 *   live legacy, no work          migrate
 *   live legacy, work             a build that never reached the swap:
 *                                 work removed, migrate
 *   live current, work legacy     swapped, not yet tidied: work becomes
 *                                 .legacy-<serial> (TK_MIG_FINISHED)
 *   live current, no work         nothing to do (TK_MIG_CURRENT)
 *
 * The swap (renameat2 RENAME_EXCHANGE) is the one step that changes what
 * <serial>/ holds, and it is atomic: every process sees the old store or
 * the new one, complete (its file fsync'ed before).  The old store's
 * connection takes it with locking_mode EXCLUSIVE, which also tells
 * whether a process has it open (an open WAL connection holds a shared
 * lock on the file), keeps newcomers out until the swap, and reads it
 * without writing: that connection never checkpoints on close.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_secmem.h"
#include "token/tk_key.h"
#include "token/tk_migrate_int.h"
/* after pkcs11.h: its compat macros (iv_len, aad_len) rename pv_req
 * fields consistently in this file */
#include "gpu/vault.h"

#define MIG_LOCK_WAIT_MS 15000
#define MIG_BUSY_MS      2000     /* a slot scan's peek ends long before */

int tk_mig_fail(tk_mig *m, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->why, sizeof m->why, fmt, ap);
	va_end(ap);
	return rc;
}

const char *tk_mig_why(const tk_mig *m)
{
	return m->why;
}

void tk_mig_fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int mig_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* Remove a store directory: its files (a store holds no subdirectory),
 * then itself. */
static int mig_rmdir(const char *path)
{
	char f[TK_MIG_PATH + 300];
	struct dirent *e;
	DIR *d = opendir(path);

	if (d == NULL)
		return errno == ENOENT ? PV_OK : PV_ERR_IO;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(f, sizeof f, "%s/%s", path, e->d_name);
		unlink(f);
	}
	closedir(d);
	return rmdir(path) == 0 ? PV_OK : PV_ERR_IO;
}

int tk_mig_sqerr(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK: case SQLITE_DONE: case SQLITE_ROW: return PV_OK;
	case SQLITE_BUSY: case SQLITE_LOCKED: return PV_ERR_BUSY;
	case SQLITE_READONLY: case SQLITE_PERM: case SQLITE_CANTOPEN: return PV_ERR_PERM;
	case SQLITE_FULL: return PV_ERR_FULL;
	case SQLITE_NOMEM: return PV_ERR_NOMEM;
	case SQLITE_CORRUPT: case SQLITE_NOTADB: return PV_ERR_CORRUPT;
	default: return PV_ERR_IO;
	}
}

/* TK_MIG_LEGACY or TK_MIG_CURRENT by the store's PIN rows: verifiers of
 * the old scheme (32 bytes) or the vault's records; PV_ERR_CORRUPT for a
 * store with neither, or whose token is not serial. */
static int mig_kind_db(sqlite3 *db, const char *serial)
{
	sqlite3_stmt *st = NULL;
	long old, rec;
	int ok = 0;

	if (sqlite3_prepare_v2(db, "SELECT serial FROM token_info WHERE id = 1", -1, &st,
	                       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0) != NULL)
		ok = strcmp((const char *)sqlite3_column_text(st, 0), serial) == 0;
	sqlite3_finalize(st);
	if (!ok)
		return PV_ERR_CORRUPT;
	old = tk_sql_count(db, "SELECT count(*) FROM pins WHERE length(verifier) = 32");
	rec = tk_sql_count(db, "SELECT count(*) FROM pins WHERE length(verifier) = 128");
	if (old > 0)
		return TK_MIG_LEGACY;
	return rec > 0 ? TK_MIG_CURRENT : PV_ERR_CORRUPT;
}

static int mig_kind(const char *dbpath, const char *serial)
{
	sqlite3 *db = NULL;
	int rc;

	if (!mig_exists(dbpath))
		return PV_ERR_NOT_FOUND;
	rc = tk_store_conn_ro(dbpath, &db);
	if (rc < 0)
		return rc;
	sqlite3_busy_timeout(db, MIG_BUSY_MS);
	rc = mig_kind_db(db, serial);
	sqlite3_close(db);
	return rc;
}

/* <token_dir>/.legacy-<serial>, or .legacy-<serial>.N if taken. */
static int mig_legacy_name(const tk_mig *m, char *out, size_t cap)
{
	int i;

	snprintf(out, cap, "%s/.legacy-%s", m->dir, m->serial);
	for (i = 2; mig_exists(out) && i < 100; i++)
		snprintf(out, cap, "%s/.legacy-%s.%d", m->dir, m->serial, i);
	return mig_exists(out) ? PV_ERR_IO : PV_OK;
}

/* The old store, now at work/, goes to its keeping place. */
static int mig_keep_old(tk_mig *m, tk_mig_info *info)
{
	char keep[TK_MIG_PATH];
	int rc = mig_legacy_name(m, keep, sizeof keep);

	if (rc == PV_OK && rename(m->work, keep) != 0)
		rc = PV_ERR_IO;
	if (rc != PV_OK) {
		snprintf(info->legacy_dir, sizeof info->legacy_dir, "%s", m->work);
		return tk_mig_fail(m, rc, "the old store stays at %s (%s)", m->work, strerror(errno));
	}
	tk_mig_fsync_dir(m->dir);
	snprintf(info->legacy_dir, sizeof info->legacy_dir, "%s", keep);
	return PV_OK;
}

static int mig_flock(tk_mig *m)
{
	int rc = tk_dir_lock(m->dir, MIG_LOCK_WAIT_MS, &m->lockfd);

	if (rc == PV_ERR_BUSY)
		return tk_mig_fail(m, rc, "another program holds %s/.lock (a token being made, "
		                "deleted, restored or migrated)", m->dir);
	return rc;
}

/* Read the legacy PIN rows through the exclusive connection. */
static int mig_read_pins(tk_mig *m)
{
	sqlite3_stmt *st = NULL;
	int rc = PV_OK;

	if (sqlite3_prepare_v2(m->old, "SELECT who, iterations, salt, verifier FROM pins",
	                       -1, &st, NULL) != SQLITE_OK)
		return tk_mig_sqerr(sqlite3_errcode(m->old));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int who = sqlite3_column_int(st, 0);
		sqlite3_int64 it = sqlite3_column_int64(st, 1);
		tk_mig_pin *p;
		if (who != (int)CKU_SO && who != (int)CKU_USER)
			continue;
		p = &m->pin[who];
		if (it < 1 || it > 0xffffffffLL || sqlite3_column_bytes(st, 2) != TK_PIN_SALT_LEN ||
		    sqlite3_column_bytes(st, 3) != TK_PIN_VERIFIER_LEN) {
			rc = SQLITE_CORRUPT;
			break;
		}
		p->set = 1;
		p->iterations = (uint32_t)it;
		memcpy(p->salt, sqlite3_column_blob(st, 2), TK_PIN_SALT_LEN);
		memcpy(p->verifier, sqlite3_column_blob(st, 3), TK_PIN_VERIFIER_LEN);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || !m->pin[CKU_SO].set)
		return tk_mig_fail(m, PV_ERR_CORRUPT, "%s: its PIN rows are damaged", m->live);
	return PV_OK;
}

/* The legacy store, exclusively: refused (busy) while any other
 * connection has it open. */
static int mig_open_old(tk_mig *m)
{
	char db[TK_MIG_PATH + 16];
	int rc, k;

	snprintf(db, sizeof db, "%s/token.db", m->live);
	if (!tk_store_writable(db))
		return tk_mig_fail(m, PV_ERR_PERM, "%s is not writable by this user", m->live);
	rc = sqlite3_open_v2(db, &m->old, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		return tk_mig_sqerr(rc);
	sqlite3_busy_timeout(m->old, MIG_BUSY_MS);
	/* the old store stays byte for byte as it is: no checkpoint at close */
	sqlite3_db_config(m->old, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	rc = sqlite3_exec(m->old, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;",
	                  NULL, NULL, NULL);
	if ((rc & 0xff) == SQLITE_BUSY)
		return tk_mig_fail(m, PV_ERR_BUSY, "a process has token %s open: stop the programs "
		                "that use it (or pvaultd clients of it), then run the command again",
		                m->serial);
	if (rc != SQLITE_OK)
		return tk_mig_sqerr(rc);
	k = mig_kind_db(m->old, m->serial);
	if (k != TK_MIG_LEGACY)
		return k < 0 ? k : PV_ERR_GENERAL;
	return mig_read_pins(m);
}

int tk_mig_begin(const char *token_dir, const char *serial, tk_mig **out, tk_mig_info *info)
{
	tk_mig *m = (tk_mig *)calloc(1, sizeof *m);
	char db[TK_MIG_PATH + 16];
	int rc, live, work;

	*out = NULL;
	memset(info, 0, sizeof *info);
	if (m == NULL)
		return PV_ERR_NOMEM;
	m->lockfd = -1;
	*out = m;
	if (strlen(serial) != 16 || strchr(serial, '/') || strlen(token_dir) >= sizeof m->dir)
		return PV_ERR_ARGS;
	memcpy(m->serial, serial, 17);
	memcpy(m->dir, token_dir, strlen(token_dir) + 1);
	snprintf(m->live, sizeof m->live, "%s/%s", token_dir, serial);
	snprintf(m->work, sizeof m->work, "%s/.mig-%s", token_dir, serial);
	if ((rc = mig_flock(m)) != PV_OK)
		return rc;
	snprintf(db, sizeof db, "%s/token.db", m->live);
	live = mig_kind(db, serial);
	if (live < 0)
		return live;
	if (mig_exists(m->work)) {
		snprintf(db, sizeof db, "%s/token.db", m->work);
		work = mig_kind(db, serial);
		if (live == TK_MIG_LEGACY) {
			/* never swapped in: the old store is the token still */
			if (mig_rmdir(m->work) != PV_OK)
				return tk_mig_fail(m, PV_ERR_IO, "cannot remove the unfinished %s: %s",
				                m->work, strerror(errno));
			tk_mig_fsync_dir(m->dir);
		} else if (work == TK_MIG_LEGACY) {
			/* swapped in: the old store waits at work/ */
			m->state = info->state = TK_MIG_FINISHED;
			return mig_keep_old(m, info);
		} else {
			return tk_mig_fail(m, PV_ERR_IO, "%s is left from something else than a "
			                "migration of this token: look at it and remove it", m->work);
		}
	}
	if (live == TK_MIG_CURRENT) {
		m->state = info->state = TK_MIG_CURRENT;
		return PV_OK;
	}
	if ((rc = mig_open_old(m)) != PV_OK)
		return rc;
	m->state = info->state = TK_MIG_LEGACY;
	info->user_pin_set = m->pin[CKU_USER].set;
	{
		char q[128];
		snprintf(q, sizeof q, "SELECT count(*) FROM attributes WHERE type = %lu",
		         (unsigned long)TK_CKA_BLOB);
		info->nkeys = tk_sql_count(m->old, q);
	}
	return PV_OK;
}

int tk_mig_pin_check(tk_mig *m, CK_USER_TYPE who, const CK_UTF8CHAR *pin, CK_ULONG len)
{
	uint8_t v[TK_PIN_VERIFIER_LEN];
	tk_mig_pin *p;
	int rc;

	if (m->state != TK_MIG_LEGACY || (who != CKU_SO && who != CKU_USER))
		return PV_ERR_ARGS;
	p = &m->pin[who];
	if (!p->set)
		return PV_ERR_NOT_FOUND;
	if (pin == NULL || len < TK_PIN_MIN || len > TK_PIN_MAX)
		return PV_ERR_PIN_INCORRECT;
	rc = kc_pbkdf2_hmac(KC_HASH_SHA256, (const uint8_t *)pin, (size_t)len, p->salt,
	                    TK_PIN_SALT_LEN, p->iterations, v, sizeof v);
	if (rc == PV_OK)
		rc = kc_ct_eq(v, p->verifier, sizeof v) ? PV_OK : PV_ERR_PIN_INCORRECT;
	kc_wipe(v, sizeof v);
	p->ok = rc == PV_OK;
	return rc;
}

void tk_mig_end(tk_mig *m)
{
	if (m == NULL)
		return;
	if (m->old != NULL)
		sqlite3_close(m->old);
	if (m->lockfd >= 0)
		tk_dir_unlock(m->lockfd);
	kc_wipe(m->pin, sizeof m->pin);
	free(m);
}

/* The vault seals under the key file's master key: a throwaway key it
 * imports under the master KEK opens with the key file (pvaultd does not
 * tell its fingerprint, and a token sealed under another key than the one
 * its store records could not be used). */
static int mig_same_master(tk_mig *m, const tk_mig_cb *cb)
{
	uint8_t k[32], id[16], blob[PV_BLOB_MAX], *back = pv_secmem_alloc(TK_MIG_KEY_MAX);
	size_t bl = 0;
	uint32_t type = 0, usage = 0, policy = 0;
	pv_req r;
	int rc = back == NULL ? PV_ERR_NOMEM : tk_random(k, sizeof k);

	if (rc == PV_OK)
		rc = tk_random(id, sizeof id);
	if (rc == PV_OK) {
		pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);
		r.in = k; r.in_len = sizeof k;
		r.new_type = PV_KEY_AES;
		memcpy(r.new_id, id, sizeof id);
		r.out = blob; r.out_cap = sizeof blob;
		rc = tk_vault_call(&r);
		if (rc != PV_OK)
			rc = tk_mig_fail(m, rc, "the vault cannot seal keys: %s", pv_strerror(rc));
	}
	if (rc == PV_OK) {
		rc = cb->key(cb->arg, blob, r.out_len, id, back, TK_MIG_KEY_MAX, &bl, &type, &usage,
		             &policy);
		if (rc != PV_OK || bl != sizeof k || !kc_ct_eq(back, k, sizeof k))
			rc = tk_mig_fail(m, PV_ERR_WRAPPED, "the vault runs under another master key "
			                 "than the configured key file (%s)", cb->master_fpr);
	}
	kc_wipe(k, sizeof k);
	pv_secmem_free(back);
	return rc;
}

int tk_mig_run(tk_mig *m, const CK_UTF8CHAR *so, CK_ULONG so_len, const CK_UTF8CHAR *user,
               CK_ULONG user_len, const tk_mig_cb *cb, tk_mig_info *info)
{
	char fpr[TK_FPR_LEN], rec[17], why[512];
	sqlite3_stmt *st = NULL;
	int rc;

	m->why[0] = '\0';
	if (m->state != TK_MIG_LEGACY || !m->pin[CKU_SO].ok ||
	    (m->pin[CKU_USER].set && (user == NULL || !m->pin[CKU_USER].ok)))
		return PV_ERR_ARGS;
	if (!m->pin[CKU_USER].set)
		user = NULL;
	/* the store's blobs must be under the key file's master key, and the
	 * vault that seals them again must run under it too */
	rec[0] = '\0';
	if (sqlite3_prepare_v2(m->old, "SELECT value FROM pv_meta WHERE key = 'master_fpr'",
	                       -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0) != NULL)
		snprintf(rec, sizeof rec, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rec[0] != '\0' && strcmp(rec, cb->master_fpr) != 0)
		return tk_mig_fail(m, PV_ERR_WRAPPED, "token %s is recorded under master key %s, the "
		                "configured key file is %s", m->serial, rec, cb->master_fpr);
	if (tk_vault_why(why, sizeof why) != TK_VAULT_READY)
		return tk_mig_fail(m, PV_ERR_SEALED, "the vault cannot seal keys: %s", why);
	if (tk_vault_master_fpr(fpr)[0] != '\0' && strcmp(fpr, cb->master_fpr) != 0)
		return tk_mig_fail(m, PV_ERR_WRAPPED, "the vault runs under master key %s, the "
		                "configured key file is %s", fpr, cb->master_fpr);
	if ((rc = mig_same_master(m, cb)) != PV_OK)
		return rc;

	rc = tk_mig_build(m, so, so_len, user, user_len, cb, info);
	if (rc == PV_OK && cb->delay_us)
		usleep(cb->delay_us);
	if (rc == PV_OK && renameat2(AT_FDCWD, m->work, AT_FDCWD, m->live, RENAME_EXCHANGE) != 0)
		rc = tk_mig_fail(m, PV_ERR_IO, "cannot swap %s and %s: %s%s", m->work, m->live,
		              strerror(errno), errno == EINVAL || errno == ENOSYS ?
		              " (the token directory's file system cannot exchange two names "
		              "atomically)" : "");
	if (rc != PV_OK) {
		(void)mig_rmdir(m->work);       /* the old store stays the token */
		tk_mig_fsync_dir(m->dir);
		return rc;
	}
	tk_mig_fsync_dir(m->dir);
	/* the token is migrated: what follows only tidies */
	sqlite3_close(m->old);
	m->old = NULL;
	m->state = TK_MIG_FINISHED;
	if (cb->delay_us)
		usleep(cb->delay_us);
	(void)mig_keep_old(m, info);
	info->state = TK_MIG_FINISHED;
	return PV_OK;
}
