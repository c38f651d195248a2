/*
 * pvc_ring.h - what the CUDA backend adds around the engine's request ring
 * (gpu/engine/ve_ring.h, the contract shared with gpu/client and the CPU
 * backend).
 *
 * The ring itself lives in pinned, mapped host memory (cudaHostAlloc with
 * cudaHostAllocMapped) and is shared with the persistent vault kernel over
 * PCIe.  The GPU normally lacks cudaDevAttrHostNativeAtomicSupported, so no
 * shared word is read-modify-written by both sides (ve_ring.h gives every
 * word one writer side):
 *
 *   producers  hdr.stop, the ticket entries tix[], slot.host.ready_seq,
 *              slot.desc, the input spans of the slot arena;
 *   GPU        the taken[] words, slot.dev.{res, done_seq}, the output spans
 *              of the arena, and pvc_gpu_status below (its own mapped
 *              page).
 *
 * The claim counter the GPU blocks race on lives in device memory
 * (pvc_devstate) and is touched by the GPU only.
 *
 * Polling: ONE block of the grid (the last) is the poller.  It load-
 * acquires (system scope) the 8-byte ticket entries of a window of tickets
 * [scan, scan + W) over PCIe and, for each ready ticket t, store-releases
 * (device scope) the entry into dready[t & (2 nslots-1)] in device memory;
 * scan moves past the ready prefix.  While idle, only its thread 0 reads,
 * and only two words: ticket scan's entry and hdr.stop (mirrored into
 * dev.stop once set).  Idle workers poll dready and dev.stop (L2), never
 * PCIe: one PCIe reader however many blocks wait (a thousand blocks
 * polling host memory over PCIe, even one word each, stretch every round
 * trip to milliseconds).
 *
 * Worker side of the protocol, ticket t:
 *   the block leader takes c = atomicAdd(claim, 1) (each number goes to
 *   exactly one block, in order) and load-acquires (device scope)
 *   dready[c] until its ready word is c + 1, then takes the slot s the
 *   entry names and store-releases taken[c] = c + 1 (system scope: the
 *   entry is free for ticket c + 2 nslots); one ticket per block (the
 *   grid has more blocks than the ring slots).  A leader that sees stop
 *   while its ticket is not ready leaves (the poller mirrors every ticket
 *   published before stop first).
 *   The descriptor and the input spans are copied into device memory
 *   (block-cooperative 16-byte loads), thread 0 runs ve_execute() on the
 *   private device copy, the block copies the output spans back and wipes
 *   the device copies, __threadfence_system(), and thread 0 writes
 *   slot.dev.res then store-releases slot.dev.done_seq = t + 1.
 */
#ifndef PVC_RING_H
#define PVC_RING_H

#include <stdint.h>

#include "gpu/core/kc_defs.h"
#include "gpu/engine/ve_ring.h"

/* Device staging of the boot secrets, wiped by the kernel once every block
 * has booted. */
#define PVC_ST_MASTER     0u     /* 32 bytes master key                   */
#define PVC_ST_HAS_MASTER 32u    /* uint32: 1 if a master key is present  */
#define PVC_ST_BOOT_ENT   48u    /* 48 bytes: boot DRBG entropy (shared)  */
#define PVC_ST_WORK_ENT   96u    /* 48 bytes: worker DRBG entropy         */
#define PVC_ST_LEN        144u

/* GPU-written status words (own mapped allocation). */
typedef struct pvc_gpu_status {
	uint32_t booted;       /* 1 once every block booted (staging wiped)  */
	uint32_t boot_rc;      /* ve_boot result as uint32 (0 = PV_OK)       */
	uint32_t sealed;       /* 1: the engine has no master key            */
	uint32_t fatal;        /* non-zero: device-detected fatal condition  */
	uint32_t exited;       /* 1 once the last block left (wiped)         */
	uint32_t last_done;    /* ticket + 1 of the latest completion: the
	                          watchdog scans done[] when it changes      */
	uint32_t pad[2];
	/* %globaltimer (ns) of the last request a block completed: claimed,
	 * inputs on the device, executed, completion about to be released
	 * (pv_cuda_last_trace; for latency breakdowns, racy under load) */
	uint64_t trace[4];
	/* followed by done[nslots]: each slot's done_seq again, packed in a
	 * few cache lines (the slots' own words lie a slot arena apart, one
	 * page each), for the watchdog's scans */
} pvc_gpu_status;

