/*
 * tk_admin.c - token-store administration for pvault (tk_admin.h).
 *
 * Reads use read-only SQLite connections; the one write (pv_meta) is a
 * single BEGIN IMMEDIATE transaction.  The schema of the PKCS#11 tables is
 * docs/token-store.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>
#include <p11-kit/pkcs11.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "token/tk_admin.h"
#include "token/tk_int.h"
#include "token/tk_key.h"

#define TK_ADMIN_BUSY_MS 15000

int tk_admin_token_dir(char *out, size_t cap)
{
	return tk_conf_token_dir(out, cap);
}

static int adm_open(const char *path, int write, sqlite3 **db)
{
	int rc;

	if (access(path, F_OK) != 0)
		return PV_ERR_NOT_FOUND;
	if (!write) {
		rc = tk_store_conn_ro(path, db);
		if (rc == PV_OK)
			sqlite3_busy_timeout(*db, TK_ADMIN_BUSY_MS);
		return rc == PV_ERR_IO ? PV_ERR_PERM : rc;
	}
	rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_close(*db);
		*db = NULL;
		return rc == SQLITE_CANTOPEN || rc == SQLITE_PERM ? PV_ERR_PERM : PV_ERR_IO;
	}
	sqlite3_busy_timeout(*db, TK_ADMIN_BUSY_MS);
	return PV_OK;
}

/* Open for writing, durable commits, and begin a write transaction. */
static int adm_begin(const char *path, sqlite3 **db)
{
	int rc = adm_open(path, 1, db);

	if (rc != PV_OK)
		return rc;
	sqlite3_exec(*db, "PRAGMA synchronous=FULL;", NULL, NULL, NULL);
	if (sqlite3_exec(*db, "BEGIN IMMEDIATE;", NULL, NULL, NULL) != SQLITE_OK) {
		rc = sqlite3_errcode(*db) == SQLITE_BUSY ? PV_ERR_BUSY :
		     sqlite3_errcode(*db) == SQLITE_READONLY ? PV_ERR_PERM : PV_ERR_IO;
		sqlite3_close(*db);
		*db = NULL;
		return rc;
	}
	return PV_OK;
}

