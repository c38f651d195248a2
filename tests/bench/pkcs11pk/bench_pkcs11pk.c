/*
 * bench_pkcs11pk.c - issue 4's benchmark: RSA-2048 sign (SHA256-RSA-PKCS),
 * P-256 ECDSA-SHA256 sign and verify, Ed25519 sign, SM2 sign (SM2-SM3,
 * default ID) of a 64-byte message through pixelvault-pkcs11.so (dlopen, a
 * temporary token with an unsealed CPU vault, keys generated in the vault)
 * with 1 and 2 threads (one session each), next to OpenSSL EVP with keys
 * of the same kind in the same run.  Every operation is Init + single part.
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
#include "pkcs11/pk_vendor.h"

#define SECS 1.0
#define MLEN 64

static CK_FUNCTION_LIST *F;
static CK_SLOT_ID slot;

enum { OP_RSA, OP_P256S, OP_P256V, OP_ED, OP_SM2, OP_N };
static const char *op_name[OP_N] = { "RSA-2048 sign", "P-256 sign", "P-256 verify",
                                     "Ed25519 sign", "SM2 sign" };
static CK_OBJECT_HANDLE kpriv[OP_N], kpub[OP_N];
static EVP_PKEY *okey[OP_N];
static uint8_t p256sig[64], p256der[80];
static size_t p256derl;

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

static CK_MECHANISM_TYPE p11_mech(int op)
{
	switch (op) {
	case OP_RSA: return CKM_SHA256_RSA_PKCS;
	case OP_P256S: case OP_P256V: return CKM_ECDSA_SHA256;
	case OP_ED: return CKM_EDDSA;
	default: return CKM_PV_SM2_SM3;
	}
}

static void ossl_sign(int op, EVP_MD_CTX *c, const uint8_t *in, uint8_t *out)
{
	size_t ol = 600;
	EVP_PKEY_CTX *pc = NULL;
	static const uint8_t id[] = "1234567812345678";

	EVP_MD_CTX_reset(c);
	if (op == OP_SM2) {
		pc = EVP_PKEY_CTX_new(okey[op], NULL);
		EVP_PKEY_CTX_set1_id(pc, id, 16);
		EVP_MD_CTX_set_pkey_ctx(c, pc);
	}
	if (op == OP_P256V) {
		if (EVP_DigestVerifyInit(c, NULL, EVP_sha256(), NULL, okey[op]) <= 0 ||
		    EVP_DigestVerify(c, p256der, p256derl, in, MLEN) != 1)
			abort();
	} else if (EVP_DigestSignInit(c, NULL, op == OP_ED ? NULL : op == OP_SM2 ? EVP_sm3() : EVP_sha256(),
	                              NULL, okey[op]) <= 0 ||
	           EVP_DigestSign(c, out, &ol, in, MLEN) <= 0) {
		abort();
	}
	if (pc != NULL) {
		EVP_MD_CTX_set_pkey_ctx(c, NULL);
		EVP_PKEY_CTX_free(pc);
	}
}

static void *run(void *arg)
{
	job *j = arg;
	uint8_t in[MLEN], out[600];
	double t0 = now();
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	CK_MECHANISM m = { p11_mech(j->op), NULL, 0 };

	memset(in, 0x5a, sizeof in);   /* the P-256 verify signature is over this */
	j->n = 0;
	do {
		if (j->p11 && j->op == OP_P256V) {
			if (F->C_VerifyInit(j->s, &m, kpub[OP_P256S]) != CKR_OK ||
			    F->C_Verify(j->s, in, MLEN, p256sig, 64) != CKR_OK)
				abort();
		} else if (j->p11) {
			CK_ULONG ol = sizeof out;
			if (F->C_SignInit(j->s, &m, kpriv[j->op]) != CKR_OK ||
			    F->C_Sign(j->s, in, MLEN, out, &ol) != CKR_OK)
				abort();
		} else {
			ossl_sign(j->op, c, in, out);
		}
		j->n++;
	} while (now() - t0 < SECS);
	j->secs = now() - t0;
	EVP_MD_CTX_free(c);
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
	printf("| %-14s | %-8s | %d | %10.0f | %10.1f |\n", op_name[op],
	       p11 ? "PKCS#11" : "OpenSSL", threads, ops, 1e6 / (ops / threads));
	fflush(stdout);
}

static void genpair(CK_SESSION_HANDLE s, CK_MECHANISM_TYPE mt, const void *ecp, size_t ecpl,
                    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_BBOOL f = CK_FALSE, t = CK_TRUE;
	CK_ULONG bits = 2048;
	CK_MECHANISM m = { mt, NULL, 0 };
	CK_ATTRIBUTE pt[2] = { { CKA_VERIFY, &t, sizeof t } };
	CK_ATTRIBUTE st[2] = { { CKA_PRIVATE, &f, sizeof f }, { CKA_SIGN, &t, sizeof t } };
	CK_ULONG pn = 1;

	if (ecp != NULL)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)ecp, ecpl };
	else if (mt == CKM_RSA_PKCS_KEY_PAIR_GEN)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_MODULUS_BITS, &bits, sizeof bits };
	if (F->C_GenerateKeyPair(s, &m, pt, pn, st, 2, pub, priv) != CKR_OK)
		abort();
}

int main(void)
{
	static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t oid_ed[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
	char dir[] = "/tmp/pv-bench.XXXXXX", path[300];
	uint8_t mk[PV_MASTER_KEY_LEN], in[MLEN];
	CK_C_GetFunctionList gfl;
	CK_SLOT_ID slots[16];
	CK_ULONG ns = 16, i, sl = 64;
	CK_UTF8CHAR label[32];
	CK_SESSION_HANDLE s;
	CK_TOKEN_INFO ti;
	CK_MECHANISM em = { CKM_ECDSA_SHA256, NULL, 0 };
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
	if (F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &s) != CKR_OK)
		return 1;
	genpair(s, CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0, &kpub[OP_RSA], &kpriv[OP_RSA]);
	genpair(s, CKM_EC_KEY_PAIR_GEN, oid_p256, sizeof oid_p256, &kpub[OP_P256S], &kpriv[OP_P256S]);
	genpair(s, CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed, sizeof oid_ed, &kpub[OP_ED], &kpriv[OP_ED]);
	genpair(s, CKM_PV_SM2_KEY_PAIR_GEN, NULL, 0, &kpub[OP_SM2], &kpriv[OP_SM2]);
	okey[OP_RSA] = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	okey[OP_P256S] = okey[OP_P256V] = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	okey[OP_ED] = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	okey[OP_SM2] = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
	/* the signatures the verify rows check */
	memset(in, 0x5a, sizeof in);
	if (F->C_SignInit(s, &em, kpriv[OP_P256S]) != CKR_OK ||
	    F->C_Sign(s, in, MLEN, p256sig, &sl) != CKR_OK)
		return 1;
	{
		EVP_MD_CTX *c = EVP_MD_CTX_new();
		p256derl = sizeof p256der;
		if (EVP_DigestSignInit(c, NULL, EVP_sha256(), NULL, okey[OP_P256S]) <= 0 ||
		    EVP_DigestSign(c, p256der, &p256derl, in, MLEN) <= 0)
			return 1;
		EVP_MD_CTX_free(c);
	}
	printf("model: %.16s, %ld CPUs online, message %d bytes\n\n", ti.model,
	       sysconf(_SC_NPROCESSORS_ONLN), MLEN);
	printf("| %-14s | %-8s | %s | %10s | %10s |\n", "operation", "via", "T",
	       "ops/s", "us/op/thr");
	printf("|----------------|----------|---|------------|------------|\n");
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
