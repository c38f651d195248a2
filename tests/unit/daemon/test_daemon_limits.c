/*
 * test_daemon_limits.c - pvaultd under floods keeps its limits and keeps
 * serving (docs/daemon.md, "Limits").  Needs root (setuid in forked
 * children); otherwise exit 77 (meson: SKIP).
 *
 * A pvaultd with small limits (pixelvault.conf daemon_* keys and flags):
 * 48 connections, 16 per uid, 2 workers per client, 2 s hello timeout,
 * 8 MiB per client, 40 MiB per uid, 96 MiB in all, 2 s log interval.
 * While a root client keeps hashing on a connection it opened before, and
 * opens a fresh connection every 50 ms:
 *
 *  - an admitted uid (-u) opens 2,000 connections and holds them: the
 *    first 16 and every 4th say HELLO asking for the largest ring (more
 *    than the uid's memory allows for 16), the others say nothing;
 *  - a uid the policy refuses reconnects in a loop for 5 s.
 *
 * Checked: every request of the root client succeeded (both kinds); the
 * daemon's threads never exceeded what 16 connections of the flooding uid
 * may hold (/proc Threads), its memory (VmRSS sampled, VmHWM) stayed
 * within the flooding uid's memory budget over the baseline; no idle
 * connection outlived the hello timeout; the flooding uid got at most 16
 * rings; the log stayed short (a few lines per uid and reason and
 * interval, the refused uid's summary among them); afterwards threads and
 * descriptors are back to the baseline.
 *
 * Then pvaultd's RLIMIT_NOFILE is lowered from outside (prlimit) to just
 * above what it holds and 200 connections queue up: they are refused, the
 * daemon's CPU time stays flat (no loop on a socket it cannot accept
 * from), the client connected before keeps working, and with the limit
 * restored a new connection is served.
 */
#include "td_common.h"

#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu/client/pv_dclient.h"

#define FLOOD_UID   4201u       /* admitted by -u                         */
#define REFUSED_UID 4202u       /* not admitted                           */
#define MAX_CONN    48
#define MAX_UID     16
#define WORKERS     2
#define HELLO_S     2
#define LOGIV_S     2
#define UID_MIB     40
#define NCONN       2000
#define REFUSE_S    5

static td_daemon D;
static char logpath[400];
static pv_conf conf;

typedef struct flood_res {
	int connected;          /* sockets connected                          */
	int rings;              /* HELLO_OK                                   */
	int busy;               /* HELLO answered PV_ERR_BUSY                 */
	int other;              /* HELLO answered something else              */
	int idle_open;          /* idle sockets still open after the timeout  */
	int idle;               /* idle sockets                               */
	uint64_t mem;           /* the rings' bytes + their workers' buffers  */
} flood_res;

typedef struct refuse_res {
	long tries, perm, other;
} refuse_res;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int become(uid_t uid)
{
	return setgroups(0, NULL) == 0 && setgid((gid_t)uid) == 0 && setuid(uid) == 0 &&
	       geteuid() == uid ? 0 : -1;
}

static int raw_connect(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path));
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The admitted flooder: NCONN connections held at once. */
static void flooder(int go, int out)
{
	static int fds[NCONN];
	static uint8_t *rings[NCONN];
	static size_t ring_len[NCONN];
	static struct pollfd pf[NCONN];
	flood_res r;
	struct rlimit rl = { NCONN + 256, NCONN + 256 };
	char c;
	int i, n = 0;

	memset(&r, 0, sizeof r);
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || become(FLOOD_UID) != 0)
		_exit(90);
	if (read(go, &c, 1) != 1)
		_exit(91);
	for (i = 0; i < NCONN; i++) {
		fds[i] = -1;
		if (i < MAX_UID || i % 4 == 0) {
			pvp_hello_ok ok;
			int rc = pv_dc_connect(D.sock, -1, PVP_SLOTS_MAX, PVP_ARENA_MAX, &fds[i],
			                       &rings[i], &ok);
			if (rc == PV_OK) {
				r.rings++;
				r.connected++;
				ring_len[i] = (size_t)ok.ring_bytes;
				r.mem += ok.ring_bytes + (uint64_t)ok.workers * ok.slot_arena;
				memset(rings[i], 0x5a, 4096);      /* its own memory: touch it */
			} else if (rc == PV_ERR_BUSY) {
				r.busy++;
			} else {
				r.other++;
			}
		} else {
			fds[i] = raw_connect(D.sock);
			if (fds[i] >= 0)
				r.connected++;
		}
	}
	/* every idle connection is closed by now: refused, or timed out */
	usleep((HELLO_S * 1000 + 1500) * 1000);
	for (i = 0; i < NCONN; i++)
		if (!(i < MAX_UID || i % 4 == 0) && fds[i] >= 0) {
			pf[n].fd = fds[i];
			pf[n].events = POLLIN;
			pf[n].revents = 0;
			n++;
		}
	r.idle = n;
	if (poll(pf, (nfds_t)n, 0) < 0)
		_exit(92);
	for (i = 0; i < n; i++)
		if (!(pf[i].revents & (POLLHUP | POLLERR)))
			r.idle_open++;
	if (write(out, &r, sizeof r) != (ssize_t)sizeof r)
		_exit(93);
	for (i = 0; i < NCONN; i++) {
		if (rings[i] != NULL)
			munmap(rings[i], ring_len[i]);
		if (fds[i] >= 0)
			close(fds[i]);
	}
	_exit(0);
}

