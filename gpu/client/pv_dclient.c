/*
 * pv_dclient.c - gpu/vault.h over pvaultd (mode = daemon).  The producer
 * side of the ring protocol (ve_ring.h steps 1-3, 8-9) on a ring that
 * pvaultd created and passed as a memfd; pvaultd is the worker.  The
 * producer is gpu/client/pv_producer.c, as for the embedded vault, plus:
 * the daemon may disappear, which every waiter notices on the socket
 * between futex sleeps (dc_lost).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu/client/pv_dclient.h"
#include "gpu/client/pv_producer.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_pid.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct dc_old {       /* a ring of a lost connection (kept mapped) */
	struct dc_old *next;
	uint8_t *ring;
	size_t bytes;
} dc_old;

struct pv_dclient {
	char path[108];
	int64_t daemon_uid;          /* conf daemon_uid: -1 = ours           */
	int fd;
	uint8_t *ring;               /* mapped memfd; pr.ring                 */
	size_t ring_bytes;
	pv_producer pr;
	_Atomic uint32_t dead;       /* 1: connection lost                  */
	_Atomic uint32_t gen;        /* connection generation               */
	_Atomic uint32_t relock;     /* 1 while a thread reconnects         */
	pid_t pid;
	pthread_mutex_t info_mu;     /* info: rewritten by a reconnect while
	                              * other threads read it (pv_dc_get_info) */
	pv_vault_info info;
	_Atomic uint32_t max_data;   /* info.max_data, read without info_mu */
	dc_old *old;
};

static int send_msg(int fd, const void *m, size_t n)
{
	ssize_t k;
	do
		k = send(fd, m, n, MSG_NOSIGNAL);
	while (k < 0 && errno == EINTR);
	return k == (ssize_t)n ? PV_OK : PV_ERR_REMOVED;
}

/* Whoever can bind the socket path receives what we send (a key at
 * import): before the first byte, the listener must be root or the uid
 * the configuration names (daemon_uid), else our own. */
static int dc_check_peer(int fd, const char *path, int64_t want)
{
	struct ucred cr;
	socklen_t cl = sizeof cr;
	uid_t uid = want >= 0 ? (uid_t)want : geteuid();

	char who[32] = "";

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || cl != sizeof cr) {
		pv_log(PV_LOG_ERR, "cannot learn who serves %s (%s); nothing was sent to it",
		       path, strerror(errno));
		return PV_ERR_PERM;
	}
	if (cr.uid == 0 || cr.uid == uid)
		return PV_OK;
	if (uid != 0)
		snprintf(who, sizeof who, " or uid %u", (unsigned)uid);
	pv_log(PV_LOG_ERR, "%s is served by uid %u (pid %d), not by root%s: refusing to use it; "
	       "nothing was sent.  If pvaultd runs as uid %u on purpose, set daemon_uid = %u in "
	       "pixelvault.conf; otherwise find out who created that socket",
	       path, (unsigned)cr.uid, (int)cr.pid, who, (unsigned)cr.uid, (unsigned)cr.uid);
	return PV_ERR_PERM;
}

int pv_dc_connect(const char *path, int64_t daemon_uid, uint32_t nslots, uint32_t slot_arena,
                  int *fdp, uint8_t **ringp, pvp_hello_ok *ok)
{
	struct sockaddr_un sa;
	pvp_hello h;
	union { pvp_hello_ok ok; pvp_error err; uint8_t b[PVP_MSG_MAX]; } rb;
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct msghdr mh;
	struct iovec iov;
	struct cmsghdr *cm;
	ssize_t n;
	uint32_t type;
	int fd, mfd = -1, rc;
	void *ring;

	*fdp = -1;
	*ringp = NULL;
	if (strlen(path) >= sizeof sa.sun_path)
		return PV_ERR_CONFIG;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return PV_ERR_IO;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path));
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		rc = (errno == EACCES || errno == EPERM) ? PV_ERR_PERM : PV_ERR_REMOVED;
		close(fd);
		return rc;
	}
	if ((rc = dc_check_peer(fd, path, daemon_uid)) != PV_OK) {
		close(fd);
		return rc;
	}
	memset(&h, 0, sizeof h);
	pvp_hdr_set(&h.h, PVP_HELLO, sizeof h);
	h.nslots = nslots;
	h.slot_arena = slot_arena;
	/* a refused peer may find the connection closed already: read the
	 * ERROR the daemon left anyway */
	(void)send_msg(fd, &h, sizeof h);
	memset(&mh, 0, sizeof mh);
	iov.iov_base = rb.b;
	iov.iov_len = sizeof rb.b;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf;
	mh.msg_controllen = sizeof cbuf;
	do
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&mfd, CMSG_DATA(cm), sizeof mfd);
	rc = PV_ERR_REMOVED;
	if (n <= 0 || pvp_check(rb.b, (size_t)n, sizeof rb.b, &type) != PV_OK)
		goto fail;
	if (type == PVP_ERROR) {
		rc = rb.err.code < 0 ? rb.err.code : PV_ERR_PROTOCOL;
		goto fail;
	}
	rc = PV_ERR_PROTOCOL;
	if (type != PVP_HELLO_OK || mfd < 0 || rb.ok.nslots < PVP_SLOTS_MIN ||
	    rb.ok.nslots > PVP_SLOTS_MAX || (rb.ok.nslots & (rb.ok.nslots - 1u)) ||
	    rb.ok.slot_arena < PVP_ARENA_MIN || rb.ok.slot_arena > PVP_ARENA_MAX ||
	    rb.ok.ring_bytes != ve_ring_bytes(rb.ok.nslots, rb.ok.slot_arena))
		goto fail;
	ring = mmap(NULL, (size_t)rb.ok.ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (ring == MAP_FAILED) {
		rc = PV_ERR_NOMEM;
		goto fail;
	}
	(void)madvise(ring, (size_t)rb.ok.ring_bytes, MADV_DONTFORK);
	/* a key being imported and the outputs pass through it */
	(void)madvise(ring, (size_t)rb.ok.ring_bytes, MADV_DONTDUMP);
	close(mfd);
	*ok = rb.ok;
	ok->backend[sizeof ok->backend - 1] = '\0';
	ok->device[sizeof ok->device - 1] = '\0';
	*fdp = fd;
	*ringp = (uint8_t *)ring;
	return PV_OK;
fail:
	if (mfd >= 0)
		close(mfd);
	close(fd);
	return rc;
}

