/* pkt.c - see pkt.h. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/host/pv_master.h"
#include "pkt.h"

CK_FUNCTION_LIST *pkt_f;
CK_FUNCTION_LIST_3_0 *pkt_f3;
void *pkt_dl;
char pkt_dir[256];
static pid_t pkt_owner;

void pkt_cleanup(void)
{
	char cmd[300];

	if (pkt_dir[0] == '\0' || getpid() != pkt_owner || getenv("PKT_KEEP"))
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", pkt_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup of %s failed\n", pkt_dir);
}

void pkt_setup(void)
{
	char conf[300];
	FILE *fp;
	CK_C_GetFunctionList gfl;
	CK_C_GetInterface gi;
	CK_INTERFACE *iface = NULL;
	CK_VERSION v30 = { 3, 0 };

	snprintf(pkt_dir, sizeof pkt_dir, "%s/pv-test.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(pkt_dir) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	pkt_owner = getpid();
	atexit(pkt_cleanup);
	snprintf(conf, sizeof conf, "%s/pixelvault.conf", pkt_dir);
	fp = fopen(conf, "w");
	if (fp == NULL) {
		perror(conf);
		exit(1);
	}
	/* a master key: tokens are made by the vault (their token key) */
	{
		char mk[300];
		uint8_t key[PV_MASTER_KEY_LEN];
		snprintf(mk, sizeof mk, "%s/pkt-master.key", pkt_dir);
		ts_rand(key, sizeof key);
		if (pv_master_write(mk, key, NULL) != 0) {
			fprintf(stderr, "pv_master_write failed\n");
			exit(1);
		}
		fprintf(fp, "# test configuration\ntoken_dir = %s/tokens\nbackend = cpu\n"
		        "master_key = %s\n", pkt_dir, mk);
	}
	fclose(fp);
	setenv("PIXELVAULT_CONF", conf, 1);

	pkt_dl = dlopen(PK_MODULE_PATH, RTLD_NOW | RTLD_LOCAL);
	if (pkt_dl == NULL) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		exit(1);
	}
	gfl = (CK_C_GetFunctionList)dlsym(pkt_dl, "C_GetFunctionList");
	gi = (CK_C_GetInterface)dlsym(pkt_dl, "C_GetInterface");
	if (gfl == NULL || gi == NULL || gfl(&pkt_f) != CKR_OK ||
	    gi((CK_UTF8CHAR_PTR)"PKCS 11", &v30, &iface, 0) != CKR_OK ||
	    iface == NULL) {
		fprintf(stderr, "module entry points missing\n");
		exit(1);
	}
	pkt_f3 = iface->pFunctionList;
}

void pkt_label(CK_UTF8CHAR out[32], const char *s)
{
	size_t n = strlen(s);

	memset(out, ' ', 32);
	memcpy(out, s, n < 32 ? n : 32);
}

CK_SLOT_ID pkt_uninit_slot(void)
{
	CK_SLOT_ID slots[64];
	CK_ULONG n = 64, i;
	CK_TOKEN_INFO ti;

	CU_ASSERT_FATAL(pkt_f->C_GetSlotList(CK_FALSE, slots, &n) == CKR_OK);
	for (i = 0; i < n; i++) {
		CU_ASSERT_FATAL(pkt_f->C_GetTokenInfo(slots[i], &ti) == CKR_OK);
		if (!(ti.flags & CKF_TOKEN_INITIALIZED))
			return slots[i];
	}
	CU_FAIL_FATAL("no uninitialised slot");
	return 0;
}

CK_SLOT_ID pkt_new_token(const char *label, int user_pin)
{
	CK_UTF8CHAR lb[32];
	CK_SLOT_ID slot = pkt_uninit_slot();
	CK_SESSION_HANDLE h;

	pkt_label(lb, label);
	CU_ASSERT_FATAL(pkt_f->C_InitToken(slot, (CK_UTF8CHAR_PTR)PKT_SO_PIN,
	                                   strlen(PKT_SO_PIN), lb) == CKR_OK);
	if (user_pin) {
		h = pkt_open(slot, 1);
		CU_ASSERT_FATAL(pkt_f->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)PKT_SO_PIN,
		                               strlen(PKT_SO_PIN)) == CKR_OK);
		CU_ASSERT_FATAL(pkt_f->C_InitPIN(h, (CK_UTF8CHAR_PTR)PKT_USER_PIN,
		                                 strlen(PKT_USER_PIN)) == CKR_OK);
		CU_ASSERT_FATAL(pkt_f->C_CloseSession(h) == CKR_OK);
	}
	return slot;
}

CK_SESSION_HANDLE pkt_open(CK_SLOT_ID slot, int rw)
{
	CK_SESSION_HANDLE h = 0;
	CK_FLAGS fl = CKF_SERIAL_SESSION | (rw ? CKF_RW_SESSION : 0);

	CU_ASSERT_FATAL(pkt_f->C_OpenSession(slot, fl, NULL, NULL, &h) == CKR_OK);
	return h;
}