/* The refused uid, reconnecting as fast as it can for REFUSE_S s. */
static void refused(int go, int out)
{
	refuse_res r;
	double end;
	char c;

	memset(&r, 0, sizeof r);
	if (become(REFUSED_UID) != 0)
		_exit(90);
	if (read(go, &c, 1) != 1)
		_exit(91);
	end = now_s() + REFUSE_S;
	while (now_s() < end) {
		pvp_hello_ok ok;
		uint8_t *ring;
		int fd, rc = pv_dc_connect(D.sock, -1, 0, 0, &fd, &ring, &ok);
		r.tries++;
		if (rc == PV_ERR_PERM)
			r.perm++;
		else
			r.other++;
		if (rc == PV_OK)
			close(fd);
	}
	if (write(out, &r, sizeof r) != (ssize_t)sizeof r)
		_exit(93);
	_exit(0);
}

static pid_t spawn(void (*fn)(int, int), int go, int *out)
{
	int p[2];
	pid_t pid;
	if (pipe(p) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		fn(go, p[1]);
	}
	close(p[1]);
	*out = p[0];
	return pid;
}

/* one SHA-256 of "abc" */
static int digest_ok(pv_vault *v)
{
	static const uint8_t want[4] = { 0xba, 0x78, 0x16, 0xbf };
	uint8_t out[32];
	pv_req r;
	pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
	r.in = (const uint8_t *)"abc";
	r.in_len = 3;
	r.out = out;
	r.out_cap = sizeof out;
	return pv_vault_call(v, &r) == PV_OK && r.out_len == 32 && memcmp(out, want, 4) == 0;
}

static _Atomic int stop_legit;
static long held_ok, held_bad, fresh_ok, fresh_bad;

static void *legit_held(void *arg)
{
	pv_vault *v = (pv_vault *)arg;
	while (!stop_legit) {
		if (digest_ok(v))
			held_ok++;
		else
			held_bad++;
		usleep(2000);
	}
	return NULL;
}

static void *legit_fresh(void *arg)
{
	(void)arg;
	while (!stop_legit) {
		pv_vault *v = NULL;
		int rc = pv_vault_open(&conf, &v);
		if (rc == PV_OK && digest_ok(v))
			fresh_ok++;
		else {
			fresh_bad++;
			fprintf(stderr, "  root client: fresh connection -> %d\n", rc);
		}
		if (v != NULL)
			pv_vault_close(v);
		usleep(50000);
	}
	return NULL;
}

