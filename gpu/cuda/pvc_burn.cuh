/*
 * pvc_burn.cuh - the local-memory burn of the vault kernel.
 *
 * The engine's serial code keeps its locals (unwrapped keys, schedules,
 * big numbers, nonces) and ptxas's spill slots in local memory, i.e. in
 * device memory (docs/gpu-kernel.md: the kernel is not at 0 B of stack).
 * The code wipes its own locals; the spill slots kept their last values
 * until a later call happened to reuse them.  pvc_burn() overwrites them:
 * called from the kernel entry - the same call depth as every engine call
 * - its frame is one array over the whole region where the entry's
 * callees keep their frames, stored with zeros.  Every thread of a block
 * burns after boot, at exit, and between jobs (requests, idle work, pair
 * jobs): when the ticket it holds has not been ready for PVC_BURN_WAIT_NS,
 * and under load after every PVC_BURN_EVERY jobs.
 *
 * PVC_BURN_BYTES is that region's size: the kernel's cumulative stack
 * size less the entry's own frame.  The burn covers every callee only
 * while it is the deepest call of the entry, i.e. while it sets the
 * kernel's stack size: tests/tools/ptxas-report.sh (the cuda_ptxas_report
 * test) checks that (128 more bytes of burn grow the cumulative stack size
 * by 128; a multiple of 128 keeps the loop below free of a remainder) and
 * fails otherwise; tests/gpu/gpu_burn.cu checks on the device that a burn
 * leaves nothing of an earlier call's locals.
 *
 * The entry's own frame (about 1 KB: ticket numbers, spans,
 * pointers and the entry's spills) is not in the region; no engine code
 * runs there.
 */
#ifndef PVC_BURN_CUH
#define PVC_BURN_CUH

#include <stdint.h>

#ifndef PVC_BURN_BYTES
#define PVC_BURN_BYTES 17536u
#endif

/* Under load (a request queued whenever a job ends) a block burns after
 * every PVC_BURN_EVERY jobs only: a burn of 64 threads is over a megabyte
 * of local stores, and one after every P-256 signature costs about a
 * quarter of the signing rate under full load.  A request's traces then stay
 * until the block has waited PVC_BURN_WAIT_NS for its next ticket or ran
 * 15 more jobs. */
#define PVC_BURN_EVERY 16u
/* A block with unburnt jobs burns when the ticket it holds is still not
 * ready after this wait (ns), then polls it again.  A burn before every
 * wait would cost async SHA3-256 / SM3 4 KiB digests ~8 %: with fewer
 * requests in flight than blocks a block waits after almost every
 * request, but mostly for less than this.  A lone request's
 * ticket is held by the block that waited longest, which burnt long
 * before. */
#define PVC_BURN_WAIT_NS 1000000u

__device__ static __noinline__ void pvc_burn(void)
{
	uint4 b[PVC_BURN_BYTES / 16u];
	const uint32_t a = (uint32_t)__cvta_generic_to_local(b);

#pragma unroll 8
	for (uint32_t i = 0; i < PVC_BURN_BYTES / 16u; i++)
		asm volatile("st.local.v4.u32 [%0], {%1, %1, %1, %1};" :: "r"(a + 16u * i), "r"(0u) : "memory");
}

#endif
