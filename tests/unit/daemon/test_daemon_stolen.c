/*
 * test_daemon_stolen.c - the stolen-store attack, scripted.  A user makes
 * private keys on a token; an attacker who holds a copy of the token
 * store (a backup, a disk image) edits whatever rows promise access - the
 * old "login = none" row, a made-up "no login" record, CKA_PRIVATE,
 * CKA_SENSITIVE, CKA_EXTRACTABLE, the objects table's private column -
 * and uses the copy without the PIN:
 *   1. through pvaultd (the daemon holds the master key), as the daemon's
 *      own uid and as another uid pvaultd admits (-u), and
 *   2. with the embedded module and the master key file itself.
 * No private key is usable and no secret value comes out: the keys are
 * sealed under the token key, which only the PIN opens in the vault.
 */
#include "td_p11.h"

#include <grp.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static td_daemon D;
static CK_FUNCTION_LIST_PTR F;
static void *lib;
static char stolen_conf[400], stolen_dir[200];

static CK_BBOOL T = CK_TRUE, FA = CK_FALSE;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };

/* The owner: a token, the user's PIN, a private sensitive AES key and a
 * private EC key. */
static void t_owner(void)
{
	CK_SLOT_ID ids[8];
	CK_ULONG n = 8, len = 32;
	CK_UTF8CHAR label[32];
	CK_SESSION_HANDLE s;
	CK_OBJECT_HANDLE k, pu, pr;
	CK_MECHANISM kg = { CKM_AES_KEY_GEN, NULL, 0 }, eg = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE at[] = { { CKA_VALUE_LEN, &len, sizeof len }, { CKA_TOKEN, &T, 1 },
	                      { CKA_LABEL, "aes", 3 }, { CKA_ENCRYPT, &T, 1 },
	                      { CKA_SENSITIVE, &T, 1 }, { CKA_EXTRACTABLE, &T, 1 } };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 }, { CKA_TOKEN, &T, 1 } };
	CK_ATTRIBUTE st[] = { { CKA_TOKEN, &T, 1 }, { CKA_SIGN, &T, 1 }, { CKA_LABEL, "ec", 2 } };

	CU_ASSERT_FATAL(td_p11_load(&D, &lib, &F) == 0);
	CU_ASSERT_FATAL(F->C_GetSlotList(CK_FALSE, ids, &n) == CKR_OK && n >= 1);
	memset(label, ' ', sizeof label);
	memcpy(label, "owner", 5);
	CU_ASSERT_FATAL(F->C_InitToken(ids[0], (CK_UTF8CHAR_PTR)"87654321", 8, label) == CKR_OK);
	CU_ASSERT_FATAL(F->C_OpenSession(ids[0], CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL,
	                                 &s) == CKR_OK);
	CU_ASSERT_FATAL(F->C_Login(s, CKU_SO, (CK_UTF8CHAR_PTR)"87654321", 8) == CKR_OK);
	CU_ASSERT_FATAL(F->C_InitPIN(s, (CK_UTF8CHAR_PTR)"12345678", 8) == CKR_OK);
	CU_ASSERT_FATAL(F->C_Logout(s) == CKR_OK);
	CU_ASSERT_FATAL(F->C_Login(s, CKU_USER, (CK_UTF8CHAR_PTR)"12345678", 8) == CKR_OK);
	CU_ASSERT_FATAL(F->C_GenerateKey(s, &kg, at, 6, &k) == CKR_OK);
	CU_ASSERT_FATAL(F->C_GenerateKeyPair(s, &eg, pt, 2, st, 3, &pu, &pr) == CKR_OK);
	F->C_CloseSession(s);
	F->C_Finalize(NULL);
}

