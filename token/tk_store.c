/*
 * tk_store.c - the SQLite token store: one database per token,
 * <token_dir>/<serial>/token.db, WAL mode, one transaction per change.
 * Schema and rules: docs/token-store.md.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "token/tk_int.h"

#define TK_SCHEMA_VERSION 2
#define TK_BUSY_MS        15000
#define TK_FIND_CACHE     16

/* PIN tries in flight: counted, not yet settled (tk_store_pin_try_*). */
#define TK_SQL_PIN_TRIES \
	"CREATE TABLE pin_tries(" \
	"  ticket INTEGER PRIMARY KEY AUTOINCREMENT," /* never reused */ \
	"  who INTEGER NOT NULL," \
	"  started INTEGER NOT NULL);"        /* unix time            */

static const char tk_schema[] =
	"CREATE TABLE token_info("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  slot_no INTEGER NOT NULL,"
	"  serial TEXT NOT NULL,"
	"  label BLOB NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  changes INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE pins("
	"  who INTEGER PRIMARY KEY,"           /* CKU_SO = 0, CKU_USER = 1 */
	"  alg TEXT NOT NULL,"                 /* 'pbkdf2-vault-record' (older: 'pbkdf2-hmac-sha256') */
	"  iterations INTEGER NOT NULL,"
	"  salt BLOB NOT NULL,"
	"  verifier BLOB NOT NULL,"
	"  fails INTEGER NOT NULL DEFAULT 0,"
	"  period INTEGER NOT NULL DEFAULT 0);" /* + 1 at each clear   */
	TK_SQL_PIN_TRIES
	"CREATE TABLE objects("
	"  oid INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  uid BLOB NOT NULL UNIQUE,"          /* random 16-byte identity  */
	"  class INTEGER NOT NULL,"            /* CKA_CLASS (denormalised) */
	"  id BLOB,"                           /* CKA_ID, NULL if absent   */
	"  label BLOB,"                        /* CKA_LABEL                */
	"  private INTEGER NOT NULL,"          /* CKA_PRIVATE              */
	"  wrapped BLOB NOT NULL DEFAULT x'');" /* vault key blob (opaque) */
	"CREATE INDEX objects_class ON objects(class);"
	"CREATE INDEX objects_id ON objects(id);"
	"CREATE INDEX objects_label ON objects(label);"
	"CREATE TABLE attributes("
	"  oid INTEGER NOT NULL,"
	"  type INTEGER NOT NULL,"
	"  value BLOB NOT NULL,"
	"  PRIMARY KEY (oid, type)) WITHOUT ROWID;";

/* Migrations, each in the one transaction that also sets the version:
 * tk_migrate[v - 2] takes a store of version v - 1 to version v. */
static const char *const tk_migrate[TK_SCHEMA_VERSION - 1] = {
	/* 2: PIN tries counted before they are checked */
	"ALTER TABLE pins ADD COLUMN period INTEGER NOT NULL DEFAULT 0;"
	TK_SQL_PIN_TRIES,
};

enum {
	ST_INFO, ST_PIN_GET, ST_PIN_PUT, ST_PIN_BAD, ST_PIN_FAILS,
	ST_PIN_CLEAR, ST_PIN_TAKEBACK, ST_TRY_EXPIRE, ST_TRY_ADD, ST_TRY_DEL,
	ST_TRY_COUNT,
	ST_OBJ_LOAD, ST_OBJ_INS, ST_ATTR_INS, ST_ATTR_DEL, ST_OBJ_DEL,
	ST_OBJ_UPD, ST_BEGIN, ST_COMMIT, ST_ROLLBACK, ST_CHANGES, ST_N
};

static const char *const tk_sql[ST_N] = {
	"SELECT slot_no, serial, label FROM token_info WHERE id = 1",
	"SELECT salt, verifier, iterations, fails, period FROM pins WHERE who = ?1",
	/* a new PIN: a new period; the tries in flight keep their counts */
	"INSERT OR REPLACE INTO pins(who, alg, iterations, salt, verifier, fails,"
	" period) VALUES (?1, 'pbkdf2-vault-record', ?2, ?3, ?4,"
	" (SELECT count(*) FROM pin_tries WHERE who = ?1),"
	" coalesce((SELECT period FROM pins WHERE who = ?1), 0) + 1)",
	"UPDATE pins SET fails = fails + 1 WHERE who = ?1",
	"SELECT fails FROM pins WHERE who = ?1",
	"UPDATE pins SET fails = 0, period = period + 1 WHERE who = ?1",
	"UPDATE pins SET fails = max(fails - 1, 0) WHERE who = ?1",
	"DELETE FROM pin_tries WHERE who = ?1 AND (started < ?2 OR started > ?3)",
	"INSERT INTO pin_tries(who, started) VALUES (?1, ?2)",
	"DELETE FROM pin_tries WHERE ticket = ?1 AND who = ?2",
	"SELECT count(*) FROM pin_tries WHERE who = ?1",
	"SELECT o.uid, a.type, a.value FROM objects o JOIN attributes a"
	" ON a.oid = o.oid WHERE o.oid = ?1",
	"INSERT INTO objects(uid, class, id, label, private) VALUES (?1,?2,?3,?4,?5)",
	"INSERT INTO attributes(oid, type, value) VALUES (?1, ?2, ?3)",
	"DELETE FROM attributes WHERE oid = ?1",
	"DELETE FROM objects WHERE oid = ?1",
	"UPDATE objects SET class = ?2, id = ?3, label = ?4, private = ?5"
	" WHERE oid = ?1",
	"BEGIN IMMEDIATE",
	"COMMIT",
	"ROLLBACK",
	"UPDATE token_info SET changes = changes + 1 WHERE id = 1",
};