static int suite_init(void)
{
	FILE *f;
	if (td_setup(&D) != 0)
		return 1;
	f = fopen(D.conf, "a");
	if (f == NULL)
		return 1;
	fprintf(f, "daemon_max_connections = %d\ndaemon_max_connections_per_uid = %d\n"
	           "daemon_hello_timeout = %d\ndaemon_log_interval = %d\n"
	           "daemon_client_memory = 8\ndaemon_memory_per_uid = %d\ndaemon_memory = 96\n",
	        MAX_CONN, MAX_UID, HELLO_S, LOGIV_S, UID_MIB);
	fclose(f);
	snprintf(logpath, sizeof logpath, "%s/pvaultd.log", D.dir);
	D.log = logpath;
	D.extra[0] = "-u";
	D.extra[1] = "4201";
	D.extra[2] = "--workers-per-client";
	D.extra[3] = "2";
	D.extra[4] = NULL;
	if (td_start(&D) != 0)
		return 1;
	td_conf(&D, &conf);
	/* other uids reach the socket; the policy decides */
	{
		char run[400];
		snprintf(run, sizeof run, "%s/run", D.dir);
		chmod(D.dir, 0711);
		chmod(run, 0711);
	}
	return 0;
}

static int suite_clean(void)
{
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

static void count_log(int *lines, int *refused_lines, long *refused_summary)
{
	char line[512];
	FILE *f = fopen(logpath, "r");
	*lines = *refused_lines = 0;
	*refused_summary = 0;
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f)) {
		long n;
		unsigned u, s;
		(*lines)++;
		if (strstr(line, "refused") != NULL)
			(*refused_lines)++;
		if (strstr(line, "pvaultd: refused ") != NULL &&
		    sscanf(strstr(line, "pvaultd: refused "),
		           "pvaultd: refused %ld more connections from uid %u in the last %u s",
		           &n, &u, &s) == 3 && u == REFUSED_UID)
			*refused_summary += n;
	}
	fclose(f);
}

