/*
 * test_engine_threads.c - 8 threads x many requests on one vault at once
 * (blocking calls and overlapping async submits, a small ring so slots are
 * reused constantly); every result is checked against OpenSSL.  Also ring
 * back-pressure (try_submit -> BUSY), the producers' slot pool
 * (gpu/host/pv_slots.h), fork detection and the CPU backend's default
 * sizes.
 */
#include "te_common.h"

#include <openssl/hmac.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_pid.h"
#include "gpu/host/pv_slots.h"

#define NTHREADS 8
#define NITER 300

static te_key gk;            /* AES-256 key shared by all threads */
static uint8_t graw[32];
static te_key hk;            /* HMAC key */
static uint8_t hraw[48];
static int thread_bad[NTHREADS];
static int thread_done[NTHREADS];

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg, i;
	for (i = 0; i < NITER; i++) {
		uint8_t in[300], iv[12], out[320], ref[320], tag[16], mac[32], mref[32];
		size_t len = ts_rand_u32(300);
		EVP_CIPHER_CTX *c;
		pv_req a, b;
		unsigned int ml;
		int l;

		ts_rand(in, len); ts_rand(iv, 12);
		/* two requests in flight from this thread at once */
		pv_req_init(&a, PV_OP_ENCRYPT, PV_MECH_AES_GCM);
		te_use(&a, &gk);
		a.iv = iv; a.iv_len = 12; a.in = in; a.in_len = len; a.out = out; a.out_cap = sizeof out;
		pv_req_init(&b, PV_OP_SIGN, PV_MECH_HMAC_SHA256);
		te_use(&b, &hk);
		b.in = in; b.in_len = len; b.out = mac; b.out_cap = sizeof mac;
		if (pv_vault_submit(te_v, &a) != PV_OK || pv_vault_submit(te_v, &b) != PV_OK) {
			thread_bad[id]++;
			continue;
		}
		c = EVP_CIPHER_CTX_new();
		EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, graw, iv);
		EVP_EncryptUpdate(c, ref, &l, in, (int)len);
		EVP_EncryptFinal_ex(c, ref + l, &l);
		EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag);
		EVP_CIPHER_CTX_free(c);
		memcpy(ref + len, tag, 16);
		HMAC(EVP_sha256(), hraw, sizeof hraw, in, len, mref, &ml);
		/* wait in the opposite order */
		if (pv_vault_wait(te_v, &b) != PV_OK || b.out_len != 32 || memcmp(mac, mref, 32) != 0)
			thread_bad[id]++;
		if (pv_vault_wait(te_v, &a) != PV_OK || a.out_len != len + 16 || memcmp(out, ref, len + 16) != 0)
			thread_bad[id]++;
		/* and a blocking round trip */
		pv_req_init(&a, PV_OP_DECRYPT, PV_MECH_AES_GCM);
		te_use(&a, &gk);
		a.iv = iv; a.iv_len = 12; a.in = ref; a.in_len = len + 16; a.out = out; a.out_cap = sizeof out;
		if (pv_vault_call(te_v, &a) != PV_OK || a.out_len != len || memcmp(out, in, len) != 0)
			thread_bad[id]++;
		thread_done[id] += 3;
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];
	int i, bad = 0, done = 0;

	ts_rand(graw, sizeof graw);
	ts_rand(hraw, sizeof hraw);
	CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT | PV_USE_DECRYPT, graw, 32, &gk), PV_OK);
	CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_GENERIC, PV_USE_SIGN, hraw, sizeof hraw, &hk), PV_OK);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		bad += thread_bad[i];
		done += thread_done[i];
	}
	printf("\n  %d threads, %d requests checked, %d bad\n", NTHREADS, done, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(done, NTHREADS * NITER * 3);
}

/* A long request holds its slot and nothing else (ring version 2): with an
 * RSA-2048 key generation in flight on a 4-slot ring, blocking digests
 * keep completing.  Under version 1 (ticket t in slot t mod nslots) the
 * fourth digest after it waited for the key generation's slot, so at most
 * 4 completed before it did. */
