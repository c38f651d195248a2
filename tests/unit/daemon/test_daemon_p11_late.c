/*
 * test_daemon_p11_late.c - the PKCS#11 module in daemon mode initialised
 * while pvaultd is not running yet: crypto answers CKR_DEVICE_ERROR /
 * CKR_DEVICE_REMOVED, and once pvaultd is up (and a second has passed: the
 * module retries the open at most once a second) the next crypto call works
 * without C_Finalize (token/tk_vault.c).
 */
#include "td_p11.h"

#include <p11-kit/pkcs11.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static td_daemon D;
static CK_FUNCTION_LIST_PTR F;
static void *lib;

static int suite_init(void)
{
	if (td_setup(&D) != 0)                          /* pvaultd NOT started */
		return 1;
	return td_p11_load(&D, &lib, &F) != 0;
}

static int suite_clean(void)
{
	if (F)
		F->C_Finalize(NULL);
	if (D.pid > 0)
		td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

static CK_RV gen(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *k)
{
	CK_BBOOL yes = CK_TRUE;
	CK_ULONG vl = 32;
	CK_MECHANISM m = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ATTRIBUTE ta[] = { { CKA_TOKEN, &yes, sizeof yes }, { CKA_ENCRYPT, &yes, sizeof yes },
	                      { CKA_VALUE_LEN, &vl, sizeof vl } };
	return F->C_GenerateKey(s, &m, ta, 3, k);
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

static void t_late(void)
{
	CK_SLOT_ID slots[8];
	CK_ULONG n = 8;
	CK_SESSION_HANDLE s;
	CK_OBJECT_HANDLE k;
	CK_UTF8CHAR label[32];
	uint8_t c[16];
	CK_RV rv;

	CU_ASSERT_EQUAL_FATAL(F->C_GetSlotList(CK_FALSE, slots, &n), CKR_OK);
	CU_ASSERT_FATAL(n >= 1);
	memset(label, ' ', sizeof label);
	memcpy(label, "late", 4);
	/* the token key is the vault's: no token without pvaultd */
	rv = F->C_InitToken(slots[0], (CK_UTF8CHAR_PTR)"87654321", 8, label);
	fprintf(stderr, "  pvaultd down: C_InitToken rv 0x%lx\n", (unsigned long)rv);
	CU_ASSERT(rv == CKR_DEVICE_ERROR || rv == CKR_DEVICE_REMOVED);

	CU_ASSERT_EQUAL_FATAL(td_start(&D), 0);
	usleep(1100 * 1000);                 /* past the once-a-second retry limit */
	CU_ASSERT_EQUAL_FATAL(F->C_InitToken(slots[0], (CK_UTF8CHAR_PTR)"87654321", 8, label), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(F->C_OpenSession(slots[0], CKF_SERIAL_SESSION | CKF_RW_SESSION,
	                                       NULL, NULL, &s), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(F->C_Login(s, CKU_SO, (CK_UTF8CHAR_PTR)"87654321", 8), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(F->C_InitPIN(s, (CK_UTF8CHAR_PTR)"12345678", 8), CKR_OK);
	F->C_Logout(s);
	CU_ASSERT_EQUAL_FATAL(F->C_Login(s, CKU_USER, (CK_UTF8CHAR_PTR)"12345678", 8), CKR_OK);
	rv = gen(s, &k);
	fprintf(stderr, "  pvaultd up:   C_GenerateKey rv 0x%lx\n", (unsigned long)rv);
	CU_ASSERT_EQUAL_FATAL(rv, CKR_OK);
	CU_ASSERT_EQUAL(ecb(s, k, c), CKR_OK);
	F->C_CloseSession(s);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_p11_late", suite_init, suite_clean);
	CU_add_test(s, "module started before pvaultd: tokens and crypto work once it is up, no C_Finalize",
	            t_late);
	return ts_run();
}