long tk_sql_count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void adm_meta(sqlite3 *db, const char *key, char *out, size_t cap)
{
	sqlite3_stmt *st = NULL;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, "SELECT value FROM pv_meta WHERE key = ?1", -1,
	                       &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return;                    /* no table: nothing recorded */
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

int tk_admin_get(const char *dbpath, tk_admin_token *t)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	const char *slash;
	int rc, i;
	size_t n;

	memset(t, 0, sizeof *t);
	rc = adm_open(dbpath, 0, &db);
	if (rc != PV_OK)
		return rc;
	snprintf(t->dbpath, sizeof t->dbpath, "%s", dbpath);
	t->read_only = !tk_store_writable(dbpath);
	slash = strrchr(dbpath, '/');
	n = slash ? (size_t)(slash - dbpath) : 0;
	if (n >= sizeof t->dir)
		n = sizeof t->dir - 1;
	memcpy(t->dir, dbpath, n);
	t->dir[n] = '\0';
	rc = PV_ERR_CORRUPT;
	if (sqlite3_prepare_v2(db, "SELECT slot_no, serial, label, created, changes "
	                       "FROM token_info WHERE id = 1", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const void *lab = sqlite3_column_blob(st, 2);
		int ll = sqlite3_column_bytes(st, 2);
		t->slot_no = (long)sqlite3_column_int64(st, 0);
		snprintf(t->serial, sizeof t->serial, "%s",
		         sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "");
		if (ll > 32)
			ll = 32;
		if (lab != NULL)
			memcpy(t->label, lab, (size_t)ll);
		t->label[ll] = '\0';
		for (i = ll - 1; i >= 0 && t->label[i] == ' '; i--)
			t->label[i] = '\0';
		t->created = sqlite3_column_int64(st, 3);
		t->changes = sqlite3_column_int64(st, 4);
		rc = PV_OK;
	}
	sqlite3_finalize(st);
	if (rc == PV_OK) {
		char q[160];
		t->user_pin_set = tk_sql_count(db, "SELECT count(*) FROM pins WHERE who = 1") > 0;
		t->legacy = tk_sql_count(db, "SELECT count(*) FROM pins WHERE length(verifier) = 32") > 0;
		t->so_fails = (int)tk_sql_count(db, "SELECT coalesce(max(fails),0) FROM pins WHERE who = 0");
		t->user_fails = (int)tk_sql_count(db, "SELECT coalesce(max(fails),0) FROM pins WHERE who = 1");
		t->nobjects = tk_sql_count(db, "SELECT count(*) FROM objects");
		snprintf(q, sizeof q, "SELECT count(*) FROM attributes WHERE type = %lu",
		         (unsigned long)TK_CKA_BLOB);
		t->nwrapped = tk_sql_count(db, q);
#define CNT(field, cls) \
		snprintf(q, sizeof q, "SELECT count(*) FROM objects WHERE class = %lu", (unsigned long)(cls)); \
		t->field = tk_sql_count(db, q)
		CNT(nsecret, CKO_SECRET_KEY);
		CNT(nprivate, CKO_PRIVATE_KEY);
		CNT(npublic, CKO_PUBLIC_KEY);
		CNT(ncert, CKO_CERTIFICATE);
		CNT(ndata, CKO_DATA);
#undef CNT
		if (t->nobjects < 0)
			rc = PV_ERR_CORRUPT;
		adm_meta(db, "master_fpr", t->master_fpr, sizeof t->master_fpr);
		adm_meta(db, "owner", t->owner, sizeof t->owner);
		adm_meta(db, "group", t->group, sizeof t->group);
		{
			/* what the store claims; the vault decides at the next
			 * session whether the record opens */
			char rec[2 * TK_PIN_RECORD_LEN + 1];
			adm_meta(db, "login_record", rec, sizeof rec);
			t->no_login = strlen(rec) == 2 * TK_PIN_RECORD_LEN;
		}
	}
	sqlite3_close(db);
	return rc;
}

static int adm_cmp(const void *a, const void *b)
{
	const tk_admin_token *x = (const tk_admin_token *)a, *y = (const tk_admin_token *)b;
	return x->slot_no < y->slot_no ? -1 : x->slot_no > y->slot_no;
}

int tk_admin_list(const char *token_dir, tk_admin_token **out, size_t *n)
{
	DIR *d;
	struct dirent *e;
	tk_admin_token *v = NULL, *nv;
	size_t cnt = 0, cap = 0;
	char path[4400];

	*out = NULL;
	*n = 0;
	d = opendir(token_dir);
	if (d == NULL)
		return errno == ENOENT ? PV_OK : (errno == EACCES ? PV_ERR_PERM : PV_ERR_IO);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;                /* ., .., .lock, .new-*, .del-* */
		snprintf(path, sizeof path, "%s/%s/token.db", token_dir, e->d_name);
		if (access(path, F_OK) != 0)
			continue;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 8;
			nv = (tk_admin_token *)realloc(v, cap * sizeof *v);
			if (nv == NULL) {
				free(v);
				closedir(d);
				return PV_ERR_NOMEM;
			}
			v = nv;
		}
		if (tk_admin_get(path, &v[cnt]) == PV_OK)
			cnt++;
	}
	closedir(d);
	if (cnt > 1)
		qsort(v, cnt, sizeof *v, adm_cmp);
	*out = v;
	*n = cnt;
	return PV_OK;
}

int tk_admin_find(const char *token_dir, const char *name, tk_admin_token *t)
{
	tk_admin_token *v;
	size_t n, i, hits = 0;
	int rc = tk_admin_list(token_dir, &v, &n);

	if (rc != PV_OK)
		return rc;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].serial, name)) {
			*t = v[i];
			free(v);
			return PV_OK;
		}
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].label, name)) {
			if (hits++ == 0)
				*t = v[i];
		}
	free(v);
	return hits == 1 ? PV_OK : hits == 0 ? PV_ERR_NOT_FOUND : PV_ERR_ARGS;
}

int tk_admin_meta_set(const char *dbpath, const char *const *keys,
                      const char *const *values, size_t n)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL, *del = NULL;
	size_t i;
	int rc = adm_begin(dbpath, &db);

	if (rc != PV_OK)
		return rc;
	rc = PV_ERR_IO;
	if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS pv_meta(key TEXT PRIMARY KEY, "
	                 "value TEXT NOT NULL);", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO pv_meta(key, value) VALUES (?1, ?2)",
	                       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "DELETE FROM pv_meta WHERE key = ?1", -1, &del, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_stmt *q = values[i] != NULL ? st : del;
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, keys[i], -1, SQLITE_STATIC);
		if (values[i] != NULL)
			sqlite3_bind_text(q, 2, values[i], -1, SQLITE_STATIC);
		if (sqlite3_step(q) != SQLITE_DONE)
			goto out;
	}
	if (sqlite3_exec(db, "COMMIT;", NULL, NULL, NULL) == SQLITE_OK)
		rc = PV_OK;
