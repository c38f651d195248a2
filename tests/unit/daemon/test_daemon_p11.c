/*
 * test_daemon_p11.c - the PKCS#11 module in daemon mode across a pvaultd
 * restart, in one application process: sessions opened before the restart
 * answer CKR_DEVICE_REMOVED (or CKR_SESSION_HANDLE_INVALID) for crypto, and
 * a new C_OpenSession + C_Login works again without C_Finalize.  Then
 * PKCS#11 3.2 async sessions through pvaultd: 16 sessions' digests
 * pending at once answer what a plain session answers, and calls
 * pending when pvaultd dies answer CKR_DEVICE_REMOVED through
 * C_AsyncComplete (no hang).
 */
#include "td_p11.h"

#include <p11-kit/pkcs11.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pkcs11/pk_pkcs11_3.h"

static td_daemon D;
static CK_FUNCTION_LIST_PTR F;
static void *lib;
static CK_SLOT_ID slot;

static int suite_init(void)
{
	if (td_setup(&D) != 0 || td_start(&D) != 0)
		return 1;
	return td_p11_load(&D, &lib, &F) != 0;
}

static int suite_clean(void)
{
	if (F)
		F->C_Finalize(NULL);
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

static CK_RV login(CK_SESSION_HANDLE *s)
{
	CK_RV rv = F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, s);
	if (rv != CKR_OK)
		return rv;
	rv = F->C_Login(*s, CKU_USER, (CK_UTF8CHAR_PTR)"12345678", 8);
	return rv == CKR_USER_ALREADY_LOGGED_IN ? CKR_OK : rv;
}

static CK_RV find_key(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *k)
{
	CK_ATTRIBUTE t[] = { { CKA_LABEL, (void *)"dk", 2 } };
	CK_ULONG n = 0;
	CK_RV rv = F->C_FindObjectsInit(s, t, 1);
	if (rv != CKR_OK)
		return rv;
	rv = F->C_FindObjects(s, k, 1, &n);
	F->C_FindObjectsFinal(s);
	return rv != CKR_OK ? rv : n == 1 ? CKR_OK : CKR_OBJECT_HANDLE_INVALID;
}

static CK_RV ecb(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE k, uint8_t out[16])
{
	CK_MECHANISM m = { CKM_AES_ECB, NULL, 0 };
	uint8_t in[16] = { 0 };
	CK_ULONG ol = 16;
	CK_RV rv = F->C_EncryptInit(s, &m, k);
	if (rv != CKR_OK)
		return rv;
	return F->C_Encrypt(s, in, 16, out, &ol);
}

