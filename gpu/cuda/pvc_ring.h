/*
 * pvc_ring.h - layout of the CUDA vault's request ring (host and device).
 *
 * The ring lives in pinned, mapped host memory (cudaHostAlloc with
 * cudaHostAllocMapped) and is shared with the persistent vault kernel over
 * PCIe.  The GPU normally lacks cudaDevAttrHostNativeAtomicSupported, so no
 * word here is read-modify-written by both sides; every word has exactly one
 * writer:
 *
 *   host writes  pvc_ctl.head, pvc_ctl.stop, every pvc_desc, the input part
 *                of each data slot;
 *   GPU writes   pvc_ctl.booted/.fatal/.exited, every pvc_comp, the output
 *                part of each data slot.
 *
 * The claim counter the GPU workers race on lives in device memory
 * (pvc_devstate) and is touched by the GPU only.
 *
 * Protocol (ticket t, slot s = t % nslots):
 *   host: fill data slot s and desc[s]; store-release desc[s].seq = t + 1;
 *         store-release ctl.head = t + 1 (tickets are published in order).
 *   GPU:  block leader load-acquires head (system scope), claims [c, c + n)
 *         with atomicCAS on devstate.claim; each worker load-acquires its
 *         desc.seq, checks it is t + 1, copies the descriptor into
 *         registers and the input into device memory, validates, executes,
 *         copies the output back, __threadfence_system(), then
 *         comp[s].rc/out_len and store-release comp[s].seq = t + 1.
 *   host: load-acquire comp[s].seq == t + 1, copy the output, free slot s.
 *
 * All sizes are little-endian host order; everything is naturally aligned.
 */
#ifndef PVC_RING_H
#define PVC_RING_H

#include <stdint.h>

#define PVC_RING_MAGIC 0x50564352u    /* "PVCR" */

/* Requests served by the groundwork kernel (the engine's ve_execute request
 * format replaces these once gpu/engine lands; see docs/gpu-kernel.md). */
#define PVC_OP_ECHO        1u   /* out = in (round-trip test)              */
#define PVC_OP_DIGEST      2u   /* alg = KC_HASH_*, out = digest           */
#define PVC_OP_GCM_SEAL    3u   /* alg = key bytes, param = aad bytes:
                                   in = key || iv[12] || aad || pt,
                                   out = ct || tag[16]                     */
#define PVC_OP_GCM_OPEN    4u   /* in = key || iv[12] || aad || ct || tag, */
                                /* out = pt (PV_ERR_ENC_INVALID, no out)   */
#define PVC_OP_MK_HMAC     5u   /* out = HMAC-SHA-256(master key, in)      */

/* Control block: two 64-byte lines, one per writer. */
typedef struct pvc_ctl {
	/* host-written */
	uint32_t magic;
	uint32_t head;         /* tickets published: t + 1 of the newest      */
	uint32_t stop;         /* 1: workers exit once the ring is drained     */
	uint32_t nslots;
	uint32_t slot_bytes;
	uint32_t host_pad[11];
	/* GPU-written */
	uint32_t booted;       /* 1 once every block holds the master key     */
	uint32_t fatal;        /* non-zero: device-detected fatal condition    */
	uint32_t exited;       /* 1 once the last block left (wiped)           */
	uint32_t served_lo;    /* requests completed (diagnostics, wraps)      */
	uint32_t gpu_pad[12];
} pvc_ctl;

/* Request descriptor, host-written; 32 bytes. */
typedef struct pvc_desc {
	uint32_t seq;          /* ticket + 1, stored last with release         */
	uint32_t op;           /* PVC_OP_*                                      */
	uint32_t alg;          /* op-specific (hash alg, key bytes)             */
	uint32_t param;        /* op-specific (AAD bytes)                       */
	uint32_t in_len;       /* input bytes at slot offset 0                  */
	uint32_t out_off;      /* output offset in the slot, multiple of 16     */
	uint32_t out_cap;      /* output capacity                               */
	uint32_t flags;
} pvc_desc;

/* Completion record, GPU-written; 16 bytes. */
typedef struct pvc_comp {
	uint32_t seq;          /* ticket + 1, stored last with release          */
	int32_t rc;            /* PV_OK or PV_ERR_*                             */
	uint32_t out_len;
	uint32_t pad;
} pvc_comp;

/* Device-memory state, GPU-only. */
typedef struct pvc_devstate {
	uint32_t claim;        /* tickets claimed by workers                    */
	uint32_t keys_loaded;  /* blocks that have read the master key          */
	uint32_t blocks_done;  /* blocks that have exited                       */
	uint32_t pad;
} pvc_devstate;

/* Kernel parameters (no secret in here: the master key comes through a
 * device staging buffer that the kernel wipes after every block read it). */
typedef struct pvc_kparams {
	pvc_ctl *ctl;          /* mapped host memory (device pointer)           */
	pvc_desc *desc;        /* mapped host memory                            */
	pvc_comp *comp;        /* mapped host memory                            */
	uint8_t *harena;       /* mapped host memory: nslots * slot_bytes       */
	uint8_t *darena;       /* device memory: nslots * slot_bytes            */
	pvc_devstate *dev;     /* device memory                                 */
	uint32_t *mk_staging;  /* device memory: 8 words, wiped by the kernel   */
	uint32_t nslots;
	uint32_t slot_bytes;
} pvc_kparams;

#endif /* PVC_RING_H */
