/*
 * pv_vault.c - gpu/vault.h in embedded mode: the vault runs in this process
 * (CPU backend); requests go through the same ring a GPU or pvaultd would
 * serve.  This file is the ring's producer side (ve_ring.h protocol steps
 * 1-4 and 9-11).
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
#include "gpu/client/pv_dclient.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_futex.h"
#include "gpu/core/kc_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pv_vault {
	pv_cpu *cpu;
	pv_dclient *dc;              /* mode = daemon: pvaultd transport */
	uint8_t *ring;
	uint32_t nslots, slot_arena;
	_Atomic uint32_t prod;       /* producer ticket counter (host only) */
	pv_req **owner;              /* request holding each slot (host only) */
	_Atomic uint32_t *reaping;   /* 1 while a thread completes a slot     */
	pid_t pid;
	pv_vault_info info;
};

static int vault_finish_open(pv_vault *v)
{
	v->ring = (uint8_t *)pv_cpu_ring(v->cpu, &v->nslots, &v->slot_arena);
	v->owner = (pv_req **)calloc(v->nslots, sizeof *v->owner);
	v->reaping = (_Atomic uint32_t *)calloc(v->nslots, sizeof *v->reaping);
	if (v->owner == NULL || v->reaping == NULL)
		return PV_ERR_NOMEM;
	v->pid = getpid();
	memset(&v->info, 0, sizeof v->info);
	snprintf(v->info.backend, sizeof v->info.backend, "cpu");
	snprintf(v->info.device, sizeof v->info.device, "host CPU, %u worker threads",
	         pv_cpu_workers(v->cpu));
	v->info.sealed = pv_cpu_sealed(v->cpu);
	v->info.seal_reason = pv_cpu_seal_reason(v->cpu);
	v->info.hw = 0;
	v->info.workers = pv_cpu_workers(v->cpu);
	v->info.nslots = v->nslots;
	v->info.max_data = v->slot_arena;
	snprintf(v->info.master_fpr, sizeof v->info.master_fpr, "%s",
	         pv_cpu_master_fpr(v->cpu));
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
	if (conf->backend[0] != '\0' && strcmp(conf->backend, "auto") != 0 &&
	    strcmp(conf->backend, "cpu") != 0)
		return PV_ERR_CONFIG;            /* cuda: not yet */
	v = (pv_vault *)calloc(1, sizeof *v);
	if (v == NULL)
		return PV_ERR_NOMEM;
	rc = pv_cpu_open_conf(conf, &v->cpu);
	if (rc != PV_OK) {
		free(v);
		return rc;
	}
	if ((rc = vault_finish_open(v)) != PV_OK) {
		pv_vault_close(v);
		return rc;
	}
	*out = v;
	return PV_OK;
}

int pv_vault_open_key(const uint8_t *master, size_t master_len, uint32_t workers,
                      uint32_t nslots, uint32_t max_data, pv_vault **out)
{
	pv_cpu_params p;
	pv_vault *v;
	int rc;

	*out = NULL;
	v = (pv_vault *)calloc(1, sizeof *v);
	if (v == NULL)
		return PV_ERR_NOMEM;
	memset(&p, 0, sizeof p);
	p.master = master;
	p.master_len = master_len;
	p.workers = workers;
	p.nslots = nslots;
	p.slot_arena = max_data;
	rc = pv_cpu_open(&p, &v->cpu);
	if (rc != PV_OK) {
		free(v);
		return rc;
	}
	if ((rc = vault_finish_open(v)) != PV_OK) {
		pv_vault_close(v);
		return rc;
	}
	*out = v;
	return PV_OK;
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
		{
			int spin;
			for (spin = 0; spin < 64 && pv_load_acq(&s->dev.done_seq) == d; spin++)
#if defined(__x86_64__) || defined(__i386__)
				__builtin_ia32_pause();
#else
				;
#endif
			if (pv_load_acq(&s->dev.done_seq) == d && pv_load_acq(&r->inflight_) != 0u)
				pv_futex_wait(&s->dev.done_seq, d, 100);
		}
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