/* The attacker's copy of the store, with every access row edited. */
static void t_steal(void)
{
	char cmd[800], db[400];
	sqlite3 *h = NULL;
	char sql[1024];
	int i;

	snprintf(stolen_dir, sizeof stolen_dir, "%s/stolen", D.dir);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp -r '%s/tokens/'* '%s/'", stolen_dir,
	         D.dir, stolen_dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(cmd, sizeof cmd, "ls -d '%s'/*/token.db > '%s/db.txt'", stolen_dir, D.dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
	{
		FILE *f;
		snprintf(sql, sizeof sql, "%s/db.txt", D.dir);
		f = fopen(sql, "r");
		CU_ASSERT_FATAL(f != NULL && fgets(db, sizeof db, f) != NULL);
		fclose(f);
		db[strcspn(db, "\n")] = '\0';
	}
	CU_ASSERT_FATAL(sqlite3_open(db, &h) == SQLITE_OK);
	{
		char rec[257];
		for (i = 0; i < 256; i++)
			rec[i] = "0123456789abcdef"[(i * 7 + 3) & 15];
		rec[256] = '\0';
		snprintf(sql, sizeof sql,
		         "CREATE TABLE IF NOT EXISTS pv_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
		         "INSERT OR REPLACE INTO pv_meta VALUES ('login', 'none');"
		         "INSERT OR REPLACE INTO pv_meta VALUES ('login_record', '%s');"
		         "UPDATE objects SET private = 0;"
		         "UPDATE attributes SET value = x'00' WHERE type IN (%lu, %lu);"
		         "UPDATE attributes SET value = x'01' WHERE type = %lu;",
		         rec, (unsigned long)CKA_PRIVATE, (unsigned long)CKA_SENSITIVE,
		         (unsigned long)CKA_EXTRACTABLE);
	}
	CU_ASSERT_FATAL(sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(h);
}

static void write_conf(int daemon)
{
	FILE *f;

	snprintf(stolen_conf, sizeof stolen_conf, "%s/stolen.conf", D.dir);
	f = fopen(stolen_conf, "w");
	CU_ASSERT_FATAL(f != NULL);
	if (daemon)
		fprintf(f, "token_dir = %s\nmode = daemon\nsocket = %s\n", stolen_dir, D.sock);
	else
		fprintf(f, "token_dir = %s\nmaster_key = %s\nbackend = cpu\nworkers = 1\n",
		        stolen_dir, D.key);
	fclose(f);
	setenv("PIXELVAULT_CONF", stolen_conf, 1);
}

/* Every way at the keys without the PIN: the number that worked, or -1
 * if the attack could not even be set up (no CUnit here: it also runs in
 * a child of another uid). */
static int attack_count(void)
{
	CK_OBJECT_CLASS sk = CKO_SECRET_KEY, pk = CKO_PRIVATE_KEY;
	CK_ATTRIBUTE fs[] = { { CKA_CLASS, &sk, sizeof sk } }, fp[] = { { CKA_CLASS, &pk, sizeof pk } };
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 }, ecdsa = { CKM_ECDSA, NULL, 0 };
	CK_MECHANISM kwp = { CKM_AES_KEY_WRAP_PAD, NULL, 0 }, kg = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ULONG n = 0, ol, len = 32;
	CK_ATTRIBUTE wt[] = { { CKA_VALUE_LEN, &len, sizeof len }, { CKA_PRIVATE, &FA, 1 },
	                      { CKA_WRAP, &T, 1 } };
	CK_SESSION_HANDLE s;
	CK_OBJECT_HANDLE k[8], w;
	uint8_t in[32] = { 0 }, out[600], val[64];
	CK_ATTRIBUTE va = { CKA_VALUE, val, sizeof val };
	CK_SLOT_ID ids[8], slot = (CK_SLOT_ID)-1;
	CK_ULONG ns = 8, i;
	CK_TOKEN_INFO ti;
	CK_FLAGS flags = 0;
	CK_RV rv;
	int used = 0;

	if (F->C_GetSlotList(CK_TRUE, ids, &ns) != CKR_OK)
		return -1;
	for (i = 0; i < ns; i++)
		if (F->C_GetTokenInfo(ids[i], &ti) == CKR_OK && (ti.flags & CKF_TOKEN_INITIALIZED)) {
			slot = ids[i];
			flags = ti.flags;
		}
	if (slot == (CK_SLOT_ID)-1 || !(flags & CKF_LOGIN_REQUIRED))
		return -1;                       /* the forged rows claim nothing */
	if (F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &s) != CKR_OK)
		return -1;
	/* the edited private column shows the objects; they stay closed */
	if (F->C_FindObjectsInit(s, fs, 1) != CKR_OK || F->C_FindObjects(s, k, 8, &n) != CKR_OK ||
	    n != 1)
		return -1;
	F->C_FindObjectsFinal(s);
	rv = F->C_EncryptInit(s, &ecb, k[0]);
	if (rv == CKR_OK) {
		ol = sizeof out;
		rv = F->C_Encrypt(s, in, 16, out, &ol);
	}
	fprintf(stderr, "    encrypt with the private AES key: 0x%lx\n", (unsigned long)rv);
	used += rv == CKR_OK;
	rv = F->C_GetAttributeValue(s, k[0], &va, 1);
	fprintf(stderr, "    its CKA_VALUE: 0x%lx\n", (unsigned long)rv);
	used += rv == CKR_OK;
	if (F->C_GenerateKey(s, &kg, wt, 3, &w) != CKR_OK)
		return -1;
	ol = sizeof out;
	rv = F->C_WrapKey(s, &kwp, w, k[0], out, &ol);
	fprintf(stderr, "    wrapped under the attacker's key: 0x%lx\n", (unsigned long)rv);
	used += rv == CKR_OK;
	n = 0;
	if (F->C_FindObjectsInit(s, fp, 1) != CKR_OK || F->C_FindObjects(s, k, 8, &n) != CKR_OK ||
	    n != 1)
		return -1;
	F->C_FindObjectsFinal(s);
	rv = F->C_SignInit(s, &ecdsa, k[0]);
	if (rv == CKR_OK) {
		ol = sizeof out;
		rv = F->C_Sign(s, in, 32, out, &ol);
	}
	fprintf(stderr, "    sign with the private EC key: 0x%lx\n", (unsigned long)rv);
	used += rv == CKR_OK;
	F->C_CloseSession(s);
	return used;
}

