/*
 * test_p11_master.c - a token store records the master key its blobs are
 * sealed under (pv_meta.master_fpr); the module opened with another master
 * key refuses to put key blobs in it (CKR_KEY_FUNCTION_NOT_PERMITTED, see
 * docs/token-store.md) while sessions, session keys and data objects keep
 * working.  Its PIN records open only under the master key they were made
 * under: under another one nobody logs in, and the SO cannot re-initialise
 * the token either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "gpu/host/pv_master.h"
#include "pc.h"
#include "tsupport.h"

static char mk_path[300];
static uint8_t key_a[PV_MASTER_KEY_LEN], key_b[PV_MASTER_KEY_LEN];
static CK_SLOT_ID slot;

static void write_key(const uint8_t *k)
{
	unlink(mk_path);
	if (pv_master_write(mk_path, k, NULL) != 0) {
		fprintf(stderr, "pv_master_write failed\n");
		exit(1);
	}
}

/* The store's recorded fingerprint ("" if none) from the token's db. */
static void recorded_fpr(char out[PV_MASTER_FPR_LEN])
{
	char cmd[600], path[600];
	FILE *p;
	sqlite3 *db;
	sqlite3_stmt *st;

	out[0] = '\0';
	snprintf(cmd, sizeof cmd, "ls -d %s/tokens/*/token.db", pkt_dir);
	p = popen(cmd, "r");
	CU_ASSERT_FATAL(p != NULL);
	CU_ASSERT_FATAL(fgets(path, sizeof path, p) != NULL);
	pclose(p);
	path[strcspn(path, "\n")] = '\0';
	CU_ASSERT_FATAL(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	if (sqlite3_prepare_v2(db, "SELECT value FROM pv_meta WHERE key='master_fpr'",
	                       -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			snprintf(out, PV_MASTER_FPR_LEN, "%s",
			         (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
}

static CK_SESSION_HANDLE login(void)
{
	CK_SESSION_HANDLE s = pkt_open(slot, 1);

	CU_ASSERT_FATAL(s != CK_INVALID_HANDLE);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Login(s, CKU_USER, (CK_UTF8CHAR_PTR)PKT_USER_PIN,
	                                     strlen(PKT_USER_PIN)), CKR_OK);
	return s;
}

static CK_RV aes_obj(CK_SESSION_HANDLE s, CK_BBOOL token, CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	CK_BBOOL t = CK_TRUE;
	uint8_t v[16];
	CK_BBOOL f = CK_FALSE;
	CK_ATTRIBUTE a[] = {
		{ CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
		{ CKA_VALUE, v, sizeof v }, { CKA_TOKEN, &token, 1 },
		{ CKA_ENCRYPT, &t, 1 }, { CKA_DECRYPT, &t, 1 }, { CKA_PRIVATE, &f, 1 },
	};
	ts_rand(v, sizeof v);
	return pkt_f->C_CreateObject(s, a, 7, h);
}

static CK_RV aes_gen(CK_SESSION_HANDLE s, CK_BBOOL token, CK_OBJECT_HANDLE *h)
{
	CK_MECHANISM m = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ULONG len = 32;
	CK_BBOOL f = CK_FALSE;
	CK_ATTRIBUTE a[] = { { CKA_VALUE_LEN, &len, sizeof len }, { CKA_TOKEN, &token, 1 },
	                     { CKA_PRIVATE, &f, 1 } };
	return pkt_f->C_GenerateKey(s, &m, a, 3, h);
}

static CK_RV ec_pair(CK_SESSION_HANDLE s, CK_BBOOL token)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_OBJECT_HANDLE pu, pr;
	CK_BBOOL t = CK_TRUE;
	CK_ATTRIBUTE pub[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 },
	                       { CKA_TOKEN, &token, 1 }, { CKA_VERIFY, &t, 1 } };
	CK_BBOOL f = CK_FALSE;
	CK_ATTRIBUTE prv[] = { { CKA_TOKEN, &token, 1 }, { CKA_SIGN, &t, 1 }, { CKA_PRIVATE, &f, 1 } };
	return pkt_f->C_GenerateKeyPair(s, &m, pub, 3, prv, 3, &pu, &pr);
}

static CK_RV data_obj(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS c = CKO_DATA;
	CK_BBOOL t = CK_TRUE;
	CK_ATTRIBUTE a[] = { { CKA_CLASS, &c, sizeof c }, { CKA_TOKEN, &t, 1 },
	                     { CKA_VALUE, "hello", 5 } };
	return pkt_f->C_CreateObject(s, a, 3, h);
}

static void test_key_a_records(void)
{
	CK_SESSION_HANDLE s;
	CK_OBJECT_HANDLE h;
	char want[PV_MASTER_FPR_LEN], got[PV_MASTER_FPR_LEN];

	slot = pkt_new_token("master", 1);
	s = login();
	pv_master_fingerprint(key_a, want);
	recorded_fpr(got);
	CU_ASSERT_STRING_EQUAL(got, want);       /* recorded at C_InitToken */
	CU_ASSERT_EQUAL(aes_obj(s, CK_TRUE, &h), CKR_OK);
	recorded_fpr(got);
	CU_ASSERT_STRING_EQUAL(got, want);
	CU_ASSERT_EQUAL(aes_gen(s, CK_TRUE, &h), CKR_OK);
	CU_ASSERT_EQUAL(ec_pair(s, CK_TRUE), CKR_OK);
	pkt_f->C_CloseAllSessions(slot);
	CU_ASSERT_EQUAL(pkt_f->C_Finalize(NULL), CKR_OK);
}

static void test_key_b_refused(void)
{
	CK_SESSION_HANDLE s;
	CK_OBJECT_HANDLE h;
	char want[PV_MASTER_FPR_LEN], got[PV_MASTER_FPR_LEN];

	write_key(key_b);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Initialize(NULL), CKR_OK);
	/* the records do not open under key B: no login, nothing counted */
	s = pkt_open(slot, 1);
	CU_ASSERT_FATAL(s != CK_INVALID_HANDLE);
	CU_ASSERT_EQUAL(pkt_f->C_Login(s, CKU_USER, (CK_UTF8CHAR_PTR)PKT_USER_PIN,
	                               strlen(PKT_USER_PIN)), CKR_DEVICE_ERROR);
	{
		CK_TOKEN_INFO ti;
		CU_ASSERT_EQUAL(pkt_f->C_GetTokenInfo(slot, &ti), CKR_OK);
		CU_ASSERT_EQUAL(ti.flags & (CKF_USER_PIN_COUNT_LOW | CKF_USER_PIN_LOCKED), 0);
	}
	CU_ASSERT_EQUAL(aes_obj(s, CK_TRUE, &h), CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT_EQUAL(aes_gen(s, CK_TRUE, &h), CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT_EQUAL(ec_pair(s, CK_TRUE), CKR_KEY_FUNCTION_NOT_PERMITTED);
	/* session keys never reach the store; data objects hold no blob */
	CU_ASSERT_EQUAL(aes_obj(s, CK_FALSE, &h), CKR_OK);
	CU_ASSERT_EQUAL(aes_gen(s, CK_FALSE, &h), CKR_OK);
	CU_ASSERT_EQUAL(data_obj(s, &h), CKR_OK);
	pv_master_fingerprint(key_a, want);
	recorded_fpr(got);
	CU_ASSERT_STRING_EQUAL(got, want);       /* not overwritten by key B */
	pkt_f->C_CloseAllSessions(slot);
	CU_ASSERT_EQUAL(pkt_f->C_Finalize(NULL), CKR_OK);

	/* back to key A: key creation works again */
	write_key(key_a);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Initialize(NULL), CKR_OK);
	s = login();
	CU_ASSERT_EQUAL(aes_gen(s, CK_TRUE, &h), CKR_OK);
	pkt_f->C_CloseAllSessions(slot);
	CU_ASSERT_EQUAL(pkt_f->C_Finalize(NULL), CKR_OK);
}

/* C_InitToken under key B: the SO's PIN cannot be checked (its record is
 * under key A), so the token stays as it is; under key A it works. */
static void test_reinit_needs_its_key(void)
{
	CK_SESSION_HANDLE s;
	CK_OBJECT_HANDLE h;
	CK_UTF8CHAR label[32];
	char want[PV_MASTER_FPR_LEN], got[PV_MASTER_FPR_LEN];

	write_key(key_b);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Initialize(NULL), CKR_OK);
	pkt_label(label, "master2");
	CU_ASSERT_EQUAL(pkt_f->C_InitToken(slot, (CK_UTF8CHAR_PTR)PKT_SO_PIN,
	                                   strlen(PKT_SO_PIN), label), CKR_DEVICE_ERROR);
	pv_master_fingerprint(key_a, want);
	recorded_fpr(got);
	CU_ASSERT_STRING_EQUAL(got, want);
	CU_ASSERT_EQUAL(pkt_f->C_Finalize(NULL), CKR_OK);
	write_key(key_a);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Initialize(NULL), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_InitToken(slot, (CK_UTF8CHAR_PTR)PKT_SO_PIN,
	                                         strlen(PKT_SO_PIN), label), CKR_OK);
	s = pkt_open(slot, 1);
	CU_ASSERT_FATAL(s != CK_INVALID_HANDLE);
	CU_ASSERT_EQUAL(pkt_f->C_Login(s, CKU_SO, (CK_UTF8CHAR_PTR)PKT_SO_PIN,
	                               strlen(PKT_SO_PIN)), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_InitPIN(s, (CK_UTF8CHAR_PTR)PKT_USER_PIN,
	                                 strlen(PKT_USER_PIN)), CKR_OK);
	pkt_f->C_CloseAllSessions(slot);
	s = login();
	CU_ASSERT_EQUAL(aes_gen(s, CK_TRUE, &h), CKR_OK);
	pkt_f->C_CloseAllSessions(slot);
	CU_ASSERT_EQUAL(pkt_f->C_Finalize(NULL), CKR_OK);
}

int main(void)
{
	char conf[300];
	FILE *fp;
	CU_pSuite s;

	pkt_setup();
	snprintf(mk_path, sizeof mk_path, "%s/master.key", pkt_dir);
	ts_rand(key_a, sizeof key_a);
	ts_rand(key_b, sizeof key_b);
	write_key(key_a);
	snprintf(conf, sizeof conf, "%s/pixelvault.conf", pkt_dir);
	fp = fopen(conf, "a");
	if (fp == NULL)
		return 1;
	fprintf(fp, "master_key = %s\nworkers = 1\n", mk_path);
	fclose(fp);
	if (pkt_f->C_Initialize(NULL) != CKR_OK)
		return 1;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("p11_master", NULL, NULL);
	CU_add_test(s, "token under key A records its fingerprint", test_key_a_records);
	CU_add_test(s, "module under key B: keys refused, data ok", test_key_b_refused);
	CU_add_test(s, "C_InitToken needs the master key of its records", test_reinit_needs_its_key);
	return ts_run();
}
