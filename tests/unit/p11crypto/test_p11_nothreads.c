/*
 * test_p11_nothreads.c - C_Initialize with CKF_LIBRARY_CANT_CREATE_OS_THREADS
 * in embedded mode: the vault runs on the CPU backend without worker
 * threads, each request in the calling thread.  The process's thread count
 * (/proc/self/task) must not grow through token creation, digests, key
 * generation, encryption and random numbers, from one thread or from four
 * application threads at once; every answer is checked.  backend = cuda
 * with the flag is refused (its watchdog is a thread): CKR_DEVICE_ERROR.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "pc.h"
#include "tsupport.h"

static CK_C_INITIALIZE_ARGS no_threads = {
	NULL, NULL, NULL, NULL, CKF_LIBRARY_CANT_CREATE_OS_THREADS | CKF_OS_LOCKING_OK, NULL
};
static int base_threads;

static int count_threads(void)
{
	return ts_dir_entries("/proc/self/task");
}

static int digest_ok(CK_SESSION_HANDLE s, const uint8_t *m, size_t n)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	uint8_t out[32], ref[32];
	CK_ULONG ol = sizeof out;
	unsigned rl = 0;

	if (pkt_f->C_DigestInit(s, &mech) != CKR_OK ||
	    pkt_f->C_Digest(s, (CK_BYTE_PTR)m, n, out, &ol) != CKR_OK || ol != 32)
		return 0;
	EVP_Digest(m, n, ref, &rl, EVP_sha256(), NULL);
	return memcmp(out, ref, 32) == 0;
}

static void t_single_thread(void)
{
	CK_TOKEN_INFO ti;
	CK_MECHANISM gcm;
	CK_GCM_PARAMS gp;
	CK_OBJECT_HANDLE k;
	uint8_t key[32], iv[12], msg[100], ct[128], back[128], rnd[32];
	CK_ULONG cl = sizeof ct, bl = sizeof back;

	pc_token();
	CU_ASSERT(count_threads() == base_threads);
	CU_ASSERT(pkt_f->C_GetTokenInfo(pc_slot, &ti) == CKR_OK);
	CU_ASSERT(memcmp(ti.model, "PixelVault CPU  ", 16) == 0);
	ts_rand(msg, sizeof msg);
	CU_ASSERT(digest_ok(pc_s, msg, sizeof msg));
	ts_rand(key, sizeof key);
	ts_rand(iv, sizeof iv);
	CU_ASSERT_FATAL(pc_key(CKK_AES, key, sizeof key, 0, &k) == CKR_OK);
	memset(&gp, 0, sizeof gp);
	gp.pIv = iv;
	gp.ulIvLen = sizeof iv;
	gp.ulIvBits = 96;
	gp.ulTagBits = 128;
	gcm.mechanism = CKM_AES_GCM;
	gcm.pParameter = &gp;
	gcm.ulParameterLen = sizeof gp;
	CU_ASSERT(pc_crypt(&gcm, k, 1, msg, sizeof msg, ct, &cl) == CKR_OK && cl == sizeof msg + 16);
	CU_ASSERT(pc_crypt(&gcm, k, 0, ct, cl, back, &bl) == CKR_OK && bl == sizeof msg &&
	          memcmp(back, msg, sizeof msg) == 0);
	CU_ASSERT(pkt_f->C_GenerateRandom(pc_s, rnd, sizeof rnd) == CKR_OK);
	CU_ASSERT(count_threads() == base_threads);
}

static void *app_thread(void *arg)
{
	CK_SESSION_HANDLE s;
	uint8_t m[300];
	long bad = 0;
	int i;

	(void)arg;
	if (pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL, &s) != CKR_OK)
		return (void *)1L;
	for (i = 0; i < 200; i++) {
		ts_rand(m, 1 + (size_t)i % sizeof m);
		if (!digest_ok(s, m, 1 + (size_t)i % sizeof m))
			bad++;
	}
	pkt_f->C_CloseSession(s);
	return (void *)bad;
}

static void t_app_threads(void)
{
	pthread_t th[4];
	void *bad;
	int i, errors = 0;

	for (i = 0; i < 4; i++)
		CU_ASSERT_FATAL(pthread_create(&th[i], NULL, app_thread, NULL) == 0);
	/* the application's 4 threads, none of the module's */
	CU_ASSERT(count_threads() <= base_threads + 4);
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], &bad);
		errors += bad != NULL;
	}
	CU_ASSERT_EQUAL(errors, 0);
	CU_ASSERT(count_threads() == base_threads);
}

