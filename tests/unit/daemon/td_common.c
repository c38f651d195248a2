/* td_common.c - see td_common.h. */
#include "td_common.h"
#include "gpu/host/pv_master.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int have_master;

int td_setup(td_daemon *d)
{
	FILE *f;

	memset(d, 0, sizeof d->dir);
	snprintf(d->dir, sizeof d->dir, "/tmp/pvd-test-XXXXXX");
	if (mkdtemp(d->dir) == NULL)
		return -1;
	if (!have_master) {
		ts_rand(te_master, sizeof te_master);
		have_master = 1;
	}
	snprintf(d->key, sizeof d->key, "%s/master.key", d->dir);
	snprintf(d->sock, sizeof d->sock, "%s/run/pvaultd.sock", d->dir);
	snprintf(d->conf, sizeof d->conf, "%s/pixelvault.conf", d->dir);
	if (pv_master_write(d->key, te_master, NULL) != PV_OK)
		return -1;
	f = fopen(d->conf, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "token_dir = %s/tokens\nmaster_key = %s\nbackend = cpu\nmode = daemon\n"
	           "socket = %s\nworkers = 2\n", d->dir, d->key, d->sock);
	fclose(f);
	d->pid = -1;
	return 0;
}

void td_conf(const td_daemon *d, pv_conf *c)
{
	pv_conf_load_file(c, d->conf);
}

int td_open(const td_daemon *d, pv_vault **v)
{
	pv_conf c;
	td_conf(d, &c);
	return pv_vault_open(&c, v);
}

int td_start(td_daemon *d)
{
	const char *exe = getenv("PVAULTD");
	pv_conf c;
	pv_daemon_status st;
	int i;

	if (exe == NULL) {
		fprintf(stderr, "td_start: PVAULTD is not set\n");
		return -1;
	}
	d->pid = fork();
	if (d->pid < 0)
		return -1;
	if (d->pid == 0) {
		const char *argv[16];
		int n = 0, k;
		argv[n++] = exe;
		argv[n++] = "-c";
		argv[n++] = d->conf;
		for (k = 0; k < 8 && d->extra[k] != NULL; k++)
			argv[n++] = d->extra[k];
		argv[n] = NULL;
		if (d->log != NULL) {
			int lf = open(d->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (lf < 0 || dup2(lf, 2) < 0)
				_exit(126);
		}
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	td_conf(d, &c);
	for (i = 0; i < 500; i++) {
		int status;
		if (pv_vault_status(&c, &st) == PV_OK)
			return 0;
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			d->pid = -1;
			return -1;
		}
		usleep(10000);
	}
	return -1;
}

int td_stop(td_daemon *d, int sig)
{
	int status, i;
	if (d->pid <= 0)
		return -1;
	kill(d->pid, sig);
	for (i = 0; i < 1000; i++) {
		pid_t p = waitpid(d->pid, &status, WNOHANG);
		if (p == d->pid) {
			d->pid = -1;
			if (WIFEXITED(status))
				return WEXITSTATUS(status);
			return 128 + WTERMSIG(status);
		}
		usleep(10000);
	}
	kill(d->pid, SIGKILL);
	waitpid(d->pid, &status, 0);
	d->pid = -1;
	return -1;
}

void td_cleanup(td_daemon *d)
{
	char cmd[400];
	if (d->pid > 0)
		td_stop(d, SIGKILL);
	if (strncmp(d->dir, "/tmp/pvd-test-", 14) == 0) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "td_cleanup: rm failed\n");
	}
}

int td_fd_count(pid_t pid)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%d/fd", (int)pid);
	return ts_dir_entries(p);
}

long td_status_field(pid_t pid, const char *name)
{
	char p[64], line[256];
	size_t n = strlen(name);
	FILE *f;
	long v = -1;
	snprintf(p, sizeof p, "/proc/%d/status", (int)pid);
	f = fopen(p, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, name, n) == 0 && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

long td_rss_kb(pid_t pid)
{
	return td_status_field(pid, "VmRSS");
}
