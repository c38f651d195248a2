/*
 * pv_cuda.h - the CUDA backend of the vault: gpu/engine's ve_execute in a
 * persistent kernel serving the engine's request ring (gpu/engine/ve_ring.h)
 * in pinned, mapped host memory.  The counterpart of gpu/cpu/pv_cpu.h:
 * producers (gpu/client) write the ring returned by pv_cuda_ring() exactly
 * as they write the CPU backend's.
 *
 * Built whenever nvcc is available; usable only where a CUDA device and
 * driver are.  The CUDA runtime is linked statically (cudart_static), and it
 * loads the driver (libcuda.so.1) with dlopen at the first CUDA call: on a
 * machine without a driver or device the module still loads,
 * pv_cuda_probe() says why the backend is unavailable, and backend=auto
 * falls back to cpu.
 *
 * Boot: master key (file or bytes) -> pinned staging -> device staging ->
 * ve_boot() in every block of the kernel (KEK and state-key schedules in
 * shared memory); the pinned staging is wiped as soon as the copy is done,
 * the device staging by the kernel once every block booted.  No master key:
 * the vault runs sealed (every op but NOP answers PV_ERR_SEALED), as the
 * CPU backend does.
 *
 * Failure: a CUDA error, a device fault or a kernel that stops on its own
 * seals the vault.  A watchdog thread (1 ms) notices it and from then on
 * acts as the ring's worker: requests that were in flight complete with
 * PV_ERR_DEVICE, later ones with PV_ERR_SEALED, so producers never hang.
 * The same thread wakes futex waiters on done_seq words that changed (the
 * GPU cannot FUTEX_WAKE), which bounds a sleeping producer's extra latency
 * to about 1 ms.  pv_cuda_info_get() reports the reason (file:line and the
 * CUDA error of the failing call).  Close, then open again with the master
 * key, to recover.
 *
 * One CUDA vault per process at a time (close frees with calls that
 * synchronize the device).  Not fork-safe: a child must not touch it.
 */
#ifndef PV_CUDA_H
#define PV_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/core/kc_defs.h"
#include "gpu/engine/ve_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pv_cuda pv_cuda;

typedef struct pv_cuda_params {
	int device;                   /* CUDA ordinal; < 0: 0                   */
	const uint8_t *master;        /* 32 bytes, or NULL: see master_key_path */
	size_t master_len;
	const char *master_key_path;  /* used when master is NULL: a file of
	                                 exactly 32 raw bytes; NULL or missing:
	                                 sealed (PV_ERR_NOT_FOUND)              */
	uint32_t nslots;              /* ring slots, power of 2; 0: 256        */
	uint32_t slot_arena;          /* arena bytes per slot, multiple of 64;
	                                 0: 64 KiB                              */
	uint32_t blocks_per_sm;       /* 0: as many as fit (occupancy)          */
	uint32_t boot_timeout_ms;     /* 0: 10000                               */
	int profile;                  /* 1: the kernel stamps each request's
	                                 row (pv_cuda_profile_rows); benchmarks */
	int no_pairs;                 /* 1: no worker pairs, a lone RSA request
	                                 on its own block (pvc_pair.cuh), for
	                                 benchmarks that compare the two       */
} pv_cuda_params;

#define PV_CUDA_DEFAULT_SLOTS 256u
#define PV_CUDA_DEFAULT_ARENA (64u << 10)

typedef struct pv_cuda_info {
	int sealed;                   /* 1: no master key, or sealed by a fault */
	int seal_reason;              /* PV_ERR_NOT_FOUND / _CORRUPT / _DEVICE  */
	char why[256];                /* the failing call, or ""               */
	char device_name[256];
	int sm_count;
	int blocks_per_sm;
	unsigned grid, block;         /* workers = grid * block                 */
	int regs;                     /* registers per thread of the kernel    */
	size_t local_bytes;           /* local memory (stack) per thread       */
	size_t smem_bytes;            /* shared memory per block               */
	int host_native_atomics;      /* cudaDevAttrHostNativeAtomicSupported  */
	uint32_t nslots, slot_arena;
} pv_cuda_info;

/* PV_OK if device `device` (< 0: 0) can run the vault; PV_ERR_DEVICE
 * otherwise, with the reason in why (no driver, no device, compute
 * capability below 7.0, no mapped memory). */
