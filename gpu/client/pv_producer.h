/*
 * pv_producer.h - the producer side of the vault's request ring
 * (gpu/engine/ve_ring.h steps 1-3 and 8-9), shared by the embedded vault
 * (pv_vault.c: the CPU backend's threads or the CUDA kernel are the worker)
 * and the pvaultd transport (pv_dclient.c: the daemon is the worker).
 * Internal to gpu/client.
 *
 * A producer takes any free slot of its pool (slots, host memory
 * only), then the next ticket.  Completion ("reaping": copy the outputs
 * into the owner's pv_req, wipe the slot's arena, give the slot back) may
 * be done by any thread: by the owner in pvp_wait, or by a producer that
 * finds no free slot and a finished request in one.  So threads that each
 * hold submitted-but-not-waited requests and block in submit cannot
 * deadlock: every published request completes (workers need nothing from
 * producers) and every completed slot can be freed by whoever needs it.
 *
 * Output lengths are bounded by the spans the producer laid out (the
 * worker may be another process).
 */
#ifndef PV_PRODUCER_H
#define PV_PRODUCER_H

#include <stdatomic.h>
#include <stdint.h>

#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_slots.h"
#include "gpu/vault.h"

/* The words that every submit or completion writes lie apart from each
 * other and from the fields that every call only reads (PV_APART):
 * packed together, each ticket one thread took made the next call of
 * every other thread miss on ring, nslots and slots. */
typedef struct pv_producer {
	uint8_t *ring;
	uint32_t nslots, slot_arena;
	int gpu;                     /* the worker cannot FUTEX_WAKE: poll first */
	int scope;                   /* the ring's futexes: PV_FUTEX_PRIVATE / _SHARED */
	struct pv_slot_st *slots;    /* per slot: busy, reaping, owner (pv_slots.h) */
	struct pv_ringstat *stats;   /* PIXELVAULT_RING_STATS, or NULL          */
	uint32_t max_polling;        /* PV_MAX_POLLING: the rest sleep at once  */
	/* set after pvp_attach when no worker threads may exist: runs the
	 * request just published (ticket t in slot) in the submitting thread */
	void (*exec)(void *ctx, void *slot, uint32_t t);
	void *exec_ctx;
	/* set after pvp_attach by a backend whose worker keeps a private copy
	 * of each slot's arena (CUDA: pv_cuda_stage): for a request with at
	 * least stage_min bytes of inputs, copies arena bytes [0, bytes) of
	 * slot there before the ticket is taken (ve_ring.h staged_len);
	 * PV_OK, or an error (the request then goes as if unstaged) */
	int (*stage)(void *ctx, uint32_t slot, uint32_t bytes);
	void *stage_ctx;
	uint32_t stage_min;
	PV_APART(apart0_);
	_Atomic uint32_t prod;       /* ticket counter                          */
	PV_APART(apart1_);
	_Atomic uint32_t inflight;   /* submitted, not yet completed            */
	PV_APART(apart2_);
	_Atomic uint32_t slot_sleepers; /* producers asleep on slot_gen         */
	uint32_t slot_gen;           /* +1 per slot given back (futex word)     */
	PV_APART(apart3_);
	_Atomic uint32_t polling;    /* waiters polling a GPU slot now          */
	PV_APART(apart4_);
} pv_producer;

/* 1 when the worker is gone for good (pvaultd's connection dropped); the
 * waits then give up with PV_ERR_REMOVED.  NULL: in-process workers. */
typedef int (*pvp_lost_fn)(void *arg);

/* Use ring (ve_ring.h layout, ve_ring_init'ed by its worker side);
 * again after a reconnect, with nothing in flight.  scope: the futexes
 * its worker sleeps and wakes on (pv_futex.h; PV_FUTEX_SHARED when the
 * worker is another process).  PV_ERR_ARGS (not ve_ring.h's geometry),
 * PV_ERR_NOMEM. */
int pvp_attach(pv_producer *p, void *ring, uint32_t nslots, uint32_t slot_arena, int gpu, int scope);
void pvp_release(pv_producer *p);

/* Steps 1-3: check and lay out r, take a free slot (completing finished
 * requests on their owners' behalf), copy the inputs, take a ticket,
 * publish.  block = 0: PV_ERR_BUSY instead of waiting for a slot. */
int pvp_submit(pv_producer *p, pv_req *r, int block, pvp_lost_fn lost, void *arg);
/* 1 if r has completed (pvp_wait will not block). */
int pvp_done(const pv_req *r);
/* Steps 8-9 for r; returns r->status. */
int pvp_wait(pv_producer *p, pv_req *r, pvp_lost_fn lost, void *arg);

#endif
