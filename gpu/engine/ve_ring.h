/*
 * ve_ring.h - the request ring shared by producers (host threads, or
 * pvaultd on behalf of clients) and vault workers (CPU threads or the
 * persistent GPU kernel).
 *
 * Layout (one contiguous region, pinned + mapped for the GPU):
 *
 *   ve_ring_hdr                       4 KiB
 *   slot[0] .. slot[nslots-1]         each VE_SLOT_HDR + slot_arena bytes
 *
 *   slot = ve_slot_host (64 B)  words written by the producer only
 *          ve_slot_dev  (64 B)  words written by the worker only
 *          ve_desc      (256 B) written by the producer only
 *          arena        (slot_arena B) inputs by the producer, outputs by
 *                                      the worker (disjoint spans)
 *
 * Protocol, for request ticket t (a 32-bit counter; nslots is a power of
 * two, slot s = t & (nslots-1)):
 *   producer  1. waits until slot[s].host.free_seq == t   (acquire)
 *             2. claims t (CAS on a producer-side counter that only
 *                producers touch; it does not live in the shared ring)
 *             3. writes desc + arena inputs
 *             4. stores slot[s].host.ready_seq = t + 1    (release)
 *   worker    5. claims t with fetch_add on its own counter (on the GPU
 *                in device memory; never written by the host)
 *             6. waits until ready_seq == t + 1           (acquire)
 *             7. copies + validates the descriptor, executes, writes
 *                arena outputs and slot[s].dev.res
 *             8. stores slot[s].dev.done_seq = t + 1      (release)
 *   producer  9. waits until done_seq == t + 1            (acquire)
 *            10. copies outputs, wipes the used arena
 *            11. stores free_seq = t + nslots             (release)
 * Every shared word has exactly one writer side, so no host/device
 * read-modify-write on a shared word is needed (PCIe-safe).
 * hdr.stop is written by the host only (1 = workers exit).
 */
#ifndef VE_RING_H
#define VE_RING_H

#include "ve_proto.h"

#define VE_RING_MAGIC   0x50565247u   /* "PVRG" */
#define VE_RING_VERSION 1u
#define VE_RING_HDR     4096u
#define VE_SLOT_HDR     (64u + 64u + 256u)

typedef struct ve_ring_hdr {
	uint32_t magic, version;
	uint32_t nslots;               /* power of two                          */
	uint32_t slot_arena;           /* arena bytes per slot (multiple of 64) */
	uint32_t stop;                 /* host writes; workers read             */
	uint32_t rsv[11];
} ve_ring_hdr;

typedef struct ve_slot_host {
	uint32_t free_seq;             /* ticket allowed to use the slot next   */
	uint32_t ready_seq;            /* ticket + 1 once its request is ready  */
	uint32_t rsv[14];
} ve_slot_host;

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

/* Total bytes of a ring. */
KC_PRIV uint64_t ve_ring_bytes(uint32_t nslots, uint32_t slot_arena)
{
	return (uint64_t)VE_RING_HDR + (uint64_t)nslots * ((uint64_t)VE_SLOT_HDR + slot_arena);
}

KC_PRIV ve_slot *ve_ring_slot(void *ring, uint32_t nslots, uint32_t slot_arena, uint32_t ticket)
{
	uint32_t s = ticket & (nslots - 1u);
	return (ve_slot *)((uint8_t *)ring + VE_RING_HDR +
	                   (uint64_t)s * ((uint64_t)VE_SLOT_HDR + slot_arena));
}

KC_PRIV uint8_t *ve_slot_arena(ve_slot *s)
{
	return (uint8_t *)s + VE_SLOT_HDR;
}

#endif /* VE_RING_H */
