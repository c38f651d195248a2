/*
 * pv_vault.c - gpu/vault.h in embedded mode: the vault runs in this process
 * on the CUDA backend (a persistent kernel serving the ring from the GPU)
 * or the CPU backend (worker threads); requests go through the same ring
 * either way (pvaultd serves it too, in daemon mode).  This file is the
 * ring's producer side (ve_ring.h protocol steps 1-4 and 9-11).
 *
 * Backend choice (conf->backend, $PIXELVAULT_BACKEND overrides it):
 * "cuda" needs a usable device (else PV_ERR_DEVICE, reason logged); "auto"
 * takes CUDA when this build has it and pv_cuda_probe() accepts the device,
 * else the CPU (the reason logged at info level); "cpu" is the CPU.
 *
 * Waiting: CPU workers FUTEX_WAKE the done_seq words they publish; the GPU
 * cannot, so for CUDA a waiter polls (pause, then sched_yield) before it
 * sleeps, and pv_cuda's watchdog wakes sleepers within about 1 ms.
 *
 * Completion ("reaping": copy the outputs into the owner's pv_req, wipe the
 * slot's arena, free the slot) may be done by any host thread: by the
 * owner in pv_vault_wait, or by a producer that finds the ring full and the
 * slot it needs held by a finished request.  So threads that each hold
 * submitted-but-not-waited requests and block in submit cannot deadlock:
 * every published request completes (workers need nothing from producers)
 * and every completed slot can be freed by whoever needs it.
 */
#include "gpu/vault.h"
#include "gpu/cpu/pv_cpu.h"
#ifdef PV_HAVE_CUDA
#include "gpu/cuda/pv_cuda.h"
#endif
#include "gpu/client/pv_dclient.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_secmem.h"
#include "gpu/core/kc_util.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct pv_vault {
	pv_cpu *cpu;
#ifdef PV_HAVE_CUDA
	pv_cuda *cuda;
#endif
	int gpu;                     /* the ring's worker cannot FUTEX_WAKE */
	pv_dclient *dc;              /* mode = daemon: pvaultd transport */
	uint8_t *ring;
	uint32_t nslots, slot_arena;
	_Atomic uint32_t prod;       /* producer ticket counter (host only) */
	pv_req **owner;              /* request holding each slot (host only) */
	_Atomic uint32_t *reaping;   /* 1 while a thread completes a slot     */
	pid_t pid;
	pv_vault_info info;
};

static int vault_finish_open(pv_vault *v, void *ring)
{
	v->ring = (uint8_t *)ring;
	v->owner = (pv_req **)calloc(v->nslots, sizeof *v->owner);
	v->reaping = (_Atomic uint32_t *)calloc(v->nslots, sizeof *v->reaping);
	if (v->owner == NULL || v->reaping == NULL)
		return PV_ERR_NOMEM;
	v->pid = getpid();
	v->info.nslots = v->nslots;
	v->info.max_data = v->slot_arena;
	return PV_OK;
}

static int open_cpu(const pv_conf *conf, const pv_cpu_params *p, pv_vault *v)
{
	int rc = conf != NULL ? pv_cpu_open_conf(conf, &v->cpu) : pv_cpu_open(p, &v->cpu);
	if (rc != PV_OK)
		return rc;
	snprintf(v->info.backend, sizeof v->info.backend, "cpu");
	snprintf(v->info.device, sizeof v->info.device, "host CPU, %u worker threads",
	         pv_cpu_workers(v->cpu));
	v->info.sealed = pv_cpu_sealed(v->cpu);
	v->info.seal_reason = pv_cpu_seal_reason(v->cpu);
	v->info.workers = pv_cpu_workers(v->cpu);
	snprintf(v->info.master_fpr, sizeof v->info.master_fpr, "%s",
	         pv_cpu_master_fpr(v->cpu));
	return vault_finish_open(v, pv_cpu_ring(v->cpu, &v->nslots, &v->slot_arena));
}

