/*
 * test_tk_pintry.c - PIN tries are counted before they are checked, and a
 * try that cannot be counted is not checked (docs/token-store.md,
 * "Lockout policy").
 *
 * The PKCS#11 shell and the token layer are linked in statically, and the
 * linker wraps two of the token layer's functions (-Wl,--wrap, meson.build):
 * tk_pin_try_check, the one call that checks a PIN, and
 * tk_store_pin_try_begin, which counts a try.  The wrappers count every PIN
 * actually checked, note the period each try was counted in, hold the
 * check a while (so that many tries are in flight at once) and can fill
 * the disk while a check runs.  A full disk is an SQLite VFS of this test
 * that forwards to the default one and fails every write with SQLITE_FULL
 * while told to; a store that cannot be written is the same VFS opening
 * the database read-only, or RLIMIT_FSIZE 0 (every write an I/O error).
 * None of this is in the module.
 *
 * Storms: 300 wrong C_Login from 3 processes x 100 threads, with and
 * without the right PIN among them, all released at once.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>
#include <p11-kit/pkcs11.h>
#include <sqlite3.h>

#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/core/pv_err.h"
#include "gpu/host/pv_master.h"
#include "token/tk_auth.h"
#include "token/tk_int.h"
#include "tsupport.h"

#define SO_PIN    "87654321"
#define USER_PIN  "12345678"
#define WRONG_PIN "00000000"
#define LIMIT     TK_PIN_MAX_FAILS
#define NPROC     3                 /* processes of wrong tries       */
#define NTHREAD   100               /* threads in each                */
#define NWRONG    (NPROC * NTHREAD)
#define RIGHT     NWRONG            /* index of the right try         */
#define CHECK_US  40000             /* a check takes this much longer */
#define TEST_ITER 2000u             /* PBKDF2 iterations of the test PINs */

#define PIN(s) (CK_UTF8CHAR_PTR)(s), (CK_ULONG)strlen(s)

/* ---- shared between the test's processes (MAP_SHARED) ---- */
typedef struct {
	CK_RV rv;
	int done, checked, right;
	long long period;               /* the period it was counted in   */
	long long period_end;           /* the store's when its check ended */
} try_rec;

static struct shared {
	int ready, go_right, go_wrong;
	int right_counted;
	int checks;                     /* PINs checked, every process    */
	int right_last;                 /* the right check waits for the
	                                 * answers of all wrong tries     */
	int fill_in_check;              /* the disk fills during a check  */
	try_rec r[NWRONG + 1];
} *sh;

static __thread int my_idx = -1;
static long long raw_q(const char *sql);
#define USER_PERIOD "SELECT period FROM pins WHERE who = 1"

/* ---- the linker's wraps ---- */
int __real_tk_pin_try_check(tk_slot *s, const tk_pintry *t,
                            const CK_UTF8CHAR *pin, CK_ULONG len,
                            uint8_t ticket[TK_TICKET_LEN], size_t *tlen);
int __real_tk_store_pin_try_begin(tk_db *d, CK_USER_TYPE who, tk_pintry *t);
int __wrap_tk_pin_try_check(tk_slot *s, const tk_pintry *t,
                            const CK_UTF8CHAR *pin, CK_ULONG len,
                            uint8_t ticket[TK_TICKET_LEN], size_t *tlen);
int __wrap_tk_store_pin_try_begin(tk_db *d, CK_USER_TYPE who, tk_pintry *t);
static int disk_full;

/* Until every wrong try has its answer (at most a minute). */
static void wait_wrong_done(void)
{
	int i, n;

	for (n = 0; n < 60000; n++) {
		for (i = 0; i < NWRONG && __atomic_load_n(&sh->r[i].done,
		                                          __ATOMIC_ACQUIRE); i++)
			;
		if (i == NWRONG)
			return;
		usleep(1000);
	}
}

int __wrap_tk_store_pin_try_begin(tk_db *d, CK_USER_TYPE who, tk_pintry *t)
{
	int rc = __real_tk_store_pin_try_begin(d, who, t);

	if (rc == PV_OK && my_idx >= 0)
		sh->r[my_idx].period = t->period;
	if (my_idx == RIGHT)
		__atomic_store_n(&sh->right_counted, 1, __ATOMIC_RELEASE);
	return rc;
}

