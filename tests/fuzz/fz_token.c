/*
 * fz_token.c - the harnesses' token (fz_token.h).
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fz_token.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_os_random.h"

static char fz_dir[256];
static pid_t fz_owner;

static int fz_rm(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static void fz_cleanup(void)
{
	if (fz_dir[0] != '\0' && getpid() == fz_owner)
		(void)nftw(fz_dir, fz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void fz_must(const char *what, CK_RV rv)
{
	if (rv != CKR_OK) {
		fprintf(stderr, "fz_token: %s answered 0x%lx\n", what, (unsigned long)rv);
		exit(1);
	}
}

CK_FUNCTION_LIST *fz_token(CK_SLOT_ID *slot, CK_SESSION_HANDLE *rw, CK_SESSION_HANDLE *ro)
{
	CK_FUNCTION_LIST *f;
	CK_SLOT_ID slots[8];
	CK_ULONG n = 8;
	CK_UTF8CHAR label[32];
	CK_SESSION_HANDLE so;
	uint8_t key[PV_MASTER_KEY_LEN];
	char conf[300], mk[300];
	FILE *fp;

	snprintf(fz_dir, sizeof fz_dir, "%s/pv-fuzz.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(fz_dir) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	fz_owner = getpid();
	atexit(fz_cleanup);
	snprintf(mk, sizeof mk, "%s/master.key", fz_dir);
	if (pv_os_random(key, sizeof key) != 0 || pv_master_write(mk, key, NULL) != 0) {
		fprintf(stderr, "fz_token: no master key in %s\n", mk);
		exit(1);
	}
	memset(key, 0, sizeof key);
	snprintf(conf, sizeof conf, "%s/pixelvault.conf", fz_dir);
	fp = fopen(conf, "w");
	if (fp == NULL) {
		perror(conf);
		exit(1);
	}
	/* the calling thread runs each request: no worker threads to wait
	 * for, and every instruction on the fuzzer's thread */
	fprintf(fp, "token_dir = %s/tokens\nbackend = cpu\nmaster_key = %s\ncpu_exec = caller\n",
	        fz_dir, mk);
	fclose(fp);
	setenv("PIXELVAULT_CONF", conf, 1);

	fz_must("C_GetFunctionList", C_GetFunctionList(&f));
	fz_must("C_Initialize", f->C_Initialize(NULL));
	fz_must("C_GetSlotList", f->C_GetSlotList(CK_FALSE, slots, &n));
	memset(label, ' ', sizeof label);
	memcpy(label, "fuzz", 4);
	fz_must("C_InitToken", f->C_InitToken(slots[0], (CK_UTF8CHAR_PTR)FZ_SO_PIN, 8, label));
	fz_must("C_OpenSession", f->C_OpenSession(slots[0], CKF_SERIAL_SESSION | CKF_RW_SESSION,
	                                          NULL, NULL, &so));
	fz_must("C_Login SO", f->C_Login(so, CKU_SO, (CK_UTF8CHAR_PTR)FZ_SO_PIN, 8));
	fz_must("C_InitPIN", f->C_InitPIN(so, (CK_UTF8CHAR_PTR)FZ_USER_PIN, 8));
	fz_must("C_CloseSession", f->C_CloseSession(so));
	fz_must("C_OpenSession", f->C_OpenSession(slots[0], CKF_SERIAL_SESSION | CKF_RW_SESSION,
	                                          NULL, NULL, rw));
	if (ro != NULL)
		fz_must("C_OpenSession", f->C_OpenSession(slots[0], CKF_SERIAL_SESSION, NULL, NULL, ro));
	fz_must("C_Login", f->C_Login(*rw, CKU_USER, (CK_UTF8CHAR_PTR)FZ_USER_PIN, 8));
	*slot = slots[0];
	return f;
}
