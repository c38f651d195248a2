/*
 * pvd_gate.c - pvaultd's main loop: accepts connections, checks each
 * peer's SO_PEERCRED against the policy and the limits (pvd_limits.c),
 * hands an admitted one to its own thread (pvd_serve) and answers a
 * refused one itself, without a thread, so that a peer reconnecting in a
 * loop costs the daemon a few system calls and no log line per attempt.
 *
 * Out of descriptors (EMFILE), a listening socket stays readable; accepting
 * nothing would spin.  A reserve descriptor, given up for the moment it
 * takes to accept and refuse one connection, keeps the queue moving; if
 * even that fails the loop stops polling the socket for a moment.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu/daemon/pvd.h"
#include "gpu/host/pv_log.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define LINGER_MAX  64       /* refused connections held at once           */
#define LINGER_MS   200      /* ... each for at most this long             */
#define BACKOFF_MS  100      /* accept failing for want of resources       */
#define FD_BASE     128      /* descriptors besides connections: backend,
                              * logs, listening and signal fds             */

typedef struct gate {
	pvd *d;
	int lfd, sfd, reserve;
	uint64_t backoff_end;
	int nlg;
	int lg_fd[LINGER_MAX];
	uint64_t lg_end[LINGER_MAX];
} gate;

typedef struct conn_arg {
	pvd *d;
	int fd;
	uid_t uid;
} conn_arg;

static void *conn_thread(void *p)
{
	conn_arg *a = (conn_arg *)p;
	pvd *d = a->d;
	pvd_serve(d, a->fd, a->uid);
	close(a->fd);
	pvd_conn_give(d, a->uid);
	free(a);
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

void pvd_fd_budget(pvd *d)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)d->max_conn * 2u + LINGER_MAX + FD_BASE;

	/* a connection holds its socket, and the ring's memfd until HELLO_OK */
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur < need) {
		struct rlimit up = rl;
		up.rlim_cur = need < rl.rlim_max ? need : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl = up;
	}
	if (rl.rlim_cur < need) {
		uint32_t m = rl.rlim_cur > LINGER_MAX + FD_BASE + 2u ?
		             (uint32_t)((rl.rlim_cur - LINGER_MAX - FD_BASE) / 2u) : 1u;
		pv_log(PV_LOG_WARN, "pvaultd: the descriptor limit (%llu) allows %u connections, "
		       "not %u: serving at most %u (raise LimitNOFILE= or ulimit -n for more)",
		       (unsigned long long)rl.rlim_cur, m, d->max_conn, m);
		d->max_conn = m;
	}
	if (d->max_conn_uid > d->max_conn)
		d->max_conn_uid = d->max_conn;
}

/* Read (and drop) what the peer sent: closing a socket with unread data
 * resets the connection, and the peer would lose our ERROR. */
static int drain(int fd)
{
	char buf[64];
	int i;
	for (i = 0; i < 8; i++) {
		ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT | MSG_TRUNC);
		if (n == 0)
			return 0;                    /* peer gone: close now */
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 1 : 0;
	}
	return 1;
}

static void linger_drop(gate *g, int i)
{
	close(g->lg_fd[i]);
	g->nlg--;
	g->lg_fd[i] = g->lg_fd[g->nlg];
	g->lg_end[i] = g->lg_end[g->nlg];
}

/* Answer ERROR{code} and close, holding the connection a moment if the
 * peer may still have a message on its way. */
static void refuse(gate *g, int fd, int code, int reason, const struct ucred *cr)
{
	int open_ = drain(fd);
	pvd_send_error(fd, code);
	shutdown(fd, SHUT_WR);
	pvd_note(g->d, reason, cr->uid, cr->gid, cr->pid);
	if (open_ && g->nlg < LINGER_MAX) {
		g->lg_fd[g->nlg] = fd;
		g->lg_end[g->nlg] = pvd_now_ms() + LINGER_MS;
		g->nlg++;
	} else {
		close(fd);
	}
}

