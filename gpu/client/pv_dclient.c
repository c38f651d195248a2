/*
 * pv_dclient.c - gpu/vault.h over pvaultd (mode = daemon).  The producer
 * side of the ring protocol (ve_ring.h steps 1-4, 9-11) on a ring that
 * pvaultd created and passed as a memfd; pvaultd is the worker.  Same
 * completion scheme as the embedded pv_vault.c (any thread may reap a
 * finished slot), plus: the daemon may disappear, which every waiter
 * notices on the socket between futex sleeps.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu/client/pv_dclient.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_futex.h"
#include "gpu/core/kc_util.h"

#include <errno.h>
#include <poll.h>
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
	int fd;
	uint8_t *ring;
	size_t ring_bytes;
	uint32_t nslots, slot_arena;
	_Atomic uint32_t prod;
	_Atomic uint32_t inflight;   /* submitted, not yet waited            */
	_Atomic uint32_t dead;       /* 1: connection lost                  */
	_Atomic uint32_t gen;        /* connection generation               */
	_Atomic uint32_t relock;     /* 1 while a thread reconnects         */
	pv_req **owner;
	_Atomic uint32_t *reaping;
	pid_t pid;
	pv_vault_info info;
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

int pv_dc_connect(const char *path, uint32_t nslots, uint32_t slot_arena,
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
	uint8_t *ring;
	int fd, rc;

	rc = pv_dc_connect(c->path, 0, 0, &fd, &ring, &ok);
	if (rc != PV_OK)
		return rc;
	if (c->owner == NULL || ok.nslots != c->nslots) {
		free(c->owner);
		free((void *)c->reaping);
		c->owner = (pv_req **)calloc(ok.nslots, sizeof *c->owner);
		c->reaping = (_Atomic uint32_t *)calloc(ok.nslots, sizeof *c->reaping);
		if (c->owner == NULL || c->reaping == NULL) {
			munmap(ring, (size_t)ok.ring_bytes);
			close(fd);
			return PV_ERR_NOMEM;
		}
	} else {
		memset(c->owner, 0, ok.nslots * sizeof *c->owner);
	}
	c->fd = fd;
	c->ring = ring;
	c->ring_bytes = (size_t)ok.ring_bytes;
	c->nslots = ok.nslots;
	c->slot_arena = ok.slot_arena;
	atomic_store(&c->prod, 0u);
	memset(&c->info, 0, sizeof c->info);
	memcpy(c->info.backend, ok.backend, sizeof c->info.backend);
	snprintf(c->info.device, sizeof c->info.device, "pvaultd: %.54s", ok.device);
	c->info.sealed = ok.sealed;
	c->info.seal_reason = ok.seal_reason;
	c->info.hw = ok.hw;
	c->info.workers = ok.workers;
	c->info.nslots = ok.nslots;
	c->info.max_data = ok.slot_arena;
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
	c->fd = -1;
	c->pid = getpid();
	if ((rc = dc_attach(c)) != PV_OK) {
		free(c->owner);
		free((void *)c->reaping);
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
	if (getpid() == c->pid) {
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
	free(c->owner);
	free((void *)c->reaping);
	free(c);
}

int pv_dc_get_info(pv_dclient *c, pv_vault_info *info)
{
	*info = c->info;
	return PV_OK;
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

	if (atomic_load(&c->inflight) != 0)
		return PV_ERR_REMOVED;
	if (!atomic_compare_exchange_strong(&c->relock, &zero, 1u))
		return PV_ERR_REMOVED;
	if (!atomic_load(&c->dead) || atomic_load(&c->inflight) != 0) {
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

static int lay(ve_span *s, size_t len, uint64_t *pos, uint32_t cap)
{
	if (len > cap)
		return PV_ERR_DATA_LEN;
	s->len = (uint32_t)len;
	s->off = 0;
	if (len == 0)
		return PV_OK;
	if (*pos + len > cap)
		return PV_ERR_DATA_LEN;
	s->off = (uint32_t)*pos;
	*pos = (*pos + len + 15u) & ~(uint64_t)15u;
	return PV_OK;
}

static int check_in(const void *p, size_t n)
{
	return (p == NULL && n != 0) ? PV_ERR_ARGS : PV_OK;
}

static int reap(pv_dclient *c, ve_slot *s, uint32_t t);

int pv_dc_submit(pv_dclient *c, pv_req *r, int block)
{
	ve_desc d;
	ve_slot *s;
	uint8_t *a;
	uint64_t pos = 0;
	uint32_t t;
	int rc = PV_OK;

	if (getpid() != c->pid)
		return r->status = PV_ERR_REMOVED;
	if (pv_load_acq(&r->inflight_))
		return r->status = PV_ERR_STATE;
	if (check_in(r->key, r->key_len) || check_in(r->key2, r->key2_len) ||
	    check_in(r->iv, r->iv_len) || check_in(r->aad, r->aad_len) ||
	    check_in(r->salt, r->salt_len) || check_in(r->in, r->in_len) ||
	    check_in(r->in2, r->in2_len) || check_in(r->state, r->state_len) ||
	    check_in(r->out, r->out_cap) || check_in(r->out2, r->out2_cap) ||
	    check_in(r->state_out, r->state_out_cap))
		return r->status = PV_ERR_ARGS;
	/* the call that finds the daemon gone reports it; a later one (with
	 * nothing in flight) reconnects */
	if (atomic_load(&c->dead)) {
		if ((rc = dc_reconnect(c)) != PV_OK)
			return r->status = rc;
	} else if (dc_lost(c)) {
		return r->status = PV_ERR_REMOVED;
	}

	memset(&d, 0, sizeof d);
	d.version = VE_DESC_VERSION;
	d.op = r->op; d.phase = r->phase; d.mech = r->mech; d.flags = r->flags;
	d.prf = r->prf; d.tag_len = r->tag_len; d.ctr_bits = r->ctr_bits;
	d.key_type = r->key_type;
	d.new_type = r->new_type; d.new_usage = r->new_usage; d.new_len = r->new_len;
	memcpy(d.key_id, r->key_id, PV_OBJ_ID_LEN);
	memcpy(d.key2_id, r->key2_id, PV_OBJ_ID_LEN);
	memcpy(d.new_id, r->new_id, PV_OBJ_ID_LEN);
	if ((rc = lay(&d.key, r->key_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.key2, r->key2_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.iv, r->iv_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.aad, r->aad_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.salt, r->salt_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.in, r->in_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.in2, r->in2_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.state, r->state_len, &pos, c->slot_arena)) ||
	    (rc = lay(&d.out, r->out_cap, &pos, c->slot_arena)) ||
	    (rc = lay(&d.out2, r->out2_cap, &pos, c->slot_arena)) ||
	    (rc = lay(&d.state_out, r->state_out_cap, &pos, c->slot_arena)))
		return r->status = rc;
	if (pos > c->slot_arena)
		pos = c->slot_arena;

	for (;;) {
		uint32_t fs, ds;
		if (dc_lost(c))
			return r->status = PV_ERR_REMOVED;
		t = atomic_load_explicit(&c->prod, memory_order_relaxed);
		s = ve_ring_slot(c->ring, c->nslots, c->slot_arena, t);
		fs = pv_load_acq(&s->host.free_seq);
		if (fs == t) {
			if (atomic_compare_exchange_weak_explicit(&c->prod, &t, t + 1u,
			        memory_order_acq_rel, memory_order_relaxed))
				break;
			continue;
		}
		ds = pv_load_acq(&s->dev.done_seq);
		if (ds == fs + 1u && reap(c, s, fs))
			continue;
		if (!block)
			return r->status = PV_ERR_BUSY;
		if (ds == fs + 1u)
			pv_futex_wait(&s->host.free_seq, fs, 2);
		else
			pv_futex_wait(&s->dev.done_seq, ds, 50);
	}

	a = ve_slot_arena(s);
#define PUT(span, p) do { if ((span).len) memcpy(a + (span).off, (p), (span).len); } while (0)
	PUT(d.key, r->key);
	PUT(d.key2, r->key2);
	PUT(d.iv, r->iv);
	PUT(d.aad, r->aad);
	PUT(d.salt, r->salt);
	PUT(d.in, r->in);
	PUT(d.in2, r->in2);
	PUT(d.state, r->state);
#undef PUT
	s->desc = d;
	s->host.rsv[0] = (uint32_t)pos;
	r->ticket_ = t;
	r->slot_ = s;
	r->status = PV_OK;
	atomic_fetch_add(&c->inflight, 1u);
	pv_store_rel(&r->inflight_, 1u);
	c->owner[t & (c->nslots - 1u)] = r;
	pv_store_rel(&s->host.ready_seq, t + 1u);
	pv_futex_wake(&s->host.ready_seq);
	return PV_OK;
}

static size_t take_out(uint8_t *dst, size_t cap, const uint8_t *src, uint32_t n)
{
	size_t m = n <= cap ? n : cap;
	if (m)
		memcpy(dst, src, m);
	return m;
}

static int reap(pv_dclient *c, ve_slot *s, uint32_t t)
{
	uint32_t idx = t & (c->nslots - 1u), zero = 0;
	ve_result res;
	ve_desc d;
	pv_req *r;
	uint8_t *a;

	if (!atomic_compare_exchange_strong_explicit(&c->reaping[idx], &zero, 1u,
	        memory_order_acquire, memory_order_relaxed))
		return 0;
	if (pv_load_acq(&s->host.free_seq) != t || pv_load_acq(&s->dev.done_seq) != t + 1u ||
	    c->owner[idx] == NULL) {
		atomic_store_explicit(&c->reaping[idx], 0u, memory_order_release);
		return 0;
	}
	r = c->owner[idx];
	c->owner[idx] = NULL;
	res = s->dev.res;
	d = s->desc;
	a = ve_slot_arena(s);
	r->status = res.status;
	r->out_len = res.out_len;
	r->out2_len = res.out2_len;
	r->state_out_len = res.state_len;
	if (res.status == PV_OK) {
		/* the daemon's lengths are bounded by the capacities we asked */
		r->out_len = take_out(r->out, r->out_cap, a + d.out.off,
		                      res.out_len <= d.out.len ? res.out_len : d.out.len);
		r->out2_len = take_out(r->out2, r->out2_cap, a + d.out2.off,
		                       res.out2_len <= d.out2.len ? res.out2_len : d.out2.len);
		r->state_out_len = take_out(r->state_out, r->state_out_cap, a + d.state_out.off,
		                            res.state_len <= d.state_out.len ? res.state_len : d.state_out.len);
	}
	kc_wipe(a, s->host.rsv[0] <= c->slot_arena ? s->host.rsv[0] : c->slot_arena);
	atomic_fetch_sub(&c->inflight, 1u);
	pv_store_rel(&r->inflight_, 0u);
	pv_futex_wake(&r->inflight_);
	pv_store_rel(&s->host.free_seq, t + c->nslots);
	pv_futex_wake(&s->host.free_seq);
	atomic_store_explicit(&c->reaping[idx], 0u, memory_order_release);
	return 1;
}

int pv_dc_done(pv_dclient *c, const pv_req *r)
{
	const ve_slot *s = (const ve_slot *)r->slot_;
	if (pv_load_acq(&r->inflight_) == 0u)
		return 1;
	if (dc_lost(c))
		return 1;
	return pv_load_acq(&s->dev.done_seq) == r->ticket_ + 1u;
}

int pv_dc_wait(pv_dclient *c, pv_req *r)
{
	ve_slot *s = (ve_slot *)r->slot_;
	uint32_t t = r->ticket_, d;
	int spin;

	if (s == NULL)
		return r->status;
	for (;;) {
		if (pv_load_acq(&r->inflight_) == 0u)
			break;
		d = pv_load_acq(&s->dev.done_seq);
		if (d == t + 1u) {
			if (!reap(c, s, t))
				pv_futex_wait(&r->inflight_, 1u, 5);
			continue;
		}
		if (dc_lost(c)) {
			/* the daemon is gone: this request will never complete */
			uint32_t idx = t & (c->nslots - 1u), zero = 0;
			if (!atomic_compare_exchange_strong(&c->reaping[idx], &zero, 1u)) {
				pv_futex_wait(&r->inflight_, 1u, 5);
				continue;
			}
			if (c->owner[idx] == r && pv_load_acq(&r->inflight_) != 0u) {
				c->owner[idx] = NULL;
				pv_store_rel(&r->inflight_, 0u);
				atomic_fetch_sub(&c->inflight, 1u);
				r->status = PV_ERR_REMOVED;
			}
			atomic_store(&c->reaping[idx], 0u);
			break;
		}
		for (spin = 0; spin < 64 && pv_load_acq(&s->dev.done_seq) == d; spin++)
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#else
			;
#endif
		if (pv_load_acq(&s->dev.done_seq) == d && pv_load_acq(&r->inflight_) != 0u)
			pv_futex_wait(&s->dev.done_seq, d, 100);
	}
	r->slot_ = NULL;
	return r->status;
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