int __wrap_tk_pin_try_check(tk_slot *s, const tk_pintry *t,
                            const CK_UTF8CHAR *pin, CK_ULONG len,
                            uint8_t ticket[TK_TICKET_LEN], size_t *tlen)
{
	int ok;

	__atomic_add_fetch(&sh->checks, 1, __ATOMIC_SEQ_CST);
	if (my_idx >= 0)
		sh->r[my_idx].checked = 1;
	usleep(CHECK_US);
	if (my_idx == RIGHT && sh->right_last)
		wait_wrong_done();
	ok = __real_tk_pin_try_check(s, t, pin, len, ticket, tlen);
	if (my_idx >= 0) {
		sh->r[my_idx].right = ok == 1;
		sh->r[my_idx].period_end = raw_q(USER_PERIOD);
	}
	if (sh->fill_in_check)
		__atomic_store_n(&disk_full, 1, __ATOMIC_SEQ_CST);
	return ok;
}

/* ---- an SQLite VFS over the default one: a full disk, a read-only store ---- */
typedef struct {
	sqlite3_file base;
	sqlite3_file *real;
} shim_file;

static sqlite3_vfs *real_vfs, shim_vfs;
static int open_ro;               /* open the main database read-only */

#define REAL(f) (((shim_file *)(f))->real)
static int sh_close(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int sh_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o)
{ return REAL(f)->pMethods->xRead(REAL(f), b, n, o); }
static int sh_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
	if (__atomic_load_n(&disk_full, __ATOMIC_SEQ_CST))
		return SQLITE_FULL;
	return REAL(f)->pMethods->xWrite(REAL(f), b, n, o);
}
static int sh_truncate(sqlite3_file *f, sqlite3_int64 n)
{ return REAL(f)->pMethods->xTruncate(REAL(f), n); }
static int sh_sync(sqlite3_file *f, int fl) { return REAL(f)->pMethods->xSync(REAL(f), fl); }
static int sh_size(sqlite3_file *f, sqlite3_int64 *n)
{ return REAL(f)->pMethods->xFileSize(REAL(f), n); }
static int sh_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int sh_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int sh_reserved(sqlite3_file *f, int *o)
{ return REAL(f)->pMethods->xCheckReservedLock(REAL(f), o); }
static int sh_fctl(sqlite3_file *f, int op, void *a)
{ return REAL(f)->pMethods->xFileControl(REAL(f), op, a); }
static int sh_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int sh_devch(sqlite3_file *f)
{ return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int sh_shmmap(sqlite3_file *f, int pg, int sz, int ext, void volatile **p)
{ return REAL(f)->pMethods->xShmMap(REAL(f), pg, sz, ext, p); }
static int sh_shmlock(sqlite3_file *f, int o, int n, int fl)
{ return REAL(f)->pMethods->xShmLock(REAL(f), o, n, fl); }
static void sh_shmbarrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int sh_shmunmap(sqlite3_file *f, int del)
{ return REAL(f)->pMethods->xShmUnmap(REAL(f), del); }
static int sh_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p)
{ return REAL(f)->pMethods->xFetch(REAL(f), o, n, p); }
static int sh_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p)
{ return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

static const sqlite3_io_methods sh_methods = {
	3, sh_close, sh_read, sh_write, sh_truncate, sh_sync, sh_size, sh_lock,
	sh_unlock, sh_reserved, sh_fctl, sh_sector, sh_devch, sh_shmmap,
	sh_shmlock, sh_shmbarrier, sh_shmunmap, sh_fetch, sh_unfetch,
};

static int sh_open(sqlite3_vfs *v, const char *name, sqlite3_file *f,
                   int flags, int *out)
{
	shim_file *p = (shim_file *)f;
	int rc;

	(void)v;
	p->real = (sqlite3_file *)(p + 1);
	if (open_ro && (flags & SQLITE_OPEN_MAIN_DB))
		flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) |
		        SQLITE_OPEN_READONLY;
	rc = real_vfs->xOpen(real_vfs, name, p->real, flags, out);
	/* the real VFS's methods must be of version 3 to be forwarded */
	p->base.pMethods = p->real->pMethods != NULL &&
	                   p->real->pMethods->iVersion >= 3 ? &sh_methods : NULL;
	if (rc == SQLITE_OK && p->base.pMethods == NULL && p->real->pMethods) {
		p->real->pMethods->xClose(p->real);
		rc = SQLITE_CANTOPEN;
	}
	return rc;
}
static int sh_delete(sqlite3_vfs *v, const char *n, int sync)
{ (void)v; return real_vfs->xDelete(real_vfs, n, sync); }
static int sh_access(sqlite3_vfs *v, const char *n, int fl, int *o)
{ (void)v; return real_vfs->xAccess(real_vfs, n, fl, o); }
static int sh_fullpath(sqlite3_vfs *v, const char *n, int cap, char *o)
{ (void)v; return real_vfs->xFullPathname(real_vfs, n, cap, o); }