static void t_floods(void)
{
	pv_vault *held = NULL;
	pthread_t th1, th2;
	int go[2], fout = -1, rout = -1, st, lines, rlines, i;
	long thr0, rss0, fds0, thr_max = 0, rss_max = 0, hwm, thr_bound, rss_bound, rsum;
	pid_t fp, rp;
	flood_res fr;
	refuse_res rr;
	double end;

	CU_ASSERT_EQUAL_FATAL(td_open(&D, &held), PV_OK);
	CU_ASSERT_FATAL(digest_ok(held));
	usleep(200000);
	thr0 = td_status_field(D.pid, "Threads");
	rss0 = td_status_field(D.pid, "VmRSS");
	fds0 = td_fd_count(D.pid);
	CU_ASSERT_FATAL(thr0 > 0 && rss0 > 0 && fds0 > 0);

	/* children first (before this process has threads), held at a pipe */
	CU_ASSERT_EQUAL_FATAL(pipe(go), 0);
	fp = spawn(flooder, go[0], &fout);
	rp = spawn(refused, go[0], &rout);
	CU_ASSERT_FATAL(fp > 0 && rp > 0);
	pthread_create(&th1, NULL, legit_held, held);
	pthread_create(&th2, NULL, legit_fresh, NULL);
	CU_ASSERT_EQUAL(write(go[1], "gg", 2), 2);

	/* sample the daemon while the floods run */
	end = now_s() + REFUSE_S + 1.0;
	while (now_s() < end) {
		long t = td_status_field(D.pid, "Threads"), r = td_status_field(D.pid, "VmRSS");
		if (t > thr_max)
			thr_max = t;
		if (r > rss_max)
			rss_max = r;
		usleep(20000);
	}
	memset(&fr, 0, sizeof fr);
	memset(&rr, 0, sizeof rr);
	CU_ASSERT_EQUAL(read(fout, &fr, sizeof fr), (ssize_t)sizeof fr);
	CU_ASSERT_EQUAL(read(rout, &rr, sizeof rr), (ssize_t)sizeof rr);
	waitpid(fp, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	waitpid(rp, &st, 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	stop_legit = 1;
	pthread_join(th1, NULL);
	pthread_join(th2, NULL);
	hwm = td_status_field(D.pid, "VmHWM");

	/* the floods happened */
	printf("\n  flooder: %d connected, %d rings (%.1f MiB), %d busy, %d other; "
	       "%d idle, %d still open\n", fr.connected, fr.rings, (double)fr.mem / 1048576.0,
	       fr.busy, fr.other, fr.idle, fr.idle_open);
	printf("  refused uid: %ld tries, %ld PERM, %ld other\n", rr.tries, rr.perm, rr.other);
	CU_ASSERT(fr.connected >= NCONN / 2);
	CU_ASSERT(rr.tries >= 200 && rr.perm >= rr.tries / 2);
	/* the flooding uid got no more than its connections; idle ones went */
	CU_ASSERT(fr.rings >= 1 && fr.rings <= MAX_UID);
	CU_ASSERT(fr.busy >= 1);
	CU_ASSERT(fr.mem <= (uint64_t)UID_MIB << 20);
	CU_ASSERT(fr.idle > 0);
	CU_ASSERT_EQUAL(fr.idle_open, 0);
	/* the root client was served throughout */
	printf("  root client: %ld + %ld requests ok, %ld + %ld failed\n", held_ok, fresh_ok,
	       held_bad, fresh_bad);
	CU_ASSERT(held_ok >= 100 && fresh_ok >= 20);
	CU_ASSERT_EQUAL(held_bad, 0);
	CU_ASSERT_EQUAL(fresh_bad, 0);
	/* threads: the baseline (with the root client's ring) plus what the
	 * flooding uid's connections and the root client's fresh one hold */
	thr_bound = thr0 + (MAX_UID + 1) * (1 + WORKERS);
	/* memory: the flooding uid's budget, the root client's fresh rings,
	 * threads' stacks and allocator arenas */
	rss_bound = rss0 + (UID_MIB + 8 + 16) * 1024;
	printf("  pvaultd: threads %ld -> max %ld (bound %ld); VmRSS %ld kB -> max %ld, "
	       "VmHWM %ld kB (bound %ld)\n", thr0, thr_max, thr_bound, rss0, rss_max, hwm, rss_bound);
	CU_ASSERT(thr_max <= thr_bound);
	CU_ASSERT(rss_max <= rss_bound);
	CU_ASSERT(hwm <= rss_bound);

	/* the log: a few lines per uid, reason and interval */
	usleep((LOGIV_S * 1000 + 1200) * 1000);
	count_log(&lines, &rlines, &rsum);
	if (getenv("PVD_SHOW_LOG") != NULL) {
		char cmd[450];
		snprintf(cmd, sizeof cmd, "cat '%s'", logpath);
		if (system(cmd) != 0)
			printf("  (no log)\n");
	}
	printf("  log: %d lines, %d about refusals; summaries count %ld refusals of uid %u\n",
	       lines, rlines, rsum, REFUSED_UID);
	CU_ASSERT(lines <= 60);
	CU_ASSERT(rsum >= rr.tries / 2);

	/* back to the baseline */
	for (i = 0; i < 100; i++) {
		if (td_status_field(D.pid, "Threads") <= thr0 && td_fd_count(D.pid) <= fds0)
			break;
		usleep(50000);
	}
	printf("  after: threads %ld, fds %d (baseline %ld, %ld)\n",
	       td_status_field(D.pid, "Threads"), td_fd_count(D.pid), thr0, fds0);
	CU_ASSERT(td_status_field(D.pid, "Threads") <= thr0);
	CU_ASSERT(td_fd_count(D.pid) <= fds0);
	CU_ASSERT(digest_ok(held));
	pv_vault_close(held);
}

/* CPU seconds (user + system) pvaultd has used */
static double cpu_s(pid_t pid)
{
	char p[64], buf[1024], *q;
	unsigned long ut = 0, st = 0;
	FILE *f;
	int i;
	snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
	f = fopen(p, "r");
	if (f == NULL)
		return -1;
	if (fgets(buf, sizeof buf, f) == NULL) {
		fclose(f);
		return -1;
	}
	fclose(f);
	q = strrchr(buf, ')');              /* comm may hold spaces */
	for (i = 0; q != NULL && i < 12; i++)
		q = strchr(q + 1, ' ');         /* to field 14, utime */
	if (q == NULL || sscanf(q + 1, "%lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* CPU seconds a busy loop gets in secs of wall time: what a daemon
 * spinning on its socket would get too, on a machine however loaded. */
static double spin_cpu(double secs)
{
	struct rusage ru;
	int st;
	pid_t p = fork();
	if (p == 0) {
		double end = now_s() + secs;
		while (now_s() < end)
			;
		_exit(0);
	}
	if (p < 0 || wait4(p, &st, 0, &ru) != p)
		return -1;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* The admitted uid's 200 connections, queued without waiting for the
 * daemon (non-blocking connect) and held until the parent says so. */
static void holder(int go, int out)
{
	static int fds[200];
	struct sockaddr_un sa;
	char c;
	int i, n = 0;

	if (become(FLOOD_UID) != 0)
		_exit(90);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, D.sock, strlen(D.sock));
	for (i = 0; i < 200; i++) {
		fds[i] = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fds[i] >= 0 && connect(fds[i], (struct sockaddr *)&sa, sizeof sa) == 0)
			n++;
	}
	if (write(out, &n, sizeof n) != (ssize_t)sizeof n)
		_exit(93);
	if (read(go, &c, 1) != 1)
		_exit(91);
	_exit(0);
}

/* pvaultd out of descriptors (its RLIMIT_NOFILE lowered from outside to
 * just above what it holds): a queue of connections is refused and the
 * daemon goes quiet, no busy loop; the connection held before keeps
 * working; with the limit restored new connections are served again. */
static void t_emfile(void)
{
	struct rlimit lim, old;
	pv_vault *held = NULL, *v = NULL;
	int go[2], out = -1, n = 0, st, fds;
	double c0, c1, ref;
	pid_t hp;

	CU_ASSERT_EQUAL_FATAL(td_open(&D, &held), PV_OK);
	CU_ASSERT_FATAL(digest_ok(held));
	CU_ASSERT_EQUAL_FATAL(prlimit(D.pid, RLIMIT_NOFILE, NULL, &old), 0);
	fds = td_fd_count(D.pid);
	lim.rlim_cur = lim.rlim_max = old.rlim_max;
	lim.rlim_cur = (rlim_t)fds + 2;     /* two connections, then EMFILE */
	CU_ASSERT_EQUAL_FATAL(prlimit(D.pid, RLIMIT_NOFILE, &lim, NULL), 0);

	CU_ASSERT_EQUAL_FATAL(pipe(go), 0);
	hp = spawn(holder, go[0], &out);
	CU_ASSERT_FATAL(hp > 0);
	CU_ASSERT_EQUAL(read(out, &n, sizeof n), (ssize_t)sizeof n);
	printf("\n  %d connections queued against %d descriptors in use, limit %d\n", n, fds,
	       (int)lim.rlim_cur);
	CU_ASSERT(n >= 50);
	/* the queue is worked off; then 2 s of CPU time while the connections
	 * stay open (a loop on an unacceptable queue would use all of it) */
	usleep(500000);
	c0 = cpu_s(D.pid);
	ref = spin_cpu(2.0);
	c1 = cpu_s(D.pid);
	printf("  pvaultd used %.2f s of CPU in 2 s out of descriptors (a busy loop beside it: "
	       "%.2f s)\n", c1 - c0, ref);
	CU_ASSERT(c0 >= 0 && ref >= 0 && c1 - c0 <= 0.25 * ref + 0.05);
	CU_ASSERT(digest_ok(held));
	{
		char line[512];
		int said = 0;
		FILE *f = fopen(logpath, "r");
		while (f != NULL && fgets(line, sizeof line, f))
			said |= strstr(line, "out of file descriptors") != NULL;
		if (f != NULL)
			fclose(f);
		CU_ASSERT(said);
	}
	CU_ASSERT_EQUAL(write(go[1], "g", 1), 1);
	waitpid(hp, &st, 0);
	close(go[0]);
	close(go[1]);
	close(out);

	/* limit back: a new connection is served */
	CU_ASSERT_EQUAL(prlimit(D.pid, RLIMIT_NOFILE, &old, NULL), 0);
	usleep(HELLO_S * 1000000 + 300000);   /* idle admitted ones time out */
	CU_ASSERT_EQUAL(td_open(&D, &v), PV_OK);
	if (v != NULL) {
		CU_ASSERT(digest_ok(v));
		pv_vault_close(v);
	}
	CU_ASSERT(digest_ok(held));
	pv_vault_close(held);
}

int main(void)
{
	CU_pSuite s;
	if (geteuid() != 0) {
		printf("SKIP: test_daemon_limits needs root to run clients as other uids (setuid)\n");
		return 77;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_limits", suite_init, suite_clean);
	CU_add_test(s, "2,000 connections, idle ones, a refused uid in a loop: limits hold, "
	               "root client served, log bounded", t_floods);
	CU_add_test(s, "out of descriptors: queue refused, no busy loop, held client served, "
	               "recovers", t_emfile);
	return ts_run();
}