struct tk_find_st {
	char *sql;
	sqlite3_stmt *st;
};

struct tk_db {
	sqlite3 *db;
	sqlite3_stmt *st[ST_N];
	struct tk_find_st find[TK_FIND_CACHE];
	unsigned find_next;
	tk_db *next;
};

tk_db *tk_db_next(tk_db *d) { return d->next; }
void tk_db_set_next(tk_db *d, tk_db *n) { d->next = n; }

static int tk_sqerr(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK: case SQLITE_DONE: case SQLITE_ROW:
		return PV_OK;
	case SQLITE_BUSY: case SQLITE_LOCKED:
		return PV_ERR_BUSY;
	case SQLITE_NOMEM:
		return PV_ERR_NOMEM;
	case SQLITE_CORRUPT: case SQLITE_NOTADB: case SQLITE_SCHEMA:
		return PV_ERR_CORRUPT;
	case SQLITE_FULL:
		return PV_ERR_FULL;
	case SQLITE_CANTOPEN: case SQLITE_IOERR:
		return PV_ERR_IO;
	case SQLITE_PERM: case SQLITE_READONLY: case SQLITE_AUTH:
		return PV_ERR_PERM;
	case SQLITE_CONSTRAINT: case SQLITE_TOOBIG:
		return PV_ERR_ARGS;
	default:
		return PV_ERR_GENERAL;
	}
}

static sqlite3_stmt *tk_st(tk_db *d, int i)
{
	if (d->st[i] == NULL &&
	    sqlite3_prepare_v3(d->db, tk_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
	                       &d->st[i], NULL) != SQLITE_OK)
		return NULL;
	sqlite3_reset(d->st[i]);
	sqlite3_clear_bindings(d->st[i]);
	return d->st[i];
}

/* Bind a blob; zero length binds an empty blob (not NULL).  SQLite takes
 * int lengths: a longer value is refused, never cut (the token refuses
 * such values long before, TK_ATTR_VALUE_MAX).  Not sqlite3_bind_blob64:
 * inside Firefox the module's sqlite3_* calls resolve to Firefox's own
 * libmozsqlite3, which does not export it, and the call would reach the
 * system library with a statement of the other one. */
static int tk_bind_blob(sqlite3_stmt *st, int i, const void *p, size_t n)
{
	if (n == 0)
		return tk_sqerr(sqlite3_bind_zeroblob(st, i, 0));
	if (n > (size_t)INT_MAX)
		return PV_ERR_ARGS;
	return tk_sqerr(sqlite3_bind_blob(st, i, p, (int)n, SQLITE_TRANSIENT));
}

/* Run a statement without result rows. */
static int tk_exec_st(tk_db *d, int i)
{
	sqlite3_stmt *st = d->st[i];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? PV_OK : tk_sqerr(rc);
}

static int tk_simple(tk_db *d, int i)
{
	if (tk_st(d, i) == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	return tk_exec_st(d, i);
}

static int tk_begin(tk_db *d) { return tk_simple(d, ST_BEGIN); }
static int tk_commit(tk_db *d)
{
	int rc = tk_simple(d, ST_CHANGES);

	if (rc == PV_OK)
		rc = tk_simple(d, ST_COMMIT);
	return rc;
}
static void tk_rollback(tk_db *d)
{
	if (!sqlite3_get_autocommit(d->db))
		(void)tk_simple(d, ST_ROLLBACK);
}

/* End a change begun with tk_begin: commit when rc is PV_OK, roll back
 * when rc (or the commit) failed. */
static int tk_end(tk_db *d, int rc)
{
	if (rc == PV_OK)
		rc = tk_commit(d);
	if (rc < 0)
		tk_rollback(d);
	return rc;
}

/* Run statement i (no result rows) with ?1 bound to v. */
static int tk_exec_1(tk_db *d, int i, sqlite3_int64 v)
{
	sqlite3_stmt *st = tk_st(d, i);

	if (st == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	sqlite3_bind_int64(st, 1, v);
	return tk_exec_st(d, i);
}

static int tk_conn(const char *path, int flags, sqlite3 **out)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, NULL);

	if (rc != SQLITE_OK) {
		int e = db ? tk_sqerr(sqlite3_extended_errcode(db)) : PV_ERR_NOMEM;
		sqlite3_close(db);
		return e < 0 ? e : PV_ERR_IO;
	}
	sqlite3_busy_timeout(db, TK_BUSY_MS);
	sqlite3_extended_result_codes(db, 1);
	*out = db;
	return PV_OK;
}

int tk_store_writable(const char *path)
{
	char dir[4400];

	tk_dirname(path, dir, sizeof dir);
	return access(path, W_OK) == 0 && access(dir, W_OK | X_OK) == 0;
}