static void t_restart(void)
{
	CK_SLOT_ID slots[8];
	CK_ULONG n = 8;
	CK_SESSION_HANDLE s, s2;
	CK_OBJECT_HANDLE k, k2;
	CK_UTF8CHAR label[32];
	CK_BBOOL yes = CK_TRUE;
	CK_ULONG vl = 32;
	CK_MECHANISM gen = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ATTRIBUTE ta[] = { { CKA_TOKEN, &yes, sizeof yes }, { CKA_ENCRYPT, &yes, sizeof yes },
	                      { CKA_VALUE_LEN, &vl, sizeof vl }, { CKA_LABEL, (void *)"dk", 2 } };
	uint8_t c1[16], c2[16];
	CK_RV rv;

	CU_ASSERT_EQUAL_FATAL(F->C_GetSlotList(CK_FALSE, slots, &n), CKR_OK);
	CU_ASSERT_FATAL(n >= 1);
	slot = slots[0];
	memset(label, ' ', sizeof label);
	memcpy(label, "daemon", 6);
	CU_ASSERT_EQUAL_FATAL(F->C_InitToken(slot, (CK_UTF8CHAR_PTR)"87654321", 8, label), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &s), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(F->C_Login(s, CKU_SO, (CK_UTF8CHAR_PTR)"87654321", 8), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(F->C_InitPIN(s, (CK_UTF8CHAR_PTR)"12345678", 8), CKR_OK);
	F->C_Logout(s);
	F->C_CloseSession(s);
	CU_ASSERT_EQUAL_FATAL(login(&s), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(F->C_GenerateKey(s, &gen, ta, 4, &k), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(ecb(s, k, c1), CKR_OK);

	/* pvaultd dies and comes back */
	CU_ASSERT_EQUAL(td_stop(&D, SIGKILL), 128 + SIGKILL);
	CU_ASSERT_EQUAL_FATAL(td_start(&D), 0);
	rv = ecb(s, k, c2);
	fprintf(stderr, "  old session after the restart: rv 0x%lx\n", (unsigned long)rv);
	CU_ASSERT(rv == CKR_DEVICE_REMOVED || rv == CKR_SESSION_HANDLE_INVALID);
	/* the application carries on: new session, login, same key, same result */
	F->C_CloseSession(s);
	rv = login(&s2);
	CU_ASSERT_EQUAL_FATAL(rv, CKR_OK);
	CU_ASSERT_EQUAL_FATAL(find_key(s2, &k2), CKR_OK);
	CU_ASSERT_EQUAL(ecb(s2, k2, c2), CKR_OK);
	CU_ASSERT(memcmp(c1, c2, 16) == 0);
	F->C_CloseSession(s2);
}

#define NA 16

static void t_async(void)
{
	CK_RV (*gif)(CK_UTF8CHAR_PTR, CK_VERSION_PTR, CK_INTERFACE_PTR_PTR, CK_FLAGS);
	CK_VERSION v32 = { 3, 2 };
	CK_INTERFACE *ifc = NULL;
	CK_FUNCTION_LIST_3_2 *F32;
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h[NA], plain;
	static uint8_t msg[NA][8192];
	uint8_t out[NA][32], want[32];
	CK_ASYNC_DATA res;
	CK_ULONG ol;
	struct timespec t0, t1;
	int i, ok = 0, removed = 0, left;
	CK_RV rv;

	gif = (CK_RV (*)(CK_UTF8CHAR_PTR, CK_VERSION_PTR, CK_INTERFACE_PTR_PTR, CK_FLAGS))
	      dlsym(lib, "C_GetInterface");
	CU_ASSERT_FATAL(gif != NULL && gif((CK_UTF8CHAR_PTR)"PKCS 11", &v32, &ifc, 0) == CKR_OK);
	F32 = ifc->pFunctionList;
	CU_ASSERT_EQUAL_FATAL(F->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &plain), CKR_OK);
	for (i = 0; i < NA; i++) {
		memset(msg[i], 'a' + i, sizeof msg[i]);
		CU_ASSERT_EQUAL_FATAL(F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_ASYNC_SESSION,
		                                       NULL, NULL, &h[i]), CKR_OK);
		ol = 32;
		CU_ASSERT_EQUAL_FATAL(F->C_DigestInit(h[i], &m), CKR_OK);
		CU_ASSERT_EQUAL(F->C_Digest(h[i], msg[i], sizeof msg[i], out[i], &ol), CKR_PENDING);
	}
	for (i = NA - 1; i >= 0; i--) {
		do {
			memset(&res, 0, sizeof res);
			rv = F32->C_AsyncComplete(h[i], (CK_UTF8CHAR_PTR)"C_Digest", &res);
		} while (rv == CKR_PENDING);
		ol = 32;
		CU_ASSERT_EQUAL_FATAL(F->C_DigestInit(plain, &m), CKR_OK);
		CU_ASSERT_EQUAL_FATAL(F->C_Digest(plain, msg[i], sizeof msg[i], want, &ol), CKR_OK);
		ok += rv == CKR_OK && res.ulValue == 32 && memcmp(out[i], want, 32) == 0;
	}
	CU_ASSERT_EQUAL(ok, NA);

	/* pvaultd dies with calls pending: each answers, none hangs */
	for (i = 0; i < NA; i++) {
		ol = 32;
		CU_ASSERT_EQUAL_FATAL(F->C_DigestInit(h[i], &m), CKR_OK);
		CU_ASSERT_EQUAL(F->C_Digest(h[i], msg[i], sizeof msg[i], out[i], &ol), CKR_PENDING);
	}
	CU_ASSERT_EQUAL(td_stop(&D, SIGKILL), 128 + SIGKILL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (left = NA; left > 0; ) {
		for (i = 0; i < NA; i++) {
			if (h[i] == CK_INVALID_HANDLE)
				continue;
			rv = F32->C_AsyncComplete(h[i], (CK_UTF8CHAR_PTR)"C_Digest", &res);
			if (rv == CKR_PENDING)
				continue;
			/* finished before the kill, or told the daemon is gone */
			removed += rv == CKR_DEVICE_REMOVED;
			CU_ASSERT(rv == CKR_OK || rv == CKR_DEVICE_REMOVED);
			F->C_CloseSession(h[i]);
			h[i] = CK_INVALID_HANDLE;
			left--;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > 20)
			break;
	}
	fprintf(stderr, "  %d of %d pending digests answered CKR_DEVICE_REMOVED\n", removed, NA);
	CU_ASSERT_EQUAL(left, 0);
	for (i = 0; i < NA; i++)
		if (h[i] != CK_INVALID_HANDLE)
			F->C_CloseSession(h[i]);
	F->C_CloseSession(plain);
	CU_ASSERT_EQUAL(td_start(&D), 0);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_p11", suite_init, suite_clean);
	CU_add_test(s, "PKCS#11 across a pvaultd restart: DEVICE_REMOVED, then a new session works", t_restart);
	CU_add_test(s, "async sessions through pvaultd; calls pending when it dies answer", t_async);
	return ts_run();
}
