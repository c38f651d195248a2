/*
 * test_tk_durability.c - a writer process is SIGKILLed in the middle of a
 * burst of object writes (creates, and multi-attribute updates of earlier
 * objects), repeatedly.  After each kill a fresh process state checks that
 * every object the writer saw committed is there and intact, and that no
 * partial object or half-applied update is visible - through the PKCS#11
 * API and in the SQLite file itself.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "pkt.h"

#define ROUNDS      10
#define MAX_OBJS    4096
#define NATTR_DATA  11    /* attributes every stored data object has */

static CK_SLOT_ID slot;
static CK_OBJECT_CLASS c_data = CKO_DATA;
static CK_BBOOL T = CK_TRUE;

/* Deterministic content of object i, version v (1 or 2). */
static size_t content(unsigned i, unsigned v, CK_BYTE *buf)
{
	size_t n = 64 + (i * 37u + v * 101u) % 2000u, k;

	for (k = 0; k < n; k++)
		buf[k] = (CK_BYTE)(i * 131u + v * 17u + k * 7u);
	return n;
}

static void label_of(unsigned i, unsigned v, char *out, size_t cap)
{
	snprintf(out, cap, "dur-%05u-v%u", i, v);
}

/* The writer: creates objects i = base, base+1, ...; every 4th step also
 * rewrites an earlier object's label and value (one C_SetAttributeValue).
 * After each CKR_OK it reports the step on the pipe. */
static void writer(int fd, unsigned base)
{
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE handles[MAX_OBJS];
	CK_BYTE val[4096];
	char lbl[32];
	unsigned i, step = 0;

	if (pkt_f->C_Initialize(NULL) != CKR_OK ||
	    pkt_f->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
	                         NULL, &h) != CKR_OK)
		_exit(2);
	for (i = base; i < base + MAX_OBJS / ROUNDS; i++, step++) {
		CK_ULONG id = i;
		size_t n = content(i, 1, val);
		CK_ATTRIBUTE t[] = {
			{ CKA_CLASS, &c_data, sizeof c_data },
			{ CKA_TOKEN, &T, 1 },
			{ CKA_LABEL, lbl, 0 },
			{ CKA_APPLICATION, "durability", 10 },
			{ CKA_OBJECT_ID, &id, sizeof id },
			{ CKA_VALUE, val, n },
		};
		unsigned msg[2];

		label_of(i, 1, lbl, sizeof lbl);
		t[2].ulValueLen = strlen(lbl);
		if (pkt_f->C_CreateObject(h, t, 6, &handles[i - base]) != CKR_OK)
			_exit(3);
		msg[0] = i;
		msg[1] = 1;
		if (write(fd, msg, sizeof msg) != sizeof msg)
			_exit(4);
		if (step % 4 == 3) {
			unsigned j = i - 2;
			CK_ATTRIBUTE u[] = {
				{ CKA_LABEL, lbl, 0 }, { CKA_VALUE, val, 0 },
			};
			label_of(j, 2, lbl, sizeof lbl);
			u[0].ulValueLen = strlen(lbl);
			u[1].ulValueLen = content(j, 2, val);
			if (pkt_f->C_SetAttributeValue(h, handles[j - base], u, 2) !=
			    CKR_OK)
				_exit(5);
			msg[0] = j;
			msg[1] = 2;
			if (write(fd, msg, sizeof msg) != sizeof msg)
				_exit(4);
		}
	}
	_exit(0);
}

/* committed[i]: 0 unknown, 1 created, 2 updated (as reported) */
static unsigned char committed[MAX_OBJS + 64];