#ifdef PV_HAVE_CUDA
/* master: 32 bytes or NULL (sealed, for the reason no_master). */
static int open_cuda(int device, const uint8_t *master, int no_master, pv_vault *v)
{
	pv_cuda_params p;
	pv_cuda_info ci;
	char err[256];
	int rc;

	memset(&p, 0, sizeof p);
	p.device = device;
	/* the token sizes single-part operations by max_data: the same arena
	 * as the CPU backend's, more slots (requests in flight) */
	p.nslots = 128;
	p.slot_arena = PV_CPU_DEFAULT_ARENA;
	p.master = master;
	p.master_len = master != NULL ? PV_MASTER_KEY_LEN : 0;
	rc = pv_cuda_open(&p, &v->cuda, err, sizeof err);
	if (rc != PV_OK) {
		pv_log(PV_LOG_WARN, "CUDA backend: %s", err);
		return rc;
	}
	v->gpu = 1;
	if (pv_cuda_info_get(v->cuda, &ci) != PV_OK)
		memset(&ci, 0, sizeof ci);
	snprintf(v->info.backend, sizeof v->info.backend, "cuda");
	snprintf(v->info.device, sizeof v->info.device, "%.40s, %u workers",
	         ci.device_name, ci.grid * ci.block);
	v->info.hw = 1;
	v->info.workers = ci.grid * ci.block;
	v->info.sealed = pv_cuda_sealed(v->cuda);
	v->info.seal_reason = master != NULL ? pv_cuda_seal_reason(v->cuda) : no_master;
	if (master != NULL && !v->info.sealed)
		pv_master_fingerprint(master, v->info.master_fpr);
	return vault_finish_open(v, pv_cuda_ring(v->cuda, &v->nslots, &v->slot_arena));
}
#endif

/* 1: use CUDA, 0: use the CPU, PV_ERR_*: refuse (backend "cuda" without a
 * usable device, or an unknown name).  *required: the config said cuda
 * (auto falls back to the CPU when the CUDA vault does not boot either). */
static int want_cuda(const char *backend, int device, int *required)
{
	int need;

	if (backend == NULL || backend[0] == '\0' || strcmp(backend, "auto") == 0)
		need = 0;
	else if (strcmp(backend, "cuda") == 0)
		need = 1;
	else if (strcmp(backend, "cpu") == 0)
		return 0;
	else
		return PV_ERR_CONFIG;
	*required = need;
#ifdef PV_HAVE_CUDA
	{
		char why[256];
		if (pv_cuda_probe(device, why, sizeof why) == PV_OK)
			return 1;
		pv_log(need ? PV_LOG_WARN : PV_LOG_INFO, "CUDA backend unavailable: %s", why);
	}
#else
	(void)device;
	if (need)
		pv_log(PV_LOG_WARN, "backend = cuda, but this build has no CUDA backend");
#endif
	return need ? PV_ERR_DEVICE : 0;
}

