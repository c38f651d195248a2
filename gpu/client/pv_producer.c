/* pv_producer.c - the ring's producer side (pv_producer.h). */
#include "gpu/client/pv_producer.h"
#include "gpu/client/pv_ringstat.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_bulk.h"
#include "gpu/host/pv_secstack.h"
#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_slots.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Waiters that may poll a GPU slot at once, for n CPUs. */
#define PV_MAX_POLLING(n) ((n) / 2u > 0 ? (n) / 2u : 1u)

static uint32_t pvp_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (uint32_t)n : 1u;
}

int pvp_attach(pv_producer *p, void *ring, uint32_t nslots, uint32_t slot_arena, int gpu, int scope)
{
	/* ve_ring.h's geometry: slots a power of two, arenas a multiple of 64
	 * bytes (every slot header then stays aligned) */
	if (nslots == 0u || (nslots & (nslots - 1u)) != 0u || slot_arena < 64u || slot_arena % 64u != 0u)
		return PV_ERR_ARGS;
	if (p->slots == NULL || nslots != p->nslots) {
		pvp_release(p);
		if ((p->slots = pv_slots_new(nslots)) == NULL)
			return PV_ERR_NOMEM;
	} else {
		memset((void *)p->slots, 0, nslots * sizeof *p->slots);
	}
	p->ring = (uint8_t *)ring;
	p->nslots = nslots;
	p->slot_arena = slot_arena;
	p->gpu = gpu;
	p->scope = scope;
	if (p->stats == NULL)
		p->stats = pvrs_open();
	p->max_polling = PV_MAX_POLLING(pvp_cpus());
	atomic_store(&p->prod, 0u);
	atomic_store(&p->inflight, 0u);
	return PV_OK;
}

