/*
 * pvc_kernel.h - launch interface of the vault kernel (vault_kernel.cu) for
 * the host side of the CUDA backend (pv_cuda.c).  C linkage; nothing here
 * needs nvcc.
 */
#ifndef PVC_KERNEL_H
#define PVC_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "gpu/cuda/pvc_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of the vault kernel (= most requests one block claims
 * at once). */
unsigned pvc_kernel_block(void);
/* Dynamic shared memory per block: one workspace per thread. */
size_t pvc_kernel_smem(void);
/* Device memory for the worker pairs of a grid of grid blocks: RSA
 * exponentiations of a lone request across two blocks (pvc_pair.cuh). */
size_t pvc_kernel_pair_bytes(unsigned grid);
/* Raise the kernel's dynamic shared-memory limit and report how many blocks
 * fit on one multiprocessor. */
cudaError_t pvc_kernel_prepare(int *blocks_per_sm);
/* Launch the persistent kernel on stream s (never the legacy stream). */
cudaError_t pvc_kernel_launch(const pvc_kparams *p, unsigned grid, cudaStream_t s);
/* Registers / local (stack) bytes per thread of the compiled kernel. */
cudaError_t pvc_kernel_attrs(int *regs, size_t *local_bytes, size_t *static_smem);

#ifdef __cplusplus
}
#endif

#endif /* PVC_KERNEL_H */