static int open_embedded(const pv_conf *conf, const uint8_t *master, size_t master_len,
                         uint32_t workers, uint32_t nslots, uint32_t max_data,
                         pv_vault **out, int cpu_only)
{
	const char *backend = conf != NULL ? conf->backend : getenv("PIXELVAULT_BACKEND");
	int device = conf != NULL ? (int)conf->gpu_device : 0;
	int required = 0;
	int cuda = cpu_only ? 0 : want_cuda(backend, device, &required);
	pv_vault *v;
	int rc;

	if (cuda < 0)
		return cuda;
	v = (pv_vault *)calloc(1, sizeof *v);
	if (v == NULL)
		return PV_ERR_NOMEM;
	if (cuda) {
#ifdef PV_HAVE_CUDA
		uint8_t *mk = NULL;
		int mrc = PV_OK;
		if (conf != NULL) {
			mk = (uint8_t *)pv_secmem_alloc(PV_MASTER_KEY_LEN);
			if (mk == NULL) {
				free(v);
				return PV_ERR_NOMEM;
			}
			mrc = pv_master_load(conf->master_key, mk);
			rc = open_cuda(device, mrc == PV_OK ? mk : NULL, mrc, v);
			pv_secmem_free(mk);      /* wiped: the GPU holds the key now */
		} else {
			rc = master_len == PV_MASTER_KEY_LEN
			     ? open_cuda(device, master, 0, v)
			     : open_cuda(device, NULL, PV_ERR_NOT_FOUND, v);
		}
#else
		rc = PV_ERR_DEVICE;
#endif
		if (rc != PV_OK && !required) {
			/* auto: e.g. another process's vault holds the GPU */
			pv_log(PV_LOG_WARN, "CUDA vault did not open (error %d): using the CPU backend", rc);
			pv_vault_close(v);
			return open_embedded(conf, master, master_len, workers, nslots, max_data, out, 1);
		}
	} else {
		pv_cpu_params p;
		memset(&p, 0, sizeof p);
		p.master = master;
		p.master_len = master_len;
		p.workers = workers;
		p.nslots = nslots;
		p.slot_arena = max_data;
		rc = open_cpu(conf, &p, v);
	}
	if (rc != PV_OK) {
		pv_vault_close(v);
		return rc;
	}
	*out = v;
	return PV_OK;
}

int pv_vault_open(const pv_conf *conf, pv_vault **out)
{
	pv_vault *v;
	int rc;

	*out = NULL;
	if (conf == NULL)
		return PV_ERR_ARGS;
	if (conf->mode[0] != '\0' && strcmp(conf->mode, "daemon") == 0) {
		v = (pv_vault *)calloc(1, sizeof *v);
		if (v == NULL)
			return PV_ERR_NOMEM;
		if ((rc = pv_dc_open(conf, &v->dc)) != PV_OK) {
			free(v);
			return rc;
		}
		*out = v;
		return PV_OK;
	}
	if (conf->mode[0] != '\0' && strcmp(conf->mode, "embedded") != 0)
		return PV_ERR_CONFIG;
	return open_embedded(conf, NULL, 0, 0, 0, 0, out, 0);
}

int pv_vault_open_key(const uint8_t *master, size_t master_len, uint32_t workers,
                      uint32_t nslots, uint32_t max_data, pv_vault **out)
{
	*out = NULL;
	return open_embedded(NULL, master, master_len, workers, nslots, max_data, out, 0);
}

void pv_vault_close(pv_vault *v)
{
	if (v == NULL)
		return;
	if (v->dc != NULL) {
		pv_dc_close(v->dc);
		free(v);
		return;
	}
	pv_cpu_close(v->cpu);
#ifdef PV_HAVE_CUDA
	if (v->cuda != NULL && v->pid == getpid())
		pv_cuda_close(v->cuda);   /* a forked child must not touch CUDA */
#endif
	free(v->owner);
	free((void *)v->reaping);
	free(v);
}

int pv_vault_get_info(pv_vault *v, pv_vault_info *info)
{
	if (v == NULL || info == NULL)
		return PV_ERR_ARGS;
	if (v->dc != NULL)
		return pv_dc_get_info(v->dc, info);
	*info = v->info;
	return PV_OK;
}

void pv_req_init(pv_req *r, uint32_t op, uint32_t mech)
{
	memset(r, 0, sizeof *r);
	r->op = op;
	r->mech = mech;
}

/* Lay out one span at *pos (16-byte aligned); empty spans sit at 0. */
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

static int reap(pv_vault *v, ve_slot *s, uint32_t t);