static void test_long_request(void)
{
	static uint8_t blob[PV_PKBLOB_MAX], pub[PV_PK_PUB_MAX];
	uint8_t msg[64], md[32], ref[32];
	unsigned int l;
	pv_vault *v;
	pv_req g, r;
	int n = 0, bad = 0;

	ts_rand(msg, sizeof msg);
	EVP_Digest(msg, sizeof msg, ref, &l, EVP_sha256(), NULL);
	CU_ASSERT_EQUAL_FATAL(te_open_other(te_master, 32, 2, 4, 8192, &v), PV_OK);
	pv_req_init(&g, PV_OP_GENERATE_PAIR, PV_MECH_RSA_KEY_PAIR_GEN);
	g.new_len = 2048;
	g.new_usage = PV_USE_SIGN;
	ts_rand(g.new_id, sizeof g.new_id);
	g.out = blob; g.out_cap = sizeof blob;
	g.out2 = pub; g.out2_cap = sizeof pub;
	CU_ASSERT_EQUAL_FATAL(pv_vault_submit(v, &g), PV_OK);
	while (!pv_vault_done(v, &g)) {
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.in = msg; r.in_len = sizeof msg; r.out = md; r.out_cap = sizeof md;
		if (pv_vault_call(v, &r) != PV_OK || r.out_len != 32 || memcmp(md, ref, 32) != 0)
			bad++;
		n++;
	}
	CU_ASSERT_EQUAL(pv_vault_wait(v, &g), PV_OK);
	printf("\n  %d digests while one RSA-2048 key generation ran (4 slots), %d bad ", n, bad);
	CU_ASSERT(n >= 16);
	CU_ASSERT_EQUAL(bad, 0);
	pv_vault_close(v);
}

/* A full ring: try_submit answers BUSY while the slot it needs is held by
 * an unfinished request, and completes finished ones on the owner's behalf
 * (so it may also succeed); every result stays right either way. */
static void test_busy(void)
{
	static uint8_t big[60000];
	uint8_t ref[64], d[3][64];
	pv_vault *v;
	pv_vault_info info;
	pv_req r[3];
	unsigned int l;
	int i, it, busy = 0, helped = 0, bad = 0;

	ts_rand(big, sizeof big);
	EVP_Digest(big, sizeof big, ref, &l, EVP_sha3_512(), NULL);
	CU_ASSERT_EQUAL_FATAL(te_open_other(te_master, 32, 1, 2, 65536, &v), PV_OK);
	pv_vault_get_info(v, &info);
	CU_ASSERT_EQUAL(info.nslots, 2);
	for (it = 0; it < 50; it++) {
		int rc;
		for (i = 0; i < 3; i++) {
			pv_req_init(&r[i], PV_OP_DIGEST, PV_MECH_SHA3_512);
			r[i].in = big; r[i].in_len = sizeof big;
			r[i].out = d[i]; r[i].out_cap = 64;
			memset(d[i], 0, 64);
		}
		CU_ASSERT_EQUAL(pv_vault_try_submit(v, &r[0]), PV_OK);
		CU_ASSERT_EQUAL(pv_vault_try_submit(v, &r[1]), PV_OK);
		rc = pv_vault_try_submit(v, &r[2]);
		if (rc == PV_ERR_BUSY) {
			busy++;
			CU_ASSERT_EQUAL(pv_vault_wait(v, &r[0]), PV_OK);
			CU_ASSERT_EQUAL(pv_vault_done(v, &r[0]), 1);
			CU_ASSERT_EQUAL(pv_vault_submit(v, &r[2]), PV_OK);
		} else {
			CU_ASSERT_EQUAL(rc, PV_OK);
			helped++;
			/* r[0] was completed by the submitter of r[2] */
			CU_ASSERT_EQUAL(pv_vault_done(v, &r[0]), 1);
			CU_ASSERT_EQUAL(pv_vault_wait(v, &r[0]), PV_OK);
		}
		CU_ASSERT_EQUAL(pv_vault_wait(v, &r[1]), PV_OK);
		CU_ASSERT_EQUAL(pv_vault_wait(v, &r[2]), PV_OK);
		for (i = 0; i < 3; i++)
			if (r[i].out_len != 64 || memcmp(d[i], ref, 64) != 0)
				bad++;
	}
	printf("\n  ring full: %d busy, %d completed by the next submitter, %d bad\n", busy, helped, bad);
	CU_ASSERT(busy > 0);
	CU_ASSERT_EQUAL(bad, 0);
	pv_vault_close(v);
}

