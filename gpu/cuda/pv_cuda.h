/*
 * pv_cuda.h - the CUDA backend of the vault: a persistent kernel serving a
 * request ring in pinned, mapped host memory.
 *
 * Built whenever nvcc is available; usable only where a CUDA device and
 * driver are.  The CUDA runtime is linked statically (cudart_static), and it
 * loads the driver (libcuda.so.1) with dlopen at the first CUDA call: on a
 * machine without a driver or device the module still loads, pv_cuda_probe()
 * says why the backend is unavailable, and backend=auto falls back to cpu.
 *
 * Life cycle: pv_cuda_open() boots the vault (master key file -> pinned
 * staging -> device staging -> registers of every block; both staging
 * copies wiped), pv_cuda_submit()/pv_cuda_wait() move requests through the
 * ring, pv_cuda_close() stops the kernel, wipes every device buffer and the
 * pinned arena, and frees them.
 *
 * Any CUDA error, a kernel that stops on its own or a device-detected fatal
 * condition seals the vault: the request in flight gets PV_ERR_DEVICE, every
 * later submit PV_ERR_SEALED, until the vault is closed and opened again
 * with the master key.  pv_cuda_info() reports the reason (file:line and
 * CUDA error string of the failing call).
 *
 * Thread safety: submit, wait, call and info may be called from any number
 * of threads at once; open/close are not concurrent with anything else.
 * The request format here is the groundwork one of pvc_ring.h (PVC_OP_*);
 * it moves to gpu/engine's request format and ve_execute when that lands.
 */
#ifndef PV_CUDA_H
#define PV_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pv_cuda pv_cuda;

typedef struct pv_cuda_cfg {
	int device;                   /* CUDA ordinal; < 0: 0                   */
	uint32_t nslots;              /* ring slots, power of 2; 0: 256         */
	uint32_t slot_bytes;          /* data bytes per slot, multiple of 16;
	                                 0: 16 KiB                              */
	uint32_t blocks_per_sm;       /* 0: as many as fit (occupancy)          */
	const char *master_key_path;  /* file holding exactly 32 raw bytes      */
	const uint8_t *master_key;    /* or the key itself (tests, provisioning);
	                                 used when master_key_path is NULL; the
	                                 caller wipes its copy                  */
	uint32_t boot_timeout_ms;     /* 0: 10000                               */
} pv_cuda_cfg;

typedef struct pv_cuda_req {
	uint32_t op;                  /* PVC_OP_* (gpu/cuda/pvc_ring.h)         */
	uint32_t alg;
	uint32_t param;
	const void *in;
	uint32_t in_len;
	void *out;                    /* copied from the ring by pv_cuda_wait   */
	uint32_t out_cap;
	uint32_t out_len;             /* set by pv_cuda_wait                    */
	int rc;                       /* set by pv_cuda_wait                    */
} pv_cuda_req;

typedef struct pv_cuda_info {
	int sealed;                   /* 1 once sealed                          */
	char why[256];                /* reason for the seal, or ""            */
	char device_name[256];
	int sm_count;
	int blocks_per_sm;
	unsigned grid, block;
	int regs;                     /* registers per thread of the kernel    */
	size_t local_bytes;           /* local memory (stack) per thread       */
	size_t smem_bytes;            /* shared memory per block               */
	int host_native_atomics;      /* cudaDevAttrHostNativeAtomicSupported  */
	uint32_t nslots, slot_bytes;
	uint64_t submitted, completed;
} pv_cuda_info;

/* PV_OK if device `device` (< 0: 0) can run the vault; PV_ERR_DEVICE
 * otherwise, with the reason in why (no driver, no device, compute
 * capability below 7.0, no mapped memory). Never seals anything. */
int pv_cuda_probe(int device, char *why, size_t whylen);

/* Boot the vault.  PV_ERR_DEVICE (why in *errbuf if given), PV_ERR_IO /
 * PV_ERR_KEY_SIZE for the master key file, PV_ERR_ARGS, PV_ERR_NOMEM. */
int pv_cuda_open(const pv_cuda_cfg *cfg, pv_cuda **out, char *errbuf, size_t errlen);

/* Stop the kernel, wipe and free.  PV_OK, or PV_ERR_DEVICE if the kernel
 * had failed or did not stop in time (memory is still wiped where CUDA
 * still works).  NULL is a no-op. */
int pv_cuda_close(pv_cuda *v);

/* Copy r->in into the ring and publish the request; *ticket identifies it
 * for pv_cuda_wait.  Blocks while the ring is full.  PV_ERR_SEALED,
 * PV_ERR_DATA_LEN (input/output do not fit one slot), PV_ERR_ARGS. */
int pv_cuda_submit(pv_cuda *v, const pv_cuda_req *r, uint32_t *ticket);

/* Wait for ticket, copy its output to r->out (at most r->out_cap bytes) and
 * set r->rc, r->out_len.  Returns r->rc, or PV_ERR_DEVICE if the vault was
 * sealed while the request was in flight.  Each ticket is waited for once,
 * by one thread. */
int pv_cuda_wait(pv_cuda *v, uint32_t ticket, pv_cuda_req *r);

/* submit + wait */
int pv_cuda_call(pv_cuda *v, pv_cuda_req *r);

int pv_cuda_info_get(pv_cuda *v, pv_cuda_info *info);

/* Tests: PV_OK if the device staging buffer and the pinned staging buffer
 * read back as zeros after boot. */
int pv_cuda_debug_staging_wiped(pv_cuda *v);

#ifdef __cplusplus
}
#endif

#endif /* PV_CUDA_H */