static int vault_submit(pv_vault *v, pv_req *r, int block)
{
	ve_desc d;
	ve_slot *s;
	uint8_t *a;
	uint64_t pos = 0;
	uint32_t t;
	int rc = PV_OK;

	if (v == NULL || r == NULL)
		return PV_ERR_ARGS;
	if (v->dc != NULL)
		return pv_dc_submit(v->dc, r, block);
	if (getpid() != v->pid)
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

	memset(&d, 0, sizeof d);
	d.version = VE_DESC_VERSION;
	d.op = r->op; d.phase = r->phase; d.mech = r->mech; d.flags = r->flags;
	d.prf = r->prf; d.tag_len = r->tag_len; d.ctr_bits = r->ctr_bits;
	d.key_type = r->key_type;
	d.new_type = r->new_type; d.new_usage = r->new_usage; d.new_len = r->new_len;
	memcpy(d.key_id, r->key_id, PV_OBJ_ID_LEN);
	memcpy(d.key2_id, r->key2_id, PV_OBJ_ID_LEN);
	memcpy(d.new_id, r->new_id, PV_OBJ_ID_LEN);
	if ((rc = lay(&d.key, r->key_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.key2, r->key2_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.iv, r->iv_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.aad, r->aad_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.salt, r->salt_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.in, r->in_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.in2, r->in2_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.state, r->state_len, &pos, v->slot_arena)) ||
	    (rc = lay(&d.out, r->out_cap, &pos, v->slot_arena)) ||
	    (rc = lay(&d.out2, r->out2_cap, &pos, v->slot_arena)) ||
	    (rc = lay(&d.state_out, r->state_out_cap, &pos, v->slot_arena)))
		return r->status = rc;
	if (pos > v->slot_arena)
		pos = v->slot_arena;

	/* 1-2: claim a ticket whose slot is free; if the slot is held by a
	 * finished request, complete that request on its owner's behalf */
	for (;;) {
		uint32_t fs, ds;
		t = atomic_load_explicit(&v->prod, memory_order_relaxed);
		s = ve_ring_slot(v->ring, v->nslots, v->slot_arena, t);
		fs = pv_load_acq(&s->host.free_seq);
		if (fs == t) {
			if (atomic_compare_exchange_weak_explicit(&v->prod, &t, t + 1u,
			        memory_order_acq_rel, memory_order_relaxed))
				break;
			continue;
		}
		ds = pv_load_acq(&s->dev.done_seq);
		if (ds == fs + 1u && reap(v, s, fs))
			continue;
		if (!block)
			return r->status = PV_ERR_BUSY;
		if (ds == fs + 1u)
			pv_futex_wait(&s->host.free_seq, fs, 2);
		else
			pv_futex_wait(&s->dev.done_seq, ds, 50);
	}

	/* 3: inputs + descriptor */
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
	s->host.rsv[0] = (uint32_t)pos;      /* bytes to wipe after completion */
	r->ticket_ = t;
	r->slot_ = s;
	r->status = PV_OK;
	pv_store_rel(&r->inflight_, 1u);
	v->owner[t & (v->nslots - 1u)] = r;
	/* 4: publish */
	pv_store_rel(&s->host.ready_seq, t + 1u);
	if (!v->gpu)
		pv_futex_wake(&s->host.ready_seq);
	return PV_OK;
}

int pv_vault_submit(pv_vault *v, pv_req *r) { return vault_submit(v, r, 1); }
int pv_vault_try_submit(pv_vault *v, pv_req *r) { return vault_submit(v, r, 0); }

static size_t take_out(uint8_t *dst, size_t cap, const uint8_t *src, uint32_t n)
{
	size_t m = n <= cap ? n : cap;
	if (m)
		memcpy(dst, src, m);
	return m;
}

/* Steps 9-11 for the request with ticket t in slot s, if it has completed
 * and nobody else is completing it.  Returns 1 if this thread did it. */