static void admit(gate *g, int fd)
{
	pvd *d = g->d;
	struct ucred cr;
	socklen_t cl = sizeof cr;
	conn_arg *a;
	pthread_t th;
	pthread_attr_t at;
	int why;

	memset(&cr, 0, sizeof cr);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || cl != sizeof cr) {
		cr.uid = (uid_t)-1;
		cr.gid = (gid_t)-1;
		refuse(g, fd, PV_ERR_PERM, PVD_NO_POLICY, &cr);
		return;
	}
	if (!allowed(d, &cr)) {
		refuse(g, fd, PV_ERR_PERM, PVD_NO_POLICY, &cr);
		return;
	}
	if ((why = pvd_conn_take(d, cr.uid)) != PV_OK) {
		refuse(g, fd, PV_ERR_BUSY, why, &cr);
		return;
	}
	a = (conn_arg *)malloc(sizeof *a);
	if (a != NULL) {
		a->d = d;
		a->fd = fd;
		a->uid = cr.uid;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		why = pthread_create(&th, &at, conn_thread, a);
		pthread_attr_destroy(&at);
		if (why == 0)
			return;
		free(a);
	}
	pvd_conn_give(d, cr.uid);
	refuse(g, fd, PV_ERR_BUSY, PVD_NO_THREAD, &cr);
}

/* EMFILE / ENFILE: accept one connection on the reserve descriptor and
 * refuse it at once (no linger: there is no descriptor to spare). */
static void out_of_fds(gate *g)
{
	struct ucred cr;
	socklen_t cl = sizeof cr;
	int fd;

	if (g->reserve >= 0) {
		close(g->reserve);
		g->reserve = -1;
	}
	fd = accept4(g->lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd >= 0) {
		memset(&cr, 0, sizeof cr);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0)
			cr.uid = (uid_t)-1;
		(void)drain(fd);
		pvd_send_error(fd, PV_ERR_BUSY);
		pvd_note(g->d, PVD_NO_FDS, cr.uid, cr.gid, cr.pid);
		close(fd);
	}
	g->reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || g->reserve < 0)
		g->backoff_end = pvd_now_ms() + BACKOFF_MS;
}

static void on_listen(gate *g)
{
	int k;
	/* a bounded batch: the signal and the lingering peers get their turn */
	for (k = 0; k < 64; k++) {
		int fd = accept4(g->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0) {
			admit(g, fd);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
			continue;
		if (errno == EMFILE || errno == ENFILE)
			out_of_fds(g);
		else if (errno != EAGAIN && errno != EWOULDBLOCK)
			g->backoff_end = pvd_now_ms() + BACKOFF_MS;   /* ENOBUFS, ENOMEM */
		return;
	}
}

void pvd_gate_run(pvd *d, int lfd, int sfd)
{
	static gate g;
	struct pollfd pf[2 + LINGER_MAX];
	int i;

	memset(&g, 0, sizeof g);
	g.d = d;
	g.lfd = lfd;
	g.sfd = sfd;
	g.reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
	(void)fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK);
	while (!atomic_load(&d->stop)) {
		uint64_t now = pvd_now_ms();
		int timeout = 1000, n = 2;       /* 1 s: the log interval's clock */

		memset(pf, 0, sizeof pf);
		pf[0].fd = sfd;
		pf[0].events = POLLIN;
		pf[1].fd = now >= g.backoff_end ? lfd : -1;
		pf[1].events = POLLIN;
		if (now < g.backoff_end && (int)(g.backoff_end - now) < timeout)
			timeout = (int)(g.backoff_end - now);
		for (i = 0; i < g.nlg; i++, n++) {
			pf[n].fd = g.lg_fd[i];
			pf[n].events = POLLIN;
			if (g.lg_end[i] <= now)
				timeout = 0;
			else if ((int)(g.lg_end[i] - now) < timeout)
				timeout = (int)(g.lg_end[i] - now);
		}
		if (poll(pf, (nfds_t)n, timeout) < 0 && errno != EINTR)
			break;
		if (pf[0].revents & POLLIN) {
			atomic_store(&d->stop, 1);
			break;
		}
		/* lingering peers first (indices match pf[2..] until one closes) */
		now = pvd_now_ms();
		for (i = g.nlg - 1; i >= 0; i--) {
			short re = pf[2 + i].revents;
			if ((re & (POLLHUP | POLLERR | POLLNVAL)) || ((re & POLLIN) && !drain(g.lg_fd[i])) ||
			    g.lg_end[i] <= now)
				linger_drop(&g, i);
		}
		if (pf[1].fd >= 0 && (pf[1].revents & POLLIN))
			on_listen(&g);
		pvd_note_flush(d, now, 0);
	}
	for (i = g.nlg - 1; i >= 0; i--)
		linger_drop(&g, i);
	if (g.reserve >= 0)
		close(g.reserve);
	pvd_note_flush(d, pvd_now_ms(), 1);
}
