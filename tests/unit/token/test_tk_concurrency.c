/*
 * test_tk_concurrency.c - two processes, eight threads each, create, find,
 * read and destroy objects on one token at the same time.  Every result is
 * checked exactly (the set of objects a thread owns is known at every
 * moment); the only error allowed is the documented contention code
 * CKR_FUNCTION_FAILED (store busy past its timeout), which is counted and
 * retried.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pkt.h"

#define NPROC    2
#define NTHREAD  8
#define NITER    24

static CK_SLOT_ID slot;
static CK_OBJECT_CLASS c_data = CKO_DATA;
static CK_BBOOL T = CK_TRUE, F = CK_FALSE;

typedef struct {
	int proc, thr;
	int wrong, errors, contention;
} worker;

/* Retry on the contention code only. */
#define CALL(w, expr, rvout) do { \
	int tries_ = 0; \
	do { (rvout) = (expr); } while ((rvout) == CKR_FUNCTION_FAILED && \
	                               ++(w)->contention && ++tries_ < 20); \
} while (0)

static CK_ULONG find_all(worker *w, CK_SESSION_HANDLE h, CK_ATTRIBUTE *t,
                         CK_ULONG n, CK_OBJECT_HANDLE *out, CK_ULONG max)
{
	CK_ULONG got = 0, total = 0;
	CK_RV rv;

	CALL(w, pkt_f->C_FindObjectsInit(h, t, n), rv);
	if (rv != CKR_OK) {
		w->errors++;
		return (CK_ULONG)-1;
	}
	do {
		rv = pkt_f->C_FindObjects(h, out + total, max - total, &got);
		if (rv != CKR_OK) {
			w->errors++;
			break;
		}
		total += got;
	} while (got > 0 && total < max);
	if (pkt_f->C_FindObjectsFinal(h) != CKR_OK)
		w->errors++;
	return total;
}

static void *work(void *arg)
{
	worker *w = arg;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE mine[NITER], found[NITER * 2 + 4];
	int alive[NITER];
	char app[32], lbl[48];
	int i, j, nalive = 0;
	CK_RV rv;

	memset(alive, 0, sizeof alive);
	snprintf(app, sizeof app, "conc-p%d-t%d", w->proc, w->thr);
	if (pkt_f->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
	                         NULL, &h) != CKR_OK) {
		w->errors++;
		return NULL;
	}
	for (i = 0; i < NITER; i++) {
		CK_ULONG id = (CK_ULONG)(w->proc * 100000 + w->thr * 1000 + i);
		CK_ATTRIBUTE t[] = {
			{ CKA_CLASS, &c_data, sizeof c_data },
			{ CKA_TOKEN, (i % 3 == 2) ? &F : &T, 1 },  /* some session objs */
			{ CKA_LABEL, lbl, 0 },
			{ CKA_APPLICATION, app, strlen(app) },
			{ CKA_OBJECT_ID, &id, sizeof id },
		};
		CK_ATTRIBUTE by_lbl[] = { { CKA_LABEL, lbl, 0 } };
		CK_ATTRIBUTE by_app[] = { { CKA_APPLICATION, app, strlen(app) } };
		CK_ULONG n, got_id = 0;
		CK_ATTRIBUTE q[] = { { CKA_OBJECT_ID, &got_id, sizeof got_id } };

		snprintf(lbl, sizeof lbl, "%s-%d", app, i);
		t[2].ulValueLen = by_lbl[0].ulValueLen = strlen(lbl);
		CALL(w, pkt_f->C_CreateObject(h, t, 5, &mine[i]), rv);
		if (rv != CKR_OK) {
			w->errors++;
			continue;
		}
		alive[i] = 1;
		nalive++;
		/* find it by label: exactly this one */
		n = find_all(w, h, by_lbl, 1, found, 4);
		if (n != 1 || found[0] != mine[i])
			w->wrong++;
		CALL(w, pkt_f->C_GetAttributeValue(h, mine[i], q, 1), rv);
		if (rv != CKR_OK || got_id != id)
			w->wrong++;
		/* destroy every other one */
		if (i % 2 == 1) {
			j = i - 1;
			CALL(w, pkt_f->C_DestroyObject(h, mine[j]), rv);
			if (rv != CKR_OK) {
				w->errors++;
			} else {
				alive[j] = 0;
				nalive--;
			}
		}
		/* the thread's whole set, by application */
		n = find_all(w, h, by_app, 1, found, NITER * 2 + 4);
		if (n != (CK_ULONG)nalive)
			w->wrong++;
	}
	/* clean up, then nothing of ours is left */
	for (i = 0; i < NITER; i++) {
		if (!alive[i])
			continue;
		CALL(w, pkt_f->C_DestroyObject(h, mine[i]), rv);
		if (rv != CKR_OK)
			w->errors++;
	}
	{
		CK_ATTRIBUTE by_app[] = { { CKA_APPLICATION, app, strlen(app) } };
		if (find_all(w, h, by_app, 1, found, 4) != 0)
			w->wrong++;
	}
	pkt_f->C_CloseSession(h);
	return NULL;
}