static void shim_register(void)
{
	real_vfs = sqlite3_vfs_find(NULL);
	CU_ASSERT_FATAL(real_vfs != NULL);
	shim_vfs = *real_vfs;
	shim_vfs.szOsFile = (int)sizeof(shim_file) + real_vfs->szOsFile;
	shim_vfs.zName = "pv-test-shim";
	shim_vfs.pNext = NULL;
	shim_vfs.xOpen = sh_open;
	shim_vfs.xDelete = sh_delete;
	shim_vfs.xAccess = sh_access;
	shim_vfs.xFullPathname = sh_fullpath;
	CU_ASSERT_FATAL(sqlite3_vfs_register(&shim_vfs, 1) == SQLITE_OK);
}

/* ---- the token ---- */
static char dir[256], dbpath[400];
static CK_SLOT_ID slot;

static void cleanup(void)
{
	char cmd[300];

	if (dir[0] != '\0' && !getenv("PKT_KEEP")) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup of %s failed\n", dir);
	}
}

static long long raw_q(const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	long long v = -1;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_busy_timeout(db, 15000) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static int raw_integrity_ok(void)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int ok = 0;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_busy_timeout(db, 15000) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		ok = strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
	sqlite3_finalize(st);
	sqlite3_close(db);
	return ok;
}

#define USER_FAILS  "SELECT fails FROM pins WHERE who = 1"
#define IN_FLIGHT   "SELECT count(*) FROM pin_tries"

/* The test's PINs get TEST_ITER iterations (a record the vault makes
 * with that count, which the token layer uses as it uses any stored
 * count): the checks' cost is the wrapper's sleep, not PBKDF2, so the
 * storms stay cheap under sanitizers.  Made with the SO's login. */
static void cheap_pin(int who, const char *pin)
{
	CK_SESSION_HANDLE h = 0;
	tk_pinrec rec;
	tk_auth a;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	CU_ASSERT_FATAL(C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	                              NULL, NULL, &h) == CKR_OK);
	CU_ASSERT_FATAL(C_Login(h, CKU_SO, PIN(SO_PIN)) == CKR_OK);
	CU_ASSERT_FATAL(tk_auth_session(h, &a) == CKR_OK);
	CU_ASSERT_FATAL(tk_auth_pin_record_iter(&a, (CK_USER_TYPE)who, (const CK_UTF8CHAR *)pin,
	                                        strlen(pin), TEST_ITER, &rec) == PV_OK);
	tk_auth_clear(&a);
	CU_ASSERT(C_CloseSession(h) == CKR_OK);
	CU_ASSERT_FATAL(sqlite3_open(dbpath, &db) == SQLITE_OK);
	sqlite3_busy_timeout(db, 15000);
	CU_ASSERT_FATAL(sqlite3_prepare_v2(db, "UPDATE pins SET iterations = ?1,"
	                " salt = ?2, verifier = ?3 WHERE who = ?4", -1, &st,
	                NULL) == SQLITE_OK);
	sqlite3_bind_int(st, 1, (int)TEST_ITER);
	sqlite3_bind_blob(st, 2, rec.salt, sizeof rec.salt, SQLITE_TRANSIENT);
	sqlite3_bind_blob(st, 3, rec.verifier, TK_PIN_RECORD_LEN, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 4, who);
	CU_ASSERT_FATAL(sqlite3_step(st) == SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static CK_SESSION_HANDLE open_rw(void)
{
	CK_SESSION_HANDLE h = 0;

	CU_ASSERT_FATAL(C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	                              NULL, NULL, &h) == CKR_OK);
	return h;
}

