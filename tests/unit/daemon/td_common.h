/*
 * td_common.h - helpers of the daemon suite: a private pvaultd (CPU
 * backend, random master key te_master) in a temporary directory, and
 * daemon-mode vaults connected to it.
 */
#ifndef TD_COMMON_H
#define TD_COMMON_H

#include <sys/types.h>
#include "../engine/te_common.h"

typedef struct td_daemon {
	char dir[64];
	char conf[320];
	char sock[108];
	char key[320];
	pid_t pid;
	const char *extra[8];          /* extra pvaultd arguments, NULL-ended */
	const char *log;               /* pvaultd's stderr into this file; NULL:
	                                * inherited */
} td_daemon;

/* mkdtemp, master key (te_master, random on first use), conf file. */
int td_setup(td_daemon *d);
/* Start pvaultd ($PVAULTD) and wait until it answers a status request. */
int td_start(td_daemon *d);
/* Signal it and reap it; returns its exit status (or -1). */
int td_stop(td_daemon *d, int sig);
/* Remove the directory. */
void td_cleanup(td_daemon *d);
/* A daemon-mode pv_conf for d. */
void td_conf(const td_daemon *d, pv_conf *c);
/* pv_vault_open in daemon mode. */
int td_open(const td_daemon *d, pv_vault **v);
/* Open fds and RSS (kB) of a process. */
int td_fd_count(pid_t pid);
long td_rss_kb(pid_t pid);
/* A "Name:   value" field of /proc/PID/status (VmHWM, Threads, ...), -1 if
 * absent. */
long td_status_field(pid_t pid, const char *name);

#endif