static void t_cuda_refused(void)
{
	uint8_t r[16];

	pc_teardown();
	setenv("PIXELVAULT_BACKEND", "cuda", 1);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(&no_threads) == CKR_OK);
	CU_ASSERT(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL,
	                               &pc_s) == CKR_OK);
	{
		CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
		uint8_t d[32];
		CK_ULONG dl = sizeof d;
		CK_RV rv = pkt_f->C_DigestInit(pc_s, &m);
		if (rv == CKR_OK)
			rv = pkt_f->C_Digest(pc_s, r, 4, d, &dl);
		CU_ASSERT_EQUAL(rv, CKR_DEVICE_ERROR);
	}
	/* no vault, no RNG (the token does not claim CKF_RNG then) */
	CU_ASSERT(pkt_f->C_GenerateRandom(pc_s, r, sizeof r) == CKR_RANDOM_NO_RNG);
	CU_ASSERT(count_threads() == base_threads);
	pkt_f->C_Finalize(NULL);
	setenv("PIXELVAULT_BACKEND", "auto", 1);
}

/* Append "key = value" to the test's pixelvault.conf (a later line wins). */
static void conf_set(const char *line)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/pixelvault.conf", pkt_dir);
	f = fopen(path, "a");
	if (f == NULL) {             /* also used before the run starts */
		perror(path);
		exit(1);
	}
	fprintf(f, "%s\n", line);
	fclose(f);
}

/* Without the flag: cpu_exec = caller (the default) runs requests in the
 * calling thread too; cpu_exec = workers starts the backend's workers.
 * The backend is forced to cpu: with backend = auto a machine with a GPU
 * boots the CUDA backend, whose threads would count too. */
static void t_cpu_exec(void)
{
	CK_SESSION_HANDLE s;
	uint8_t m[64];

	ts_rand(m, sizeof m);
	pkt_f->C_Finalize(NULL);
	setenv("PIXELVAULT_BACKEND", "cpu", 1);
	conf_set("cpu_exec = caller");
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL, &s) == CKR_OK);
	CU_ASSERT(digest_ok(s, m, sizeof m));
	CU_ASSERT(count_threads() == base_threads);
	pkt_f->C_Finalize(NULL);
	conf_set("cpu_exec = workers");
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL, &s) == CKR_OK);
	CU_ASSERT(digest_ok(s, m, sizeof m));
	CU_ASSERT(count_threads() >= base_threads + 2);     /* workers = 2 (pc.c) */
	pkt_f->C_Finalize(NULL);
	conf_set("cpu_exec = sometimes");
	CU_ASSERT(pkt_f->C_Initialize(NULL) != CKR_OK);
	setenv("PIXELVAULT_BACKEND", "auto", 1);
}

int main(void)
{
	CU_pSuite s;

	/* the flag's contract is about this module's threads, on any machine */
	setenv("PIXELVAULT_BACKEND", "auto", 1);
	pc_setup();
	pkt_f->C_Finalize(NULL);
	/* worker threads unless the flag forbids them: the checks below then
	 * fail if the flag is ignored (cpu_exec = caller would start none) */
	conf_set("cpu_exec = workers");
	if (pkt_f->C_Initialize(&no_threads) != CKR_OK) {
		fprintf(stderr, "C_Initialize with CKF_LIBRARY_CANT_CREATE_OS_THREADS failed\n");
		return 1;
	}
	base_threads = count_threads();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("p11_nothreads", NULL, NULL);
	CU_add_test(s, "token, digest, AES-GCM, random: no module thread", t_single_thread);
	CU_add_test(s, "four application threads at once: answers right, no module thread",
	            t_app_threads);
	CU_add_test(s, "backend = cuda with the flag: CKR_DEVICE_ERROR, no thread", t_cuda_refused);
	CU_add_test(s, "no flag: cpu_exec = caller starts no thread, workers does, bad value refused",
	            t_cpu_exec);
	return ts_run();
}