/* The SO sets the user PIN again: the documented way to unlock it. */
static void so_unlock(void)
{
	CK_SESSION_HANDLE h = open_rw();

	CU_ASSERT_FATAL(C_Login(h, CKU_SO, PIN(SO_PIN)) == CKR_OK);
	CU_ASSERT_FATAL(C_InitPIN(h, PIN(USER_PIN)) == CKR_OK);
	CU_ASSERT(C_CloseSession(h) == CKR_OK);
	cheap_pin(CKU_USER, USER_PIN);
	CU_ASSERT(raw_q(USER_FAILS) == 0 && raw_q(IN_FLIGHT) == 0);
}

static CK_FLAGS token_flags(void)
{
	CK_TOKEN_INFO ti;

	CU_ASSERT_FATAL(C_GetTokenInfo(slot, &ti) == CKR_OK);
	return ti.flags;
}

static void setup(void)
{
	char conf[300];
	CK_SLOT_ID ids[8];
	CK_ULONG n = 8, i;
	CK_TOKEN_INFO ti;
	CK_UTF8CHAR label[32];
	CK_OBJECT_CLASS data = CKO_DATA;
	CK_BBOOL tr = CK_TRUE;
	CK_ATTRIBUTE obj[] = {
		{ CKA_CLASS, &data, sizeof data },
		{ CKA_TOKEN, &tr, sizeof tr },
		{ CKA_LABEL, "kept", 4 },
	};
	CK_OBJECT_HANDLE o;
	CK_SESSION_HANDLE h;
	FILE *fp;
	char serial[17];

	snprintf(dir, sizeof dir, "%s/pv-pintry.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	atexit(cleanup);
	snprintf(conf, sizeof conf, "%s/pixelvault.conf", dir);
	fp = fopen(conf, "w");
	CU_ASSERT_FATAL(fp != NULL);
	{
		/* the vault makes the token key and checks the PINs */
		char mk[300];
		uint8_t key[PV_MASTER_KEY_LEN];
		snprintf(mk, sizeof mk, "%s/master.key", dir);
		ts_rand(key, sizeof key);
		CU_ASSERT_FATAL(pv_master_write(mk, key, NULL) == 0);
		fprintf(fp, "token_dir = %s/tokens\nbackend = cpu\nmaster_key = %s\n", dir, mk);
	}
	fclose(fp);
	setenv("PIXELVAULT_CONF", conf, 1);

	CU_ASSERT_FATAL(C_Initialize(NULL) == CKR_OK);
	CU_ASSERT_FATAL(C_GetSlotList(CK_FALSE, ids, &n) == CKR_OK && n >= 1);
	for (i = 0; i < n; i++)
		if (C_GetTokenInfo(ids[i], &ti) == CKR_OK &&
		    !(ti.flags & CKF_TOKEN_INITIALIZED))
			slot = ids[i];
	memset(label, ' ', sizeof label);
	memcpy(label, "pintry", 6);
	CU_ASSERT_FATAL(C_InitToken(slot, PIN(SO_PIN), label) == CKR_OK);
	CU_ASSERT_FATAL(C_GetTokenInfo(slot, &ti) == CKR_OK);
	memcpy(serial, ti.serialNumber, 16);
	serial[16] = '\0';
	snprintf(dbpath, sizeof dbpath, "%s/tokens/%s/token.db", dir, serial);
	cheap_pin(CKU_SO, SO_PIN);
	so_unlock();
	h = open_rw();
	for (i = 0; i < 3; i++)
		CU_ASSERT_FATAL(C_CreateObject(h, obj, 3, &o) == CKR_OK);
	CU_ASSERT(C_CloseSession(h) == CKR_OK);
}

static int count_kept(void)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_ATTRIBUTE t[] = { { CKA_LABEL, "kept", 4 } };
	CK_OBJECT_HANDLE o[8];
	CK_ULONG n = 0;

	if (C_FindObjectsInit(h, t, 1) != CKR_OK ||
	    C_FindObjects(h, o, 8, &n) != CKR_OK || C_FindObjectsFinal(h) != CKR_OK)
		n = (CK_ULONG)-1;
	C_CloseSession(h);
	return (int)n;
}