out:
	if (rc != PV_OK) {
		if (sqlite3_errcode(db) == SQLITE_READONLY)
			rc = PV_ERR_PERM;
		sqlite3_exec(db, "ROLLBACK;", NULL, NULL, NULL);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(del);
	sqlite3_close(db);
	return rc;
}

int tk_admin_delete(const char *token_dir, const char *serial)
{
	char from[4400], to[4400], f[4700];
	DIR *d;
	struct dirent *e;
	int fd, lock, rc;

	if (serial[0] == '\0' || strchr(serial, '/') || serial[0] == '.')
		return PV_ERR_ARGS;
	snprintf(from, sizeof from, "%s/%s", token_dir, serial);
	snprintf(to, sizeof to, "%s/.del-%s", token_dir, serial);
	/* not while a restore or a migration swaps that directory */
	rc = tk_dir_lock(token_dir, TK_ADMIN_BUSY_MS, &lock);
	if (rc != PV_OK)
		return rc;
	rc = rename(from, to) == 0 ? PV_OK : errno == ENOENT ? PV_ERR_NOT_FOUND :
	     (errno == EACCES || errno == EPERM) ? PV_ERR_PERM : PV_ERR_IO;
	tk_dir_unlock(lock);
	if (rc != PV_OK)
		return rc;
	fd = open(token_dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	d = opendir(to);
	if (d != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(f, sizeof f, "%s/%s", to, e->d_name);
			unlink(f);
		}
		closedir(d);
	}
	return rmdir(to) == 0 ? PV_OK : PV_ERR_IO;
}

/* ---- master key rotation ---- */
typedef struct adm_blob {
	int64_t oid;
	uint8_t *blob;
	size_t len;
	uint8_t id[16];
} adm_blob;

/* Inside tk_admin_rewrap's transaction: the token's PIN records and its
 * "no login" record are blobs under the master key too (their identity is
 * the token id, its serial); re-seal them with fn. */
static int adm_rewrap_records(sqlite3 *db, tk_admin_rewrap_fn fn, void *arg)
{
	uint8_t tid[16], rec[TK_PIN_RECORD_LEN], out[TK_PIN_RECORD_LEN + 64];
	char hex[2 * TK_PIN_RECORD_LEN + 1];
	sqlite3_stmt *st = NULL, *up = NULL;
	size_t ol;
	int rc = PV_ERR_IO, who;

	memset(tid, 0, sizeof tid);
	if (sqlite3_prepare_v2(db, "SELECT serial FROM token_info WHERE id = 1", -1, &st,
	                       NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW ||
	    sqlite3_column_bytes(st, 0) != 16)
		goto out;
	memcpy(tid, sqlite3_column_text(st, 0), 16);
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT verifier FROM pins WHERE who = ?1", -1, &st,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE pins SET verifier = ?1 WHERE who = ?2", -1, &up,
	                       NULL) != SQLITE_OK)
		goto out;
	for (who = 0; who <= 1; who++) {
		sqlite3_reset(st);
		sqlite3_bind_int(st, 1, who);
		if (sqlite3_step(st) != SQLITE_ROW ||
		    sqlite3_column_bytes(st, 0) != TK_PIN_RECORD_LEN)
			continue;                  /* not set, or a legacy verifier */
		memcpy(rec, sqlite3_column_blob(st, 0), sizeof rec);
		if ((rc = fn(arg, rec, sizeof rec, tid, out, sizeof out, &ol)) != PV_OK)
			goto out;
		rc = PV_ERR_IO;
		sqlite3_reset(up);
		sqlite3_bind_blob(up, 1, out, (int)ol, SQLITE_TRANSIENT);
		sqlite3_bind_int(up, 2, who);
		if (sqlite3_step(up) != SQLITE_DONE)
			goto out;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	st = up = NULL;
	adm_meta(db, "login_record", hex, sizeof hex);
	if (hex[0] != '\0') {
		if (tk_hex_decode(hex, rec, sizeof rec) != 0)
			goto out;
		if ((rc = fn(arg, rec, sizeof rec, tid, out, sizeof out, &ol)) != PV_OK)
			goto out;
		rc = PV_ERR_IO;
		if (ol != TK_PIN_RECORD_LEN)
			goto out;
		tk_hex_encode(out, TK_PIN_RECORD_LEN, hex);
		if (sqlite3_prepare_v2(db, "UPDATE pv_meta SET value = ?1 WHERE key = 'login_record'",
		                       -1, &up, NULL) != SQLITE_OK)
			goto out;
		sqlite3_bind_text(up, 1, hex, -1, SQLITE_STATIC);
		if (sqlite3_step(up) != SQLITE_DONE)
			goto out;
	}
	rc = PV_OK;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	kc_wipe(rec, sizeof rec);
	kc_wipe(out, sizeof out);
	return rc;
}