/* path as a file: URI (RFC 3986: %, ?, # and non-ASCII escaped). */
static int tk_uri(const char *path, const char *query, char *out, size_t cap)
{
	static const char hx[] = "0123456789ABCDEF";
	size_t n = 0;
	const unsigned char *p;

	n = (size_t)snprintf(out, cap, "file:");
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (n + 4 >= cap)
			return PV_ERR_CONFIG;
		if (*p == '%' || *p == '?' || *p == '#' || *p < 0x21 || *p > 0x7e) {
			out[n++] = '%';
			out[n++] = hx[*p >> 4];
			out[n++] = hx[*p & 15];
		} else {
			out[n++] = (char)*p;
		}
	}
	if (n + strlen(query) + 1 > cap)
		return PV_ERR_CONFIG;
	memcpy(out + n, query, strlen(query) + 1);
	return PV_OK;
}

int tk_store_conn_ro(const char *path, sqlite3 **out)
{
	char shm[4400], uri[13300];
	int rc;

	snprintf(shm, sizeof shm, "%s-shm", path);
	if (tk_store_writable(path) || access(shm, R_OK) == 0)
		return tk_conn(path, SQLITE_OPEN_READONLY, out);
	/* A WAL store with no -shm beside it, in a directory this user may
	 * not write: SQLite cannot make the shared index, so it opens only
	 * as immutable.  No -shm means no connection has it open, so its
	 * file is the whole store; a writer that comes later is not seen by
	 * this connection (tk_store_open's are short-lived). */
	rc = tk_uri(path, "?immutable=1", uri, sizeof uri);
	if (rc == PV_OK)
		rc = tk_conn(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, out);
	return rc;
}

int tk_store_create(const char *path, CK_SLOT_ID slot_no, const char *serial,
                    const uint8_t label[32], const tk_pinrec *so)
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	int rc;
	char *err = NULL;

	rc = tk_conn(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &db);
	if (rc < 0)
		return rc;
	rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL;", NULL, NULL, &err);
	sqlite3_free(err);
	err = NULL;
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "BEGIN IMMEDIATE;", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, tk_schema, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db,
			"INSERT INTO token_info(id, slot_no, serial, label, created)"
			" VALUES (1, ?1, ?2, ?3, ?4)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)slot_no);
		sqlite3_bind_text(st, 2, serial, -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(st, 3, label, 32, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL));
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
		sqlite3_finalize(st);
		st = NULL;
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db,
			"INSERT INTO pins(who, alg, iterations, salt, verifier)"
			" VALUES (0, 'pbkdf2-vault-record', ?1, ?2, ?3)", -1, &st, NULL);
	if (rc == SQLITE_OK && so->vlen != TK_PIN_RECORD_LEN)
		rc = SQLITE_MISUSE;
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, so->iterations);
		sqlite3_bind_blob(st, 2, so->salt, TK_PIN_SALT_LEN, SQLITE_TRANSIENT);
		sqlite3_bind_blob(st, 3, so->verifier, TK_PIN_RECORD_LEN, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
		sqlite3_finalize(st);
	}
	if (rc == SQLITE_OK) {
		char sql[64];
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d; COMMIT;",
		         TK_SCHEMA_VERSION);
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
	if (rc != SQLITE_OK)
		sqlite3_exec(db, "ROLLBACK;", NULL, NULL, NULL);
	sqlite3_close(db);
	return rc == SQLITE_OK ? PV_OK : tk_sqerr(rc);
}

static int tk_user_version(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int ver = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		ver = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return ver;
}

/* Bring an older store to TK_SCHEMA_VERSION in one write transaction
 * (another process may have done it first: the version is read again
 * under the write lock).  A store that cannot be written stays as it is
 * and is used as it is: it can be read, and every write, a PIN try
 * included, fails on it anyway. */
static int tk_store_migrate(sqlite3 *db)
{
	char sql[64];
	int rc, ver;

	rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if ((rc & 0xff) == SQLITE_READONLY)
		return PV_OK;
	if (rc != SQLITE_OK)
		return tk_sqerr(rc);
	ver = tk_user_version(db);
	if (ver < 1 || ver > TK_SCHEMA_VERSION)
		rc = SQLITE_CORRUPT;
	for (; rc == SQLITE_OK && ver < TK_SCHEMA_VERSION; ver++)
		rc = sqlite3_exec(db, tk_migrate[ver - 1], NULL, NULL, NULL);
	if (rc == SQLITE_OK) {
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d",
		         TK_SCHEMA_VERSION);
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		if (!sqlite3_get_autocommit(db))
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return (rc & 0xff) == SQLITE_READONLY ? PV_OK : tk_sqerr(rc);
	}
	return PV_OK;
}