static int dc_attach(pv_dclient *c)
{
	pvp_hello_ok ok;
	pv_vault_info info;
	uint8_t *ring;
	int fd, rc;

	rc = pv_dc_connect(c->path, c->daemon_uid, 0, 0, &fd, &ring, &ok);
	if (rc != PV_OK)
		return rc;
	if ((rc = pvp_attach(&c->pr, ring, ok.nslots, ok.slot_arena, 0, PV_FUTEX_SHARED)) != PV_OK) {
		munmap(ring, (size_t)ok.ring_bytes);
		close(fd);
		return rc;
	}
	c->fd = fd;
	c->ring = ring;
	c->ring_bytes = (size_t)ok.ring_bytes;
	memset(&info, 0, sizeof info);
	memcpy(info.backend, ok.backend, sizeof info.backend);
	snprintf(info.device, sizeof info.device, "pvaultd: %.54s", ok.device);
	info.sealed = ok.sealed;
	info.seal_reason = ok.seal_reason;
	info.hw = ok.hw;
	info.workers = ok.workers;
	info.nslots = ok.nslots;
	info.max_data = ok.slot_arena;
	pthread_mutex_lock(&c->info_mu);
	c->info = info;
	pthread_mutex_unlock(&c->info_mu);
	atomic_store(&c->max_data, info.max_data);
	atomic_fetch_add(&c->gen, 1u);
	atomic_store(&c->dead, 0u);
	return PV_OK;
}

int pv_dc_open(const pv_conf *conf, pv_dclient **out)
{
	pv_dclient *c;
	int rc;

	*out = NULL;
	if (conf->socket[0] == '\0' || strlen(conf->socket) >= sizeof c->path)
		return PV_ERR_CONFIG;
	c = (pv_dclient *)calloc(1, sizeof *c);
	if (c == NULL)
		return PV_ERR_NOMEM;
	memcpy(c->path, conf->socket, strlen(conf->socket) + 1);
	c->daemon_uid = conf->daemon_uid;
	c->fd = -1;
	c->pid = pv_pid();
	if (pthread_mutex_init(&c->info_mu, NULL) != 0) {
		free(c);
		return PV_ERR_NOMEM;
	}
	if ((rc = dc_attach(c)) != PV_OK) {
		pvp_release(&c->pr);
		pthread_mutex_destroy(&c->info_mu);
		free(c);
		return rc;
	}
	*out = c;
	return PV_OK;
}

void pv_dc_close(pv_dclient *c)
{
	dc_old *o;
	if (c == NULL)
		return;
	if (pv_pid() == c->pid) {
		if (c->ring != NULL)
			munmap(c->ring, c->ring_bytes);
		while ((o = c->old) != NULL) {
			c->old = o->next;
			munmap(o->ring, o->bytes);
			free(o);
		}
	}
	if (c->fd >= 0)
		close(c->fd);
	pvp_release(&c->pr);
	pthread_mutex_destroy(&c->info_mu);
	free(c);
}

int pv_dc_get_info(pv_dclient *c, pv_vault_info *info)
{
	pthread_mutex_lock(&c->info_mu);
	*info = c->info;
	pthread_mutex_unlock(&c->info_mu);
	return PV_OK;
}

uint32_t pv_dc_max_data(pv_dclient *c)
{
	return atomic_load(&c->max_data);
}

