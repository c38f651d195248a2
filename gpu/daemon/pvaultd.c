/*
 * pvaultd - the PixelVault daemon: one vault (backend + master key) shared
 * by many processes.  See docs/daemon.md.
 *
 *   pvaultd [-c CONF] [-s SOCKET] [-u UID]... [-g GID]... [-w N] [-v]
 *
 * Reads pixelvault.conf (-c, else the usual lookup), opens the backend in
 * this process with the master key from the config, listens on the socket
 * (-s overrides `socket`; or the socket passed by systemd socket
 * activation, LISTEN_FDS=1), and serves each accepted peer whose
 * SO_PEERCRED passes the policy: uid 0, the daemon's own uid, any -u UID,
 * or a peer whose primary gid is one of -g GID.  SIGTERM/SIGINT: stop
 * accepting, let every client's in-flight requests finish, drop the
 * clients, close (wipe) the vault, remove the socket, exit 0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu/daemon/pvd.h"
#include "gpu/host/pv_log.h"

#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

typedef struct conn_arg {
	pvd *d;
	int fd;
	int refused;
} conn_arg;

static void *conn_thread(void *p)
{
	conn_arg *a = (conn_arg *)p;
	pvd *d = a->d;
	if (a->refused) {
		/* answer ERROR{PERM}; consume what the peer sent first so that
		 * closing does not reset the connection before it reads that */
		struct timeval tv = { 0, 200000 };
		char buf[64];
		pvd_send_error(a->fd, PV_ERR_PERM);
		(void)setsockopt(a->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		(void)recv(a->fd, buf, sizeof buf, MSG_TRUNC);
		shutdown(a->fd, SHUT_WR);
	} else {
		pvd_serve(d, a->fd);
	}
	close(a->fd);
	free(a);
	pthread_mutex_lock(&d->mu);
	d->nconn--;
	pthread_cond_broadcast(&d->cv);
	pthread_mutex_unlock(&d->mu);
	return NULL;
}

static int allowed(const pvd *d, const struct ucred *cr)
{
	int i;
	if (cr->uid == 0 || cr->uid == d->owner_uid)
		return 1;
	for (i = 0; i < d->nallow_uid; i++)
		if (cr->uid == d->allow_uid[i])
			return 1;
	for (i = 0; i < d->nallow_gid; i++)
		if (cr->gid == d->allow_gid[i])
			return 1;
	return 0;
}

