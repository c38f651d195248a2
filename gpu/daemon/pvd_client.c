/*
 * pvd_client.c - one client connection of pvaultd: its shared-memory ring
 * (memfd, sealed against resizing, passed with SCM_RIGHTS) and the daemon
 * workers that serve it (ve_ring.h steps 5-8).
 *
 * Trust: everything in the ring is written by the client and may change
 * at any moment.  A worker copies the descriptor out first, checks it
 * (pvp_desc_to_req: every span inside the slot arena), copies the input
 * spans into its private buffer, executes from there through the backend
 * vault, and writes back only the output spans of the copied descriptor.
 * Ring geometry comes from the daemon's own copy, never from the shared
 * header.  The memfd is sealed (no shrink/grow), so the client cannot make
 * the daemon's accesses fault.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu/daemon/pvd.h"
#include "gpu/daemon/pvd_login.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_secmem.h"
#include "gpu/core/kc_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

struct pvd_client {
	pvd *d;
	pvd_client *next;
	int fd, memfd;
	uint8_t *ring;
	size_t ring_bytes;
	uint32_t nslots, slot_arena, nworkers;
	uid_t uid;
	uint64_t mem;                /* reserved by pvd_mem_take            */
	_Atomic uint32_t claim;
	_Atomic uint32_t stop;
	pthread_t *th;
	pvd_logins *logins;                /* this connection's tickets      */
};

void pvd_send_error(int fd, int code)
{
	pvp_error e;
	memset(&e, 0, sizeof e);
	pvp_hdr_set(&e.h, PVP_ERROR, sizeof e);
	e.code = code;
	(void)send(fd, &e, sizeof e, MSG_NOSIGNAL | MSG_DONTWAIT);
}

void pvd_count(pvd *d, uint32_t op, uint32_t mech, int status)
{
	uint32_t i;
	pthread_mutex_lock(&d->mu);
	if (status == PV_OK)
		d->completed++;
	else
		d->errors++;
	for (i = 0; i < d->nmech; i++)
		if (d->mech[i].op == op && d->mech[i].mech == mech)
			break;
	if (i == d->nmech && d->nmech < PVP_STATUS_MECHS) {
		d->mech[i].op = op;
		d->mech[i].mech = mech;
		d->mech[i].ok = d->mech[i].err = 0;
		d->nmech++;
	}
	if (i < d->nmech) {
		if (status == PV_OK)
			d->mech[i].ok++;
		else
			d->mech[i].err++;
	}
	pthread_mutex_unlock(&d->mu);
}

static void copy_in(uint8_t *dst, const uint8_t *src, ve_span s)
{
	if (s.len)
		memcpy(dst + s.off, src + s.off, s.len);
}

static void copy_out(uint8_t *dst, const uint8_t *src, ve_span s, size_t n)
{
	if (n > s.len)
		n = s.len;
	if (n)
		memcpy(dst + s.off, src + s.off, n);
}