#define PVC_GST_BYTES(nslots) (sizeof(pvc_gpu_status) + (size_t)(nslots) * sizeof(uint32_t))
#define PVC_GST_DONE(gst) ((uint32_t *)((pvc_gpu_status *)(gst) + 1))

/* Multiprocessors whose blocks gather between requests (%smid below
 * this). */
#define PVC_MAX_SM 256

/* Device-memory state, GPU-only. */
typedef struct pvc_devstate {
	uint32_t claim;        /* tickets claimed by workers                  */
	uint32_t keys_loaded;  /* blocks that have booted                     */
	uint32_t blocks_done;  /* blocks that have exited                     */
	uint32_t stop;         /* the poller's mirror of hdr.stop             */
	/* per multiprocessor (vault_kernel.cu, pvc_sm_gather): worker
	 * blocks running a request, and a generation bumped whenever that
	 * count drops to 0 */
	uint32_t sm_busy[PVC_MAX_SM];
	uint32_t sm_gen[PVC_MAX_SM];
} pvc_devstate;

/* Kernel parameters: pointers only, no secret. */
typedef struct pvc_kparams {
	uint8_t *ring;         /* mapped host memory: ve_ring (hdr + slots)   */
	pvc_gpu_status *gst;   /* mapped host memory                          */
	uint32_t *cdone;       /* mapped host memory: gst's done[nslots]      */
	uint8_t *darena;       /* device: nslots * slot_arena                 */
	ve_desc *ddesc;        /* device: nslots descriptors                  */
	pvc_devstate *dev;     /* device                                      */
	uint64_t *dready;      /* device: VE_RING_TIX(nslots) ticket entries
	                          (ve_tix: ticket + 1 | slot << 32) once the
	                          poller saw them ready (after *dev)           */
	uint8_t *staging;      /* device: PVC_ST_LEN bytes                    */
	uint8_t *pairs;        /* device: pvc_kernel_pair_bytes(grid), the
	                          worker pairs' exponentiation buffers
	                          (pvc_pair.cuh); NULL: no pairs          */
	uint64_t *prof_rows;   /* mapped host memory, with
	                          pv_cuda_params.profile: a PVC_PROF_ROW row
	                          per slot (below); or NULL                   */
	uint32_t nslots;
	uint32_t slot_arena;
} pvc_kparams;

/* With prof_rows, the last request of each slot leaves its stamps
 * (%globaltimer, ns) in that slot's row: claimed, inputs on the device,
 * executed, then its KC_PROF marks (kc_defs.h lists them; 0 for a mark
 * not passed) - the split of a lone request, and of requests under
 * load. */
#define PVC_PROF_CLAIM 0
#define PVC_PROF_INPUTS 1
#define PVC_PROF_EXECUTED 2
#define PVC_PROF_MARK 3
#define PVC_PROF_PAIR 25    /* a paired RSA request (pvc_pair.cuh), half h
                               at 4 h: the partner's last y_j stored, it
                               taken, the buckets combined; at 8: the two
                               blocks' multiprocessors (%smid, side 0 << 32
                               | side 1): PVC_PROF_PAIR_SMS */
#define PVC_PROF_PAIR_SMS 8 /* of the pair columns: the multiprocessors
                               (pvc_pair.cuh, PVCX_STAMP(2, 0)) */
#define PVC_PROF_ROW 34     /* >= PVC_PROF_MARK + KC_PROF_N, PVC_PROF_PAIR + 9 */

#endif /* PVC_RING_H */
