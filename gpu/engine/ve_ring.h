/*
 * ve_ring.h - the request ring shared by producers (host threads, or
 * pvaultd on behalf of clients) and vault workers (CPU threads or the
 * persistent GPU kernel).
 *
 * Layout (one contiguous region, pinned + mapped for the GPU):
 *
 *   ve_ring_hdr                       4 KiB
 *   ve_tix tix[2 nslots]              8 B each (rounded up to 64 B)
 *   uint32_t taken[2 nslots]          4 B each (rounded up to 64 B)
 *   slot[0] .. slot[nslots-1]         each VE_SLOT_HDR + slot_arena bytes
 *
 *   slot = ve_slot_host (64 B)  words written by the producer only
 *          ve_slot_dev  (64 B)  words written by the worker only
 *          ve_desc      (256 B) written by the producer only
 *          arena        (slot_arena B) inputs by the producer, outputs by
 *                                      the worker (disjoint spans)
 *
 * Tickets give the order, slots hold the requests, and the two are apart:
 * ticket t's entry tix[t & (2 nslots - 1)] names whichever slot its producer
 * took, and the entry is free again as soon as a worker has claimed t, not
 * when the request completes.  So a request that runs for seconds (a key
 * generation) holds its slot and nothing else: no producer waits behind
 * it (docs/vault-engine.md section 2).  There are twice as many entries
 * as slots: a producer takes its slot before its ticket and gives it back
 * only after the request completed, so the tickets taken but not yet
 * claimed hold a slot each, are at most nslots, and entry t - 2 nslots is
 * always free again when ticket t is taken.  Protocol, for request ticket
 * t (a 32-bit counter; nslots is a power of two, e = t & (2 nslots - 1)):
 *   producer  1. takes a free slot s (a pool of the producers' own, in
 *                host memory only), writes desc + arena inputs and
 *                slot.host.ready_seq = t + 1 once it has t (below)
 *             2. claims t (CAS on a producer-side counter) once
 *                taken[e] == t - 2 nslots + 1 (t - 2 nslots claimed)
 *             3. stores tix[e] = { slot s, ready_seq t + 1 } (ready_seq
 *                last, release)
 *             (a producer may also stage the inputs: staged_len below)
 *   worker    4. claims t with fetch_add on its own counter (on the GPU
 *                in device memory; never written by the host)
 *             5. waits until tix[e].ready_seq == t + 1 (acquire), reads
 *                tix[e].slot (< nslots, else the request is dropped),
 *                stores taken[e] = t + 1 (release)
 *             6. copies + validates the descriptor, executes, writes
 *                arena outputs and slot[s].dev.res
 *             7. stores slot[s].dev.done_seq = t + 1      (release)
 *   producer  8. waits until done_seq == t + 1            (acquire)
 *             9. copies outputs, wipes the used arena, returns s to
 *                the pool
 * Every shared word has exactly one writer side, so no host/device
 * read-modify-write on a shared word is needed (PCIe-safe).
 * hdr.stop is written by the host only (1 = workers exit).
 */
#ifndef VE_RING_H
#define VE_RING_H

#include "ve_proto.h"

#define VE_RING_MAGIC   0x50565247u   /* "PVRG" */
#define VE_RING_VERSION 2u
#define VE_RING_HDR     4096u
#define VE_SLOT_HDR     (64u + 64u + 256u)
#define VE_RING_TIX(nslots) (2u * (nslots))   /* ticket entries */

typedef struct ve_ring_hdr {
	uint32_t magic, version;
	uint32_t nslots;               /* power of two                          */
	uint32_t slot_arena;           /* arena bytes per slot (multiple of 64) */
	uint32_t stop;                 /* host writes; workers read             */
	uint32_t rsv[11];
} ve_ring_hdr;

/* staged_len and out_at: a producer whose worker keeps a private copy of
 * the arena (the CUDA backend's device arena) may have the inputs put
 * there itself before it publishes (by the copy engine: docs/benchmarks.md,
 * GCM 1 MiB).  Arena bytes [0, staged_len) are then in that copy already
 * and the worker copies only what lies past them; the out span's bytes go
 * back to the host arena at out_at instead of desc.out.off (an encryption
 * writes its ciphertext over its plaintext there, so the host never wipes
 * that plaintext).  staged_len = 0: nothing staged, out_at unused.  The
 * CPU backend's producers never stage. */