int pv_cuda_probe(int device, char *why, size_t whylen);

/* Boot.  PV_ERR_DEVICE (why in err), PV_ERR_KEY_SIZE (key file not 32
 * bytes), PV_ERR_ARGS (geometry), PV_ERR_NOMEM, PV_ERR_RANDOM. */
int pv_cuda_open(const pv_cuda_params *p, pv_cuda **out, char *err, size_t errlen);

/* Stop the kernel, wipe every device buffer, the staging and the ring,
 * free.  Requests in flight must have been waited for.  PV_OK, or
 * PV_ERR_DEVICE if the vault had been sealed by a fault.  NULL: no-op. */
int pv_cuda_close(pv_cuda *c);

/* The ring and its geometry (gpu/engine/ve_ring.h). */
void *pv_cuda_ring(pv_cuda *c, uint32_t *nslots, uint32_t *slot_arena);
int pv_cuda_sealed(pv_cuda *c);
/* PV_ERR_NOT_FOUND / PV_ERR_KEY_SIZE (no usable master key), PV_ERR_DEVICE
 * (sealed by a GPU fault), 0 if not sealed. */
int pv_cuda_seal_reason(pv_cuda *c);
int pv_cuda_info_get(pv_cuda *c, pv_cuda_info *info);

/* A minimal producer (tests, benchmarks, tools; gpu/client has the real
 * one, which also reaps finished slots for their owners).  submit: waits
 * for a free slot, copies d and arena[0, arena_len) into it, takes the
 * next ticket and publishes; *handle names the request for wait (its
 * slot).  A thread that holds requests it has not waited for must use
 * try_submit (PV_ERR_BUSY when no slot is free; wait for one of its own
 * requests, then retry): a blocking submit could wait for a slot that
 * only its own caller would free.  wait: waits for completion, copies the
 * result and the slot arena [0, out_len) into arena_out, wipes the slot
 * arena and frees the slot.  Each handle is waited for exactly once. */
int pv_cuda_submit(pv_cuda *c, const ve_desc *d, const uint8_t *arena, uint32_t arena_len,
                   uint32_t *handle);
int pv_cuda_try_submit(pv_cuda *c, const ve_desc *d, const uint8_t *arena, uint32_t arena_len,
                       uint32_t *handle);
int pv_cuda_wait(pv_cuda *c, uint32_t handle, ve_result *res, uint8_t *arena_out,
                 uint32_t out_len);

/* For a producer (gpu/client/pv_producer.h stage): copy arena bytes
 * [0, bytes) of slot (a multiple of 16, at most the arena) from the ring
 * into the kernel's device arena of that slot by the copy engine, and
 * return once they are there (the calling thread sleeps meanwhile).  The
 * slot must be held by the caller and not yet published (ve_ring.h
 * staged_len).  For large inputs: over a PCIe 5.0 link the kernel's own
 * loads of mapped host memory stop at ~25 GB/s, the copy engine's at ~53.
 * PV_OK; PV_ERR_DEVICE (sealed, or the copy failed: that seals); PV_ERR_ARGS. */
int pv_cuda_stage(pv_cuda *c, uint32_t slot, uint32_t bytes);

/* Benchmarks: %globaltimer (ns) stamps of the last request a block
 * completed - claimed, inputs on the device, executed, completion
 * released (deltas only; racy when several requests are in flight). */
void pv_cuda_last_trace(pv_cuda *c, uint64_t ns[4]);

/* With params.profile: each slot's row of stamps for the last request it
 * served (gpu/cuda/pvc_ring.h, PVC_PROF_*: claimed, inputs on the device,
 * executed, the KC_PROF marks; 0 = not passed), nrows = the ring's slots;
 * NULL / 0 without.  Rows of requests still running may be half
 * written: a reader checks that the stamps are in order. */
const uint64_t *pv_cuda_profile_rows(pv_cuda *c, uint32_t *nrows);
void pv_cuda_clear_profile_rows(pv_cuda *c);

/* Tests: PV_OK if the pinned and the device staging read back as zeros. */
int pv_cuda_debug_staging_wiped(pv_cuda *c);

#ifdef __cplusplus
}
#endif

#endif /* PV_CUDA_H */