int tk_store_open(const char *path, tk_db **out)
{
	tk_db *d = calloc(1, sizeof *d);
	int rc, ver;

	if (d == NULL)
		return PV_ERR_NOMEM;
	if (!tk_store_writable(path)) {
		rc = tk_store_conn_ro(path, &d->db);   /* writes: PV_ERR_PERM */
		if (rc < 0) {
			free(d);
			return rc;
		}
		ver = tk_user_version(d->db);
		rc = ver == TK_SCHEMA_VERSION ? PV_OK : ver >= 1 ? PV_ERR_PERM : PV_ERR_CORRUPT;
		if (rc < 0) {
			tk_store_close(d);
			return rc;
		}
		*out = d;
		return PV_OK;
	}
	rc = tk_conn(path, SQLITE_OPEN_READWRITE, &d->db);
	if (rc < 0) {
		free(d);
		return rc;
	}
	/* WAL is persistent in the file; synchronous=FULL makes each commit
	 * durable across power loss, not only across a process crash. */
	sqlite3_exec(d->db, "PRAGMA synchronous=FULL;", NULL, NULL, NULL);
	ver = tk_user_version(d->db);
	rc = ver >= 1 && ver < TK_SCHEMA_VERSION ? tk_store_migrate(d->db) :
	     ver == TK_SCHEMA_VERSION ? PV_OK : PV_ERR_CORRUPT;
	if (rc < 0) {
		tk_store_close(d);
		return rc;
	}
	*out = d;
	return PV_OK;
}

void tk_store_close(tk_db *d)
{
	int i;

	if (d == NULL)
		return;
	for (i = 0; i < ST_N; i++)
		sqlite3_finalize(d->st[i]);
	for (i = 0; i < TK_FIND_CACHE; i++) {
		sqlite3_finalize(d->find[i].st);
		free(d->find[i].sql);
	}
	sqlite3_close(d->db);
	free(d);
}