typedef struct ve_slot_host {
	uint32_t ready_seq;            /* ticket + 1 of the request in the slot */
	uint32_t wipe_len;             /* the producer's bytes to wipe          */
	uint32_t staged_len;           /* see above; a multiple of 16           */
	uint32_t out_at;               /* see above; a multiple of 16           */
	/* host only: producers asleep on dev.done_seq (pv_futex_wait_counted);
	 * its wakers skip the FUTEX_WAKE while it is 0 (pvaultd reads a
	 * client's: a wrong count only delays that client's own wakes, to
	 * its sleeps' 100 ms timeout) */
	uint32_t sleepers;
	uint32_t rsv[11];
} ve_slot_host;

/* Ticket t's entry: which slot holds it, and t + 1 once it is published
 * (written by producers; ready_seq last, with release). */
typedef struct ve_tix {
	uint32_t ready_seq;
	uint32_t slot;
} ve_tix;

typedef struct ve_slot_dev {
	uint32_t done_seq;             /* ticket + 1 once its result is ready   */
	uint32_t rsv0[3];
	ve_result res;
	/* the GPU's %globaltimer when a block claimed the request and just
	 * before done_seq (pv_ringstat.h); the CPU backend leaves them 0 */
	uint64_t t_claim, t_done;
	uint32_t rsv1[4];
} ve_slot_dev;

typedef struct ve_slot {
	ve_slot_host host;
	ve_slot_dev dev;
	ve_desc desc;
	/* uint8_t arena[slot_arena] follows */
} ve_slot;

KC_PRIV uint64_t ve_ring_r64(uint64_t n) { return (n + 63u) & ~(uint64_t)63u; }

/* Bytes before slot 0: the header and the two entry arrays. */
KC_PRIV uint64_t ve_ring_slots_off(uint32_t nslots)
{
	return (uint64_t)VE_RING_HDR + ve_ring_r64((uint64_t)VE_RING_TIX(nslots) * sizeof(ve_tix)) +
	       ve_ring_r64((uint64_t)VE_RING_TIX(nslots) * sizeof(uint32_t));
}

/* Total bytes of a ring. */
KC_PRIV uint64_t ve_ring_bytes(uint32_t nslots, uint32_t slot_arena)
{
	return ve_ring_slots_off(nslots) + (uint64_t)nslots * ((uint64_t)VE_SLOT_HDR + slot_arena);
}

/* Ticket t's entry (producers write it). */
KC_PRIV ve_tix *ve_ring_tix(void *ring, uint32_t nslots, uint32_t t)
{
	return (ve_tix *)((uint8_t *)ring + VE_RING_HDR) + (t & (VE_RING_TIX(nslots) - 1u));
}

/* Ticket t's taken word (workers write it). */
KC_PRIV uint32_t *ve_ring_taken(void *ring, uint32_t nslots, uint32_t t)
{
	return (uint32_t *)((uint8_t *)ring + VE_RING_HDR +
	                    ve_ring_r64((uint64_t)VE_RING_TIX(nslots) * sizeof(ve_tix))) +
	       (t & (VE_RING_TIX(nslots) - 1u));
}

/* Slot i (i < nslots). */
KC_PRIV ve_slot *ve_ring_slot(void *ring, uint32_t nslots, uint32_t slot_arena, uint32_t i)
{
	return (ve_slot *)((uint8_t *)ring + ve_ring_slots_off(nslots) +
	                   (uint64_t)(i & (nslots - 1u)) * ((uint64_t)VE_SLOT_HDR + slot_arena));
}

/* A zeroed ring's header and taken words: every entry free for the first
 * tickets (taken[e] = e - 2 nslots + 1: "ticket e - 2 nslots claimed"). */
KC_PRIV void ve_ring_init(void *ring, uint32_t nslots, uint32_t slot_arena)
{
	ve_ring_hdr *h = (ve_ring_hdr *)ring;
	uint32_t e;

	h->magic = VE_RING_MAGIC;
	h->version = VE_RING_VERSION;
	h->nslots = nslots;
	h->slot_arena = slot_arena;
	for (e = 0; e < VE_RING_TIX(nslots); e++)
		*ve_ring_taken(ring, nslots, e) = e - VE_RING_TIX(nslots) + 1u;
}

KC_PRIV uint8_t *ve_slot_arena(ve_slot *s)
{
	return (uint8_t *)s + VE_SLOT_HDR;
}

#endif /* VE_RING_H */
