/*
 * test_daemon_peer.c - the daemon-mode client talks only to a daemon it
 * trusts (docs/daemon.md, "Client side").  The fake daemon needs root
 * (setuid in a forked child); without root only the configuration test
 * runs.
 *
 * A fake daemon, running as uid 4203, listens on the configured socket
 * path and counts every byte it receives.  With the default configuration
 * (root or the client's own uid) pv_vault_open and pv_vault_status both
 * answer PV_ERR_PERM, the client says why on stderr, and the fake received
 * zero bytes on the two connections it accepted.  Control: with
 * daemon_uid = 4203 in the configuration the client does talk to it (the
 * fake receives the HELLO), so the zero above is the check's doing.
 * Also (no root needed): the configuration keys daemon_uid and daemon_*.
 */
#include "td_common.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define FAKE_UID 4203u

static char dir[64], sock[100], errpath[128];

typedef struct fake_res {
	int conns;
	long bytes;
} fake_res;

/* Listen on sock as FAKE_UID; accept up to nconn connections within 5 s,
 * read what each sends (1 s of silence ends one), report. */
static void fake_daemon(int ready, int out, int nconn)
{
	struct sockaddr_un sa;
	fake_res r;
	int l, i;

	memset(&r, 0, sizeof r);
	if (setgroups(0, NULL) != 0 || setgid((gid_t)FAKE_UID) != 0 || setuid(FAKE_UID) != 0)
		_exit(90);
	l = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, sock, strlen(sock));
	unlink(sock);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(l, 8) != 0 ||
	    chmod(sock, 0666) != 0)
		_exit(91);
	if (write(ready, "r", 1) != 1)
		_exit(92);
	for (i = 0; i < nconn; i++) {
		struct pollfd p = { l, POLLIN, 0 };
		struct timeval tv = { 1, 0 };
		char buf[8192];
		ssize_t n;
		int c;
		if (poll(&p, 1, 5000) != 1)
			break;
		c = accept(l, NULL, NULL);
		if (c < 0)
			break;
		r.conns++;
		(void)setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		while ((n = recv(c, buf, sizeof buf, 0)) > 0)
			r.bytes += n;
		close(c);
	}
	unlink(sock);
	if (write(out, &r, sizeof r) != (ssize_t)sizeof r)
		_exit(93);
	_exit(0);
}

static pid_t start_fake(int nconn, int *out)
{
	int rp[2], op[2];
	char c;
	pid_t p;
	if (pipe(rp) != 0 || pipe(op) != 0)
		return -1;
	p = fork();
	if (p == 0) {
		close(rp[0]);
		close(op[0]);
		fake_daemon(rp[1], op[1], nconn);
	}
	close(rp[1]);
	close(op[1]);
	if (p < 0 || read(rp[0], &c, 1) != 1) {
		close(rp[0]);
		close(op[0]);
		return -1;
	}
	close(rp[0]);
	*out = op[0];
	return p;
}

static int suite_init(void)
{
	char run[96];
	snprintf(dir, sizeof dir, "/tmp/pvd-test-XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	/* a socket directory the fake's uid can write: the attack's premise */
	snprintf(run, sizeof run, "%s/run", dir);
	if (chmod(dir, 0711) != 0 || mkdir(run, 0700) != 0 || chown(run, FAKE_UID, FAKE_UID) != 0)
		return 1;
	snprintf(sock, sizeof sock, "%s/run/pvaultd.sock", dir);
	snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
	return 0;
}

static int suite_clean(void)
{
	char cmd[128];
	if (strncmp(dir, "/tmp/pvd-test-", 14) == 0) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "rm failed\n");
	}
	return 0;
}

static void conf_for(pv_conf *c, int64_t daemon_uid)
{
	pv_conf_defaults(c);
	snprintf(c->backend, sizeof c->backend, "cpu");
	snprintf(c->mode, sizeof c->mode, "daemon");
	snprintf(c->socket, sizeof c->socket, "%s", sock);
	c->daemon_uid = daemon_uid;
}