static int reap(pv_vault *v, ve_slot *s, uint32_t t)
{
	uint32_t idx = t & (v->nslots - 1u), zero = 0;
	ve_result res;
	pv_req *r;
	uint8_t *a;

	if (!atomic_compare_exchange_strong_explicit(&v->reaping[idx], &zero, 1u,
	        memory_order_acquire, memory_order_relaxed))
		return 0;
	if (pv_load_acq(&s->host.free_seq) != t || pv_load_acq(&s->dev.done_seq) != t + 1u) {
		atomic_store_explicit(&v->reaping[idx], 0u, memory_order_release);
		return 0;
	}
	r = v->owner[idx];
	v->owner[idx] = NULL;
	res = s->dev.res;
	a = ve_slot_arena(s);
	r->status = res.status;
	r->out_len = res.out_len;
	r->out2_len = res.out2_len;
	r->state_out_len = res.state_len;
	if (res.status == PV_OK) {
		r->out_len = take_out(r->out, r->out_cap, a + s->desc.out.off, res.out_len);
		r->out2_len = take_out(r->out2, r->out2_cap, a + s->desc.out2.off, res.out2_len);
		r->state_out_len = take_out(r->state_out, r->state_out_cap,
		                            a + s->desc.state_out.off, res.state_len);
	}
	kc_wipe(a, s->host.rsv[0] <= v->slot_arena ? s->host.rsv[0] : v->slot_arena);
	/* the owner may return as soon as it sees this */
	pv_store_rel(&r->inflight_, 0u);
	pv_futex_wake(&r->inflight_);
	/* 11: free the slot for ticket t + nslots */
	pv_store_rel(&s->host.free_seq, t + v->nslots);
	pv_futex_wake(&s->host.free_seq);
	atomic_store_explicit(&v->reaping[idx], 0u, memory_order_release);
	return 1;
}

int pv_vault_done(pv_vault *v, const pv_req *r)
{
	const ve_slot *s = (const ve_slot *)r->slot_;
	if (v != NULL && v->dc != NULL)
		return pv_dc_done(v->dc, r);
	if (pv_load_acq(&r->inflight_) == 0u)
		return 1;
	return pv_load_acq(&s->dev.done_seq) == r->ticket_ + 1u;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Until *word != seen or *busy == 0: spin a little; a CPU worker's
 * FUTEX_WAKE ends the sleep.  For the GPU, poll (yielding the core) for up
 * to 2 ms first: a lone request must not pay the watchdog's ~1 ms. */
static void wait_change(pv_vault *v, uint32_t *word, uint32_t seen, const uint32_t *busy)
{
	int spin;

	for (spin = 0; spin < 64 && pv_load_acq(word) == seen; spin++)
		cpu_relax();
	if (v->gpu && pv_load_acq(word) == seen) {
		uint64_t end = now_ns() + 2000000u;
		do {
			for (spin = 0; spin < 32 && pv_load_acq(word) == seen; spin++)
				cpu_relax();
			if (pv_load_acq(word) != seen)
				return;
			sched_yield();
		} while (now_ns() < end);
	}
	if (pv_load_acq(word) == seen && pv_load_acq(busy) != 0u)
		pv_futex_wait(word, seen, 100);
}

int pv_vault_wait(pv_vault *v, pv_req *r)
{
	ve_slot *s;
	uint32_t t, d;

	if (v == NULL || r == NULL)
		return PV_ERR_ARGS;
	if (v->dc != NULL)
		return pv_dc_wait(v->dc, r);
	s = (ve_slot *)r->slot_;
	t = r->ticket_;
	for (;;) {
		if (pv_load_acq(&r->inflight_) == 0u)
			break;
		d = pv_load_acq(&s->dev.done_seq);
		if (d == t + 1u) {
			if (!reap(v, s, t))      /* someone else is completing it */
				pv_futex_wait(&r->inflight_, 1u, 5);
			continue;
		}
		/* 9: sleep until the worker publishes (d changes) */
		wait_change(v, &s->dev.done_seq, d, &r->inflight_);
	}
	r->slot_ = NULL;
	return r->status;
}

int pv_vault_call(pv_vault *v, pv_req *r)
{
	int rc = pv_vault_submit(v, r);
	if (rc != PV_OK)
		return rc;
	return pv_vault_wait(v, r);
}
