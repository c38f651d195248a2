/*
 * test_tk_store.c - the token layer below the PKCS#11 shell: the SQLite
 * store (schema, WAL, indexes used by find, one transaction per change,
 * rollback of a failed change, migration of an older store), PIN
 * verifiers against OpenSSL's PBKDF2, the rules of the PIN try counter,
 * the attribute policy, and the PV_ERR -> CK_RV mapping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>
#include <openssl/evp.h>
#include <sqlite3.h>

#include "gpu/core/pv_err.h"
#include "token/tk_int.h"
#include "tsupport.h"

static char dir[256], dbpath[300];

static sqlite3 *raw_open(void)
{
	sqlite3 *db = NULL;

	CU_ASSERT_FATAL(sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READWRITE, NULL)
	                == SQLITE_OK);
	return db;
}

static long long raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *raw_text(sqlite3 *db, const char *sql, char *out, size_t cap)
{
	sqlite3_stmt *st = NULL;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(st, 3);
			if (t == NULL)
				t = (const char *)sqlite3_column_text(st, 0);
			if (t != NULL && strlen(out) + strlen(t) + 2 < cap) {
				strcat(out, t);
				strcat(out, "\n");
			}
		}
	}
	sqlite3_finalize(st);
	return out;
}

/* ---- PV_ERR -> CK_RV ---- */
static void t_rv_mapping(void)
{
	int e;

	CU_ASSERT(tk_rv_from_pv(PV_OK) == CKR_OK);
	CU_ASSERT(tk_rv_from_pv(5) == CKR_OK);
	for (e = PV_ERR_GENERAL; e >= PV_ERR_LOCKED; e--) {
		CU_ASSERT(tk_rv_from_pv(e) != CKR_OK);
		CU_ASSERT(tk_rv_pin_count(e) != CKR_OK);
	}
	CU_ASSERT(tk_rv_from_pv(PV_ERR_FULL) == CKR_DEVICE_MEMORY);
	CU_ASSERT(tk_rv_pin_count(PV_ERR_FULL) == CKR_DEVICE_MEMORY);
	CU_ASSERT(tk_rv_pin_count(PV_ERR_PERM) == CKR_DEVICE_ERROR);
	CU_ASSERT(tk_rv_pin_count(PV_ERR_IO) == CKR_DEVICE_ERROR);
	CU_ASSERT(tk_rv_pin_count(PV_ERR_BUSY) == CKR_FUNCTION_FAILED);
	CU_ASSERT(tk_rv_from_pv(PV_ERR_NOMEM) == CKR_HOST_MEMORY);
	CU_ASSERT(tk_rv_from_pv(PV_ERR_ARGS) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(tk_rv_from_pv(PV_ERR_BUF_SMALL) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(tk_rv_from_pv(PV_ERR_BUSY) == CKR_FUNCTION_FAILED);
	CU_ASSERT(tk_rv_from_pv(PV_ERR_SEALED) == CKR_DEVICE_ERROR);
	CU_ASSERT(tk_rv_from_pv(PV_ERR_SIG_INVALID) == CKR_SIGNATURE_INVALID);
	CU_ASSERT(tk_rv_from_pv(-1000) == CKR_GENERAL_ERROR);
}

/* ---- PINs: the store keeps the vault's records (here: record-sized
 * random bytes, which the store treats as opaque) ---- */
static tk_pinrec so_rec;

static void t_pin_rules(void)
{
	static const char pin[] = "87654321";

	memset(&so_rec, 0, sizeof so_rec);
	ts_rand(so_rec.salt, TK_PIN_SALT_LEN);
	ts_rand(so_rec.verifier, TK_PIN_RECORD_LEN);
	so_rec.iterations = 600000u;
	so_rec.vlen = TK_PIN_RECORD_LEN;
	CU_ASSERT(tk_pin_len_check(NULL, 8) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(tk_pin_len_check((const CK_UTF8CHAR *)pin, 3) == CKR_PIN_LEN_RANGE);
	CU_ASSERT(tk_pin_len_check((const CK_UTF8CHAR *)pin, 256) ==
	          CKR_PIN_LEN_RANGE);
	CU_ASSERT(tk_pin_len_check((const CK_UTF8CHAR *)pin, 4) == CKR_OK);
}

/* ---- the store ---- */
static void t_store_schema(void)
{
	uint8_t label[32];
	tk_db *d = NULL;
	tk_tokinfo ti;
	sqlite3 *db;
	char buf[2048];

	memset(label, ' ', 32);
	memcpy(label, "store", 5);
	CU_ASSERT_FATAL(tk_store_create(dbpath, 3, "00112233AABBCCDD", label,
	                                &so_rec) == PV_OK);
	/* a second create at the same path does not clobber it */
	CU_ASSERT(tk_store_create(dbpath, 4, "FFFF", label, &so_rec) < 0);
	CU_ASSERT_FATAL(tk_store_open(dbpath, &d) == PV_OK);
	CU_ASSERT(tk_store_info(d, &ti) == PV_OK);
	CU_ASSERT(ti.slot_no == 3);
	CU_ASSERT_STRING_EQUAL(ti.serial, "00112233AABBCCDD");
	CU_ASSERT(memcmp(ti.label, label, 32) == 0);
	CU_ASSERT(ti.user_pin_set == 0 && ti.so_fails == 0);
	tk_store_close(d);

	db = raw_open();
	CU_ASSERT(raw_int(db, "PRAGMA user_version") == 2);
	raw_text(db, "PRAGMA journal_mode", buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "wal\n");
	raw_text(db, "SELECT name FROM sqlite_master WHERE type = 'index'"
	         " ORDER BY name", buf, sizeof buf);
	CU_ASSERT(strstr(buf, "objects_class") != NULL);
	CU_ASSERT(strstr(buf, "objects_id") != NULL);
	CU_ASSERT(strstr(buf, "objects_label") != NULL);
	/* the find queries use the indexes (no full scan) */
	raw_text(db, "EXPLAIN QUERY PLAN SELECT o.oid FROM objects o WHERE 1"
	         " AND o.id = x'01' ORDER BY o.oid", buf, sizeof buf);
	CU_ASSERT(strstr(buf, "INDEX objects_id") != NULL);
	raw_text(db, "EXPLAIN QUERY PLAN SELECT o.oid FROM objects o WHERE 1"
	         " AND o.label = x'01' AND o.private = 0 ORDER BY o.oid",
	         buf, sizeof buf);
	CU_ASSERT(strstr(buf, "INDEX objects_label") != NULL);
	/* PIN verifier format */
	CU_ASSERT(raw_int(db, "SELECT iterations FROM pins WHERE who = 0") == 600000);
	CU_ASSERT(raw_int(db, "SELECT length(salt) FROM pins WHERE who = 0") == 16);
	CU_ASSERT(raw_int(db, "SELECT length(verifier) FROM pins WHERE who = 0") == 128);
	raw_text(db, "SELECT alg FROM pins WHERE who = 0", buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "pbkdf2-vault-record\n");
	sqlite3_close(db);
}

static tk_obj *mk_obj(const char *label, const char *id, int priv)
{
	tk_obj *o = tk_obj_new();
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_BBOOL p = priv ? CK_TRUE : CK_FALSE, t = CK_TRUE;

	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT(tk_random(o->uid, TK_UID_LEN) == PV_OK);
	tk_obj_set(o, CKA_CLASS, &cls, sizeof cls);
	tk_obj_set(o, CKA_TOKEN, &t, 1);
	tk_obj_set(o, CKA_PRIVATE, &p, 1);
	tk_obj_set(o, CKA_LABEL, label, strlen(label));
	if (id != NULL)
		tk_obj_set(o, CKA_ID, id, strlen(id));
	tk_obj_set(o, CKA_VALUE, "", 0);
	return o;
}

static void t_store_objects(void)
{
	tk_db *d = NULL;
	tk_obj *a = mk_obj("alpha", "id1", 0), *b = mk_obj("beta", "id1", 1);
	tk_obj *l = NULL;
	int64_t oa = 0, ob = 0, *ids = NULL;
	size_t n = 0;
	CK_ATTRIBUTE by_id = { CKA_ID, "id1", 3 };
	CK_ATTRIBUTE by_lbl = { CKA_LABEL, "beta", 4 };
	CK_ATTRIBUTE by_val = { CKA_VALUE, "", 0 };
	sqlite3 *db;

	CU_ASSERT_FATAL(tk_store_open(dbpath, &d) == PV_OK);
	CU_ASSERT(tk_store_obj_insert(d, a, &oa) == PV_OK);
	CU_ASSERT(tk_store_obj_insert(d, b, &ob) == PV_OK);
	CU_ASSERT(oa > 0 && ob > oa);
	CU_ASSERT(tk_store_obj_load(d, oa, &l) == PV_OK);
	CU_ASSERT_FATAL(l != NULL);
	CU_ASSERT(l->n == a->n);
	CU_ASSERT(memcmp(l->uid, a->uid, TK_UID_LEN) == 0);
	CU_ASSERT(tk_obj_attr(l, CKA_VALUE) != NULL &&
	          tk_obj_attr(l, CKA_VALUE)->len == 0);
	tk_obj_free(l);
	/* find: private objects only when allowed */
	CU_ASSERT(tk_store_find(d, &by_id, 1, 0, &ids, &n) == PV_OK);
	CU_ASSERT(n == 1 && ids[0] == oa);
	free(ids);
	CU_ASSERT(tk_store_find(d, &by_id, 1, 1, &ids, &n) == PV_OK);
	CU_ASSERT(n == 2);
	free(ids);
	CU_ASSERT(tk_store_find(d, &by_lbl, 1, 1, &ids, &n) == PV_OK);
	CU_ASSERT(n == 1 && ids[0] == ob);
	free(ids);
	CU_ASSERT(tk_store_find(d, &by_val, 1, 1, &ids, &n) == PV_OK);
	CU_ASSERT(n == 2);                 /* empty value matches empty value */
	free(ids);
	/* update replaces the attributes in one transaction */
	tk_obj_set(b, CKA_LABEL, "gamma", 5);
	CU_ASSERT(tk_store_obj_update(d, ob, b) == PV_OK);
	CU_ASSERT(tk_store_find(d, &by_lbl, 1, 1, &ids, &n) == PV_OK);
	CU_ASSERT(n == 0);
	free(ids);
	/* a failing insert leaves nothing behind: duplicate identity */
	CU_ASSERT(tk_store_obj_insert(d, a, &oa) < 0);
	/* ... and a failure half way (a duplicate attribute type makes the
	 * attributes insert fail after the object row went in) */
	tk_obj_set(b, CKA_LABEL, "dup", 3);
	CU_ASSERT(tk_random(b->uid, TK_UID_LEN) == PV_OK);
	b->a[0].type = b->a[1].type;
	CU_ASSERT(tk_store_obj_insert(d, b, &ob) < 0);
	db = raw_open();
	CU_ASSERT(raw_int(db, "SELECT count(*) FROM objects") == 2);
	CU_ASSERT(raw_int(db, "SELECT count(*) FROM attributes WHERE oid NOT IN"
	                      " (SELECT oid FROM objects)") == 0);
	sqlite3_close(db);
	/* delete */
	CU_ASSERT(tk_store_obj_delete(d, oa) == PV_OK);
	CU_ASSERT(tk_store_obj_delete(d, oa) == PV_ERR_NOT_FOUND);
	CU_ASSERT(tk_store_obj_load(d, oa, &l) == PV_ERR_NOT_FOUND);
	db = raw_open();
	CU_ASSERT(raw_int(db, "SELECT count(*) FROM attributes") ==
	          (long long)a->n);            /* only the remaining object's */
	sqlite3_close(db);
	tk_obj_free(a);
	tk_obj_free(b);
	tk_store_close(d);
}

static long long raw_q(const char *sql)
{
	sqlite3 *db = raw_open();
	long long v = raw_int(db, sql);

	sqlite3_close(db);
	return v;
}

static void raw_exec(const char *sql)
{
	sqlite3 *db = raw_open();

	CU_ASSERT(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
}

#define SO_FAILS  "SELECT fails FROM pins WHERE who = 0"
#define SO_PERIOD "SELECT period FROM pins WHERE who = 0"
#define IN_FLIGHT "SELECT count(*) FROM pin_tries"

/* n wrong tries of the SO PIN, one after the other. */
static void wrong_tries(tk_db *d, int n)
{
	tk_pintry t;

	while (n-- > 0) {
		CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &t) == PV_OK);
		CU_ASSERT(tk_store_pin_try_end(d, &t, 0) >= 1);
	}
}

/* The try counter's rules (tk_store.c, docs/token-store.md). */
static void t_store_pins(void)
{
	tk_db *d = NULL, *d2 = NULL;
	tk_pinrec r;
	tk_tokinfo ti;
	tk_pintry a, b;
	long long p0;
	pid_t pid;
	int st = -1;

	CU_ASSERT_FATAL(tk_store_open(dbpath, &d) == PV_OK);
	CU_ASSERT(tk_store_pin_get(d, CKU_USER, &r) == PV_ERR_NOT_FOUND);
	CU_ASSERT(tk_store_pin_try_begin(d, CKU_USER, &a) == PV_ERR_NOT_FOUND);
	CU_ASSERT(tk_store_pin_get(d, CKU_SO, &r) == PV_OK);
	CU_ASSERT(memcmp(r.verifier, so_rec.verifier, TK_PIN_RECORD_LEN) == 0);
	/* a try is counted, and in flight, before anything is checked */
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_OK);
	CU_ASSERT(a.rec.fails == 1 && a.ticket > 0);
	CU_ASSERT(memcmp(a.rec.verifier, so_rec.verifier, TK_PIN_RECORD_LEN) == 0);
	CU_ASSERT(raw_q(SO_FAILS) == 1 && raw_q(IN_FLIGHT) == 1);
	CU_ASSERT(tk_store_pin_try_end(d, &a, 0) == 1);     /* wrong: stays */
	CU_ASSERT(raw_q(IN_FLIGHT) == 0);
	wrong_tries(d, 1);
	CU_ASSERT(tk_store_info(d, &ti) == PV_OK);
	CU_ASSERT(ti.so_fails == 2);
	/* right while another try is in flight: takes back only its own */
	p0 = raw_q(SO_PERIOD);
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_OK);
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &b) == PV_OK);
	CU_ASSERT(b.rec.fails == 4 && b.ticket > a.ticket);
	CU_ASSERT(tk_store_pin_try_end(d, &a, 1) == 3);
	CU_ASSERT(raw_q(SO_PERIOD) == p0);
	CU_ASSERT(tk_store_pin_try_end(d, &b, 0) == 3);
	/* right with nothing in flight: cleared, a new period */
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_OK);
	CU_ASSERT(a.period == p0);
	CU_ASSERT(tk_store_pin_try_end(d, &a, 1) == 0);
	CU_ASSERT(raw_q(SO_PERIOD) == p0 + 1);
	/* the limit: the eleventh try is refused and nothing is written */
	wrong_tries(d, TK_PIN_MAX_FAILS);
	CU_ASSERT(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_ERR_LOCKED);
	CU_ASSERT(raw_q(SO_FAILS) == TK_PIN_MAX_FAILS && raw_q(IN_FLIGHT) == 0);
	/* the SO and user counters are apart: a user PIN is not locked */
	CU_ASSERT(tk_store_pin_put(d, CKU_USER, &so_rec) == PV_OK);
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_USER, &a) == PV_OK);
	CU_ASSERT(a.rec.fails == 1);
	CU_ASSERT(tk_store_pin_try_end(d, &a, 1) == 0);
	CU_ASSERT(tk_store_info(d, &ti) == PV_OK);
	CU_ASSERT(ti.user_pin_set == 1 && ti.user_fails == 0 &&
	          ti.so_fails == TK_PIN_MAX_FAILS);
	/* a new PIN: a new period; the tries in flight keep their counts */
	p0 = raw_q(SO_PERIOD);
	CU_ASSERT(tk_store_pin_put(d, CKU_SO, &so_rec) == PV_OK);
	CU_ASSERT(raw_q(SO_FAILS) == 0 && raw_q(SO_PERIOD) == p0 + 1);
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_OK);
	CU_ASSERT(tk_store_pin_put(d, CKU_SO, &so_rec) == PV_OK);
	CU_ASSERT(raw_q(SO_FAILS) == 1);
	CU_ASSERT(tk_store_pin_try_end(d, &a, 0) == 1);
	/* a process that dies in the middle of a try: the try stays counted
	 * and in flight, so a success does not clear the counter ... */
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		tk_pintry c;
		_exit(tk_store_open(dbpath, &d2) == PV_OK &&
		      tk_store_pin_try_begin(d2, CKU_SO, &c) == PV_OK ? 0 : 1);
	}
	CU_ASSERT(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	          WEXITSTATUS(st) == 0);
	CU_ASSERT(raw_q(SO_FAILS) == 2 && raw_q(IN_FLIGHT) == 1);
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_OK);
	CU_ASSERT(tk_store_pin_try_end(d, &a, 1) == 2);
	/* ... until it is stale: then it is a finished wrong try */
	raw_exec("UPDATE pin_tries SET started = started - 301");
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_OK);
	CU_ASSERT(raw_q(SO_FAILS) == 3 && raw_q(IN_FLIGHT) == 1);
	CU_ASSERT(tk_store_pin_try_end(d, &a, 1) == 0);
	/* a try that went stale itself: its right end still clears when
	 * nothing else is in flight, never sends the counter below 0 */
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_SO, &a) == PV_OK);
	raw_exec("UPDATE pin_tries SET started = started + 10000");
	CU_ASSERT(tk_store_pin_try_end(d, &a, 1) == 0);
	CU_ASSERT(raw_q(IN_FLIGHT) == 0);
	tk_store_close(d);
}

