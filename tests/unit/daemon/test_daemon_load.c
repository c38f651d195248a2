/*
 * test_daemon_load.c - PVD_LOAD_PROCS processes x PVD_LOAD_THREADS threads
 * (default 8 x 8) sign (HMAC-SHA256), encrypt (AES-256-GCM) and digest
 * (SHA-256) through one pvaultd for PVD_LOAD_SECS seconds (default 3 in
 * `./run test`; PVD_LOAD_SECS=30 gives docs/daemon.md's 30 s load run).
 * Every result is checked against OpenSSL; per-process throughput is
 * printed.  PVD_LOAD_EMBEDDED=1: the same load with each process running
 * its own embedded vault (same master key) instead of pvaultd's - the
 * comparison docs/gpu-validation.md records for the CUDA backend.
 */
#include "td_common.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static td_daemon D;
static te_key hk, ak;
static uint8_t hkey[32], akey[32];
static int secs = 3, nproc = 8, nthr = 8, embedded;

static int suite_init(void)
{
	pv_vault *v;
	const char *e;
	if ((e = getenv("PVD_LOAD_SECS")) != NULL) secs = atoi(e);
	if ((e = getenv("PVD_LOAD_PROCS")) != NULL) nproc = atoi(e);
	if ((e = getenv("PVD_LOAD_THREADS")) != NULL) nthr = atoi(e);
	if ((e = getenv("PVD_LOAD_EMBEDDED")) != NULL) embedded = atoi(e);
	if (secs < 1 || nproc < 1 || nproc > 64 || nthr < 1 || nthr > 64)
		return 1;
	if (td_setup(&D) != 0 || td_start(&D) != 0 || td_open(&D, &v) != PV_OK)
		return 1;
	ts_rand(hkey, 32);
	ts_rand(akey, 32);
	if (te_import(v, PV_KEY_GENERIC, PV_USE_SIGN, hkey, 32, &hk) != PV_OK ||
	    te_import(v, PV_KEY_AES, PV_USE_ENCRYPT, akey, 32, &ak) != PV_OK)
		return 1;
	pv_vault_close(v);
	return 0;
}

static int suite_clean(void)
{
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

typedef struct tres {
	pv_vault *v;
	double until;
	unsigned long ops, bad;
} tres;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int one(pv_vault *v, unsigned i)
{
	uint8_t in[256], out[300], ref[300], iv[12], tag[16];
	size_t n = 1 + (i * 37u) % 256;
	unsigned rl = 0;
	int l = 0, ok;
	pv_req r;

	ts_rand(in, n);
	switch (i % 3) {
	case 0:
		pv_req_init(&r, PV_OP_SIGN, PV_MECH_HMAC_SHA256);
		te_use(&r, &hk);
		r.in = in; r.in_len = n; r.out = out; r.out_cap = sizeof out;
		if (pv_vault_call(v, &r) != PV_OK || r.out_len != 32)
			return 0;
		HMAC(EVP_sha256(), hkey, 32, in, n, ref, &rl);
		return memcmp(out, ref, 32) == 0;
	case 1: {
		EVP_CIPHER_CTX *x;
		ts_rand(iv, 12);
		pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_GCM);
		te_use(&r, &ak);
		r.iv = iv; r.iv_len = 12; r.in = in; r.in_len = n; r.out = out; r.out_cap = sizeof out;
		if (pv_vault_call(v, &r) != PV_OK || r.out_len != n + 16)
			return 0;
		x = EVP_CIPHER_CTX_new();
		ok = EVP_EncryptInit_ex(x, EVP_aes_256_gcm(), NULL, akey, iv) &&
		     EVP_EncryptUpdate(x, ref, &l, in, (int)n) &&
		     EVP_EncryptFinal_ex(x, ref + n, &l) &&
		     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag);
		EVP_CIPHER_CTX_free(x);
		return ok && memcmp(out, ref, n) == 0 && memcmp(out + n, tag, 16) == 0;
	}
	default:
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.in = in; r.in_len = n; r.out = out; r.out_cap = sizeof out;
		if (pv_vault_call(v, &r) != PV_OK || r.out_len != 32)
			return 0;
		EVP_Digest(in, n, ref, &rl, EVP_sha256(), NULL);
		return memcmp(out, ref, 32) == 0;
	}
}

static void *thr(void *arg)
{
	tres *t = (tres *)arg;
	unsigned i = (unsigned)(uintptr_t)t;
	while (now() < t->until) {
		if (!one(t->v, i++))
			t->bad++;
		t->ops++;
	}
	return NULL;
}

static void t_load(void)
{
	int pfd[2], i, st, fails = 0;
	pid_t pids[64];
	unsigned long tot = 0, totbad = 0;
	double start = now() + 0.5;   /* all processes start together */

	CU_ASSERT_FATAL(pipe(pfd) == 0);
	for (i = 0; i < nproc; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			pv_vault *v;
			pthread_t th[64];
			tres t[64];
			unsigned long ops = 0, bad = 0;
			char line[128];
			int k;
			close(pfd[0]);
			if (embedded) {
				pv_conf c;
				td_conf(&D, &c);
				snprintf(c.mode, sizeof c.mode, "embedded");
				if (pv_vault_open(&c, &v) != PV_OK)
					_exit(2);
			} else if (td_open(&D, &v) != PV_OK)
				_exit(2);
			while (now() < start)
				usleep(1000);
			for (k = 0; k < nthr; k++) {
				t[k].v = v; t[k].until = start + secs; t[k].ops = t[k].bad = 0;
				pthread_create(&th[k], NULL, thr, &t[k]);
			}
			for (k = 0; k < nthr; k++) {
				pthread_join(th[k], NULL);
				ops += t[k].ops;
				bad += t[k].bad;
			}
			pv_vault_close(v);
			k = snprintf(line, sizeof line, "%d %lu %lu\n", i, ops, bad);
			if (write(pfd[1], line, (size_t)k) != k)
				_exit(3);
			_exit(0);
		}
	}
	close(pfd[1]);
	for (i = 0; i < nproc; i++) {
		waitpid(pids[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fails++;
	}
	{
		FILE *f = fdopen(pfd[0], "r");
		int p, n = 0;
		unsigned long ops, bad;
		while (f && fscanf(f, "%d %lu %lu", &p, &ops, &bad) == 3) {
			fprintf(stderr, "  process %d: %lu ops in %d s = %.0f ops/s (%d threads), %lu bad\n",
			        p, ops, secs, (double)ops / secs, nthr, bad);
			CU_ASSERT(ops > 0);
			tot += ops;
			totbad += bad;
			n++;
		}
		if (f)
			fclose(f);
		CU_ASSERT_EQUAL(n, nproc);
	}
	fprintf(stderr, "  total (%s): %d processes x %d threads, %lu ops in %d s = %.0f ops/s, %lu bad\n",
	        embedded ? "embedded vaults" : "one pvaultd", nproc, nthr, tot, secs,
	        (double)tot / secs, totbad);
	CU_ASSERT_EQUAL(fails, 0);
	CU_ASSERT_EQUAL(totbad, 0);
	CU_ASSERT(kill(D.pid, 0) == 0);
}

int main(void)
{
	CU_pSuite s;
	char name[128];
	const char *e = getenv("PVD_LOAD_SECS");
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_load", suite_init, suite_clean);
	snprintf(name, sizeof name, "processes x threads sign/encrypt/digest through one pvaultd for %s s, all verified",
	         e ? e : "3");
	CU_add_test(s, name, t_load);
	return ts_run();
}
