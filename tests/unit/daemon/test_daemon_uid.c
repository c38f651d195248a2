/*
 * test_daemon_uid.c - a process running as another uid cannot use, list or
 * learn of the vault's tokens.  Needs root: creates a throwaway system user
 * (useradd), runs a child as that user against a root-owned pvaultd, then
 * deletes the user.  Without root: exit 77 (meson: SKIP) with one line.
 *
 *  1. socket directory 0700: connect refused by the file system (PERM)
 *  2. directory 0711: the socket is reachable, pvaultd's SO_PEERCRED policy
 *     refuses the uid (PERM), the status request too; refused counter
 *  3. the token directory and master key file are not readable/listable
 *  4. control: pvaultd started with -u USER serves the same child
 */
#include "td_common.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static td_daemon D;
static char user[32];
static uid_t uid;
static gid_t gid;
static pv_conf conf;

static int suite_init(void)
{
	char cmd[128];
	struct passwd *pw;
	snprintf(user, sizeof user, "pvtest%d", (int)getpid() % 100000);
	snprintf(cmd, sizeof cmd, "useradd -M -r -s /usr/sbin/nologin %s", user);
	if (system(cmd) != 0)
		return 1;
	pw = getpwnam(user);
	if (pw == NULL)
		return 1;
	uid = pw->pw_uid;
	gid = pw->pw_gid;
	if (td_setup(&D) != 0 || td_start(&D) != 0)
		return 1;
	td_conf(&D, &conf);
	/* a token directory of root's */
	{
		char p[400];
		FILE *f;
		snprintf(p, sizeof p, "%s/tokens", D.dir);
		mkdir(p, 0700);
		snprintf(p, sizeof p, "%s/tokens/0123456789abcdef", D.dir);
		mkdir(p, 0700);
		snprintf(p, sizeof p, "%s/tokens/0123456789abcdef/token.db", D.dir);
		f = fopen(p, "w");
		if (f)
			fclose(f);
		chmod(p, 0600);
	}
	return 0;
}

static int suite_clean(void)
{
	char cmd[128];
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	snprintf(cmd, sizeof cmd, "userdel %s 2>/dev/null", user);
	if (system(cmd) != 0)
		fprintf(stderr, "userdel %s failed\n", user);
	return 0;
}

/* Run fn as the throwaway user; returns its exit code. */
static int as_user(int (*fn)(void))
{
	int st = -1;
	pid_t p = fork();
	if (p == 0) {
		if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0)
			_exit(99);
		if (getuid() != uid || geteuid() != uid)
			_exit(98);
		_exit(fn());
	}
	waitpid(p, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 200;
}

/* exit 0 = refused as expected */
static int child_refused(void)
{
	pv_vault *v = NULL;
	pv_daemon_status st;
	int rc = pv_vault_open(&conf, &v);
	if (rc != PV_ERR_PERM || v != NULL) {
		fprintf(stderr, "  other uid: open -> %d\n", rc);
		return 1;
	}
	if ((rc = pv_vault_status(&conf, &st)) != PV_ERR_PERM) {
		fprintf(stderr, "  other uid: status -> %d\n", rc);
		return 2;
	}
	return 0;
}

static int child_files(void)
{
	DIR *d;
	FILE *f;
	d = opendir(conf.token_dir);
	if (d != NULL) {
		closedir(d);
		return 1;                 /* could list the tokens */
	}
	f = fopen(conf.master_key, "rb");
	if (f != NULL) {
		fclose(f);
		return 2;                 /* could read the master key */
	}
	return 0;
}

static int child_allowed(void)
{
	pv_vault *v = NULL;
	pv_req r;
	uint8_t out[32];
	if (pv_vault_open(&conf, &v) != PV_OK)
		return 1;
	pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
	r.in = (const uint8_t *)"abc"; r.in_len = 3; r.out = out; r.out_cap = 32;
	if (pv_vault_call(v, &r) != PV_OK || out[0] != 0xba)
		return 2;
	pv_vault_close(v);
	return 0;
}

static void t_other_uid(void)
{
	char run[400];
	pv_daemon_status st;
	uint64_t refused0;

	/* 1. directory 0700 (as created) */
	CU_ASSERT_EQUAL(as_user(child_refused), 0);
	/* 2. reachable socket: the daemon's policy refuses */
	CU_ASSERT_EQUAL_FATAL(pv_vault_status(&conf, &st), PV_OK);
	refused0 = st.refused;
	chmod(D.dir, 0711);
	snprintf(run, sizeof run, "%s/run", D.dir);
	chmod(run, 0711);
	CU_ASSERT_EQUAL(as_user(child_refused), 0);
	CU_ASSERT_EQUAL_FATAL(pv_vault_status(&conf, &st), PV_OK);
	CU_ASSERT(st.refused >= refused0 + 2);
	CU_ASSERT_EQUAL(st.clients, 0);
	/* 3. tokens and master key */
	CU_ASSERT_EQUAL(as_user(child_files), 0);
	/* 4. control: allowed by -u, the same child works */
	CU_ASSERT_EQUAL(td_stop(&D, SIGTERM), 0);
	D.extra[0] = "-u";
	D.extra[1] = user;
	D.extra[2] = NULL;
	CU_ASSERT_EQUAL_FATAL(td_start(&D), 0);
	CU_ASSERT_EQUAL(as_user(child_allowed), 0);
}

int main(void)
{
	CU_pSuite s;
	if (geteuid() != 0) {
		printf("SKIP: test_daemon_uid needs root to create a throwaway user (useradd)\n");
		return 77;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_uid", suite_init, suite_clean);
	CU_add_test(s, "other uid: refused by dir and by SO_PEERCRED policy; tokens unreadable; -u allows", t_other_uid);
	return ts_run();
}