static void test_fork(void)
{
	pid_t pid;
	int st = -1;
	pv_req r;

	fflush(stdout);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		pv_req_init(&r, PV_OP_NOP, 0);
		_exit(pv_vault_call(te_v, &r) == PV_ERR_REMOVED ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pv_req_init(&r, PV_OP_NOP, 0);
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
}

/* The id the fork checks use (pv_pid, cached in a page fork wipes) is the
 * child's own after fork, and after a raw clone that runs no atfork
 * handler; the parent's stays its own. */
static void test_pid_after_fork(void)
{
	pid_t parent = getpid(), pid;
	int k, st;

	CU_ASSERT_EQUAL(pv_pid(), parent);
	for (k = 0; k < 2; k++) {
		st = -1;
		fflush(stdout);
		pid = k == 0 ? fork() : (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0)
			_exit(pv_pid() == getpid() && pv_pid() != parent ? 0 : 1);
		waitpid(pid, &st, 0);
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		CU_ASSERT_EQUAL(pv_pid(), parent);
	}
}

/* The CPU backend's defaults through the configuration: in the caller
 * mode one engine state per ring slot (a thread that finds none free
 * sleeps, which on a few cores cost more than the work: pv_cpu.h), with
 * worker threads one per core; a workers line wins in both. */
static void test_cpu_defaults(void)
{
	static const struct { const char *exec; uint32_t workers, want; } c[] = {
		{ "caller", 0, 128 }, { "caller", 3, 3 }, { "workers", 0, 0 }, { "workers", 3, 3 },
	};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pv_vault_info info;
	pv_conf conf;
	pv_vault *v;
	size_t i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		pv_conf_defaults(&conf);
		snprintf(conf.master_key, sizeof conf.master_key, "/nonexistent/pv-%d", (int)getpid());
		snprintf(conf.backend, sizeof conf.backend, "cpu");
		snprintf(conf.mode, sizeof conf.mode, "embedded");
		snprintf(conf.cpu_exec, sizeof conf.cpu_exec, "%s", c[i].exec);
		conf.workers = c[i].workers;
		CU_ASSERT_EQUAL_FATAL(pv_vault_open(&conf, &v), PV_OK);
		CU_ASSERT_EQUAL(pv_vault_get_info(v, &info), PV_OK);
		CU_ASSERT_EQUAL(info.nslots, 128u);
		CU_ASSERT_EQUAL(info.workers, c[i].want ? c[i].want : (uint32_t)(ncpu > 0 ? ncpu : 1));
		pv_vault_close(v);
	}
}

/* The caller mode with fewer engine states than callers: NTHREADS
 * threads share 2 states (cpu_exec = caller, workers = 2), so callers
 * find every state in use and sleep until one is given back
 * (pv_cpu_execute); every digest is checked against OpenSSL and every
 * thread finishes. */
#define SHARED_ITER 400
static pv_vault *shared_v;
static int shared_bad[NTHREADS];

static void *shared_worker(void *arg)
{
	int id = (int)(intptr_t)arg, i;

	for (i = 0; i < SHARED_ITER; i++) {
		uint8_t in[200], md[32], ref[32];
		size_t len = ts_rand_u32(sizeof in);
		unsigned int l;
		pv_req r;

		ts_rand(in, len);
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.in = in; r.in_len = len; r.out = md; r.out_cap = sizeof md;
		EVP_Digest(in, len, ref, &l, EVP_sha256(), NULL);
		if (pv_vault_call(shared_v, &r) != PV_OK || r.out_len != 32 || memcmp(md, ref, 32) != 0)
			shared_bad[id]++;
	}
	return NULL;
}

