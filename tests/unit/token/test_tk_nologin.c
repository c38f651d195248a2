/*
 * test_tk_nologin.c - a token the operator set to need no login (`pvault
 * token set-login none`: the vault's "no login" record), through the built
 * module: CKF_LOGIN_REQUIRED cleared, sessions act as user sessions for
 * private objects, C_Login(CKU_USER) answers CKR_USER_ALREADY_LOGGED_IN
 * without looking at the PIN, C_Logout is harmless, the SO still logs in and
 * sees no private objects, and C_InitToken turns the setting off.  A store
 * that merely claims the setting (a row anyone with the file can add, or
 * another token's record) keeps the login: the vault opens no record for it.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkt.h"

#define PIN(s) (CK_UTF8CHAR_PTR)(s), (CK_ULONG)strlen(s)

static CK_SLOT_ID tok;
static char dbpath[512], serial[17];

/* The operator's way: pvault token set-login with the SO PIN. */
static void set_login(int none)
{
	char cmd[1024];

	setenv("PKT_SO_PIN_ENV", PKT_SO_PIN, 1);
	snprintf(cmd, sizeof cmd, "\"$PVAULT\" token set-login --serial %s --so-pin-env "
	         "PKT_SO_PIN_ENV %s >/dev/null", serial, none ? "none" : "required");
	CU_ASSERT_FATAL(system(cmd) == 0);
}

/* An attacker's way: write pv_meta rows into the store. */
static void forge(const char *key, const char *value)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	CU_ASSERT_FATAL(sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
	sqlite3_busy_timeout(db, 15000);
	CU_ASSERT_FATAL(sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS pv_meta(key TEXT"
	                " PRIMARY KEY, value TEXT NOT NULL)", NULL, NULL, NULL) == SQLITE_OK);
	CU_ASSERT_FATAL(sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO pv_meta(key, value)"
	                " VALUES (?1, ?2)", -1, &st, NULL) == SQLITE_OK);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	CU_ASSERT(sqlite3_step(st) == SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* The store's "no login" record (hex), "" if none. */
static void read_record(char *out, size_t cap)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	out[0] = '\0';
	CU_ASSERT_FATAL(sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	if (sqlite3_prepare_v2(db, "SELECT value FROM pv_meta WHERE key = 'login_record'",
	                       -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static CK_FLAGS token_flags(void)
{
	CK_TOKEN_INFO ti;

	CU_ASSERT_FATAL(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	return ti.flags;
}

static CK_STATE state(CK_SESSION_HANDLE h)
{
	CK_SESSION_INFO si;

	CU_ASSERT_FATAL(pkt_f->C_GetSessionInfo(h, &si) == CKR_OK);
	return si.state;
}

/* Number of private data objects the session sees. */
static CK_ULONG n_private(CK_SESSION_HANDLE h)
{
	CK_BBOOL yes = CK_TRUE;
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &cls, sizeof cls },
	                     { CKA_PRIVATE, &yes, sizeof yes } };
	CK_OBJECT_HANDLE o[8];
	CK_ULONG n = 0;

	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(h, t, 2) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjects(h, o, 8, &n) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(h) == CKR_OK);
	return n;
}

static CK_RV make_private(CK_SESSION_HANDLE h)
{
	CK_BBOOL yes = CK_TRUE;
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_OBJECT_HANDLE o;
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &cls, sizeof cls },
	                     { CKA_TOKEN, &yes, sizeof yes },
	                     { CKA_PRIVATE, &yes, sizeof yes },
	                     { CKA_VALUE, "secret", 6 } };

	return pkt_f->C_CreateObject(h, t, 4, &o);
}