/* ---- the storms ---- */
typedef struct {
	int idx;
	CK_SESSION_HANDLE h;
} worker;

static void *try_login(void *arg)
{
	worker *w = arg;
	int *go = w->idx == RIGHT ? &sh->go_right : &sh->go_wrong;
	const char *pin = w->idx == RIGHT ? USER_PIN : WRONG_PIN;

	my_idx = w->idx;
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(go, __ATOMIC_ACQUIRE))
		usleep(500);
	sh->r[w->idx].rv = C_Login(w->h, CKU_USER, PIN(pin));
	__atomic_store_n(&sh->r[w->idx].done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A child process: n tries from index first on, each in its own thread
 * and session.  Exits 0 when every thread ran. */
static void storm_child(int first, int n)
{
	pthread_t th[NTHREAD];
	worker w[NTHREAD];
	int i, bad = 0;

	/* CUDA does not cross fork: where the parent's vault runs on a GPU
	 * (PIXELVAULT_BACKEND=cuda, as the GPU checks set it), the child's
	 * opens on the CPU, as backend auto does for any forked client */
	if (getenv("PIXELVAULT_BACKEND") != NULL)
		setenv("PIXELVAULT_BACKEND", "auto", 1);
	if (C_Initialize(NULL) != CKR_OK)
		_exit(2);
	for (i = 0; i < n; i++) {
		w[i].idx = first + i;
		if (C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
		                  NULL, &w[i].h) != CKR_OK ||
		    pthread_create(&th[i], NULL, try_login, &w[i]) != 0)
			_exit(3);
	}
	for (i = 0; i < n; i++)
		bad |= pthread_join(th[i], NULL) != 0;
	C_Finalize(NULL);
	_exit(bad ? 4 : 0);
}

/* Run 300 wrong tries (and the right one if with_right) in NPROC + 1
 * processes.  right_first: the right try is counted before the wrong ones
 * are let go. */