static void test_cpu_shared_states(void)
{
	pthread_t t[NTHREADS];
	char path[64];
	pv_vault_info info;
	pv_conf conf;
	int i, bad = 0;

	snprintf(path, sizeof path, "/tmp/pv-threads-test-%d.key", (int)getpid());
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(pv_master_write(path, te_master, NULL), PV_OK);
	pv_conf_defaults(&conf);
	snprintf(conf.master_key, sizeof conf.master_key, "%s", path);
	snprintf(conf.backend, sizeof conf.backend, "cpu");
	snprintf(conf.mode, sizeof conf.mode, "embedded");
	snprintf(conf.cpu_exec, sizeof conf.cpu_exec, "caller");
	conf.workers = 2;
	CU_ASSERT_EQUAL_FATAL(pv_vault_open(&conf, &shared_v), PV_OK);
	CU_ASSERT_EQUAL(pv_vault_get_info(shared_v, &info), PV_OK);
	CU_ASSERT_EQUAL(info.workers, 2u);
	CU_ASSERT_EQUAL(info.sealed, 0);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, shared_worker, (void *)(intptr_t)i);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		bad += shared_bad[i];
	}
	pv_vault_close(shared_v);
	unlink(path);
	printf("\n  %d threads on 2 engine states, %d digests checked, %d bad\n",
	       NTHREADS, NTHREADS * SHARED_ITER, bad);
	CU_ASSERT_EQUAL(bad, 0);
}

/* The slot pool alone: every slot once, then none; a slot given back is
 * the one taken next; a thread takes the same slot again while it is
 * free, also when others are (its arena stays in the thread's cache);
 * each slot on a cache line of its own; and NTHREADS threads taking and
 * giving back never hold one slot together (each holder counts itself in
 * and out). */
#define POOL 8u
static pv_slot_st pool_busy[POOL];
static _Atomic uint32_t pool_holders[POOL];
static int pool_bad[NTHREADS];

static void *pool_worker(void *arg)
{
	int id = (int)(intptr_t)arg, i;
	for (i = 0; i < 20000; i++) {
		uint32_t si = pv_slot_take(pool_busy, POOL);
		if (si == UINT32_MAX)
			continue;               /* all held: try again */
		if (si >= POOL || atomic_fetch_add(&pool_holders[si], 1u) != 0u) {
			pool_bad[id]++;
			continue;
		}
		if (i % 8 == 0)
			sched_yield();          /* hold it while others run */
		atomic_fetch_sub(&pool_holders[si], 1u);
		pv_slot_give(pool_busy, si);
	}
	return NULL;
}

static void test_slot_pool(void)
{
	uint32_t seen = 0, i, si;
	pthread_t th[NTHREADS];
	int bad = 0;

	for (i = 0; i < POOL; i++) {
		si = pv_slot_take(pool_busy, POOL);
		CU_ASSERT_FATAL(si < POOL);
		CU_ASSERT_EQUAL(seen & (1u << si), 0u);
		seen |= 1u << si;
	}
	CU_ASSERT_EQUAL(seen, (1u << POOL) - 1u);
	CU_ASSERT_EQUAL(pv_slot_take(pool_busy, POOL), UINT32_MAX);
	pv_slot_give(pool_busy, 5u);
	CU_ASSERT_EQUAL(pv_slot_take(pool_busy, POOL), 5u);
	for (i = 0; i < POOL; i++)
		pv_slot_give(pool_busy, i);
	si = pv_slot_take(pool_busy, POOL);    /* all free: this thread's place */
	CU_ASSERT_FATAL(si < POOL);
	pv_slot_give(pool_busy, si);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(pv_slot_take(pool_busy, POOL), si);
		pv_slot_give(pool_busy, si);
	}
	CU_ASSERT_EQUAL(sizeof pool_busy[0], 64u);
	CU_ASSERT_EQUAL((uintptr_t)&pool_busy[1] % 64u, 0u);
	for (i = 0; i < NTHREADS; i++)
		CU_ASSERT_FATAL(pthread_create(&th[i], NULL, pool_worker, (void *)(intptr_t)i) == 0);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		bad += pool_bad[i];
	}
	CU_ASSERT_EQUAL(bad, 0);
	for (i = 0; i < POOL; i++)
		CU_ASSERT_EQUAL(atomic_load(&pool_busy[i].busy), 0u);
}