/* Execute the request of ticket t (its descriptor already published). */
static void serve_one(pvd_client *c, ve_slot *s, uint32_t t, uint8_t *priv)
{
	ve_desc d;
	ve_result res;
	pv_req r;
	uint8_t *shared = ve_slot_arena(s);
	uint64_t hi = 0;
	int rc;

	memcpy(&d, (const void *)&s->desc, sizeof d);      /* 1. copy      */
	/* from here on only the private copy is used: keep the compiler from
	 * re-reading the shared descriptor in its place */
	__asm__ __volatile__("" : : "r"(&d) : "memory");
	memset(&res, 0, sizeof res);
	rc = pvp_desc_to_req(&d, priv, c->slot_arena, &r);  /* 2. validate  */
	if (rc == PV_OK) {
		/* 3. inputs into the private buffer (spans checked above) */
		copy_in(priv, shared, d.key);
		copy_in(priv, shared, d.key2);
		copy_in(priv, shared, d.iv);
		copy_in(priv, shared, d.aad);
		copy_in(priv, shared, d.salt);
		copy_in(priv, shared, d.in);
		copy_in(priv, shared, d.in2);
		copy_in(priv, shared, d.state);
		copy_in(priv, shared, d.mechs);
		copy_in(priv, shared, d.new_mechs);
		atomic_fetch_add(&c->d->queue_depth, 1u);
		rc = pvd_login_call(c->logins, c->d->backend, &r);
		atomic_fetch_sub(&c->d->queue_depth, 1u);
		res.status = rc;
		res.out_len = (uint32_t)r.out_len;
		res.out2_len = (uint32_t)r.out2_len;
		res.state_len = (uint32_t)r.state_out_len;
		if (rc == PV_OK) {
			copy_out(shared, priv, d.out, r.out_len);
			copy_out(shared, priv, d.out2, r.out2_len);
			copy_out(shared, priv, d.state_out, r.state_out_len);
		}
		/* wipe what this request used of the private buffer */
		{
			const ve_span *sp[14] = { &d.key, &d.key2, &d.iv, &d.aad, &d.salt,
			                          &d.in, &d.in2, &d.state, &d.out, &d.out2,
			                          &d.state_out, &d.ticket, &d.mechs,
			                          &d.new_mechs };
			unsigned i;
			for (i = 0; i < 14; i++)
				if (sp[i]->len && (uint64_t)sp[i]->off + sp[i]->len > hi)
					hi = (uint64_t)sp[i]->off + sp[i]->len;
			kc_wipe(priv, (size_t)hi);
		}
	} else {
		res.status = rc;
	}
	pvd_count(c->d, d.op, d.mech, res.status);
	s->dev.res = res;                                   /* 4. complete  */
	pv_store_rel(&s->dev.done_seq, t + 1u);
	pv_futex_wake_counted(&s->dev.done_seq, PV_FUTEX_SHARED, &s->host.sleepers);
}

static void *worker(void *arg)
{
	pvd_client *c = (pvd_client *)arg;
	uint8_t *priv = (uint8_t *)pv_secmem_alloc(c->slot_arena);

	if (priv == NULL) {
		pv_log(PV_LOG_ERR, "pvaultd: no memory for a worker buffer");
		return NULL;
	}
	for (;;) {
		uint32_t t = atomic_fetch_add(&c->claim, 1u), si;
		ve_tix *e = ve_ring_tix(c->ring, c->nslots, t);
		for (;;) {
			uint32_t v = pv_load_acq(&e->ready_seq);
			if (v == t + 1u)
				break;
			if (atomic_load(&c->stop))
				goto out;
			pv_futex_wait(&e->ready_seq, v, 200, PV_FUTEX_SHARED);
		}
		/* the client writes the entry: a slot index out of range names
		 * no slot, and the ticket is dropped (its producer is broken) */
		si = *(volatile uint32_t *)&e->slot;
		pv_store_rel(ve_ring_taken(c->ring, c->nslots, t), t + 1u);
		if (si < c->nslots)
			serve_one(c, ve_ring_slot(c->ring, c->nslots, c->slot_arena, si), t, priv);
		else
			pv_log(PV_LOG_WARN, "pvaultd: client ticket %u names slot %u of %u: dropped",
			       t, si, c->nslots);
	}
out:
	pv_secmem_free(priv);
	return NULL;
}

