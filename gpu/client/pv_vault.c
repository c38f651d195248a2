/*
 * pv_vault.c - gpu/vault.h in embedded mode: the vault runs in this process
 * (CPU backend); requests go through the same ring a GPU or pvaultd would
 * serve.  This file is the ring's producer side (ve_ring.h protocol steps
 * 1-4 and 9-11).
 */
#include "gpu/vault.h"
#include "gpu/cpu/pv_cpu.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_futex.h"
#include "gpu/core/kc_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pv_vault {
	pv_cpu *cpu;
	uint8_t *ring;
	uint32_t nslots, slot_arena;
	_Atomic uint32_t prod;       /* producer ticket counter (host only) */
	pid_t pid;
	pv_vault_info info;
};

static int vault_finish_open(pv_vault *v)
{
	v->ring = (uint8_t *)pv_cpu_ring(v->cpu, &v->nslots, &v->slot_arena);
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
	return PV_OK;
}

int pv_vault_open(const pv_conf *conf, pv_vault **out)
{
	pv_vault *v;
	int rc;

	*out = NULL;
	if (conf == NULL)
		return PV_ERR_ARGS;
	if (conf->mode[0] != '\0' && strcmp(conf->mode, "embedded") != 0)
		return PV_ERR_CONFIG;            /* daemon transport: not yet */
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
	vault_finish_open(v);
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
	vault_finish_open(v);
	*out = v;
	return PV_OK;
}

void pv_vault_close(pv_vault *v)
{
	if (v == NULL)
		return;
	pv_cpu_close(v->cpu);
	free(v);
}

int pv_vault_get_info(pv_vault *v, pv_vault_info *info)
{
	if (v == NULL || info == NULL)
		return PV_ERR_ARGS;
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
	if (getpid() != v->pid)
		return r->status = PV_ERR_REMOVED;
	if (r->inflight_)
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

	/* 1-2: claim a ticket whose slot is free */
	for (;;) {
		uint32_t fs;
		t = atomic_load_explicit(&v->prod, memory_order_relaxed);
		s = ve_ring_slot(v->ring, v->nslots, v->slot_arena, t);
		fs = pv_load_acq(&s->host.free_seq);
		if (fs == t) {
			if (atomic_compare_exchange_weak_explicit(&v->prod, &t, t + 1u,
			        memory_order_acq_rel, memory_order_relaxed))
				break;
			continue;
		}
		if (!block)
			return r->status = PV_ERR_BUSY;
		pv_futex_wait(&s->host.free_seq, fs, 50);
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
	/* 4: publish */
	pv_store_rel(&s->host.ready_seq, t + 1u);
	pv_futex_wake(&s->host.ready_seq);
	r->ticket_ = t;
	r->slot_ = s;
	r->inflight_ = 1;
	r->status = PV_OK;
	return PV_OK;
}

int pv_vault_submit(pv_vault *v, pv_req *r) { return vault_submit(v, r, 1); }
int pv_vault_try_submit(pv_vault *v, pv_req *r) { return vault_submit(v, r, 0); }

int pv_vault_done(pv_vault *v, const pv_req *r)
{
	const ve_slot *s = (const ve_slot *)r->slot_;
	(void)v;
	if (!r->inflight_)
		return 1;
	return pv_load_acq(&s->dev.done_seq) == r->ticket_ + 1u;
}

static size_t take_out(uint8_t *dst, size_t cap, const uint8_t *src, uint32_t n)
{
	size_t m = n <= cap ? n : cap;
	if (m)
		memcpy(dst, src, m);
	return m;
}

int pv_vault_wait(pv_vault *v, pv_req *r)
{
	ve_slot *s;
	ve_result res;
	uint8_t *a;
	uint32_t t;

	if (v == NULL || r == NULL)
		return PV_ERR_ARGS;
	if (!r->inflight_)
		return r->status;
	s = (ve_slot *)r->slot_;
	t = r->ticket_;
	/* 9 */
	(void)pv_wait_eq(&s->dev.done_seq, t + 1u, NULL, 1000);
	res = s->dev.res;
	a = ve_slot_arena(s);
	r->status = res.status;
	r->out_len = res.out_len;
	r->out2_len = res.out2_len;
	r->state_out_len = res.state_len;
	/* 10 */
	if (res.status == PV_OK) {
		r->out_len = take_out(r->out, r->out_cap, a + s->desc.out.off, res.out_len);
		r->out2_len = take_out(r->out2, r->out2_cap, a + s->desc.out2.off, res.out2_len);
		r->state_out_len = take_out(r->state_out, r->state_out_cap,
		                            a + s->desc.state_out.off, res.state_len);
	}
	kc_wipe(a, s->host.rsv[0] <= v->slot_arena ? s->host.rsv[0] : v->slot_arena);
	/* 11 */
	pv_store_rel(&s->host.free_seq, t + v->nslots);
	pv_futex_wake(&s->host.free_seq);
	r->inflight_ = 0;
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