void pvp_release(pv_producer *p)
{
	pvrs_close(p->stats, p->gpu ? "GPU" : "CPU");
	p->stats = NULL;
	free(p->slots);
	p->slots = NULL;
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

static int check_in(const void *ptr, size_t n)
{
	return (ptr == NULL && n != 0) ? PV_ERR_ARGS : PV_OK;
}

static int reap(pv_producer *p, uint32_t si, uint32_t t, const pv_req *self);

/* 1 if the worker may write d's output over its plaintext in the host
 * arena (ve_ring.h out_at): an encryption with no other output. */
static int overwrites_plaintext(const ve_desc *d)
{
	return d->op == PV_OP_ENCRYPT && d->in.len != 0 && d->out2.len == 0 && d->state_out.len == 0;
}

/* Inputs [0, n) of slot si to the worker's own copy (p->stage); then none
 * of them stays in host memory: an encryption's plaintext is left where
 * the worker writes the ciphertext over it, the rest is wiped now. */
static void stage_inputs(pv_producer *p, ve_slot *s, uint32_t si, const ve_desc *d, uint32_t n)
{
	uint8_t *a = ve_slot_arena(s);

	if (p->stage(p->stage_ctx, si, n) != PV_OK)
		return;
	if (overwrites_plaintext(d)) {
		pv_bulk_wipe(a, d->in.off);
		pv_bulk_wipe(a + d->in.off + d->in.len, n - d->in.off - d->in.len);
		s->host.out_at = d->in.off;
	} else {
		pv_bulk_wipe(a, n);
	}
	s->host.staged_len = n;
}

/* Give slot si back; wake a producer that sleeps for one (pv_slots.h). */
static void give_slot(pv_producer *p, uint32_t si)
{
	pv_slot_give_wake(p->slots, si, &p->slot_sleepers, &p->slot_gen);
}

/* Complete one finished request on its owner's behalf; 1 if one was. */
static int reap_any(pv_producer *p)
{
	uint32_t i;

	for (i = 0; i < p->nslots; i++) {
		ve_slot *s = ve_ring_slot(p->ring, p->nslots, p->slot_arena, i);
		uint32_t r = pv_load_acq(&s->host.ready_seq);
		if (r != 0u && pv_load_acq(&s->dev.done_seq) == r &&
		    atomic_load_explicit(&p->slots[i].busy, memory_order_relaxed) != 0u &&
		    reap(p, i, r - 1u, NULL))
			return 1;
	}
	return 0;
}

int pvp_submit(pv_producer *p, pv_req *r, int block, pvp_lost_fn lost, void *arg)
{
	ve_desc d;
	ve_slot *s;
	ve_tix *e;
	uint8_t *a;
	uint64_t pos = 0, in_end;
	uint32_t t, si;
	int rc = PV_OK;

	if (pv_load_acq(&r->inflight_))
		return r->status = PV_ERR_STATE;
	if (check_in(r->key, r->key_len) || check_in(r->key2, r->key2_len) ||
	    check_in(r->iv, r->iv_len) || check_in(r->aad, r->aad_len) ||
	    check_in(r->salt, r->salt_len) || check_in(r->in, r->in_len) ||
	    check_in(r->in2, r->in2_len) || check_in(r->state, r->state_len) ||
	    check_in(r->out, r->out_cap) || check_in(r->out2, r->out2_cap) ||
	    check_in(r->state_out, r->state_out_cap) || check_in(r->ticket, r->ticket_len) ||
	    check_in(r->mechs, r->mechs_len) || check_in(r->new_mechs, r->new_mechs_len))
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
	memcpy(d.token_id, r->token_id, PV_OBJ_ID_LEN);
	d.new_policy = r->new_policy; d.who = r->who;
	if ((rc = lay(&d.key, r->key_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.ticket, r->ticket_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.mechs, r->mechs_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.new_mechs, r->new_mechs_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.key2, r->key2_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.iv, r->iv_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.aad, r->aad_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.salt, r->salt_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.in, r->in_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.in2, r->in2_len, &pos, p->slot_arena)) ||
	    (rc = lay(&d.state, r->state_len, &pos, p->slot_arena)))
		return r->status = rc;
	in_end = pos;       /* the inputs come first */
	if ((rc = lay(&d.out, r->out_cap, &pos, p->slot_arena)) ||
	    (rc = lay(&d.out2, r->out2_cap, &pos, p->slot_arena)) ||
	    (rc = lay(&d.state_out, r->state_out_cap, &pos, p->slot_arena)))
		return r->status = rc;
	if (pos > p->slot_arena)
		pos = p->slot_arena;

	/* 1: a free slot; if there is none, complete a finished request on
	 * its owner's behalf, or sleep until a slot is given back */
	for (;;) {
		if (lost != NULL && lost(arg))
			return r->status = PV_ERR_REMOVED;
		if ((si = pv_slot_take(p->slots, p->nslots)) != UINT32_MAX)
			break;
		if (reap_any(p))
			continue;
		if (!block)
			return r->status = PV_ERR_BUSY;
		if ((si = pv_slot_sleep_take(p->slots, p->nslots, pv_slot_start() & (p->nslots - 1u),
		                             &p->slot_sleepers, &p->slot_gen, 2)) != UINT32_MAX)
			break;
	}
	s = ve_ring_slot(p->ring, p->nslots, p->slot_arena, si);

	/* inputs + descriptor */
	a = ve_slot_arena(s);
#define PUT(span, src) do { if ((span).len) pv_bulk_copy(a + (span).off, (src), (span).len); } while (0)
	PUT(d.key, r->key);
	PUT(d.key2, r->key2);
	PUT(d.iv, r->iv);
	PUT(d.aad, r->aad);
	PUT(d.salt, r->salt);
	PUT(d.in, r->in);
	PUT(d.in2, r->in2);
	PUT(d.state, r->state);
	PUT(d.ticket, r->ticket);
	PUT(d.mechs, r->mechs);
	PUT(d.new_mechs, r->new_mechs);
#undef PUT
	/* an imported key's bytes were in this thread's vector registers,
	 * where they would stay while it waits for the vault */
	pv_secstack_scrub();
	s->desc = d;
	s->host.wipe_len = (uint32_t)pos;    /* bytes to wipe after completion */
	s->host.staged_len = 0;
	s->host.out_at = d.out.off;
	if (p->stage != NULL && in_end != 0 && in_end >= p->stage_min)
		stage_inputs(p, s, si, &d, (uint32_t)in_end);

	/* 2: the next ticket.  Its entry is free (ve_ring.h: the tickets not
	 * yet claimed hold a slot each); the wait only covers a worker
	 * between its claim and its taken store. */
	for (;;) {
		t = atomic_load_explicit(&p->prod, memory_order_relaxed);
		if (pv_load_acq(ve_ring_taken(p->ring, p->nslots, t)) == t - VE_RING_TIX(p->nslots) + 1u) {
			if (atomic_compare_exchange_weak_explicit(&p->prod, &t, t + 1u,
			        memory_order_acq_rel, memory_order_relaxed))
				break;
			continue;
		}
		sched_yield();
	}
	r->ticket_ = t;
	r->slot_ = s;
	r->status = PV_OK;
	atomic_fetch_add(&p->inflight, 1u);
	pv_store_rel(&r->inflight_, 1u);
	pv_store_rel(&s->host.ready_seq, t + 1u);
	/* after ready_seq (release): a reaper that sees this owner sees
	 * ready_seq = t + 1, not the slot's previous ticket (reap) */
	__atomic_store_n(&p->slots[si].owner, (void *)r, __ATOMIC_RELEASE);
	if (p->stats != NULL)
		r->t_pub_ = pvrs_now();
	/* 3: publish */
	e = ve_ring_tix(p->ring, p->nslots, t);
	e->slot = si;
	pv_store_rel(&e->ready_seq, t + 1u);
	if (p->exec != NULL)
		p->exec(p->exec_ctx, s, t);   /* inline: no worker threads */
	else if (!p->gpu)
		pv_futex_wake(&e->ready_seq, p->scope);
	return PV_OK;
}

/* Step 9's wipe of a slot's arena (its wipe_len bytes, at most cap)
 * after its outputs were taken.  Everything but a successful encryption's ciphertext: those
 * out_len bytes are public and now in the caller's buffer, and for a
 * 1 MiB GCM request they are half the arena - on a GPU host the
 * producer's copies and wipes, not the GPU, bound that rate
 * (docs/benchmarks.md).  The rest of that span (scratch), the inputs (the
 * plaintext), the state and every other op's outputs are wiped
 * (pv_bulk_wipe: explicit_bzero, or non-temporal stores from
 * PV_BULK_MIN bytes on).  A staged request's inputs were wiped when they
 * were staged; if its ciphertext went over its plaintext (out_at), only
 * the plaintext the worker did not overwrite is left to wipe. */
static void wipe_arena(uint8_t *a, uint32_t cap, const ve_slot_host *h, const ve_desc *d,
                       const ve_result *res)
{
	const uint64_t n = res->out_len, used = h->wipe_len <= cap ? h->wipe_len : cap;
	const int kept = d->op == PV_OP_ENCRYPT && res->status == PV_OK && n > 0 && n <= d->out.len;
	uint64_t lo = 0, hi = used, at = d->out.off;

	if (h->staged_len != 0 && h->out_at != d->out.off) {
		lo = at = h->out_at;            /* = d->in.off: stage_inputs */
		hi = lo + (kept && n > d->in.len ? n : d->in.len);
	} else if (h->staged_len != 0) {
		lo = h->staged_len;
	}
	if (hi > used)
		hi = used;
	if (kept && at >= lo && at + n <= hi) {
		pv_bulk_wipe(a + lo, (size_t)(at - lo));
		pv_bulk_wipe(a + at + n, (size_t)(hi - at - n));
	} else if (hi > lo) {
		pv_bulk_wipe(a + lo, (size_t)(hi - lo));
	}
}

static size_t take_out(uint8_t *dst, size_t cap, const uint8_t *src, uint32_t n, uint32_t span)
{
	size_t m = n <= span ? n : span;
	if (m > cap)
		m = cap;
	if (m)
		pv_bulk_copy(dst, src, m);
	return m;
}

/* Steps 8-9 for the request with ticket t in slot si, if it has completed
 * and nobody else is completing it.  Returns 1 if this thread did it.
 * self: the request this thread waits for (pvp_wait), or NULL; its owner
 * sleeps on inflight_ only in pvp_wait, so completing self needs no wake. */
static int reap(pv_producer *p, uint32_t si, uint32_t t, const pv_req *self)
{
	ve_slot *s = ve_ring_slot(p->ring, p->nslots, p->slot_arena, si);
	uint32_t zero = 0, out_at;
	ve_result res;
	ve_desc d;
	pv_req *r;
	uint8_t *a;

	if (!atomic_compare_exchange_strong_explicit(&p->slots[si].reaping, &zero, 1u,
	        memory_order_acquire, memory_order_relaxed))
		return 0;
	/* the owner first: its ready_seq store came before it (submit) */
	r = (pv_req *)__atomic_load_n(&p->slots[si].owner, __ATOMIC_ACQUIRE);
	if (r == NULL || r->ticket_ != t || pv_load_acq(&s->host.ready_seq) != t + 1u ||
	    pv_load_acq(&s->dev.done_seq) != t + 1u) {
		atomic_store_explicit(&p->slots[si].reaping, 0u, memory_order_release);
		return 0;
	}
	__atomic_store_n(&p->slots[si].owner, NULL, __ATOMIC_RELAXED);
	res = s->dev.res;
	d = s->desc;
	a = ve_slot_arena(s);
	/* where the worker put the out span's bytes (ve_ring.h out_at) */
	out_at = s->host.staged_len != 0 ? s->host.out_at : d.out.off;
	r->status = res.status;
	r->out_len = res.out_len;
	r->out2_len = res.out2_len;
	r->state_out_len = res.state_len;
	if (res.status == PV_OK) {
		r->out_len = take_out(r->out, r->out_cap, a + out_at, res.out_len, d.out.len);
		r->out2_len = take_out(r->out2, r->out2_cap, a + d.out2.off, res.out2_len, d.out2.len);
		r->state_out_len = take_out(r->state_out, r->state_out_cap, a + d.state_out.off,
		                            res.state_len, d.state_out.len);
	}
	wipe_arena(a, p->slot_arena, &s->host, &d, &res);
	if (p->stats != NULL)
		pvrs_add(p->stats, r->t_pub_, s->dev.t_claim, s->dev.t_done, pvrs_now());
	atomic_fetch_sub(&p->inflight, 1u);
	/* the owner may return as soon as it sees this */
	pv_store_rel(&r->inflight_, 0u);
	if (r != self)
		pv_futex_wake(&r->inflight_, PV_FUTEX_PRIVATE);
	/* 9: the slot back to the pool */
	atomic_store_explicit(&p->slots[si].reaping, 0u, memory_order_release);
	give_slot(p, si);
	return 1;
}

/* The index of slot s. */
static uint32_t slot_index(const pv_producer *p, const ve_slot *s)
{
	return (uint32_t)(((const uint8_t *)s - p->ring - ve_ring_slots_off(p->nslots)) /
	                  ((uint64_t)VE_SLOT_HDR + p->slot_arena));
}

int pvp_done(const pv_req *r)
{
	const ve_slot *s = (const ve_slot *)r->slot_;
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

/* Until *word != seen or *busy == 0: for a CPU worker spin a little; a
 * CPU worker's (or pvaultd's) FUTEX_WAKE ends the sleep.  For the GPU, a
 * bounded number of waiters (PV_MAX_POLLING) poll the word - yielding the
 * core for 2 ms, then in 50 us naps, for up to 100 ms - so that a lone
 * request never waits for pv_cuda's watchdog (~1 ms when idle); more
 * would take the cores from the threads that have work, and under load
 * nobody polls.  The others sleep until their wake, which comes
 * within ~20 us while completions flow. */
static void wait_change(pv_producer *p, ve_slot *s, uint32_t seen, const uint32_t *busy)
{
	uint32_t *word = &s->dev.done_seq;
	int spin;

	/* a CPU worker may answer within a few us; a GPU request takes 100
	 * us and more, so spinning first there only burns what another
	 * waiter needs (64 pauses are a few us on some x86 cores) */
	for (spin = 0; !p->gpu && spin < 64 && pv_load_acq(word) == seen; spin++)
		cpu_relax();
	/* under load (more requests in flight than twice the pollers)
	 * nobody polls, nor touches the pollers' count or the clock: the
	 * wakers answer within ~20 us then, and the cores go to the threads
	 * that have work */
	if (p->gpu && pv_load_acq(word) == seen &&
	    atomic_load_explicit(&p->inflight, memory_order_relaxed) <= 2u * p->max_polling) {
		if (atomic_fetch_add_explicit(&p->polling, 1u, memory_order_relaxed) < p->max_polling) {
			uint64_t t0 = now_ns(), t;
			struct timespec nap = { 0, 50000 };

			while (pv_load_acq(word) == seen && pv_load_acq(busy) != 0u) {
				for (spin = 0; spin < 32 && pv_load_acq(word) == seen; spin++)
					cpu_relax();
				if (pv_load_acq(word) != seen || (t = now_ns() - t0) > 100000000u)
					break;      /* (then the caller looks at its worker) */
				if (t < 2000000u)
					sched_yield();
				else
					nanosleep(&nap, NULL);
			}
		}
		atomic_fetch_sub_explicit(&p->polling, 1u, memory_order_relaxed);
		if (pv_load_acq(word) != seen)
			return;
	}
	if (pv_load_acq(word) == seen && pv_load_acq(busy) != 0u)
		pv_futex_wait_counted(word, seen, 100, p->scope, &s->host.sleepers);
}

/* The worker is gone: r will never complete; take it back from its slot. */
static int give_up(pv_producer *p, pv_req *r)
{
	uint32_t idx = slot_index(p, (const ve_slot *)r->slot_), zero = 0;

	if (!atomic_compare_exchange_strong(&p->slots[idx].reaping, &zero, 1u))
		return 0;                        /* being completed: look again */
	if (__atomic_load_n(&p->slots[idx].owner, __ATOMIC_ACQUIRE) == (void *)r &&
	    pv_load_acq(&r->inflight_) != 0u) {
		__atomic_store_n(&p->slots[idx].owner, NULL, __ATOMIC_RELAXED);
		pv_store_rel(&r->inflight_, 0u);
		atomic_fetch_sub(&p->inflight, 1u);
		r->status = PV_ERR_REMOVED;
	}
	atomic_store(&p->slots[idx].reaping, 0u);
	return 1;
}

int pvp_wait(pv_producer *p, pv_req *r, pvp_lost_fn lost, void *arg)
{
	ve_slot *s = (ve_slot *)r->slot_;
	uint32_t t = r->ticket_, d;

	if (s == NULL)
		return r->status;
	for (;;) {
		if (pv_load_acq(&r->inflight_) == 0u)
			break;
		d = pv_load_acq(&s->dev.done_seq);
		if (d == t + 1u) {
			if (!reap(p, slot_index(p, s), t, r))   /* someone else is completing it */
				pv_futex_wait(&r->inflight_, 1u, 5, PV_FUTEX_PRIVATE);
			continue;
		}
		if (lost != NULL && lost(arg)) {
			if (give_up(p, r))
				break;
			pv_futex_wait(&r->inflight_, 1u, 5, PV_FUTEX_PRIVATE);
			continue;
		}
		/* 9: sleep until the worker publishes (d changes) */
		wait_change(p, s, d, &r->inflight_);
	}
	r->slot_ = NULL;
	return r->status;
}