static void t_fake_refused(void)
{
	pv_conf c;
	pv_vault *v = NULL;
	pv_daemon_status st;
	fake_res r;
	char said[1024];
	int out = -1, saved, ef, rc1, rc2, status;
	ssize_t n;
	pid_t p;

	conf_for(&c, -1);
	p = start_fake(2, &out);
	CU_ASSERT_FATAL(p > 0);
	/* the client's message goes to stderr: catch it */
	fflush(stderr);
	saved = dup(2);
	ef = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(saved >= 0 && ef >= 0);
	dup2(ef, 2);
	rc1 = pv_vault_open(&c, &v);
	rc2 = pv_vault_status(&c, &st);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(ef);
	CU_ASSERT_EQUAL(rc1, PV_ERR_PERM);
	CU_ASSERT_PTR_NULL(v);
	CU_ASSERT_EQUAL(rc2, PV_ERR_PERM);
	memset(&r, 0, sizeof r);
	CU_ASSERT_EQUAL(read(out, &r, sizeof r), (ssize_t)sizeof r);
	waitpid(p, &status, 0);
	close(out);
	printf("\n  fake daemon (uid %u): %d connections, %ld bytes received\n", FAKE_UID, r.conns,
	       r.bytes);
	CU_ASSERT_EQUAL(r.conns, 2);
	CU_ASSERT_EQUAL(r.bytes, 0);
	/* a message that names the uid and the way out */
	ef = open(errpath, O_RDONLY);
	n = ef >= 0 ? read(ef, said, sizeof said - 1) : -1;
	if (ef >= 0)
		close(ef);
	said[n > 0 ? n : 0] = '\0';
	printf("  client said: %s", said);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "served by uid 4203"));
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "daemon_uid"));
}

static void t_fake_configured(void)
{
	pv_conf c;
	pv_vault *v = NULL;
	fake_res r;
	int out = -1, rc, status;
	pid_t p;

	conf_for(&c, FAKE_UID);
	p = start_fake(1, &out);
	CU_ASSERT_FATAL(p > 0);
	rc = pv_vault_open(&c, &v);     /* the fake never answers: REMOVED */
	CU_ASSERT_NOT_EQUAL(rc, PV_OK);
	CU_ASSERT_NOT_EQUAL(rc, PV_ERR_PERM);
	memset(&r, 0, sizeof r);
	CU_ASSERT_EQUAL(read(out, &r, sizeof r), (ssize_t)sizeof r);
	waitpid(p, &status, 0);
	close(out);
	printf("\n  daemon_uid = %u: open -> %d; the fake received %ld bytes\n", FAKE_UID, rc,
	       r.bytes);
	CU_ASSERT_EQUAL(r.conns, 1);
	CU_ASSERT(r.bytes > 0);
}

/* pixelvault.conf: daemon_uid and the daemon's limits, parsed and checked */
static int conf_line(pv_conf *c, const char *line)
{
	char path[] = "/tmp/pvd-conf-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL)
		return -100;
	fprintf(f, "%s\n", line);
	fclose(f);
	rc = pv_conf_load_file(c, path);
	unlink(path);
	return rc;
}

static void t_conf(void)
{
	pv_conf c;
	pv_conf_defaults(&c);
	CU_ASSERT_EQUAL(c.daemon_uid, -1);
	CU_ASSERT_EQUAL(c.daemon.max_conn, 256);
	CU_ASSERT_EQUAL(c.daemon.max_conn_uid, 64);
	CU_ASSERT_EQUAL(c.daemon.workers_per_client, 4);
	CU_ASSERT_EQUAL(c.daemon.hello_timeout_s, 5);
	CU_ASSERT_EQUAL(c.daemon.log_interval_s, 10);
	CU_ASSERT_EQUAL(c.daemon.client_mib, 64);
	CU_ASSERT_EQUAL(c.daemon.uid_mib, 256);
	CU_ASSERT_EQUAL(c.daemon.total_mib, 1024);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_uid = 4203"), PV_OK);
	CU_ASSERT_EQUAL(c.daemon_uid, 4203);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_uid = 3000000000"), PV_OK);
	CU_ASSERT_EQUAL(c.daemon_uid, 3000000000LL);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_uid = root"), PV_OK);
	CU_ASSERT_EQUAL(c.daemon_uid, 0);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_uid = no-such-user-pv"), PV_ERR_CONFIG);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_uid = 4294967295"), PV_ERR_CONFIG);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_max_connections = 10"), PV_OK);
	CU_ASSERT_EQUAL(c.daemon.max_conn, 10);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_memory_per_uid = 12"), PV_OK);
	CU_ASSERT_EQUAL(c.daemon.uid_mib, 12);
	CU_ASSERT_EQUAL(c.daemon.total_mib, 1024);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_max_connections = 0"), PV_ERR_CONFIG);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_workers_per_client = 65"), PV_ERR_CONFIG);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_hello_timeout = 5s"), PV_ERR_CONFIG);
	CU_ASSERT_EQUAL(conf_line(&c, "daemon_memory = -1"), PV_ERR_CONFIG);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_conf", NULL, NULL);
	CU_add_test(s, "pixelvault.conf: daemon_uid and the daemon's limits", t_conf);
	if (geteuid() == 0) {
		s = CU_add_suite("daemon_peer", suite_init, suite_clean);
		CU_add_test(s, "fake daemon of another uid: PERM, a message, zero bytes sent",
		            t_fake_refused);
		CU_add_test(s, "control: daemon_uid names it, the client talks", t_fake_configured);
	} else {
		printf("test_daemon_peer: not root, the fake daemon (another uid) is left out\n");
	}
	return ts_run();
}