/* Counted futex sleeps (pv_futex.h): a sleeper is counted while it
 * sleeps, a counted wake ends its sleep long before its timeout, and the
 * count is 0 again after.  With the count wrong (0) the wake would be
 * skipped and the sleeper would return only at its 3 s timeout. */
static uint32_t cw_word, cw_sleepers;
static uint64_t cw_woke_ns;

static uint64_t cw_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void *cw_sleeper(void *arg)
{
	(void)arg;
	while (pv_load_acq(&cw_word) == 0u)
		pv_futex_wait_counted(&cw_word, 0u, 3000, PV_FUTEX_PRIVATE, &cw_sleepers);
	cw_woke_ns = cw_now();
	return NULL;
}

static void test_counted_wake(void)
{
	pthread_t th;
	uint64_t t0;
	int i;

	cw_word = cw_sleepers = 0;
	pv_futex_wake_counted(&cw_word, PV_FUTEX_PRIVATE, &cw_sleepers);   /* nobody: no-op */
	CU_ASSERT_FATAL(pthread_create(&th, NULL, cw_sleeper, NULL) == 0);
	for (i = 0; i < 2000 && pv_load_acq(&cw_sleepers) == 0u; i++)
		usleep(1000);
	CU_ASSERT_EQUAL(pv_load_acq(&cw_sleepers), 1u);
	usleep(20000);                          /* into its FUTEX_WAIT */
	t0 = cw_now();
	pv_store_rel(&cw_word, 1u);
	pv_futex_wake_counted(&cw_word, PV_FUTEX_PRIVATE, &cw_sleepers);
	pthread_join(th, NULL);
	CU_ASSERT(cw_woke_ns - t0 < 1000000000u);    /* the wake, not the 3 s timeout */
	CU_ASSERT_EQUAL(pv_load_acq(&cw_sleepers), 0u);
}

int main(void)
{
	CU_pSuite s;
	pv_vault_info info;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	ts_rand(te_master, sizeof te_master);
	/* 4 workers, 8 slots: 8 threads with 2 requests each keep the ring full */
	if (pv_vault_open_key(te_master, 32, 4, 8, 8192, &te_v) != PV_OK) {
		fprintf(stderr, "cannot open vault\n");
		return 1;
	}
	pv_vault_get_info(te_v, &info);
	printf("vault: %s, %s, %u slots\n", info.backend, info.device, info.nslots);
	s = CU_add_suite("engine_threads", NULL, NULL);
	CU_add_test(s, "8 threads x many requests, all checked", test_threads);
	CU_add_test(s, "ring full -> try_submit BUSY", test_busy);
	CU_add_test(s, "a long request holds only its slot", test_long_request);
	CU_add_test(s, "the slot pool: each slot to one holder", test_slot_pool);
	CU_add_test(s, "counted futex sleeps: counted, woken, uncounted after", test_counted_wake);
	CU_add_test(s, "forked child is refused", test_fork);
	CU_add_test(s, "the process id after fork and clone", test_pid_after_fork);
	CU_add_test(s, "CPU backend: engine states per slot in the caller mode", test_cpu_defaults);
	CU_add_test(s, "CPU backend: 8 callers on 2 engine states", test_cpu_shared_states);
	{
		int rc = ts_run();
		te_close();
		return rc;
	}
}