static void check_store(unsigned upto)
{
	CK_SESSION_HANDLE h;
	CK_ATTRIBUTE app = { CKA_APPLICATION, "durability", 10 };
	CK_OBJECT_HANDLE found[MAX_OBJS];
	CK_ULONG n = 0, k;
	static unsigned char seen[MAX_OBJS + 64];
	unsigned i;
	char sql[512], path[400];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	memset(seen, 0, sizeof seen);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	h = pkt_open(slot, 0);
	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(h, &app, 1) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_FindObjects(h, found, MAX_OBJS, &n) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(h) == CKR_OK);
	for (k = 0; k < n; k++) {
		CK_ULONG id = ~0UL;
		char lbl[64], want_l[32];
		CK_BYTE val[4096], want_v[4096];
		CK_ATTRIBUTE q[] = {
			{ CKA_OBJECT_ID, &id, sizeof id },
			{ CKA_LABEL, lbl, sizeof lbl - 1 },
			{ CKA_VALUE, val, sizeof val },
		};
		unsigned v;
		size_t wn;

		CU_ASSERT_FATAL(pkt_f->C_GetAttributeValue(h, found[k], q, 3) ==
		                CKR_OK);
		CU_ASSERT_FATAL(id < upto);
		lbl[q[1].ulValueLen] = '\0';
		v = strstr(lbl, "-v2") ? 2 : 1;
		label_of((unsigned)id, v, want_l, sizeof want_l);
		wn = content((unsigned)id, v, want_v);
		/* label and value from the same version: no half update */
		CU_ASSERT(strcmp(lbl, want_l) == 0);
		CU_ASSERT(q[2].ulValueLen == wn && memcmp(val, want_v, wn) == 0);
		/* not older than what the writer saw committed */
		CU_ASSERT(v >= committed[id]);
		CU_ASSERT(seen[id] == 0);
		seen[id] = 1;
	}
	for (i = 0; i < upto; i++)
		if (committed[i])
			CU_ASSERT(seen[i]);        /* nothing committed is lost */
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);

	/* the file itself: every object complete, no orphan attributes */
	{
		CK_TOKEN_INFO ti;
		char serial[17];
		int j;
		CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
		CU_ASSERT_FATAL(pkt_f->C_GetTokenInfo(slot, &ti) == CKR_OK);
		CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
		memcpy(serial, ti.serialNumber, 16);
		serial[16] = '\0';
		for (j = 15; j >= 0 && serial[j] == ' '; j--)
			serial[j] = '\0';
		snprintf(path, sizeof path, "%s/tokens/%s/token.db", pkt_dir, serial);
	}
	CU_ASSERT_FATAL(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
	                SQLITE_OK);
	snprintf(sql, sizeof sql,
	         "SELECT (SELECT count(*) FROM attributes a WHERE a.oid NOT IN"
	         "   (SELECT oid FROM objects)),"
	         " (SELECT count(*) FROM objects o WHERE (SELECT count(*) FROM"
	         "   attributes a WHERE a.oid = o.oid) <> %d),"
	         " (SELECT count(*) FROM objects)", NATTR_DATA);
	CU_ASSERT_FATAL(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
	CU_ASSERT_FATAL(sqlite3_step(st) == SQLITE_ROW);
	CU_ASSERT(sqlite3_column_int(st, 0) == 0);
	CU_ASSERT(sqlite3_column_int(st, 1) == 0);
	CU_ASSERT(sqlite3_column_int(st, 2) == (int)n);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void t_kill_mid_burst(void)
{
	int r, total_reports = 0;

	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	slot = pkt_new_token("durable", 0);
	CU_ASSERT_FATAL(pkt_f->C_Finalize(NULL) == CKR_OK);
	srand((unsigned)time(NULL) ^ (unsigned)getpid());

	for (r = 0; r < ROUNDS; r++) {
		unsigned base = (unsigned)r * (MAX_OBJS / ROUNDS), msg[2];
		int fds[2], st = 0, reports = 0, want = 16 + rand() % 120;
		pid_t pid;

		CU_ASSERT_FATAL(pipe(fds) == 0);
		pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			writer(fds[1], base);
		}
		close(fds[1]);
		/* let it commit a random number of writes, then kill it while
		 * it is writing the next ones */
		while (reports < want && read(fds[0], msg, sizeof msg) ==
		       sizeof msg) {
			committed[msg[0]] = (unsigned char)msg[1];
			reports++;
		}
		usleep((useconds_t)(rand() % 3000));
		kill(pid, SIGKILL);
		while (read(fds[0], msg, sizeof msg) == sizeof msg) {
			committed[msg[0]] = (unsigned char)msg[1];
			reports++;
		}
		close(fds[0]);
		CU_ASSERT(waitpid(pid, &st, 0) == pid);
		CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		CU_ASSERT(reports >= want);
		total_reports += reports;
		check_store(base + MAX_OBJS / ROUNDS);
	}
	printf("\n  %d rounds, %d committed writes reported, all intact\n",
	       ROUNDS, total_reports);
}

int main(void)
{
	CU_pSuite s;

	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("tk_durability", NULL, NULL);
	CU_add_test(s, "SIGKILL mid-burst, repeatedly", t_kill_mid_burst);
	return ts_run();
}