int tk_admin_rewrap(const char *dbpath, const char *old_fpr, const char *new_fpr,
                    tk_admin_rewrap_fn fn, void *arg,
                    void (*progress)(void *arg, unsigned long done, unsigned long total))
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL, *up = NULL;
	adm_blob *v = NULL, *nv;
	size_t n = 0, cap = 0, i;
	char cur[17];
	uint8_t out[8192];
	int rc = adm_begin(dbpath, &db);

	if (rc != PV_OK)
		return rc;
	rc = PV_ERR_IO;
	adm_meta(db, "master_fpr", cur, sizeof cur);
	if (!strcmp(cur, new_fpr)) {
		rc = 1;
		goto out;
	}
	if (cur[0] != '\0' && strcmp(cur, old_fpr) != 0) {
		rc = PV_ERR_WRAPPED;
		goto out;
	}
	if (sqlite3_prepare_v2(db, "SELECT a.oid, a.value, b.value FROM attributes a "
	                       "JOIN attributes b ON b.oid = a.oid AND b.type = ?2 "
	                       "WHERE a.type = ?1", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)TK_CKA_BLOB);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)TK_CKA_BLOB_ID);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t bl = (size_t)sqlite3_column_bytes(st, 1);
		if (sqlite3_column_bytes(st, 2) != 16 || bl > sizeof out) {
			rc = PV_ERR_CORRUPT;
			goto out;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			nv = (adm_blob *)realloc(v, cap * sizeof *v);
			if (nv == NULL) {
				rc = PV_ERR_NOMEM;
				goto out;
			}
			v = nv;
		}
		v[n].oid = sqlite3_column_int64(st, 0);
		v[n].len = bl;
		v[n].blob = (uint8_t *)malloc(bl ? bl : 1);
		if (v[n].blob == NULL) {
			rc = PV_ERR_NOMEM;
			goto out;
		}
		memcpy(v[n].blob, sqlite3_column_blob(st, 1), bl);
		memcpy(v[n].id, sqlite3_column_blob(st, 2), 16);
		n++;
	}
	if (rc != SQLITE_DONE) {
		rc = PV_ERR_IO;
		goto out;
	}
	if (sqlite3_prepare_v2(db, "UPDATE attributes SET value = ?1 WHERE oid = ?2 AND type = ?3",
	                       -1, &up, NULL) != SQLITE_OK) {
		rc = PV_ERR_IO;
		goto out;
	}
	for (i = 0; i < n; i++) {
		size_t ol = 0;
		rc = fn(arg, v[i].blob, v[i].len, v[i].id, out, sizeof out, &ol);
		if (rc != PV_OK)
			goto out;
		sqlite3_reset(up);
		sqlite3_bind_blob(up, 1, out, (int)ol, SQLITE_TRANSIENT);
		sqlite3_bind_int64(up, 2, v[i].oid);
		sqlite3_bind_int64(up, 3, (sqlite3_int64)TK_CKA_BLOB);
		if (sqlite3_step(up) != SQLITE_DONE) {
			rc = PV_ERR_IO;
			goto out;
		}
		if (progress)
			progress(arg, (unsigned long)(i + 1), (unsigned long)n);
	}
	if ((rc = adm_rewrap_records(db, fn, arg)) != PV_OK)
		goto out;
	rc = PV_ERR_IO;
	if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS pv_meta(key TEXT PRIMARY KEY, "
	                 "value TEXT NOT NULL);", NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	sqlite3_finalize(up);
	up = NULL;
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO pv_meta(key, value) VALUES ('master_fpr', ?1)",
	                       -1, &up, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(up, 1, new_fpr, -1, SQLITE_STATIC);
	if (sqlite3_step(up) != SQLITE_DONE ||
	    sqlite3_exec(db, "UPDATE token_info SET changes = changes + 1 WHERE id = 1;",
	                 NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	sqlite3_finalize(up);
	up = NULL;
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_exec(db, "COMMIT;", NULL, NULL, NULL) == SQLITE_OK)
		rc = PV_OK;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	if (rc != PV_OK && rc != 1) {
		if (sqlite3_errcode(db) == SQLITE_READONLY)
			rc = PV_ERR_PERM;
	}
	if (rc != PV_OK)
		sqlite3_exec(db, "ROLLBACK;", NULL, NULL, NULL);
	for (i = 0; i < n; i++)
		free(v[i].blob);
	free(v);
	memset(out, 0, sizeof out);
	sqlite3_close(db);
	return rc;
}