static void attack(void)
{
	CU_ASSERT_EQUAL(attack_count(), 0);
}

static void t_through_pvaultd(void)
{
	write_conf(1);
	CU_ASSERT_FATAL(F->C_Initialize(NULL) == CKR_OK);
	attack();
	F->C_Finalize(NULL);
}

static void t_with_the_master_key(void)
{
	write_conf(0);
	CU_ASSERT_FATAL(F->C_Initialize(NULL) == CKR_OK);
	attack();
	F->C_Finalize(NULL);
}

/* The attacker as another uid that pvaultd admits (-u), when we are root
 * and can be it: a child with that uid runs the attack on the copy. */
#define OTHER_UID 4205u

static void t_other_uid(void)
{
	char cmd[600], run[400];
	int st = -1;
	pid_t p;

	if (geteuid() != 0) {
		fprintf(stderr, "    (not root: no other uid to be; skipped)\n");
		return;
	}
	write_conf(1);
	snprintf(run, sizeof run, "%s/run", D.dir);
	chmod(D.dir, 0711);
	chmod(run, 0711);
	chmod(stolen_conf, 0644);
	snprintf(cmd, sizeof cmd, "chown -R %u:%u '%s'", OTHER_UID, OTHER_UID, stolen_dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
	p = fork();
	if (p == 0) {
		int used;
		if (setgroups(0, NULL) != 0 || setgid(OTHER_UID) != 0 || setuid(OTHER_UID) != 0)
			_exit(99);
		if (F->C_Initialize(NULL) != CKR_OK)
			_exit(98);
		used = attack_count();
		F->C_Finalize(NULL);
		_exit(used < 0 ? 97 : used);
	}
	CU_ASSERT_FATAL(p > 0);
	waitpid(p, &st, 0);
	CU_ASSERT(WIFEXITED(st));
	CU_ASSERT_EQUAL(WEXITSTATUS(st), 0);
}

static int suite_init(void)
{
	static char uid[16];

	snprintf(uid, sizeof uid, "%u", OTHER_UID);
	D.extra[0] = "-u";                  /* pvaultd admits the attacker's uid */
	D.extra[1] = uid;
	D.extra[2] = NULL;
	return td_setup(&D) != 0 || td_start(&D) != 0;
}

static int suite_clean(void)
{
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_stolen", suite_init, suite_clean);
	CU_add_test(s, "the owner makes private keys", t_owner);
	CU_add_test(s, "a copy of the store with every access row edited", t_steal);
	CU_add_test(s, "the copy through pvaultd without the PIN: nothing usable", t_through_pvaultd);
	CU_add_test(s, "the copy with the master key file, embedded: nothing usable",
	            t_with_the_master_key);
	CU_add_test(s, "the copy through pvaultd as another admitted uid: nothing usable",
	            t_other_uid);
	return ts_run();
}