/* 1 if the daemon connection is gone (EOF, error or an unexpected
 * message: the daemon speaks only before and at a drop). */
static int dc_lost(pv_dclient *c)
{
	struct pollfd p;
	if (atomic_load(&c->dead))
		return 1;
	p.fd = c->fd;
	p.events = POLLIN;
	p.revents = 0;
	if (poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
		atomic_store(&c->dead, 1u);
		return 1;
	}
	return 0;
}

/* After a loss, with nothing in flight: drop the old connection (its ring
 * stays mapped until close: late waiters may still look at it) and
 * connect again. */
static int dc_reconnect(pv_dclient *c)
{
	uint32_t zero = 0;
	dc_old *o;
	int rc;

	if (atomic_load(&c->pr.inflight) != 0)
		return PV_ERR_REMOVED;
	if (!atomic_compare_exchange_strong(&c->relock, &zero, 1u))
		return PV_ERR_REMOVED;
	if (!atomic_load(&c->dead) || atomic_load(&c->pr.inflight) != 0) {
		atomic_store(&c->relock, 0u);
		return atomic_load(&c->dead) ? PV_ERR_REMOVED : PV_OK;
	}
	o = (dc_old *)malloc(sizeof *o);
	if (o == NULL) {
		atomic_store(&c->relock, 0u);
		return PV_ERR_NOMEM;
	}
	o->ring = c->ring;
	o->bytes = c->ring_bytes;
	o->next = c->old;
	c->old = o;
	c->ring = NULL;
	close(c->fd);
	c->fd = -1;
	rc = dc_attach(c);
	if (rc != PV_OK) {
		/* keep a valid fd that reads as lost */
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0) {
			close(sv[1]);
			c->fd = sv[0];
		}
		c->ring = o->ring;
		c->old = o->next;
		free(o);
		rc = PV_ERR_REMOVED;
	}
	atomic_store(&c->relock, 0u);
	return rc;
}

static int lost_cb(void *arg)
{
	return dc_lost((pv_dclient *)arg);
}

int pv_dc_submit(pv_dclient *c, pv_req *r, int block)
{
	int rc;

	if (pv_pid() != c->pid)
		return r->status = PV_ERR_REMOVED;
	/* the call that finds the daemon gone reports it; a later one (with
	 * nothing in flight) reconnects */
	if (atomic_load(&c->dead)) {
		if ((rc = dc_reconnect(c)) != PV_OK)
			return r->status = rc;
	} else if (dc_lost(c)) {
		return r->status = PV_ERR_REMOVED;
	}
	return pvp_submit(&c->pr, r, block, lost_cb, c);
}

int pv_dc_done(pv_dclient *c, const pv_req *r)
{
	return pvp_done(r) || dc_lost(c);
}

int pv_dc_wait(pv_dclient *c, pv_req *r)
{
	return pvp_wait(&c->pr, r, lost_cb, c);
}

int pv_vault_status(const pv_conf *conf, pv_daemon_status *st)
{
	struct sockaddr_un sa;
	pvp_hdr h;
	union { pvp_status_ok ok; pvp_error err; uint8_t b[PVP_MSG_MAX]; } rb;
	uint32_t type;
	ssize_t n;
	int fd, rc;

	if (conf == NULL || st == NULL || strlen(conf->socket) >= sizeof sa.sun_path)
		return PV_ERR_ARGS;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return PV_ERR_IO;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, conf->socket, strlen(conf->socket));
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		rc = (errno == EACCES || errno == EPERM) ? PV_ERR_PERM : PV_ERR_REMOVED;
		close(fd);
		return rc;
	}
	if ((rc = dc_check_peer(fd, conf->socket, conf->daemon_uid)) != PV_OK) {
		close(fd);
		return rc;
	}
	pvp_hdr_set(&h, PVP_STATUS, sizeof h);
	(void)send_msg(fd, &h, sizeof h);      /* see pv_dc_connect */
	{
		do
			n = recv(fd, rb.b, sizeof rb.b, MSG_TRUNC);
		while (n < 0 && errno == EINTR);
		rc = PV_ERR_REMOVED;
		if (n > 0 && pvp_check(rb.b, (size_t)n, sizeof rb.b, &type) == PV_OK) {
			if (type == PVP_STATUS_OK) {
				*st = rb.ok;
				st->backend[sizeof st->backend - 1] = '\0';
				st->device[sizeof st->device - 1] = '\0';
				if (st->nmech > PVP_STATUS_MECHS)
					st->nmech = PVP_STATUS_MECHS;
				rc = PV_OK;
			} else if (type == PVP_ERROR) {
				rc = rb.err.code < 0 ? rb.err.code : PV_ERR_PROTOCOL;
			} else {
				rc = PV_ERR_PROTOCOL;
			}
		}
	}
	close(fd);
	return rc;
}
