/*
 * p11stress.c - N threads, one session each, looping until a deadline over
 * every mechanism pixelvault-pkcs11.so lists, picked at random with random
 * sizes and sometimes in random multi-part chunks; every result is checked
 * against OpenSSL (tests/stress/ps_*.c).  A fresh token in a temp dir (its
 * own pixelvault.conf without a backend line, so the module's default, or
 * PIXELVAULT_BACKEND, picks the backend), removed at exit.
 *
 *   p11stress [--module PATH] [--threads N] [--seconds S] [--seed X] [--exclude OP]
 *
 * Per op it prints the operations, wrong answers, unexpected CK_RVs and the
 * mean and longest time of one (the call and its OpenSSL check); --exclude
 * leaves one op out by its name in that table (e.g. to see what the
 * longest times are without "CKM_RSA_PKCS_KEY_PAIR_GEN").
 *
 * Exit 0: every answer right; 1: a wrong answer or an unexpected CK_RV;
 * 2: setup failed.
 */
#define _XOPEN_SOURCE 700
#include <dlfcn.h>
#include <ftw.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu/host/pv_master.h"
#include "ps.h"

#ifndef PS_MODULE_PATH
#define PS_MODULE_PATH "pixelvault-pkcs11.so"
#endif

#define SO_PIN   "stress-so-pin"
#define USER_PIN "stress-user-pin"

CK_FUNCTION_LIST *F;

static char dir[512];
static pid_t owner;
static double deadline;
static const ps_op *ops[PS_MAXOPS];
static int nops;
static const char *excluded;     /* --exclude: an op left out, by name */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	return remove(p);
}