int tk_store_peek_slot(const char *path, CK_SLOT_ID *slot_no, char serial[17])
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	int rc = tk_store_conn_ro(path, &db);

	if (rc < 0)
		return rc;
	rc = PV_ERR_CORRUPT;
	if (sqlite3_prepare_v2(db, "SELECT slot_no, serial FROM token_info"
	                       " WHERE id = 1", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 1);
		*slot_no = (CK_SLOT_ID)sqlite3_column_int64(st, 0);
		if (s != NULL && strlen(s) <= 16) {
			memcpy(serial, s, strlen(s) + 1);
			rc = PV_OK;
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

/* pv_meta login_record: the vault's "no login" record (hex), made from a
 * logged-in session (tk_set_no_login).  It is a claim only: the vault
 * opens it or not at the next session (a row anyone adds does not open).
 * Into rec; 1 if a record of the right size is there. */
static int tk_store_no_login(tk_db *d, uint8_t rec[TK_PIN_RECORD_LEN])
{
	sqlite3_stmt *st = NULL;
	int r = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT value FROM pv_meta"
	                       " WHERE key = 'login_record'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		r = tk_hex_decode((const char *)sqlite3_column_text(st, 0), rec,
		                  TK_PIN_RECORD_LEN) == 0;
	sqlite3_finalize(st);
	return r;
}

int tk_store_info(tk_db *d, tk_tokinfo *ti)
{
	sqlite3_stmt *st;
	int rc;

	memset(ti, 0, sizeof *ti);
	/* one read transaction: info and PIN counters from one snapshot */
	if (sqlite3_exec(d->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return tk_sqerr(sqlite3_errcode(d->db));
	st = tk_st(d, ST_INFO);
	rc = st ? sqlite3_step(st) : sqlite3_errcode(d->db);
	if (rc == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 1);
		ti->slot_no = (CK_SLOT_ID)sqlite3_column_int64(st, 0);
		if (s != NULL && strlen(s) <= 16)
			memcpy(ti->serial, s, strlen(s) + 1);
		if (sqlite3_column_bytes(st, 2) == 32)
			memcpy(ti->label, sqlite3_column_blob(st, 2), 32);
		rc = PV_OK;
	} else {
		rc = rc == SQLITE_DONE ? PV_ERR_CORRUPT : tk_sqerr(rc);
	}
	if (st)
		sqlite3_reset(st);
	if (rc == PV_OK) {
		st = tk_st(d, ST_PIN_FAILS);
		ti->so_fails = ti->user_fails = 0;
		ti->user_pin_set = 0;
		if (st) {
			sqlite3_bind_int64(st, 1, CKU_SO);
			if (sqlite3_step(st) == SQLITE_ROW)
				ti->so_fails = sqlite3_column_int(st, 0);
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, CKU_USER);
			if (sqlite3_step(st) == SQLITE_ROW) {
				ti->user_fails = sqlite3_column_int(st, 0);
				ti->user_pin_set = 1;
			}
			sqlite3_reset(st);
		}
		ti->no_login = tk_store_no_login(d, ti->nologin_rec);
	}
	sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

/* ---- PINs ---- */
static int tk_pin_read(tk_db *d, CK_USER_TYPE who, tk_pinrec *p,
                       int64_t *period)
{
	sqlite3_stmt *st = tk_st(d, ST_PIN_GET);
	int rc;

	if (st == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	sqlite3_bind_int64(st, 1, (sqlite3_int64)who);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int vl = sqlite3_column_bytes(st, 1);
		if (sqlite3_column_bytes(st, 0) != TK_PIN_SALT_LEN ||
		    (vl != TK_PIN_VERIFIER_LEN && vl != TK_PIN_RECORD_LEN) ||
		    sqlite3_column_int64(st, 2) < 1 ||
		    sqlite3_column_int64(st, 2) > 0xffffffffLL) {
			rc = PV_ERR_CORRUPT;
		} else {
			memcpy(p->salt, sqlite3_column_blob(st, 0), TK_PIN_SALT_LEN);
			memcpy(p->verifier, sqlite3_column_blob(st, 1), (size_t)vl);
			p->vlen = (uint32_t)vl;
			p->iterations = (uint32_t)sqlite3_column_int64(st, 2);
			p->fails = sqlite3_column_int(st, 3);
			if (period != NULL)
				*period = sqlite3_column_int64(st, 4);
			rc = PV_OK;
		}
	} else {
		rc = rc == SQLITE_DONE ? PV_ERR_NOT_FOUND : tk_sqerr(rc);
	}
	sqlite3_reset(st);
	return rc;
}

int tk_store_pin_get(tk_db *d, CK_USER_TYPE who, tk_pinrec *p)
{
	return tk_pin_read(d, who, p, NULL);
}

/* Inside a transaction: drop who's tries that have been in flight longer
 * than TK_PIN_TRY_STALE_S (or start in the future: the clock went back).
 * Their counts stay: each becomes a finished wrong try. */
static int tk_tries_expire(tk_db *d, CK_USER_TYPE who, int64_t now)
{
	sqlite3_stmt *st = tk_st(d, ST_TRY_EXPIRE);

	if (st == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	sqlite3_bind_int64(st, 1, (sqlite3_int64)who);
	sqlite3_bind_int64(st, 2, now - TK_PIN_TRY_STALE_S);
	sqlite3_bind_int64(st, 3, now + TK_PIN_TRY_STALE_S);
	return tk_exec_st(d, ST_TRY_EXPIRE);
}

/* Inside a transaction: write who's PIN record. */
static int tk_pin_write(tk_db *d, CK_USER_TYPE who, const tk_pinrec *p)
{
	sqlite3_stmt *st;
	int rc = tk_tries_expire(d, who, (int64_t)time(NULL));

	if (rc < 0)
		return rc;
	st = tk_st(d, ST_PIN_PUT);
	if (st == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	sqlite3_bind_int64(st, 1, (sqlite3_int64)who);
	sqlite3_bind_int64(st, 2, p->iterations);
	sqlite3_bind_blob(st, 3, p->salt, TK_PIN_SALT_LEN, SQLITE_TRANSIENT);
	if (p->vlen != TK_PIN_RECORD_LEN)
		return PV_ERR_ARGS;           /* only records are written */
	sqlite3_bind_blob(st, 4, p->verifier, TK_PIN_RECORD_LEN, SQLITE_TRANSIENT);
	return tk_exec_st(d, ST_PIN_PUT);
}

int tk_store_pin_put(tk_db *d, CK_USER_TYPE who, const tk_pinrec *p)
{
	int rc = tk_begin(d);

	if (rc < 0)
		return rc;
	return tk_end(d, tk_pin_write(d, who, p));
}

/*
 * PIN tries: counted before they are checked (docs/token-store.md,
 * "Lockout policy").  The invariant: pins.fails >= the tries of that PIN
 * in flight (rows of pin_tries) + the wrong tries finished since the
 * counter was last cleared.  A try begins only while fails is below
 * TK_PIN_MAX_FAILS, and its count is committed before its check starts,
 * so however many tries run at once, in how many threads or processes,
 * no more wrong PINs than the limit are checked between two clears.
 *
 * A right PIN takes back only its own count while another try of the same
 * PIN is in flight: that try may be wrong, and clearing its count would
 * let more tries begin than the limit allows.  With none in flight it
 * clears the counter, which begins a new period (pins.period + 1), so no
 * try spans two periods.  A new PIN (tk_pin_write) also begins a period;
 * the tries in flight keep their counts.
 *
 * A try whose process dies between begin and end leaves its row and its
 * count.  After TK_PIN_TRY_STALE_S (far above any check's duration) the
 * row is dropped and the try counts as a finished wrong one: the next
 * success clears it.  If the end of a try cannot be written, the try
 * likewise stays counted: every failure leaves the count as high or
 * higher, never lower.
 */
static int tk_fails_read(tk_db *d, CK_USER_TYPE who, int *fails)
{
	sqlite3_stmt *st = tk_st(d, ST_PIN_FAILS);
	int rc;

	if (st == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	sqlite3_bind_int64(st, 1, (sqlite3_int64)who);
	rc = sqlite3_step(st);
	*fails = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? PV_OK : tk_sqerr(rc);
}

int tk_store_pin_try_begin(tk_db *d, CK_USER_TYPE who, tk_pintry *t)
{
	int64_t now = (int64_t)time(NULL);
	sqlite3_stmt *st;
	int rc;

	memset(t, 0, sizeof *t);
	t->who = who;
	rc = tk_begin(d);
	if (rc < 0)
		return rc;
	rc = tk_tries_expire(d, who, now);
	if (rc == PV_OK)
		rc = tk_pin_read(d, who, &t->rec, &t->period);
	if (rc == PV_OK && t->rec.fails >= TK_PIN_MAX_FAILS)
		rc = PV_ERR_LOCKED;
	if (rc == PV_OK)
		rc = tk_exec_1(d, ST_PIN_BAD, (sqlite3_int64)who);
	if (rc == PV_OK) {
		st = tk_st(d, ST_TRY_ADD);
		if (st == NULL) {
			rc = tk_sqerr(sqlite3_errcode(d->db));
		} else {
			sqlite3_bind_int64(st, 1, (sqlite3_int64)who);
			sqlite3_bind_int64(st, 2, now);
			rc = tk_exec_st(d, ST_TRY_ADD);
			t->ticket = sqlite3_last_insert_rowid(d->db);
		}
	}
	rc = tk_end(d, rc);         /* only a committed count lets the check run */
	if (rc < 0)
		kc_wipe(t, sizeof *t);
	else
		t->rec.fails++;
	return rc;
}

int tk_store_pin_try_end(tk_db *d, const tk_pintry *t, int good)
{
	sqlite3_stmt *st;
	int rc, mine = 0, others = 0, left = 0;

	rc = tk_begin(d);
	if (rc < 0)
		return rc;
	if (good)
		rc = tk_tries_expire(d, t->who, (int64_t)time(NULL));
	if (rc == PV_OK) {
		st = tk_st(d, ST_TRY_DEL);
		if (st == NULL) {
			rc = tk_sqerr(sqlite3_errcode(d->db));
		} else {
			sqlite3_bind_int64(st, 1, t->ticket);
			sqlite3_bind_int64(st, 2, (sqlite3_int64)t->who);
			rc = tk_exec_st(d, ST_TRY_DEL);
			mine = sqlite3_changes(d->db) > 0;
		}
	}
	if (rc == PV_OK && good) {
		st = tk_st(d, ST_TRY_COUNT);
		if (st == NULL) {
			rc = tk_sqerr(sqlite3_errcode(d->db));
		} else {
			sqlite3_bind_int64(st, 1, (sqlite3_int64)t->who);
			rc = sqlite3_step(st);
			others = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
			rc = rc == SQLITE_ROW ? PV_OK : tk_sqerr(rc);
			sqlite3_reset(st);
		}
		/* a stale row of its own (mine == 0) was counted as a finished
		 * wrong try: only a clear removes that count */
		if (rc == PV_OK && (others == 0 || mine))
			rc = tk_exec_1(d, others == 0 ? ST_PIN_CLEAR : ST_PIN_TAKEBACK,
			               (sqlite3_int64)t->who);
	}
	if (rc == PV_OK)
		rc = tk_fails_read(d, t->who, &left);
	rc = tk_end(d, rc);
	return rc < 0 ? rc : left;
}

int tk_store_reinit(tk_db *d, const uint8_t label[32], const tk_pinrec *so)
{
	sqlite3_stmt *st = NULL;
	int rc = tk_begin(d);

	if (rc < 0)
		return rc;
	/* back to the default: a login is required again */
	if (sqlite3_exec(d->db, "DELETE FROM attributes; DELETE FROM objects;"
	                 " DELETE FROM pins WHERE who = 1;"
	                 " DELETE FROM pin_tries WHERE who = 1;"
	                 " CREATE TABLE IF NOT EXISTS pv_meta(key TEXT PRIMARY KEY,"
	                 " value TEXT NOT NULL); DELETE FROM pv_meta WHERE key = 'login_record';",
	                 NULL, NULL, NULL)
	    != SQLITE_OK)
		rc = tk_sqerr(sqlite3_errcode(d->db));
	if (rc == PV_OK) {
		if (sqlite3_prepare_v2(d->db, "UPDATE token_info SET label = ?1"
		                       " WHERE id = 1", -1, &st, NULL) != SQLITE_OK) {
			rc = tk_sqerr(sqlite3_errcode(d->db));
		} else {
			sqlite3_bind_blob(st, 1, label, 32, SQLITE_TRANSIENT);
			if (sqlite3_step(st) != SQLITE_DONE)
				rc = tk_sqerr(sqlite3_errcode(d->db));
			sqlite3_finalize(st);
		}
	}
	if (rc == PV_OK && so != NULL)
		rc = tk_pin_write(d, CKU_SO, so);
	return tk_end(d, rc);
}

/* ---- objects ---- */
static int tk_bind_meta(sqlite3_stmt *st, const tk_obj *o)
{
	const tk_attr *id = tk_obj_attr(o, CKA_ID);
	const tk_attr *lb = tk_obj_attr(o, CKA_LABEL);
	int rc = PV_OK;

	sqlite3_bind_int64(st, 2, (sqlite3_int64)tk_obj_ulong(o, CKA_CLASS, 0));
	if (id != NULL)
		rc = tk_bind_blob(st, 3, id->val, id->len);
	if (lb != NULL && rc == PV_OK)
		rc = tk_bind_blob(st, 4, lb->val, lb->len);
	sqlite3_bind_int(st, 5, tk_obj_bool(o, CKA_PRIVATE, CK_FALSE) ? 1 : 0);
	return rc;
}

static int tk_insert_attrs(tk_db *d, int64_t oid, const tk_obj *o)
{
	size_t i;
	int rc = PV_OK;

	for (i = 0; i < o->n && rc == PV_OK; i++) {
		sqlite3_stmt *st = tk_st(d, ST_ATTR_INS);
		if (st == NULL)
			return tk_sqerr(sqlite3_errcode(d->db));
		sqlite3_bind_int64(st, 1, oid);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)o->a[i].type);
		rc = tk_bind_blob(st, 3, o->a[i].val, o->a[i].len);
		if (rc == PV_OK)
			rc = tk_exec_st(d, ST_ATTR_INS);
	}
	return rc;
}

/* Inside the insert's transaction: the store's recorded master key
 * fingerprint (pv_meta.master_fpr) must be fpr; none recorded: record fpr.
 * PV_ERR_WRAPPED on a mismatch. */
static int tk_fpr_check(tk_db *d, const char *fpr)
{
	sqlite3_stmt *st = NULL;
	int rc = PV_ERR_IO, step;

	if (sqlite3_exec(d->db, "CREATE TABLE IF NOT EXISTS pv_meta(key TEXT PRIMARY KEY, "
	                 "value TEXT NOT NULL)", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "SELECT value FROM pv_meta WHERE key = 'master_fpr'",
	                       -1, &st, NULL) != SQLITE_OK)
		goto out;
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		const char *cur = (const char *)sqlite3_column_text(st, 0);
		rc = (cur != NULL && cur[0] != '\0' && strcmp(cur, fpr) != 0) ?
		     PV_ERR_WRAPPED : PV_OK;
		if (rc == PV_OK && (cur == NULL || cur[0] == '\0'))
			step = SQLITE_DONE;          /* empty value: record */
	}
	sqlite3_finalize(st);
	st = NULL;
	if (step == SQLITE_DONE) {
		rc = PV_ERR_IO;
		if (sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO pv_meta(key, value)"
		                       " VALUES ('master_fpr', ?1)", -1, &st, NULL) != SQLITE_OK)
			goto out;
		sqlite3_bind_text(st, 1, fpr, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_DONE)
			rc = PV_OK;
	} else if (step != SQLITE_ROW) {
		rc = PV_ERR_IO;
	}
out:
	sqlite3_finalize(st);
	return rc;
}

int tk_store_fpr_reset(tk_db *d, const char *fpr)
{
	sqlite3_stmt *st = NULL;
	int rc = tk_begin(d);

	if (rc < 0)
		return rc;
	rc = PV_ERR_IO;
	if (sqlite3_exec(d->db, "CREATE TABLE IF NOT EXISTS pv_meta(key TEXT PRIMARY KEY, "
	                 "value TEXT NOT NULL); DELETE FROM pv_meta WHERE key = 'master_fpr'",
	                 NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	if (fpr != NULL && fpr[0] != '\0') {
		if (sqlite3_prepare_v2(d->db, "INSERT INTO pv_meta(key, value)"
		                       " VALUES ('master_fpr', ?1)", -1, &st, NULL) != SQLITE_OK)
			goto out;
		sqlite3_bind_text(st, 1, fpr, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto out;
	}
	rc = tk_commit(d);
out:
	sqlite3_finalize(st);
	if (rc < 0)
		tk_rollback(d);
	return rc;
}

int tk_store_obj_insert(tk_db *d, const tk_obj *o, int64_t *oid)
{
	return tk_store_obj_insert_fpr(d, o, NULL, oid);
}

int tk_store_obj_insert_fpr(tk_db *d, const tk_obj *o, const char *fpr, int64_t *oid)
{
	sqlite3_stmt *st;
	int rc = tk_begin(d);

	if (rc < 0)
		return rc;
	if (fpr != NULL && fpr[0] != '\0' && (rc = tk_fpr_check(d, fpr)) < 0) {
		tk_rollback(d);
		return rc;
	}
	st = tk_st(d, ST_OBJ_INS);
	if (st == NULL) {
		rc = tk_sqerr(sqlite3_errcode(d->db));
	} else {
		sqlite3_bind_blob(st, 1, o->uid, TK_UID_LEN, SQLITE_TRANSIENT);
		rc = tk_bind_meta(st, o);
		if (rc == PV_OK)
			rc = tk_exec_st(d, ST_OBJ_INS);
	}
	if (rc == PV_OK) {
		*oid = sqlite3_last_insert_rowid(d->db);
		rc = tk_insert_attrs(d, *oid, o);
	}
	return tk_end(d, rc);
}

int tk_store_obj_load(tk_db *d, int64_t oid, tk_obj **out)
{
	sqlite3_stmt *st = tk_st(d, ST_OBJ_LOAD);
	tk_obj *o;
	int rc, rows = 0;

	if (st == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	o = tk_obj_new();
	if (o == NULL)
		return PV_ERR_NOMEM;
	sqlite3_bind_int64(st, 1, oid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (rows++ == 0 && sqlite3_column_bytes(st, 0) == TK_UID_LEN)
			memcpy(o->uid, sqlite3_column_blob(st, 0), TK_UID_LEN);
		if (tk_obj_set(o, (CK_ATTRIBUTE_TYPE)sqlite3_column_int64(st, 1),
		               sqlite3_column_blob(st, 2),
		               (CK_ULONG)sqlite3_column_bytes(st, 2)) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		tk_obj_free(o);
		return tk_sqerr(rc);
	}
	if (rows == 0) {
		tk_obj_free(o);
		return PV_ERR_NOT_FOUND;
	}
	*out = o;
	return PV_OK;
}

/* Update (o: the object's metadata and attributes become o's) or delete
 * (o NULL) object oid in one transaction; PV_ERR_NOT_FOUND: no such row. */
static int tk_obj_change(tk_db *d, int64_t oid, const tk_obj *o)
{
	int i = o != NULL ? ST_OBJ_UPD : ST_OBJ_DEL;
	sqlite3_stmt *st;
	int rc = tk_begin(d), n = 0;

	if (rc < 0)
		return rc;
	st = tk_st(d, i);
	if (st == NULL) {
		rc = tk_sqerr(sqlite3_errcode(d->db));
	} else {
		sqlite3_bind_int64(st, 1, oid);
		rc = o != NULL ? tk_bind_meta(st, o) : PV_OK;
		if (rc == PV_OK) {
			rc = tk_exec_st(d, i);
			n = sqlite3_changes(d->db);
		}
	}
	if (rc == PV_OK && n == 0)
		rc = PV_ERR_NOT_FOUND;
	if (rc == PV_OK)
		rc = tk_exec_1(d, ST_ATTR_DEL, oid);
	if (rc == PV_OK && o != NULL)
		rc = tk_insert_attrs(d, oid, o);
	return tk_end(d, rc);
}

int tk_store_obj_delete(tk_db *d, int64_t oid)
{
	return tk_obj_change(d, oid, NULL);
}

int tk_store_obj_update(tk_db *d, int64_t oid, const tk_obj *o)
{
	return tk_obj_change(d, oid, o);
}

/* ---- find ---- */
static sqlite3_stmt *tk_find_stmt(tk_db *d, const char *sql)
{
	unsigned i;
	struct tk_find_st *f;

	for (i = 0; i < TK_FIND_CACHE; i++) {
		f = &d->find[i];
		if (f->sql != NULL && strcmp(f->sql, sql) == 0) {
			sqlite3_reset(f->st);
			sqlite3_clear_bindings(f->st);
			return f->st;
		}
	}
	f = &d->find[d->find_next++ % TK_FIND_CACHE];
	sqlite3_finalize(f->st);
	free(f->sql);
	f->st = NULL;
	f->sql = strdup(sql);
	if (f->sql == NULL)
		return NULL;
	if (sqlite3_prepare_v3(d->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &f->st,
	                       NULL) != SQLITE_OK) {
		free(f->sql);
		f->sql = NULL;
		f->st = NULL;
		return NULL;
	}
	return f->st;
}

int tk_store_find(tk_db *d, const CK_ATTRIBUTE *t, CK_ULONG n, int priv_ok,
                  int64_t **ids, size_t *nids)
{
	char *sql;
	size_t cap = 256 + (size_t)n * 100, len, cnt = 0, alloc = 0;
	CK_ULONG i;
	int bi = 1, rc, selective = 0;
	sqlite3_stmt *st;
	int64_t *out = NULL;

	*ids = NULL;
	*nids = 0;
	for (i = 0; i < n; i++)
		if ((t[i].type == CKA_CLASS && t[i].ulValueLen != sizeof(CK_ULONG)) ||
		    t[i].ulValueLen > TK_ATTR_VALUE_MAX)
			return PV_OK;                 /* matches nothing */
	sql = malloc(cap);
	if (sql == NULL)
		return PV_ERR_NOMEM;
	/* CKA_ID and CKA_LABEL are selective; CKA_CLASS is not: when one of
	 * the former is present, keep the planner off the class index (the
	 * unary + makes that term unindexable). */
	for (i = 0; i < n; i++)
		if (t[i].type == CKA_ID || t[i].type == CKA_LABEL)
			selective = 1;
	len = (size_t)snprintf(sql, cap, "SELECT o.oid FROM objects o WHERE 1");
	for (i = 0; i < n; i++) {
		const char *frag;
		switch (t[i].type) {
		case CKA_CLASS:
			frag = selective ? " AND +o.class = ?" : " AND o.class = ?";
			break;
		case CKA_ID:    frag = " AND o.id = ?"; break;
		case CKA_LABEL: frag = " AND o.label = ?"; break;
		default:
			frag = " AND EXISTS (SELECT 1 FROM attributes a WHERE"
			       " a.oid = o.oid AND a.type = ? AND a.value = ?)";
		}
		len += (size_t)snprintf(sql + len, cap - len, "%s", frag);
	}
	if (!priv_ok)
		len += (size_t)snprintf(sql + len, cap - len, " AND o.private = 0");
	snprintf(sql + len, cap - len, " ORDER BY o.oid");
	st = tk_find_stmt(d, sql);
	free(sql);
	if (st == NULL)
		return tk_sqerr(sqlite3_errcode(d->db));
	rc = PV_OK;
	for (i = 0; i < n && rc == PV_OK; i++) {
		switch (t[i].type) {
		case CKA_CLASS: {
			CK_ULONG c;
			memcpy(&c, t[i].pValue, sizeof c);
			sqlite3_bind_int64(st, bi++, (sqlite3_int64)c);
			break;
		}
		case CKA_ID:
		case CKA_LABEL:
			rc = tk_bind_blob(st, bi++, t[i].pValue, t[i].ulValueLen);
			break;
		default:
			sqlite3_bind_int64(st, bi++, (sqlite3_int64)t[i].type);
			rc = tk_bind_blob(st, bi++, t[i].pValue, t[i].ulValueLen);
		}
	}
	if (rc != PV_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == alloc) {
			int64_t *no;
			alloc = alloc ? alloc * 2 : 16;
			no = realloc(out, alloc * sizeof *no);
			if (no == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			out = no;
		}
		out[cnt++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		free(out);
		return tk_sqerr(rc);
	}
	*ids = out;
	*nids = cnt;
	return PV_OK;
}