static void t_setup(void)
{
	CK_TOKEN_INFO ti;
	CK_SESSION_HANDLE h;
	int j;

	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	tok = pkt_new_token("nologin", 1);
	CU_ASSERT_FATAL(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	memcpy(serial, ti.serialNumber, 16);
	serial[16] = '\0';
	for (j = 15; j >= 0 && serial[j] == ' '; j--)
		serial[j] = '\0';
	snprintf(dbpath, sizeof dbpath, "%s/tokens/%s/token.db", pkt_dir, serial);
	h = pkt_open(tok, 1);
	CU_ASSERT_FATAL(pkt_f->C_Login(h, CKU_USER, PIN(PKT_USER_PIN)) == CKR_OK);
	CU_ASSERT_FATAL(make_private(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

static void t_default_requires_login(void)
{
	CK_SESSION_HANDLE h = pkt_open(tok, 1);

	CU_ASSERT(token_flags() & CKF_LOGIN_REQUIRED);
	CU_ASSERT(state(h) == CKS_RW_PUBLIC_SESSION);
	CU_ASSERT(n_private(h) == 0);
	CU_ASSERT(make_private(h) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT(pkt_f->C_Logout(h) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

static void t_no_login(void)
{
	CK_SESSION_HANDLE ro, rw;

	set_login(1);
	CU_ASSERT(!(token_flags() & CKF_LOGIN_REQUIRED));
	CU_ASSERT(token_flags() & CKF_USER_PIN_INITIALIZED);
	ro = pkt_open(tok, 0);
	rw = pkt_open(tok, 1);
	CU_ASSERT(state(ro) == CKS_RO_USER_FUNCTIONS);
	CU_ASSERT(state(rw) == CKS_RW_USER_FUNCTIONS);
	CU_ASSERT(n_private(ro) == 1);
	CU_ASSERT(make_private(rw) == CKR_OK);
	CU_ASSERT(n_private(ro) == 2);
	/* the PIN is not looked at, and a wrong one is not counted */
	CU_ASSERT(pkt_f->C_Login(ro, CKU_USER, PIN("00000000")) == CKR_USER_ALREADY_LOGGED_IN);
	CU_ASSERT(!(token_flags() & CKF_USER_PIN_COUNT_LOW));
	/* C_Logout is harmless: still the user */
	CU_ASSERT(pkt_f->C_Logout(ro) == CKR_OK);
	CU_ASSERT(state(ro) == CKS_RO_USER_FUNCTIONS);
	CU_ASSERT(n_private(ro) == 2);
	CU_ASSERT(pkt_f->C_CloseSession(ro) == CKR_OK);
	/* the SO logs in as usual (RW sessions only) and sees no private object */
	CU_ASSERT(pkt_f->C_Login(rw, CKU_SO, PIN("99999999")) == CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_Login(rw, CKU_SO, PIN(PKT_SO_PIN)) == CKR_OK);
	CU_ASSERT(state(rw) == CKS_RW_SO_FUNCTIONS);
	CU_ASSERT(n_private(rw) == 0);
	CU_ASSERT(pkt_f->C_Logout(rw) == CKR_OK);
	CU_ASSERT(state(rw) == CKS_RW_USER_FUNCTIONS);
	CU_ASSERT(pkt_f->C_CloseSession(rw) == CKR_OK);
}

static void t_forged_keeps_login(void)
{
	char rec[512], bad[2 * 128 + 1];
	CK_SESSION_HANDLE h;
	int i;

	read_record(rec, sizeof rec);
	CU_ASSERT_FATAL(strlen(rec) == 256);
	set_login(0);
	CU_ASSERT(token_flags() & CKF_LOGIN_REQUIRED);
	/* the old setting's row and a record of random bytes */
	forge("login", "none");
	for (i = 0; i < 256; i++)
		bad[i] = "0123456789abcdef"[rand() & 15];
	bad[256] = '\0';
	forge("login_record", bad);
	h = pkt_open(tok, 1);
	CU_ASSERT(state(h) == CKS_RW_PUBLIC_SESSION);
	CU_ASSERT(n_private(h) == 0);
	CU_ASSERT(make_private(h) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
	/* a genuine record, once removed, put back by hand opens again: the
	 * vault keeps no state, so a store can be rolled back
	 * (docs/threat-model.md) */
	forge("login_record", rec);
	h = pkt_open(tok, 0);
	CU_ASSERT(state(h) == CKS_RO_USER_FUNCTIONS);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

static void t_init_token_resets(void)
{
	CK_UTF8CHAR lb[32];
	CK_SESSION_HANDLE h;

	CU_ASSERT(!(token_flags() & CKF_LOGIN_REQUIRED));
	pkt_label(lb, "nologin");
	CU_ASSERT_FATAL(pkt_f->C_InitToken(tok, PIN(PKT_SO_PIN), lb) == CKR_OK);
	CU_ASSERT(token_flags() & CKF_LOGIN_REQUIRED);
	h = pkt_open(tok, 1);
	CU_ASSERT(state(h) == CKS_RW_PUBLIC_SESSION);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
}

int main(void)
{
	CU_pSuite s;

	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("tk_nologin", NULL, NULL);
	CU_add_test(s, "token with a user PIN and a private object", t_setup);
	CU_add_test(s, "by default a login is required", t_default_requires_login);
	CU_add_test(s, "login = none: user sessions without C_Login", t_no_login);
	CU_add_test(s, "forged rows keep the login", t_forged_keeps_login);
	CU_add_test(s, "C_InitToken turns it off", t_init_token_resets);
	return ts_run();
}