static int mkdir_parent(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *sl;
	struct stat st;

	snprintf(dir, sizeof dir, "%s", path);
	sl = strrchr(dir, '/');
	if (sl == NULL || sl == dir)
		return 0;
	*sl = '\0';
	if (stat(dir, &st) != 0) {
		if (mkdir(dir, 0700) != 0) {
			pv_log(PV_LOG_ERR, "pvaultd: cannot create %s: %s", dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		pv_log(PV_LOG_ERR, "pvaultd: %s is not a directory", dir);
		return -1;
	}
	if ((st.st_mode & 0002) && !(st.st_mode & S_ISVTX))
		pv_log(PV_LOG_WARN, "pvaultd: socket directory %s is world-writable", dir);
	return 0;
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof sa.sun_path || mkdir_parent(path) != 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path));
	if (lstat(path, &st) == 0) {
		int t;
		if (!S_ISSOCK(st.st_mode)) {
			pv_log(PV_LOG_ERR, "pvaultd: %s exists and is not a socket", path);
			return -1;
		}
		t = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (t >= 0 && connect(t, (struct sockaddr *)&sa, sizeof sa) == 0) {
			close(t);
			pv_log(PV_LOG_ERR, "pvaultd: another pvaultd serves %s", path);
			return -1;
		}
		if (t >= 0)
			close(t);
		unlink(path);             /* stale socket of a dead daemon */
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* bind to a temporary name, listen, then rename into place: a client
	 * never finds the path bound but not yet listening */
	{
		struct sockaddr_un tmp = sa;
		int n = snprintf(tmp.sun_path, sizeof tmp.sun_path, "%s.new", path);
		int direct = n < 0 || (size_t)n >= sizeof tmp.sun_path;
		if (direct)
			tmp = sa;
		else
			unlink(tmp.sun_path);
		if (bind(fd, (struct sockaddr *)&tmp, sizeof tmp) != 0 || listen(fd, 64) != 0 ||
		    chmod(tmp.sun_path, 0666) != 0 ||     /* access: directory + SO_PEERCRED */
		    (!direct && rename(tmp.sun_path, path) != 0)) {
			pv_log(PV_LOG_ERR, "pvaultd: cannot listen on %s: %s", path, strerror(errno));
			if (!direct)
				unlink(tmp.sun_path);
			close(fd);
			return -1;
		}
	}
	return fd;
}

static void usage(void)
{
	fprintf(stderr, "usage: pvaultd [-c CONF] [-s SOCKET] [-u UID|USER]... [-g GID|GROUP]... "
	                "[-w WORKERS_PER_CLIENT] [-v]\n");
}

int main(int argc, char **argv)
{
	static pvd d;
	pv_conf conf, bconf;
	const char *cfile = NULL, *sock = NULL;
	sigset_t ss;
	struct pollfd pf[2];
	struct timespec ts;
	int opt, lfd = -1, sfd, rc, activated = 0, verbose = 0;

	memset(&d, 0, sizeof d);
	d.workers_per_client = 4;
	d.owner_uid = geteuid();
	while ((opt = getopt(argc, argv, "c:s:u:g:w:vh")) != -1) {
		switch (opt) {
		case 'c': cfile = optarg; break;
		case 's': sock = optarg; break;
		case 'u': {
			struct passwd *pw = getpwnam(optarg);
			if (d.nallow_uid >= PVD_MAX_ALLOW) { usage(); return 2; }
			d.allow_uid[d.nallow_uid++] = pw ? pw->pw_uid : (uid_t)strtoul(optarg, NULL, 10);
			break;
		}
		case 'g': {
			struct group *gr = getgrnam(optarg);
			if (d.nallow_gid >= PVD_MAX_ALLOW) { usage(); return 2; }
			d.allow_gid[d.nallow_gid++] = gr ? gr->gr_gid : (gid_t)strtoul(optarg, NULL, 10);
			break;
		}
		case 'w':
			d.workers_per_client = (uint32_t)strtoul(optarg, NULL, 10);
			if (d.workers_per_client < 1 || d.workers_per_client > 64) { usage(); return 2; }
			break;
		case 'v': verbose = 1; break;
		default: usage(); return opt == 'h' ? 0 : 2;
		}
	}
	pv_log_setup(verbose ? PV_LOG_INFO : PV_LOG_WARN, 0);
	rc = cfile ? pv_conf_load_file(&conf, cfile) : pv_conf_load(&conf);
	if (rc != PV_OK) {
		fprintf(stderr, "pvaultd: cannot load the configuration (%d)\n", rc);
		return 1;
	}
	if (sock != NULL)
		snprintf(conf.socket, sizeof conf.socket, "%s", sock);

	/* signals: handled synchronously through a signalfd */
	sigemptyset(&ss);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGINT);
	pthread_sigmask(SIG_BLOCK, &ss, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &ss, SFD_CLOEXEC);

	bconf = conf;
	snprintf(bconf.mode, sizeof bconf.mode, "embedded");
	/* clients' requests are executed by the backend's workers, never by
	 * the daemon threads that move them (one slow request must not hold
	 * up a client's ring) */
	snprintf(bconf.cpu_exec, sizeof bconf.cpu_exec, "workers");
	rc = pv_vault_open(&bconf, &d.backend);
	if (rc != PV_OK) {
		fprintf(stderr, "pvaultd: cannot open the backend (%d)\n", rc);
		return 1;
	}
	pv_vault_get_info(d.backend, &d.binfo);
	pthread_mutex_init(&d.mu, NULL);
	pthread_cond_init(&d.cv, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	d.t0 = (uint64_t)ts.tv_sec;

	{
		const char *lp = getenv("LISTEN_PID"), *lf = getenv("LISTEN_FDS");
		if (lp && lf && (pid_t)strtol(lp, NULL, 10) == getpid() && atoi(lf) == 1) {
			lfd = 3;
			activated = 1;
		}
	}
	if (lfd < 0)
		lfd = listen_on(conf.socket);
	if (lfd < 0) {
		pv_vault_close(d.backend);
		return 1;
	}
	pv_log(PV_LOG_INFO, "pvaultd: serving %s (backend %s, %s)", conf.socket,
	       d.binfo.backend, d.binfo.sealed ? "sealed" : "unsealed");
	fprintf(stderr, "pvaultd: ready on %s (backend %s, %s)\n", activated ? "activated socket" : conf.socket,
	        d.binfo.backend, d.binfo.sealed ? "sealed" : "unsealed");

	pf[0].fd = lfd;
	pf[0].events = POLLIN;
	pf[1].fd = sfd;
	pf[1].events = POLLIN;
	while (!atomic_load(&d.stop)) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents & POLLIN) {
			atomic_store(&d.stop, 1);
			break;
		}
		if (pf[0].revents & POLLIN) {
			struct ucred cr;
			socklen_t cl = sizeof cr;
			conn_arg *a;
			pthread_t th;
			pthread_attr_t at;
			int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			if (cfd < 0)
				continue;
			a = (conn_arg *)malloc(sizeof *a);
			if (a == NULL) {
				close(cfd);
				continue;
			}
			a->d = &d;
			a->fd = cfd;
			a->refused = 0;
			if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || !allowed(&d, &cr)) {
				pthread_mutex_lock(&d.mu);
				d.refused++;
				pthread_mutex_unlock(&d.mu);
				pv_log(PV_LOG_WARN, "pvaultd: refused uid %u gid %u pid %d",
				       (unsigned)cr.uid, (unsigned)cr.gid, (int)cr.pid);
				a->refused = 1;
			}
			pthread_mutex_lock(&d.mu);
			d.nconn++;
			pthread_mutex_unlock(&d.mu);
			pthread_attr_init(&at);
			pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
			if (pthread_create(&th, &at, conn_thread, a) != 0) {
				pthread_mutex_lock(&d.mu);
				d.nconn--;
				pthread_mutex_unlock(&d.mu);
				close(cfd);
				free(a);
			}
			pthread_attr_destroy(&at);
		}
	}

	/* drain: no new clients; every client's workers finish the requests
	 * already published, then the connections drop */
	close(lfd);
	if (!activated)
		unlink(conf.socket);
	{
		int i;
		for (i = 0; i < 300; i++) {          /* 30 s at most */
			uint32_t n;
			pvd_drain_all(&d);
			pthread_mutex_lock(&d.mu);
			n = d.nconn;
			if (n > 0) {
				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_nsec += 100000000L;
				if (ts.tv_nsec >= 1000000000L) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000L;
				}
				pthread_cond_timedwait(&d.cv, &d.mu, &ts);
				n = d.nconn;
			}
			pthread_mutex_unlock(&d.mu);
			if (n == 0)
				break;
		}
		if (d.nconn > 0) {
			fprintf(stderr, "pvaultd: clients did not drain in 30 s; exiting\n");
			_exit(1);
		}
	}
	pv_vault_close(d.backend);      /* stops the workers, wipes the keys */
	fprintf(stderr, "pvaultd: stopped (%llu requests completed, %llu errors)\n",
	        (unsigned long long)d.completed, (unsigned long long)d.errors);
	return 0;
}