static void cleanup(void)
{
	if (dir[0] && getpid() == owner && !getenv("PS_KEEP"))
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void on_signal(int sig)
{
	exit(128 + sig);             /* runs cleanup() */
}

static void die(const char *what, CK_RV rv)
{
	fprintf(stderr, "p11stress: setup: %s: CK_RV 0x%lx\n", what, (unsigned long)rv);
	exit(2);
}

/* Temp dir, master key, pixelvault.conf (no backend line), PIXELVAULT_CONF. */
static void make_dir(void)
{
	uint8_t key[PV_MASTER_KEY_LEN];
	char path[600];
	FILE *fp;

	snprintf(dir, sizeof dir, "%s/p11stress.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	owner = getpid();
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	snprintf(path, sizeof path, "%s/master.key", dir);
	if (pv_master_generate(key) != 0 || pv_master_write(path, key, NULL) != 0) {
		fprintf(stderr, "p11stress: cannot write %s\n", path);
		exit(2);
	}
	OPENSSL_cleanse(key, sizeof key);
	snprintf(path, sizeof path, "%s/pixelvault.conf", dir);
	if ((fp = fopen(path, "w")) == NULL) {
		perror(path);
		exit(2);
	}
	fprintf(fp, "# p11stress\ntoken_dir = %s/tokens\nmaster_key = %s/master.key\n", dir, dir);
	fclose(fp);
	setenv("PIXELVAULT_CONF", path, 1);
}

static void pad(CK_UTF8CHAR *out, size_t n, const char *s)
{
	memset(out, ' ', n);
	memcpy(out, s, strlen(s) < n ? strlen(s) : n);
}

static void trim(char *out, const CK_UTF8CHAR *in, size_t n)
{
	memcpy(out, in, n);
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = 0;
}

/* Load the module, initialise a token, log in; returns the setup session. */
static CK_SESSION_HANDLE open_token(const char *module, CK_SLOT_ID *slot, char *model)
{
	CK_C_INITIALIZE_ARGS ia = { .flags = CKF_OS_LOCKING_OK };
	CK_C_GetFunctionList gfl;
	CK_SLOT_ID slots[16];
	CK_ULONG n = 16, i;
	CK_TOKEN_INFO ti;
	CK_UTF8CHAR label[32];
	CK_SESSION_HANDLE s;
	CK_RV rv;
	void *dl = dlopen(module, RTLD_NOW | RTLD_LOCAL);
	char manu[40];

	if (dl == NULL) {
		fprintf(stderr, "p11stress: dlopen: %s\n", dlerror());
		exit(2);
	}
	gfl = (CK_C_GetFunctionList)dlsym(dl, "C_GetFunctionList");
	if (gfl == NULL || (rv = gfl(&F)) != CKR_OK)
		die("C_GetFunctionList", gfl ? rv : CKR_GENERAL_ERROR);
	if ((rv = F->C_Initialize(&ia)) != CKR_OK)
		die("C_Initialize", rv);
	if ((rv = F->C_GetSlotList(CK_FALSE, slots, &n)) != CKR_OK)
		die("C_GetSlotList", rv);
	for (i = 0; i < n; i++)
		if (F->C_GetTokenInfo(slots[i], &ti) == CKR_OK && !(ti.flags & CKF_TOKEN_INITIALIZED))
			break;
	if (i == n)
		die("no uninitialised token", CKR_GENERAL_ERROR);
	*slot = slots[i];
	pad(label, sizeof label, "p11stress");
	if ((rv = F->C_InitToken(*slot, (CK_UTF8CHAR_PTR)SO_PIN, strlen(SO_PIN), label)) != CKR_OK)
		die("C_InitToken", rv);
	if ((rv = F->C_OpenSession(*slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &s)) != CKR_OK)
		die("C_OpenSession", rv);
	if ((rv = F->C_Login(s, CKU_SO, (CK_UTF8CHAR_PTR)SO_PIN, strlen(SO_PIN))) != CKR_OK ||
	    (rv = F->C_InitPIN(s, (CK_UTF8CHAR_PTR)USER_PIN, strlen(USER_PIN))) != CKR_OK ||
	    (rv = F->C_Logout(s)) != CKR_OK ||
	    (rv = F->C_Login(s, CKU_USER, (CK_UTF8CHAR_PTR)USER_PIN, strlen(USER_PIN))) != CKR_OK)
		die("PIN setup / C_Login", rv);
	if ((rv = F->C_GetTokenInfo(*slot, &ti)) != CKR_OK)
		die("C_GetTokenInfo", rv);
	trim(model, ti.model, sizeof ti.model);
	trim(manu, ti.manufacturerID, sizeof ti.manufacturerID);
	strcat(model, " (");
	strcat(model, manu);
	strcat(model, ")");
	return s;
}

/* Enable the ops whose mechanism is listed; print the coverage. */
static void coverage(CK_SLOT_ID slot)
{
	static const ps_op *const tabs[] = { ps_sym_ops, ps_pk_ops };
	CK_MECHANISM_TYPE list[256];
	CK_ULONG n = 256, i, uncovered = 0;
	size_t ti;
	const ps_op *o, *ex = NULL;
	CK_RV rv;

	if ((rv = F->C_GetMechanismList(slot, list, &n)) != CKR_OK)
		die("C_GetMechanismList", rv);
	for (ti = 0; ti < 2; ti++)
		for (o = tabs[ti]; o->name; o++) {
			int listed = o->mech == CK_UNAVAILABLE_INFORMATION;
			for (i = 0; i < n && !listed; i++)
				listed = list[i] == o->mech;
			if (listed && excluded != NULL && strcmp(o->name, excluded) == 0)
				ex = o;
			else if (listed && nops < PS_MAXOPS)
				ops[nops++] = o;
			else if (!listed)
				printf("# not listed by the module, not run: %s\n", o->name);
		}
	for (i = 0; i < n; i++) {
		int hit = 0, j;
		const ps_gap *g;
		for (j = 0; j < nops && !hit; j++)
			hit = ops[j]->mech == list[i];
		if (hit)
			continue;
		uncovered++;
		for (g = ps_gaps; g->why && g->mech != list[i]; g++)
			;
		printf("# listed but not covered: 0x%lx: %s\n", (unsigned long)list[i],
		       ex != NULL && ex->mech == list[i] ? "--exclude" : g->why ? g->why : "unknown to p11stress");
	}
	if (excluded != NULL && ex == NULL) {
		fprintf(stderr, "p11stress: --exclude %s: no op of that name that the module lists\n", excluded);
		exit(2);
	}
	if (ex != NULL)
		printf("# excluded: %s\n", ex->name);
	printf("# covered:");
	for (i = 0; i < (CK_ULONG)nops; i++)
		printf(" %s", ops[i]->name);
	printf("\n# mechanisms listed: %lu, covered: %lu, not covered: %lu\n",
	       (unsigned long)n, (unsigned long)(n - uncovered), (unsigned long)uncovered);
}

static void *worker(void *arg)
{
	ps_thr *t = arg;
	CK_RV rv;

	rv = F->C_OpenSession(K.slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &t->s);
	if (rv != CKR_OK) {
		fprintf(stderr, "thread %d: C_OpenSession: CK_RV 0x%lx\n", t->id, (unsigned long)rv);
		t->open_failed = 1;
		return NULL;
	}
	while (now() < deadline) {
		int i = (int)ps_below(t, (uint32_t)nops), r;
		double t1 = now(), dt;

		r = ops[i]->fn(t, ops[i]);
		if (r == PS_SKIP)
			continue;
		dt = now() - t1;
		t->st[i].secs += dt;
		t->st[i].max = dt > t->st[i].max ? dt : t->st[i].max;
		t->st[i].ops++;
		t->st[i].wrong += r == PS_WRONG;
		t->st[i].rverr += r == PS_RVERR;
	}
	F->C_CloseSession(t->s);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: p11stress [--module PATH] [--threads N] [--seconds S] [--seed X]\n"
	                "                 [--exclude OP]  (an op of the table below, by name)\n"
	                "  default module: %s\n", PS_MODULE_PATH);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "module", 1, NULL, 'm' }, { "threads", 1, NULL, 't' },
		{ "seconds", 1, NULL, 's' }, { "seed", 1, NULL, 'r' }, { "exclude", 1, NULL, 'x' },
		{ NULL, 0, NULL, 0 } };
	const char *module = PS_MODULE_PATH;
	int nthr = 8, c, i, j;
	double secs = 5, t0, el;
	unsigned long long seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
	char model[80];
	ps_thr **th;
	pthread_t *tid;
	CK_SESSION_HANDLE s;
	unsigned long tops = 0, twrong = 0, trv = 0;

	while ((c = getopt_long(argc, argv, "m:t:s:r:x:", lo, NULL)) != -1) {
		switch (c) {
		case 'm': module = optarg; break;
		case 't': nthr = atoi(optarg); break;
		case 's': secs = atof(optarg); break;
		case 'r': seed = strtoull(optarg, NULL, 0); break;
		case 'x': excluded = optarg; break;
		default: usage();
		}
	}
	if (nthr < 1 || nthr > 4096 || secs <= 0)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (ps_ossl_init() != 0) {
		fprintf(stderr, "p11stress: OpenSSL lacks an algorithm the oracle needs\n");
		exit(2);
	}
	make_dir();
	s = open_token(module, &K.slot, model);
	printf("p11stress: token '%s', PIXELVAULT_BACKEND=%s, module %s, %d threads, %g s, seed 0x%llx\n",
	       model, getenv("PIXELVAULT_BACKEND") ? getenv("PIXELVAULT_BACKEND") : "(unset)",
	       module, nthr, secs, seed);
	coverage(K.slot);
	if (ps_keys_setup(s) != 0)
		exit(2);
	th = calloc((size_t)nthr, sizeof *th);
	tid = calloc((size_t)nthr, sizeof *tid);
	t0 = now();
	deadline = t0 + secs;
	for (i = 0; i < nthr; i++) {
		th[i] = calloc(1, sizeof **th);
		if (th[i] == NULL) {
			fprintf(stderr, "p11stress: out of memory\n");
			exit(2);
		}
		th[i]->id = i;
		th[i]->rng = (seed + 0x9E3779B97F4A7C15ULL * (unsigned long long)(i + 1)) | 1;
		if (pthread_create(&tid[i], NULL, worker, th[i]) != 0) {
			fprintf(stderr, "p11stress: pthread_create failed\n");
			exit(2);
		}
	}
	for (i = 0; i < nthr; i++)
		pthread_join(tid[i], NULL);
	el = now() - t0;
	printf("%-32s %10s %8s %8s %9s %9s\n", "mechanism", "ops", "wrong", "bad_rv", "mean ms", "max ms");
	for (j = 0; j < nops; j++) {
		ps_stat sum = { 0, 0, 0, 0, 0 };
		for (i = 0; i < nthr; i++) {
			sum.ops += th[i]->st[j].ops;
			sum.wrong += th[i]->st[j].wrong;
			sum.rverr += th[i]->st[j].rverr;
			sum.secs += th[i]->st[j].secs;
			sum.max = th[i]->st[j].max > sum.max ? th[i]->st[j].max : sum.max;
		}
		printf("%-32s %10lu %8lu %8lu %9.2f %9.1f%s\n", ops[j]->name, sum.ops, sum.wrong, sum.rverr,
		       sum.ops ? 1e3 * sum.secs / (double)sum.ops : 0.0, 1e3 * sum.max,
		       sum.ops ? "" : "  (not exercised in this run)");
		tops += sum.ops;
		twrong += sum.wrong;
		trv += sum.rverr;
	}
	for (i = 0; i < nthr; i++) {
		trv += (unsigned long)th[i]->open_failed;
		free(th[i]);
	}
	printf("p11stress: %lu operations in %.1f s (%.0f/s), %lu wrong answers, %lu unexpected CK_RVs: %s\n",
	       tops, el, tops / el, twrong, trv, twrong || trv ? "FAIL" : "PASS");
	F->C_CloseAllSessions(K.slot);
	ps_keys_free();
	ps_ossl_free();
	F->C_Finalize(NULL);
	free(th);
	free(tid);
	return twrong || trv ? 1 : 0;
}
