/*
 * test_daemon_life.c - pvaultd lifecycle: clients SIGKILLed in the middle
 * of requests (PVD_KILL_LOOPS, default 50) while a bystander client keeps
 * working; daemon fd count and RSS back to baseline; daemon restart ->
 * PV_ERR_REMOVED, then the same pv_vault reconnects; SIGTERM drains the
 * requests in flight; fork: the child's calls fail cleanly, its own open
 * works.
 */
#include "td_common.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static td_daemon D;

static int suite_init(void)
{
	return td_setup(&D) != 0 || td_start(&D) != 0;
}

static int suite_clean(void)
{
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

/* one SHA-256 digest through v, checked against OpenSSL */
static int digest_ok(pv_vault *v, size_t n)
{
	static __thread uint8_t buf[65536];
	uint8_t out[32], ref[32];
	unsigned rl;
	pv_req r;
	if (n > sizeof buf)
		n = sizeof buf;
	ts_rand(buf, n);
	pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
	r.in = buf; r.in_len = n; r.out = out; r.out_cap = 32;
	if (pv_vault_call(v, &r) != PV_OK || r.out_len != 32)
		return 0;
	EVP_Digest(buf, n, ref, &rl, EVP_sha256(), NULL);
	return memcmp(out, ref, 32) == 0;
}

static _Atomic int by_stop;         /* set by the main thread */
static int by_bad, by_n;

static void *bystander(void *arg)
{
	pv_vault *v = (pv_vault *)arg;
	while (!by_stop) {
		if (!digest_ok(v, 4096))
			by_bad++;
		by_n++;
	}
	return NULL;
}

static uint32_t daemon_clients(void)
{
	pv_conf c;
	pv_daemon_status st;
	td_conf(&D, &c);
	if (pv_vault_status(&c, &st) != PV_OK)
		return 9999;
	return st.clients;
}

static void kill_one(int i)
{
	pid_t p = fork();
	if (p == 0) {
		pv_vault *cv;
		int j;
		if (td_open(&D, &cv) != PV_OK)
			_exit(3);
		for (j = 0; ; j++) {
			/* several in flight at once, then wait */
			pv_req r[4];
			static uint8_t in[4][60000], out[4][64];
			int q;
			for (q = 0; q < 4; q++) {
				pv_req_init(&r[q], PV_OP_DIGEST, PV_MECH_SHA512);
				r[q].in = in[q]; r[q].in_len = sizeof in[q];
				r[q].out = out[q]; r[q].out_cap = 64;
				pv_vault_submit(cv, &r[q]);
			}
			for (q = 0; q < 4; q++)
				pv_vault_wait(cv, &r[q]);
		}
	}
	usleep(20000 + (unsigned)(i % 7) * 5000);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
}

static void t_sigkill_loop(void)
{
	const char *e = getenv("PVD_KILL_LOOPS");
	int loops = e ? atoi(e) : 50, i, fd0, fd1 = -1, k;
	long rss0, rss1 = -1;
	pv_vault *bv, *w;
	pthread_t th;

	/* warm up (thread stacks, allocator arenas, and the pages of the
	 * daemon's ring slots: each new thread's first request goes to
	 * another slot, gpu/host/pv_slots.h): as many clients killed the same
	 * way as the loop kills, and one in and out; then the baseline */
	for (i = 0; i < loops; i++)
		kill_one(i);
	CU_ASSERT_EQUAL_FATAL(td_open(&D, &w), PV_OK);
	CU_ASSERT(digest_ok(w, 1000));
	pv_vault_close(w);
	for (k = 0; k < 100 && daemon_clients() != 0; k++)
		usleep(10000);
	/* status connections close just after their answer: take the
	 * smallest of a few samples */
	fd0 = td_fd_count(D.pid);
	for (k = 0; k < 20; k++) {
		int f;
		usleep(10000);
		f = td_fd_count(D.pid);
		if (f < fd0)
			fd0 = f;
	}
	rss0 = td_rss_kb(D.pid);
	CU_ASSERT_FATAL(fd0 > 0 && rss0 > 0);

	CU_ASSERT_EQUAL_FATAL(td_open(&D, &bv), PV_OK);
	pthread_create(&th, NULL, bystander, bv);
	for (i = 0; i < loops; i++) {
		kill_one(i);
	}
	by_stop = 1;
	pthread_join(th, NULL);
	CU_ASSERT_EQUAL(by_bad, 0);
	CU_ASSERT(by_n > 0);
	fprintf(stderr, "  sigkill loop: %d clients killed, bystander %d requests, %d bad\n",
	        loops, by_n, by_bad);
	pv_vault_close(bv);
	/* back to baseline: no client, same fds, RSS within 4 MiB */
	for (k = 0; k < 300; k++) {
		fd1 = td_fd_count(D.pid);
		rss1 = td_rss_kb(D.pid);
		if (daemon_clients() == 0 && fd1 <= fd0 && rss1 <= rss0 + 4096)
			break;
		usleep(10000);
	}
	fprintf(stderr, "  daemon fds %d -> %d, RSS %ld kB -> %ld kB\n", fd0, fd1, rss0, rss1);
	CU_ASSERT_EQUAL(daemon_clients(), 0);
	CU_ASSERT(fd1 <= fd0);
	CU_ASSERT(rss1 <= rss0 + 4096);
	CU_ASSERT(kill(D.pid, 0) == 0);
}

static void t_restart(void)
{
	pv_vault *v;
	CU_ASSERT_EQUAL_FATAL(td_open(&D, &v), PV_OK);
	CU_ASSERT(digest_ok(v, 100));
	/* daemon killed hard: the next call reports it */
	CU_ASSERT_EQUAL(td_stop(&D, SIGKILL), 128 + SIGKILL);
	CU_ASSERT_FALSE(digest_ok(v, 100));
	{
		pv_req r;
		uint8_t out[32];
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.out = out; r.out_cap = 32;
		CU_ASSERT_EQUAL(pv_vault_call(v, &r), PV_ERR_REMOVED);   /* still down */
	}
	/* restarted (stale socket replaced): the same pv_vault works again */
	CU_ASSERT_EQUAL_FATAL(td_start(&D), 0);
	CU_ASSERT(digest_ok(v, 100));
	CU_ASSERT(digest_ok(v, 5000));
	/* graceful restart too */
	CU_ASSERT_EQUAL(td_stop(&D, SIGTERM), 0);
	{
		pv_req r;
		uint8_t out[32];
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.out = out; r.out_cap = 32;
		CU_ASSERT_EQUAL(pv_vault_call(v, &r), PV_ERR_REMOVED);
	}
	CU_ASSERT_EQUAL_FATAL(td_start(&D), 0);
	CU_ASSERT(digest_ok(v, 100));
	pv_vault_close(v);
}

static void t_drain(void)
{
	enum { N = 12, LEN = 200000 };
	static uint8_t in[N][LEN], out[N][64], ref[64];
	pv_req r[N];
	pv_vault *v;
	unsigned rl;
	int i, ok = 0;

	CU_ASSERT_EQUAL_FATAL(td_open(&D, &v), PV_OK);
	for (i = 0; i < N; i++) {
		ts_rand(in[i], LEN);
		pv_req_init(&r[i], PV_OP_DIGEST, PV_MECH_SHA512);
		r[i].in = in[i]; r[i].in_len = LEN; r[i].out = out[i]; r[i].out_cap = 64;
		CU_ASSERT_EQUAL_FATAL(pv_vault_submit(v, &r[i]), PV_OK);
	}
	kill(D.pid, SIGTERM);
	for (i = 0; i < N; i++) {
		if (pv_vault_wait(v, &r[i]) == PV_OK) {
			EVP_Digest(in[i], LEN, ref, &rl, EVP_sha512(), NULL);
			ok += memcmp(out[i], ref, 64) == 0;
		}
	}
	CU_ASSERT_EQUAL(ok, N);
	CU_ASSERT_EQUAL(td_stop(&D, SIGTERM), 0);     /* exited 0 by itself */
	pv_vault_close(v);
	CU_ASSERT_EQUAL(td_start(&D), 0);
}

static void t_fork(void)
{
	pv_vault *v;
	pid_t p;
	int st = -1;
	CU_ASSERT_EQUAL_FATAL(td_open(&D, &v), PV_OK);
	CU_ASSERT(digest_ok(v, 10));
	p = fork();
	if (p == 0) {
		pv_req r;
		uint8_t out[32];
		pv_vault *cv;
		int bad = 0;
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.out = out; r.out_cap = 32;
		bad |= pv_vault_call(v, &r) != PV_ERR_REMOVED;
		bad |= td_open(&D, &cv) != PV_OK;
		if (!bad)
			bad |= !digest_ok(cv, 1000);
		_exit(bad ? 1 : 0);
	}
	waitpid(p, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CU_ASSERT(digest_ok(v, 10));
	pv_vault_close(v);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_life", suite_init, suite_clean);
	CU_add_test(s, "SIGKILL clients mid-request in a loop; bystander unaffected; baseline", t_sigkill_loop);
	CU_add_test(s, "daemon restart -> PV_ERR_REMOVED, then reconnect", t_restart);
	CU_add_test(s, "SIGTERM drains requests in flight, exits 0", t_drain);
	CU_add_test(s, "fork: child call fails cleanly, child open works", t_fork);
	return ts_run();
}