/* One process: 8 threads; exit status 0 only if nothing went wrong. */
static void process(int proc, int fd)
{
	pthread_t th[NTHREAD];
	worker w[NTHREAD];
	int i, wrong = 0, errors = 0, contention = 0;
	char line[128];
	CK_C_INITIALIZE_ARGS a;

	memset(&a, 0, sizeof a);
	a.flags = CKF_OS_LOCKING_OK;
	if (pkt_f->C_Initialize(&a) != CKR_OK)
		_exit(10);
	for (i = 0; i < NTHREAD; i++) {
		memset(&w[i], 0, sizeof w[i]);
		w[i].proc = proc;
		w[i].thr = i;
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (i = 0; i < NTHREAD; i++) {
		pthread_join(th[i], NULL);
		wrong += w[i].wrong;
		errors += w[i].errors;
		contention += w[i].contention;
	}
	pkt_f->C_Finalize(NULL);
	snprintf(line, sizeof line, "%d %d %d\n", wrong, errors, contention);
	if (write(fd, line, strlen(line)) < 0)
		_exit(11);
	_exit(wrong || errors ? 1 : 0);
}

static void t_two_procs_eight_threads(void)
{
	pid_t pid[NPROC];
	int fds[2], p, st;
	char buf[256];
	ssize_t n;
	int wrong = 0, errors = 0, contention = 0, a, b, c;
	char *s;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE o[4];
	CK_ULONG cnt = 9;

	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	slot = pkt_new_token("concurrent", 0);
	CU_ASSERT_FATAL(pkt_f->C_Finalize(NULL) == CKR_OK);
	CU_ASSERT_FATAL(pipe(fds) == 0);
	for (p = 0; p < NPROC; p++) {
		pid[p] = fork();
		CU_ASSERT_FATAL(pid[p] >= 0);
		if (pid[p] == 0) {
			close(fds[0]);
			process(p, fds[1]);
		}
	}
	close(fds[1]);
	for (p = 0; p < NPROC; p++) {
		CU_ASSERT(waitpid(pid[p], &st, 0) == pid[p]);
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	{
		size_t tot = 0;
		while (tot < sizeof buf - 1 &&
		       (n = read(fds[0], buf + tot, sizeof buf - 1 - tot)) > 0)
			tot += (size_t)n;
		buf[tot] = '\0';
		CU_ASSERT_FATAL(tot > 0);
	}
	close(fds[0]);
	for (s = buf, p = 0; p < NPROC && sscanf(s, "%d %d %d", &a, &b, &c) == 3;
	     p++) {
		wrong += a;
		errors += b;
		contention += c;
		s = strchr(s, '\n');
		if (s == NULL)
			break;
		s++;
	}
	CU_ASSERT(p == NPROC);
	CU_ASSERT(wrong == 0);
	CU_ASSERT(errors == 0);
	printf("\n  %d processes x %d threads x %d objects: %d wrong results,"
	       " %d errors, %d contention retries\n",
	       NPROC, NTHREAD, NITER, wrong, errors, contention);
	/* nothing left behind */
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	h = pkt_open(slot, 0);
	CU_ASSERT(pkt_f->C_FindObjectsInit(h, NULL, 0) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjects(h, o, 4, &cnt) == CKR_OK);
	CU_ASSERT(cnt == 0);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
}

int main(void)
{
	CU_pSuite s;

	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("tk_concurrency", NULL, NULL);
	CU_add_test(s, "2 processes x 8 threads create/find/destroy",
	            t_two_procs_eight_threads);
	return ts_run();
}
