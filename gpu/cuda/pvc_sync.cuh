/*
 * pvc_sync.cuh - the clock and the device-scope loads, stores and fence
 * that the vault kernel's polls and hand-overs use (vault_kernel.cu,
 * pvc_pair.cuh; gpu_bench includes them through pvc_bn_warp.cuh).
 * Polls load relaxed and take acquire with one fence once the awaited
 * value is there: on sm_90 every acquire load is followed by CCTL.IVALL,
 * which empties the multiprocessor's L1.
 */
#ifndef PVC_SYNC_CUH
#define PVC_SYNC_CUH

#include <stdint.h>
#include <cuda/atomic>

__device__ static inline uint64_t pvc_now(void)
{
	uint64_t t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

__device__ static inline void pvc_fence_acq_gpu(void)
{
	cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
}

__device__ static inline uint32_t pvc_ld_rlx_gpu(const uint32_t *p)
{
	return cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(*(uint32_t *)p)
		.load(cuda::memory_order_relaxed);
}

__device__ static inline uint64_t pvc_ld_rlx_gpu64(const uint64_t *p)
{
	return cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*(uint64_t *)p)
		.load(cuda::memory_order_relaxed);
}

__device__ static inline void pvc_st_rlx_gpu64(uint64_t *p, uint64_t v)
{
	cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_relaxed);
}

__device__ static inline void pvc_st_rel_gpu(uint32_t *p, uint32_t v)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_release);
}

#endif /* PVC_SYNC_CUH */