static int ring_create(pvd_client *c, uint32_t nslots, uint32_t arena)
{
	c->nslots = nslots;
	c->slot_arena = arena;
	c->ring_bytes = (size_t)ve_ring_bytes(nslots, arena);
	c->memfd = memfd_create("pvaultd-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (c->memfd < 0)
		return PV_ERR_NOMEM;
	if (ftruncate(c->memfd, (off_t)c->ring_bytes) != 0 ||
	    fcntl(c->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
		return PV_ERR_NOMEM;
	c->ring = (uint8_t *)mmap(NULL, c->ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
	                          c->memfd, 0);
	if (c->ring == MAP_FAILED) {
		c->ring = NULL;
		return PV_ERR_NOMEM;
	}
	/* the client's imports and outputs pass through it */
	(void)madvise(c->ring, c->ring_bytes, MADV_DONTDUMP);
	ve_ring_init(c->ring, nslots, arena);
	return PV_OK;
}

static void client_free(pvd_client *c)
{
	uint32_t i;
	if (c->th != NULL) {
		atomic_store(&c->stop, 1u);
		for (i = 0; i < VE_RING_TIX(c->nslots); i++)
			pv_futex_wake(&ve_ring_tix(c->ring, c->nslots, i)->ready_seq, PV_FUTEX_SHARED);
		for (i = 0; i < c->nworkers; i++)
			pthread_join(c->th[i], NULL);
		free(c->th);
	}
	if (c->ring != NULL)
		munmap(c->ring, c->ring_bytes);
	if (c->memfd >= 0)
		close(c->memfd);
	pvd_logins_free(c->logins);
	pvd_mem_give(c->d, c->uid, c->mem);
	free(c);
}

static void client_list(pvd_client *c)
{
	pvd *d = c->d;
	pthread_mutex_lock(&d->mu);
	c->next = d->clients;
	d->clients = c;
	d->nclients++;
	d->clients_total++;
	pthread_mutex_unlock(&d->mu);
}

static void client_unlist(pvd_client *c)
{
	pvd *d = c->d;
	pvd_client **pp;
	pthread_mutex_lock(&d->mu);
	for (pp = &d->clients; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	d->nclients--;
	pthread_mutex_unlock(&d->mu);
}

static int send_hello_ok(pvd_client *c)
{
	pvp_hello_ok ok;
	struct msghdr mh;
	struct iovec iov;
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr *cm;
	pvd *d = c->d;

	memset(&ok, 0, sizeof ok);
	pvp_hdr_set(&ok.h, PVP_HELLO_OK, sizeof ok);
	ok.nslots = c->nslots;
	ok.slot_arena = c->slot_arena;
	ok.ring_bytes = c->ring_bytes;
	memcpy(ok.backend, d->binfo.backend, sizeof ok.backend);
	memcpy(ok.device, d->binfo.device, sizeof ok.device);
	ok.sealed = d->binfo.sealed;
	ok.seal_reason = d->binfo.seal_reason;
	ok.hw = d->binfo.hw;
	ok.workers = c->nworkers;
	memset(&mh, 0, sizeof mh);
	memset(cbuf, 0, sizeof cbuf);
	iov.iov_base = &ok;
	iov.iov_len = sizeof ok;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf;
	mh.msg_controllen = sizeof cbuf;
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &c->memfd, sizeof(int));
	return sendmsg(c->fd, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof ok ? PV_OK : PV_ERR_IO;
}

static void send_status(pvd *d, int fd)
{
	pvp_status_ok st;
	struct timespec ts;

	memset(&st, 0, sizeof st);
	pvp_hdr_set(&st.h, PVP_STATUS_OK, sizeof st);
	memcpy(st.backend, d->binfo.backend, sizeof st.backend);
	memcpy(st.device, d->binfo.device, sizeof st.device);
	st.sealed = d->binfo.sealed;
	st.seal_reason = d->binfo.seal_reason;
	st.pid = (uint32_t)getpid();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	st.uptime_s = (uint64_t)ts.tv_sec - d->t0;
	st.queue_depth = atomic_load(&d->queue_depth);
	pthread_mutex_lock(&d->mu);
	st.clients = d->nclients;
	st.completed = d->completed;
	st.errors = d->errors;
	st.refused = d->refused;
	st.proto_errors = d->proto_errors;
	st.clients_total = d->clients_total;
	st.nmech = d->nmech;
	memcpy(st.mech, d->mech, sizeof st.mech);
	pthread_mutex_unlock(&d->mu);
	(void)send(fd, &st, sizeof st, MSG_NOSIGNAL);
}

static void proto_error(pvd *d, int fd)
{
	pthread_mutex_lock(&d->mu);
	d->proto_errors++;
	pthread_mutex_unlock(&d->mu);
	pvd_send_error(fd, PV_ERR_PROTOCOL);
}

void pvd_serve(pvd *d, int fd, uid_t uid)
{
	union { pvp_hello hello; uint8_t b[PVP_MSG_MAX]; } m;
	struct timeval tv = { (time_t)d->hello_timeout_s, 0 };
	pvd_client *c;
	uint32_t type, i;
	ssize_t n;

	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	do
		n = recv(fd, m.b, sizeof m.b, MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return;
	if (pvp_check(m.b, (size_t)n, sizeof m.b, &type) != PV_OK ||
	    (type != PVP_HELLO && type != PVP_STATUS)) {
		proto_error(d, fd);
		return;
	}
	if (type == PVP_STATUS) {
		send_status(d, fd);
		return;
	}
	if (atomic_load(&d->stop)) {
		pvd_send_error(fd, PV_ERR_REMOVED);
		return;
	}
	c = (pvd_client *)calloc(1, sizeof *c);
	if (c == NULL) {
		pvd_send_error(fd, PV_ERR_NOMEM);
		return;
	}
	c->d = d;
	c->fd = fd;
	c->uid = uid;
	c->memfd = -1;
	{
		uint32_t ns = m.hello.nslots ? m.hello.nslots : PVP_SLOTS_DEF;
		uint32_t ar = m.hello.slot_arena ? (m.hello.slot_arena + 63u) & ~63u : PVP_ARENA_DEF;
		int why;
		if (ar > d->binfo.max_data)
			ar = d->binfo.max_data & ~63u;      /* the backend's request size */
		/* bound one client's memory, its uid's and all clients'
		 * (pvd_limits.c) */
		why = pvd_mem_take(d, uid, &ns, &ar, &c->mem);
		if (why != PV_OK) {
			struct ucred cr;
			socklen_t cl = sizeof cr;
			memset(&cr, 0, sizeof cr);
			(void)getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl);
			pvd_note(d, why, uid, cr.gid, cr.pid);
			pvd_send_error(fd, PV_ERR_BUSY);
			client_free(c);
			return;
		}
		m.hello.nslots = ns;
		m.hello.slot_arena = ar;
	}
	c->logins = pvd_logins_new();
	if (c->logins == NULL || ring_create(c, m.hello.nslots, m.hello.slot_arena) != PV_OK) {
		pvd_send_error(fd, PV_ERR_NOMEM);
		client_free(c);
		return;
	}
	c->nworkers = pvd_workers(d, c->nslots);
	c->th = (pthread_t *)calloc(c->nworkers, sizeof *c->th);
	if (c->th == NULL) {
		pvd_send_error(fd, PV_ERR_NOMEM);
		client_free(c);
		return;
	}
	for (i = 0; i < c->nworkers; i++)
		if (pthread_create(&c->th[i], NULL, worker, c) != 0)
			break;
	c->nworkers = i;
	if (i == 0) {
		pvd_send_error(fd, PV_ERR_NOMEM);
		client_free(c);
		return;
	}
	/* listed (and counted in STATUS) before HELLO_OK leaves: a client that
	 * holds its ring is always among the daemon's clients */
	client_list(c);
	if (send_hello_ok(c) != PV_OK) {
		pvd_send_error(fd, PV_ERR_NOMEM);
		client_unlist(c);
		client_free(c);
		return;
	}
	/* the descriptor is the client's now; ours is not needed */
	close(c->memfd);
	c->memfd = -1;

	/* the client says nothing more: EOF = gone; anything else (a replayed
	 * HELLO included) is a protocol error that drops the connection */
	tv.tv_sec = 0;
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	do
		n = recv(fd, m.b, sizeof m.b, MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		proto_error(d, fd);

	client_unlist(c);
	client_free(c);           /* drains: workers finish what they hold */
}

/* SIGTERM: stop every client's workers after what they hold, drop the
 * connections (each serving thread then frees its ring). */
void pvd_drain_all(pvd *d)
{
	pvd_client *c;
	uint32_t i;
	pthread_mutex_lock(&d->mu);
	for (c = d->clients; c != NULL; c = c->next) {
		/* workers: serve what is published, then exit */
		atomic_store(&c->stop, 1u);
		for (i = 0; i < VE_RING_TIX(c->nslots); i++)
			pv_futex_wake(&ve_ring_tix(c->ring, c->nslots, i)->ready_seq, PV_FUTEX_SHARED);
		/* end the serving thread's recv without the client seeing EOF:
		 * it sees the close only after client_free joined the workers */
		shutdown(c->fd, SHUT_RD);
	}
	pthread_mutex_unlock(&d->mu);
}