static void storm(int with_right, int right_first, int right_last)
{
	pid_t pid[NPROC + 1];
	int p, np = 0, st, total = NWRONG + (with_right ? 1 : 0);

	memset(sh, 0, sizeof *sh);
	sh->right_last = right_last;
	for (p = 0; p < NPROC + (with_right ? 1 : 0); p++) {
		pid[p] = fork();
		CU_ASSERT_FATAL(pid[p] >= 0);
		if (pid[p] == 0) {
			if (p < NPROC)
				storm_child(p * NTHREAD, NTHREAD);
			storm_child(RIGHT, 1);
		}
		np++;
	}
	while (__atomic_load_n(&sh->ready, __ATOMIC_SEQ_CST) < total)
		usleep(1000);
	if (with_right) {
		__atomic_store_n(&sh->go_right, 1, __ATOMIC_RELEASE);
		while (right_first &&
		       !__atomic_load_n(&sh->right_counted, __ATOMIC_ACQUIRE))
			usleep(200);
	}
	__atomic_store_n(&sh->go_wrong, 1, __ATOMIC_RELEASE);
	for (p = 0; p < np; p++) {
		CU_ASSERT(waitpid(pid[p], &st, 0) == pid[p]);
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
}

/* Every try answered; checked exactly when not refused as locked; a
 * checked wrong PIN is CKR_PIN_INCORRECT.  Returns the wrong PINs checked
 * in period p (all periods: p < 0). */
static int wrong_checked(long long p)
{
	int i, n = 0;

	for (i = 0; i < NWRONG; i++)
		if (sh->r[i].checked && (p < 0 || sh->r[i].period == p))
			n++;
	return n;
}

static void check_answers(int with_right)
{
	int i, incorrect = 0, bad = 0;

	for (i = 0; i < NWRONG; i++) {
		try_rec *r = &sh->r[i];
		/* checked exactly when not refused as locked; and no try spans
		 * two periods (no clear while it is in flight) */
		if (!r->done || r->right ||
		    (r->checked ? r->rv != CKR_PIN_INCORRECT : r->rv != CKR_PIN_LOCKED) ||
		    (r->checked && r->period_end != r->period)) {
			if (bad++ < 5)
				fprintf(stderr, "\n  try %d: done %d, rv 0x%lx, checked %d, "
				        "period %lld, at its check's end %lld", i, r->done,
				        (unsigned long)r->rv, r->checked, r->period,
				        r->period_end);
		}
		incorrect += r->rv == CKR_PIN_INCORRECT;
	}
	CU_ASSERT(bad == 0);
	if (bad)
		fprintf(stderr, "%d wrong tries answered against the rules\n", bad);
	CU_ASSERT(sh->checks == incorrect + (with_right && sh->r[RIGHT].checked));
	if (with_right) {
		try_rec *r = &sh->r[RIGHT];
		CU_ASSERT(r->done);
		CU_ASSERT(r->checked ? r->right && r->rv == CKR_OK
		                     : r->rv == CKR_PIN_LOCKED);
		CU_ASSERT(!r->checked || r->period_end == r->period);
	}
}

/* 300 wrong PINs at once and nothing else: exactly LIMIT are checked, the
 * rest refused unchecked; the PIN is locked, the right PIN too is refused
 * without a check, and the SO's C_InitPIN unlocks it. */
static void t_storm_wrong(void)
{
	long long p0 = raw_q(USER_PERIOD);
	int before;

	storm(0, 0, 0);
	check_answers(0);
	printf("\n  300 wrong at once: %d checked (limit %d) ", sh->checks, LIMIT);
	CU_ASSERT(wrong_checked(-1) == LIMIT);
	CU_ASSERT(wrong_checked(p0) == LIMIT);
	CU_ASSERT(raw_q(USER_FAILS) == LIMIT && raw_q(IN_FLIGHT) == 0);
	CU_ASSERT(token_flags() & CKF_USER_PIN_LOCKED);
	before = sh->checks;
	{
		CK_SESSION_HANDLE h = open_rw();
		CU_ASSERT(C_Login(h, CKU_USER, PIN(USER_PIN)) == CKR_PIN_LOCKED);
		CU_ASSERT(C_CloseSession(h) == CKR_OK);
	}
	CU_ASSERT(sh->checks == before);
	so_unlock();
	CU_ASSERT(!(token_flags() & (CKF_USER_PIN_LOCKED | CKF_USER_PIN_COUNT_LOW)));
}

/* 300 wrong PINs and the right one.  The rule: a right PIN clears the
 * counter only when no other try is in flight, and that begins a new
 * period; otherwise it takes back its own count.  So in every period at
 * most LIMIT wrong PINs are checked; a clear happens only after the right
 * PIN was checked, at most once here, and the period it ends had at most
 * LIMIT - 1 wrong PINs besides the right one.  At the end the counter
 * holds exactly the wrong PINs of the last period, and the PIN is locked
 * exactly when that is LIMIT. */
static void storm_right(int right_first, int right_last)
{
	long long p0, pf;
	int w0, w1, fails;

	so_unlock();
	p0 = raw_q(USER_PERIOD);
	storm(1, right_first, right_last);
	check_answers(1);
	pf = raw_q(USER_PERIOD);
	fails = (int)raw_q(USER_FAILS);
	w0 = wrong_checked(p0);
	w1 = wrong_checked(p0 + 1);
	printf("\n  300 wrong + right%s: right %s, wrong checked %d + %d after a "
	       "clear, counter %d ", right_first ? " (counted first)" : "",
	       sh->r[RIGHT].rv == CKR_OK ? "ok" : "locked", w0, w1, fails);
	CU_ASSERT(w0 + w1 == wrong_checked(-1));       /* no other period */
	CU_ASSERT(w0 <= LIMIT && w1 <= LIMIT);
	CU_ASSERT(pf == p0 || (pf == p0 + 1 && sh->r[RIGHT].rv == CKR_OK));
	if (pf == p0 + 1)
		CU_ASSERT(w0 <= LIMIT - 1);
	CU_ASSERT(fails == (pf == p0 ? w0 : w1));
	CU_ASSERT(raw_q(IN_FLIGHT) == 0);
	CU_ASSERT(!!(token_flags() & CKF_USER_PIN_LOCKED) == (fails == LIMIT));
	/* counted first: checked, whatever the others do */
	if (right_first)
		CU_ASSERT(sh->r[RIGHT].rv == CKR_OK);
	/* its check ends after every other try: nothing in flight, so it
	 * clears, and no try comes after */
	if (right_last)
		CU_ASSERT(pf == p0 + 1 && fails == 0 && w0 == LIMIT - 1);
}

static void t_storm_right_random(void) { storm_right(0, 0); }
static void t_storm_right_first(void) { storm_right(1, 0); }
static void t_storm_right_clears(void) { storm_right(1, 1); }

/* A PIN shorter or longer than the token accepts cannot be right: the
 * answer is CKR_PIN_INCORRECT, and no try is counted or checked. */
static void t_impossible_length(void)
{
	static char long_pin[TK_PIN_MAX + 2];
	CK_SESSION_HANDLE h;

	so_unlock();
	memset(sh, 0, sizeof *sh);
	memset(long_pin, '7', TK_PIN_MAX + 1);
	h = open_rw();
	CU_ASSERT(C_Login(h, CKU_USER, PIN("123")) == CKR_PIN_INCORRECT);
	CU_ASSERT(C_Login(h, CKU_USER, PIN(long_pin)) == CKR_PIN_INCORRECT);
	CU_ASSERT(C_Login(h, CKU_SO, PIN("1")) == CKR_PIN_INCORRECT);
	CU_ASSERT(sh->checks == 0);
	CU_ASSERT(raw_q(USER_FAILS) == 0 && raw_q(IN_FLIGHT) == 0);
	CU_ASSERT(raw_q("SELECT fails FROM pins WHERE who = 0") == 0);
	CU_ASSERT(C_Login(h, CKU_USER, PIN(USER_PIN)) == CKR_OK);
	CU_ASSERT(C_CloseSession(h) == CKR_OK);
}

/* ---- a store that cannot be written ---- */
/* The disk is full before the login: no try is counted, so none is
 * checked, and each answer is CKR_DEVICE_MEMORY - right PIN or wrong.
 * Once the disk has room the store is as before and the right PIN works. */
static void t_disk_full(void)
{
	CK_SESSION_HANDLE h;
	int i, kept = count_kept();

	so_unlock();
	memset(sh, 0, sizeof *sh);
	h = open_rw();
	CU_ASSERT(C_Login(h, CKU_USER, PIN(WRONG_PIN)) == CKR_PIN_INCORRECT);
	__atomic_store_n(&disk_full, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 24; i++)
		CU_ASSERT(C_Login(h, CKU_USER, PIN(WRONG_PIN)) == CKR_DEVICE_MEMORY);
	CU_ASSERT(C_Login(h, CKU_USER, PIN(USER_PIN)) == CKR_DEVICE_MEMORY);
	CU_ASSERT(C_Login(h, CKU_SO, PIN(SO_PIN)) == CKR_DEVICE_MEMORY);
	CU_ASSERT(sh->checks == 1);                 /* the first one only */
	__atomic_store_n(&disk_full, 0, __ATOMIC_SEQ_CST);
	CU_ASSERT(raw_q(USER_FAILS) == 1 && raw_q(IN_FLIGHT) == 0);
	CU_ASSERT(raw_q("SELECT fails FROM pins WHERE who = 0") == 0);
	CU_ASSERT(raw_integrity_ok());
	CU_ASSERT(count_kept() == kept && kept == 3);
	CU_ASSERT(C_Login(h, CKU_USER, PIN(USER_PIN)) == CKR_OK);
	CU_ASSERT(sh->checks == 2);
	CU_ASSERT(raw_q(USER_FAILS) == 0);
	CU_ASSERT(C_CloseSession(h) == CKR_OK);
}

/* The disk fills while the PIN is checked: the try was counted, and its
 * end cannot be written, so it stays counted (and in flight, until it is
 * stale) - a wrong PIN as a failure, a right one too, although the login
 * itself succeeds. */
static void t_disk_full_during_check(void)
{
	CK_SESSION_HANDLE h;

	so_unlock();
	memset(sh, 0, sizeof *sh);
	h = open_rw();
	sh->fill_in_check = 1;
	CU_ASSERT(C_Login(h, CKU_USER, PIN(WRONG_PIN)) == CKR_PIN_INCORRECT);
	__atomic_store_n(&disk_full, 0, __ATOMIC_SEQ_CST);
	CU_ASSERT(raw_q(USER_FAILS) == 1 && raw_q(IN_FLIGHT) == 1);
	CU_ASSERT(C_Login(h, CKU_USER, PIN(USER_PIN)) == CKR_OK);
	__atomic_store_n(&disk_full, 0, __ATOMIC_SEQ_CST);
	sh->fill_in_check = 0;
	CU_ASSERT(C_Logout(h) == CKR_OK);
	CU_ASSERT(raw_q(USER_FAILS) == 2 && raw_q(IN_FLIGHT) == 2);
	/* the two unsettled tries are in flight: a success takes back its
	 * own count only */
	CU_ASSERT(C_Login(h, CKU_USER, PIN(USER_PIN)) == CKR_OK);
	CU_ASSERT(C_Logout(h) == CKR_OK);
	CU_ASSERT(raw_q(USER_FAILS) == 2);
	CU_ASSERT(sh->checks == 3);
	CU_ASSERT(raw_integrity_ok());
	CU_ASSERT(C_CloseSession(h) == CKR_OK);
}

/* A child process whose store cannot be written: mode 0 the database
 * opens read-only, mode 1 every file write fails (RLIMIT_FSIZE 0).  Both
 * PINs answer CKR_DEVICE_ERROR unchecked; public objects stay readable. */
static void unwritable(int mode)
{
	pid_t pid;
	int st = -1;

	memset(sh, 0, sizeof *sh);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		CK_SESSION_HANDLE h;
		int bad = 0;
		if (mode == 0) {
			open_ro = 1;
		} else {
			struct rlimit rl = { 0, 0 };
			signal(SIGXFSZ, SIG_IGN);
			if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
				_exit(2);
		}
		if (C_Initialize(NULL) != CKR_OK ||
		    C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h) != CKR_OK)
			_exit(3);
		bad |= C_Login(h, CKU_USER, PIN(WRONG_PIN)) != CKR_DEVICE_ERROR;
		bad |= C_Login(h, CKU_USER, PIN(USER_PIN)) != CKR_DEVICE_ERROR;
		bad |= (count_kept() != 3) << 1;
		C_Finalize(NULL);
		_exit(bad ? 10 + bad : 0);
	}
	CU_ASSERT(waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fprintf(stderr, "\n  unwritable store (mode %d): child status %d\n",
		        mode, st);
	CU_ASSERT(sh->checks == 0);
	CU_ASSERT(raw_q(USER_FAILS) == 2 && raw_q(IN_FLIGHT) == 2);
	CU_ASSERT(raw_integrity_ok());
}

static void t_readonly(void) { unwritable(0); }
static void t_write_error(void) { unwritable(1); }

int main(void)
{
	CU_pSuite s;
	struct rlimit rl;

	/* 100 threads a process, each with a session and at times a store
	 * connection: more descriptors than some defaults allow */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
	          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("PIN tries counted before they are checked", NULL, NULL);
	CU_add_test(s, "set-up", (CU_TestFunc)shim_register);
	CU_add_test(s, "token", setup);
	CU_add_test(s, "300 wrong at once", t_storm_wrong);
	CU_add_test(s, "300 wrong + right, all at once", t_storm_right_random);
	CU_add_test(s, "300 wrong + right counted first", t_storm_right_first);
	CU_add_test(s, "300 wrong + right, its check the last", t_storm_right_clears);
	CU_add_test(s, "a PIN of impossible length: not counted", t_impossible_length);
	CU_add_test(s, "disk full: not counted, not checked", t_disk_full);
	CU_add_test(s, "disk fills during the check", t_disk_full_during_check);
	CU_add_test(s, "read-only store: not checked", t_readonly);
	CU_add_test(s, "write error: not checked", t_write_error);
	return ts_run();
}
