/*
 * bench_pkcs11.c - issue 3's benchmark: AES-256-GCM encryption of 16 KiB,
 * SHA-256 of 64 B and of 1 MiB, through pixelvault-pkcs11.so (dlopen, a
 * temporary token with an unsealed CPU vault) with 1 and 2 threads (one
 * session each), next to OpenSSL EVP on the same machine in the same run.
 * Every operation is a full Init + single-part call.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "gpu/host/pv_master.h"
#include "pkcs11/pk_pkcs11_3.h"

#define SECS 1.0

static CK_FUNCTION_LIST *F;
static CK_SLOT_ID slot;
static CK_OBJECT_HANDLE key;
static uint8_t keyval[32];

enum { OP_GCM, OP_SHA64, OP_SHA1M, OP_N };
static const char *op_name[OP_N] = { "AES-256-GCM enc 16 KiB", "SHA-256 64 B",
                                     "SHA-256 1 MiB" };
static const size_t op_len[OP_N] = { 16384, 64, 1 << 20 };

typedef struct job {
	int op, p11;
	double secs;
	long n;
	CK_SESSION_HANDLE s;
} job;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	job *j = arg;
	size_t len = op_len[j->op];
	uint8_t *in = malloc(len), *out = malloc(len + 64), iv[12];
	double t0 = now();
	EVP_CIPHER_CTX *cx = EVP_CIPHER_CTX_new();
	CK_GCM_PARAMS gp = { iv, 12, 96, NULL, 0, 128 };
	CK_MECHANISM gcm = { CKM_AES_GCM, &gp, sizeof gp };
	CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };

	RAND_bytes(in, (int)len);
	RAND_bytes(iv, sizeof iv);
	j->n = 0;
	do {
		int k;
		for (k = 0; k < 8; k++) {
			CK_ULONG ol = len + 64;
			iv[0]++;
			if (j->p11 && j->op == OP_GCM) {
				if (F->C_EncryptInit(j->s, &gcm, key) != CKR_OK ||
				    F->C_Encrypt(j->s, in, len, out, &ol) != CKR_OK)
					abort();
			} else if (j->p11) {
				if (F->C_DigestInit(j->s, &sha) != CKR_OK ||
				    F->C_Digest(j->s, in, len, out, &ol) != CKR_OK)
					abort();
			} else if (j->op == OP_GCM) {
				int l1, l2;
				EVP_EncryptInit_ex(cx, EVP_aes_256_gcm(), NULL, keyval, iv);
				EVP_EncryptUpdate(cx, out, &l1, in, (int)len);
				EVP_EncryptFinal_ex(cx, out + l1, &l2);
				EVP_CIPHER_CTX_ctrl(cx, EVP_CTRL_GCM_GET_TAG, 16, out + len);
			} else {
				unsigned dl;
				EVP_Digest(in, len, out, &dl, EVP_sha256(), NULL);
			}
			j->n++;
		}
	} while (now() - t0 < SECS);
	j->secs = now() - t0;
	EVP_CIPHER_CTX_free(cx);
	free(in);
	free(out);
	return NULL;
}

static void measure(int op, int p11, int threads)
{
	job j[2];
	pthread_t th[2];
	double ops = 0;
	int i;

	for (i = 0; i < threads; i++) {
		memset(&j[i], 0, sizeof j[i]);
		j[i].op = op;
		j[i].p11 = p11;
		if (p11 && F->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
		                            &j[i].s) != CKR_OK)
			abort();
		pthread_create(&th[i], NULL, run, &j[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		ops += j[i].n / j[i].secs;
		if (p11)
			F->C_CloseSession(j[i].s);
	}
	printf("| %-24s | %-8s | %d | %12.0f | %10.1f |\n", op_name[op],
	       p11 ? "PKCS#11" : "OpenSSL", threads, ops,
	       ops * op_len[op] / 1e6);
	fflush(stdout);
}

int main(void)
{
	char dir[] = "/tmp/pv-bench.XXXXXX", path[300];
	uint8_t mk[PV_MASTER_KEY_LEN];
	CK_C_GetFunctionList gfl;
	CK_SLOT_ID slots[16];
	CK_ULONG ns = 16, i;
	CK_UTF8CHAR label[32];
	CK_SESSION_HANDLE s;
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                     { CKA_VALUE, keyval, 32 } };
	CK_TOKEN_INFO ti;
	FILE *fp;
	void *dl;
	int op, th;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof path, "%s/master.key", dir);
	RAND_bytes(mk, sizeof mk);
	if (pv_master_write(path, mk, NULL) != 0)
		return 1;
	snprintf(path, sizeof path, "%s/pixelvault.conf", dir);
	fp = fopen(path, "w");
	if (fp == NULL)
		return 1;
	fprintf(fp, "token_dir = %s/tokens\nmaster_key = %s/master.key\nbackend = cpu\n",
	        dir, dir);
	fclose(fp);
	setenv("PIXELVAULT_CONF", path, 1);
	dl = dlopen(PK_MODULE_PATH, RTLD_NOW);
	if (dl == NULL || (gfl = (CK_C_GetFunctionList)dlsym(dl, "C_GetFunctionList")) == NULL ||
	    gfl(&F) != CKR_OK || F->C_Initialize(NULL) != CKR_OK)
		return 1;
	if (F->C_GetSlotList(CK_FALSE, slots, &ns) != CKR_OK || ns == 0)
		return 1;
	memset(label, ' ', sizeof label);
	memcpy(label, "bench", 5);
	slot = slots[0];
	if (F->C_InitToken(slot, (CK_UTF8CHAR_PTR)"87654321", 8, label) != CKR_OK)
		return 1;
	ns = 16;
	F->C_GetSlotList(CK_TRUE, slots, &ns);
	for (i = 0; i < ns; i++) {
		if (F->C_GetTokenInfo(slots[i], &ti) == CKR_OK &&
		    memcmp(ti.label, label, 32) == 0)
			slot = slots[i];
	}
	RAND_bytes(keyval, sizeof keyval);
	if (F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &s) != CKR_OK ||
	    F->C_CreateObject(s, t, 3, &key) != CKR_OK)
		return 1;
	printf("model: %.16s, %ld CPUs online\n\n", ti.model, sysconf(_SC_NPROCESSORS_ONLN));
	printf("| %-24s | %-8s | %s | %12s | %10s |\n", "operation", "via", "T",
	       "ops/s", "MB/s");
	printf("|--------------------------|----------|---|--------------|------------|\n");
	for (op = 0; op < OP_N; op++)
		for (th = 1; th <= 2; th++) {
			measure(op, 1, th);
			measure(op, 0, th);
		}
	F->C_CloseSession(s);
	F->C_Finalize(NULL);
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	if (system(path) != 0)
		return 1;
	return 0;
}