/* A store of schema version 1 is brought to version 2 at its first open,
 * in one transaction, keeping every row; a newer store is refused. */
static void t_store_migrate(void)
{
	char path[320];
	sqlite3 *db = NULL;
	tk_db *d = NULL;
	tk_pintry t;
	tk_obj *o = NULL;
	long long v;

	snprintf(path, sizeof path, "%s/v1.db", dir);
	CU_ASSERT_FATAL(sqlite3_open(path, &db) == SQLITE_OK);
	CU_ASSERT_FATAL(sqlite3_exec(db,
		"PRAGMA journal_mode=WAL;"
		"CREATE TABLE token_info(id INTEGER PRIMARY KEY CHECK (id = 1),"
		"  slot_no INTEGER NOT NULL, serial TEXT NOT NULL, label BLOB NOT NULL,"
		"  created INTEGER NOT NULL, changes INTEGER NOT NULL DEFAULT 0);"
		"CREATE TABLE pins(who INTEGER PRIMARY KEY, alg TEXT NOT NULL,"
		"  iterations INTEGER NOT NULL, salt BLOB NOT NULL, verifier BLOB NOT NULL,"
		"  fails INTEGER NOT NULL DEFAULT 0);"
		"CREATE TABLE objects(oid INTEGER PRIMARY KEY AUTOINCREMENT,"
		"  uid BLOB NOT NULL UNIQUE, class INTEGER NOT NULL, id BLOB, label BLOB,"
		"  private INTEGER NOT NULL, wrapped BLOB NOT NULL DEFAULT x'');"
		"CREATE TABLE attributes(oid INTEGER NOT NULL, type INTEGER NOT NULL,"
		"  value BLOB NOT NULL, PRIMARY KEY (oid, type)) WITHOUT ROWID;"
		"INSERT INTO token_info VALUES (1, 7, '0123456789ABCDEF', zeroblob(32), 1, 0);"
		"INSERT INTO pins VALUES (1, 'pbkdf2-hmac-sha256', 1000, zeroblob(16),"
		"  zeroblob(32), 3);"
		"INSERT INTO objects(uid, class, private) VALUES (zeroblob(16), 0, 0);"
		"INSERT INTO attributes VALUES (1, 0, x'0000000000000000');"
		"PRAGMA user_version = 1;", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);

	CU_ASSERT_FATAL(tk_store_open(path, &d) == PV_OK);
	CU_ASSERT(tk_store_obj_load(d, 1, &o) == PV_OK);
	tk_obj_free(o);
	CU_ASSERT_FATAL(tk_store_pin_try_begin(d, CKU_USER, &t) == PV_OK);
	CU_ASSERT(t.rec.fails == 4 && t.period == 0);
	CU_ASSERT(tk_store_pin_try_end(d, &t, 1) == 0);
	tk_store_close(d);
	CU_ASSERT_FATAL(sqlite3_open(path, &db) == SQLITE_OK);
	CU_ASSERT(raw_int(db, "PRAGMA user_version") == 2);
	CU_ASSERT(raw_int(db, "SELECT period FROM pins WHERE who = 1") == 1);
	CU_ASSERT(raw_int(db, "SELECT count(*) FROM attributes") == 1);
	v = raw_int(db, "PRAGMA integrity_check");   /* "ok" is text: 0 */
	CU_ASSERT(v == 0);
	CU_ASSERT(sqlite3_exec(db, "PRAGMA user_version = 3", NULL, NULL, NULL)
	          == SQLITE_OK);
	sqlite3_close(db);
	CU_ASSERT(tk_store_open(path, &d) == PV_ERR_CORRUPT);
}

/* ---- the attribute policy ---- */
static void t_policy(void)
{
	CK_OBJECT_CLASS pub = CKO_PUBLIC_KEY;
	CK_KEY_TYPE rsa = CKK_RSA;
	CK_BYTE mod[3] = { 0x00, 0x05, 0xff };    /* leading zero: 11 bits */
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &pub, sizeof pub },
		{ CKA_KEY_TYPE, &rsa, sizeof rsa },
		{ CKA_MODULUS, mod, sizeof mod },
		{ CKA_PUBLIC_EXPONENT, "\x03", 1 },
	};
	CK_ATTRIBUTE setl[] = { { CKA_LABEL, "l", 1 } };
	CK_ATTRIBUTE setm[] = { { CKA_MODULUS, mod, 2 } };
	tk_obj *o = NULL, *s = NULL;

	CU_ASSERT_FATAL(tk_policy_apply(TK_OP_CREATE, NULL, t, 4, 0, &o) == CKR_OK);
	CU_ASSERT(tk_obj_ulong(o, CKA_MODULUS_BITS, 0) == 11);
	CU_ASSERT(tk_obj_bool(o, CKA_TOKEN, 9) == CK_FALSE);
	CU_ASSERT(tk_obj_bool(o, CKA_MODIFIABLE, 9) == CK_TRUE);
	CU_ASSERT(tk_obj_bool(o, CKA_VERIFY, 9) == CK_TRUE);
	CU_ASSERT(tk_obj_attr(o, CKA_LABEL) != NULL);
	CU_ASSERT(tk_obj_attr(o, CKA_ID) != NULL);
	CU_ASSERT(tk_policy_apply(TK_OP_SET, o, setl, 1, 0, &s) == CKR_OK);
	CU_ASSERT(s != NULL && tk_obj_attr(s, CKA_LABEL)->len == 1);
	tk_obj_free(s);
	CU_ASSERT(tk_policy_apply(TK_OP_SET, o, setm, 1, 0, &s) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	/* setting a fixed attribute to its current value is accepted */
	CU_ASSERT(tk_policy_apply(TK_OP_SET, o, &t[2], 1, 0, &s) == CKR_OK);
	tk_obj_free(s);
	tk_obj_free(o);
}

int main(void)
{
	CU_pSuite s;
	int rc;
	char cmd[300];

	snprintf(dir, sizeof dir, "/tmp/pv-tkstore.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(dbpath, sizeof dbpath, "%s/token.db", dir);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("tk_store", NULL, NULL);
	CU_add_test(s, "PV_ERR to CK_RV", t_rv_mapping);
	CU_add_test(s, "PIN length rules", t_pin_rules);
	CU_add_test(s, "schema, WAL, indexes", t_store_schema);
	CU_add_test(s, "objects: insert/load/find/update/delete", t_store_objects);
	CU_add_test(s, "PIN records and counters", t_store_pins);
	CU_add_test(s, "migration of a version 1 store", t_store_migrate);
	CU_add_test(s, "attribute policy", t_policy);
	rc = ts_run();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup failed\n");
	return rc;
}
