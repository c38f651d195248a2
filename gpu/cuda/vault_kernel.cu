/*
 * vault_kernel.cu - the persistent vault kernel: gpu/engine's ve_execute on
 * the GPU, serving the engine's request ring (gpu/engine/ve_ring.h) in
 * pinned, mapped host memory.
 *
 * ONE translation unit: the core's and the engine's .c files are #included
 * (pvc_core_all.inc, generated from meson's core_src + engine_src), so every
 * KC_API function is __host__ __device__ static inline here and the whole
 * request path is compiled together (no relocatable device code).
 *
 * Shape: a grid of (multiprocessors x resident blocks) blocks that never
 * return while the vault is open; one request per block (thread 0 runs
 * it, or for RSA (key generation too) and ECDSA/SM2 signing, large
 * GCM/CTR/ECB messages and SHA-3 all of warp 0 with warp 1 as its
 * helper: pvc_lanes,
 * pvc_bn_warp.cuh, pvc_ec_warp.cuh, pvc_ctr_warp.cuh,
 * pvc_keccak_warp.cuh; the block moves its
 * data), one block of the grid is
 * the poller.
 *   boot   thread 0 of each block runs ve_boot() from the device staging
 *          buffer (master key + boot entropy, identical for all blocks, so
 *          every block derives the same KEK and state key) into the block's
 *          shared memory; every thread instantiates its own worker DRBG
 *          (ve_worker_init, personalised by its global index) in shared
 *          memory.  The last block to boot wipes the staging buffer and
 *          publishes gst.booted (system-scope release).
 *   poll   the poller block mirrors the host's ticket entries and
 *          hdr.stop (relaxed polls over PCIe, system-scope acquire once
 *          something is ready) into dready and dev.stop in device memory.
 *   loop   the leader takes the next ticket number (atomicAdd on the
 *          device claim counter: no retries, one block per number) and
 *          polls that ticket's dready entry (relaxed loads, __nanosleep
 *          back-off, one acquire fence once it is ready); the descriptor and input spans are
 *          copied host -> device (16-byte loads by the block);
 *          ve_execute() runs on the private copies; output spans are
 *          copied back byte-exact; the device copies are wiped; then
 *          __threadfence_system(), slot.dev.res, and done_seq released;
 *          then the leader waits for the blocks of its multiprocessor
 *          still running a request (pvc_sm_gather).
 *   pairs  while no request is queued, worker blocks i and i + n hold
 *          at most one ticket that is not ready between them
 *          (pvc_pair_wait: the other parks), so that a lone RSA
 *          private-key request (the next ticket not ready when it
 *          starts) recruits the parked partner (pvc_pair_go): its CRT
 *          exponentiations then run right to left, squarings on the
 *          partner's warps, products on the request's (pvc_pair.cuh).
 *   idle   nothing to claim and the engine has idle work (ve_idle_wanted:
 *          lane 0's worker has no ECDSA / SM2 nonce computed ahead): warps 0
 *          and 1 run ve_idle as they would a signature, then the leader
 *          polls again.
 *   exit   dev.stop and nothing ready: the vault secrets and worker DRBGs
 *          in shared memory are wiped, the last block publishes gst.exited.
 *
 * Secrets on the GPU: the KEK and state-key schedules (ve_vault) and the
 * DRBGs (ve_worker, with its signature nonce computed ahead) live in shared
 * memory only; the master key exists only during ve_boot (its locals,
 * wiped by it) and in the staging buffer until every block booted.
 * Per-request secrets (unwrapped keys, schedules) live in ve_execute's
 * locals, i.e. local memory (see docs/gpu-kernel.md).
 */
#include <cuda/atomic>

/* Compile-time budget: every KC_API function becomes its own device
 * function (__noinline__) instead of being inlined at each call site.
 * Fully inlining the core and the engine into one kernel made this
 * translation unit take well over 5 CPU-minutes in cicc; as separate
 * functions each is optimized once.  Same source, same semantics. */
#include "gpu/core/kc_defs.h"
#undef KC_API
#define KC_API __host__ __device__ static __noinline__ __attribute__((unused))
#include "gpu/cuda/pvc_ring.h"     /* PVC_PROF_* for pvc_prof */
#include "gpu/cuda/pvc_sync.cuh"   /* pvc_now, device-scope loads and stores */
#include "gpu/cuda/pvc_burn.cuh"   /* pvc_burn: the callees' local memory zeroed */

/* KC_PROF(k) (kc_defs.h): thread 0 stamps mark k into the current
 * request's row (pvc_ring.h, PVC_PROF_ROW) when the host asked for the
 * rows (pv_cuda_params.profile); pvc_prof_row is NULL otherwise. */
static __shared__ uint64_t *pvc_prof_row;
__host__ __device__ static inline void pvc_prof(int k)
{
#ifdef __CUDA_ARCH__
	if (pvc_prof_row != NULL && threadIdx.x == 0u)
		((volatile uint64_t *)pvc_prof_row)[PVC_PROF_MARK + k] = pvc_now();
#else
	(void)k;
#endif
}
#undef KC_PROF
#define KC_PROF(k) pvc_prof(k)
static_assert(PVC_PROF_MARK + KC_PROF_N <= PVC_PROF_PAIR, "a profile row holds every KC_PROF mark");

/* PVCX_STAMP (pvc_pair.cuh): lane 0 of the half's warp writes t into
 * its pair column k */
__device__ static inline void pvc_prof_pair(uint32_t h, int k, uint64_t t)
{
	if (pvc_prof_row != NULL && (threadIdx.x & 31u) == 0u)
		((volatile uint64_t *)pvc_prof_row)[PVC_PROF_PAIR + 4u * h + (uint32_t)k] = t;
}
#define PVCX_STAMP(h, k, t) pvc_prof_pair(h, k, t)

#include "gpu/cuda/pvc_bn_warp.cuh"
#include "gpu/cuda/pvc_ec_warp.cuh"
#include "gpu/cuda/pvc_keccak_warp.cuh"
#include "pvc_core_all.inc"
#include "gpu/cuda/pvc_ctr_warp.cuh"
#include "gpu/core/pv_err.h"
#include "gpu/core/kc_util.h"
#include "gpu/engine/ve_engine.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/cuda/pvc_kernel.h"

#define PVC_BLOCK 64u
static_assert(PVC_BLOCK >= 64u, "RSA needs warps 0 and 1 of a block (pvc_lanes)");
#define PVC_UNROLL 8
#define PVC_NSEG (3u * PVC_BLOCK)
#define PVC_VAULT_SMEM ((sizeof(ve_vault) + 15u) & ~(size_t)15u)
#define PVC_SMEM (PVC_VAULT_SMEM + (size_t)PVC_BLOCK * sizeof(ve_worker))

/* Polling loops load relaxed and take acquire with one fence once the
 * awaited value is there: on sm_90 every acquire load is followed by
 * CCTL.IVALL, which empties the multiprocessor's L1 - and with it the
 * local memory (ve_execute's locals) of every request running beside
 * the poller. */
__device__ static inline void pvc_fence_acq_sys(void)
{
	cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_system);
}

__device__ static inline uint32_t pvc_ld_rlx_sys(const uint32_t *p)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*(uint32_t *)p);
	return r.load(cuda::memory_order_relaxed);
}

__device__ static inline uint64_t pvc_ld_rlx_sys64(const ve_tix *p)
{
	return cuda::atomic_ref<uint64_t, cuda::thread_scope_system>(*(uint64_t *)p)
		.load(cuda::memory_order_relaxed);
}

__device__ static inline void pvc_st_rel_sys(uint32_t *p, uint32_t v)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*p);
	r.store(v, cuda::memory_order_release);
}

__device__ static inline void pvc_st_rlx_sys(uint32_t *p, uint32_t v)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*p);
	r.store(v, cuda::memory_order_relaxed);
}

/* A ticket entry (ve_tix: ready_seq in the low word, slot in the high
 * one) in one 8-byte load: the host stores the slot, then ready_seq with
 * release, so a load that sees the new ready_seq sees that slot. */
__device__ static inline uint64_t pvc_ld_acq_sys64(const ve_tix *p)
{
	return cuda::atomic_ref<uint64_t, cuda::thread_scope_system>(*(uint64_t *)p)
		.load(cuda::memory_order_acquire);
}

__device__ static inline void pvc_st_rel_gpu64(uint64_t *p, uint64_t v)
{
	cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_release);
}

/* Stage k's time of the current request into gst.trace (mapped host
 * memory, one posted write); returns it. */
__device__ static inline uint64_t pvc_trace(const pvc_kparams &p, int k)
{
	const uint64_t t = pvc_now();
	((volatile uint64_t *)p.gst->trace)[k] = t;
	return t;
}

__device__ static inline uint32_t pvc_r16(uint32_t x) { return (x + 15u) & ~15u; }

__device__ static inline ve_slot *pvc_slot(const pvc_kparams &p, uint32_t i)
{
	return ve_ring_slot(p.ring, p.nslots, p.slot_arena, i);
}

/* Largest r in [0, n) with start[r] <= k. */
__device__ static inline uint32_t pvc_find(const uint32_t *start, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n;
	while (hi - lo > 1u) {
		uint32_t mid = (lo + hi) >> 1;
		if (start[mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

#define PVC_MV_DESC 0   /* host slot.desc          -> device ddesc[slot]   */
#define PVC_MV_IN 1     /* host arena [off, ...)   -> device arena         */
#define PVC_MV_OUT 2    /* device arena [off, ...) -> host arena [off + shift, ...) */
#define PVC_MV_ZERO 3   /* device arena [off, ...) := 0                    */

/* Block-cooperative 16-byte moves over up to PVC_NSEG segments, flattened
 * so that each thread has PVC_UNROLL loads in flight per round trip.
 * Segment i: slot sslot[i], byte offset soff[i] (multiple of 16), chunks
 * start[i+1] - start[i]; PVC_MV_OUT writes the host arena shift[i] bytes
 * further (a multiple of 16, negative too: ve_ring.h's out_at). */
__device__ static void pvc_move(const pvc_kparams &p, int mode, uint32_t nseg,
	const uint32_t *start, const uint32_t *sslot, const uint32_t *soff, const int32_t *shift)
{
	const uint32_t total = start[nseg];
	const uint32_t step = blockDim.x * PVC_UNROLL;
	for (uint32_t k0 = threadIdx.x; k0 < total; k0 += step) {
		uint4 v[PVC_UNROLL];
		uint4 *dst[PVC_UNROLL];
#pragma unroll
		for (int j = 0; j < PVC_UNROLL; j++) {
			uint32_t k = k0 + (uint32_t)j * blockDim.x;
			dst[j] = 0;
			v[j] = make_uint4(0, 0, 0, 0);
			if (k < total) {
				uint32_t r = pvc_find(start, nseg, k);
				uint32_t s = sslot[r];
				size_t off = (size_t)soff[r] + (size_t)(k - start[r]) * 16u;
				uint8_t *dev = p.darena + (size_t)s * p.slot_arena + off;
				uint8_t *host = ve_slot_arena(pvc_slot(p, s)) + off;
				if (mode == PVC_MV_DESC) {
					v[j] = __ldcv((const uint4 *)((const uint8_t *)&pvc_slot(p, s)->desc + off));
					dst[j] = (uint4 *)((uint8_t *)(p.ddesc + s) + off);
				} else if (mode == PVC_MV_IN) {
					v[j] = __ldcv((const uint4 *)host);
					dst[j] = (uint4 *)dev;
				} else if (mode == PVC_MV_OUT) {
					v[j] = *(const uint4 *)dev;
					dst[j] = (uint4 *)(host + shift[r]);
				} else {
					dst[j] = (uint4 *)dev;
				}
			}
		}
#pragma unroll
		for (int j = 0; j < PVC_UNROLL; j++) {
			if (dst[j] != 0) {
				if (mode == PVC_MV_OUT)
					__stcs(dst[j], v[j]);
				else
					*dst[j] = v[j];
			}
		}
	}
}

/* 1 if the span lies inside the arena. */
__device__ static inline uint32_t pvc_span_ok(ve_span s, uint32_t n)
{
	return (uint64_t)s.off + (uint64_t)s.len <= (uint64_t)n;
}

/* End of the input spans of a descriptor copy, 0 if any span is outside
 * the arena (ve_execute then rejects the request without reading). */
__device__ static uint32_t pvc_in_end(const ve_desc *d, uint32_t n)
{
	ve_span in[11];
	uint32_t e = 0;
	in[0] = d->key; in[1] = d->key2; in[2] = d->iv; in[3] = d->aad;
	in[4] = d->salt; in[5] = d->in; in[6] = d->in2; in[7] = d->state;
	in[8] = d->ticket; in[9] = d->mechs; in[10] = d->new_mechs;
#pragma unroll
	for (int i = 0; i < 11; i++) {
		if (!pvc_span_ok(in[i], n))
			return 0;
		if (in[i].len != 0 && in[i].off + in[i].len > e)
			e = in[i].off + in[i].len;
	}
	return e;
}

/* Output segment i of a request (0 out, 1 out2, 2 state_out), clamped to
 * what ve_execute reported; len 0 if nothing is to be copied. */
__device__ static inline void pvc_out_span(const ve_desc *d, const ve_result *res, int i,
	uint32_t *off, uint32_t *len)
{
	ve_span s = i == 0 ? d->out : i == 1 ? d->out2 : d->state_out;
	uint32_t l = i == 0 ? res->out_len : i == 1 ? res->out2_len : res->state_len;
	*off = s.off;
	*len = (res->status == PV_OK && l <= s.len) ? l : 0u;
}

/* Symmetric requests with at least this many input bytes run on the warp
 * (4 KiB = 256 blocks: 8 per lane; below it the powers of H and the
 * shuffles are a larger share and one lane per request keeps more
 * requests in flight per block). */
#define PVC_SYM_WARP_MIN 4096u

/* SHA-3 digests and HMACs with at least this many input bytes run on the
 * warp, which computes each Keccak permutation together
 * (pvc_keccak_warp.cuh): a block serves one request at a time either
 * way, so the other lanes are free; below it the shuffles and the warp's
 * copies of the worker cost more than a few permutations save. */
#define PVC_KECCAK_WARP_MIN 512u

__device__ static inline bool pvc_keccak(const ve_desc *d)
{
	const bool digest = d->op == PV_OP_DIGEST && d->mech >= PV_MECH_SHA3_224 &&
	                    d->mech <= PV_MECH_SHA3_512;
	const bool mac = (d->op == PV_OP_SIGN || d->op == PV_OP_VERIFY) &&
	                 d->mech >= PV_MECH_HMAC_SHA3_224 && d->mech <= PV_MECH_HMAC_SHA3_512;
	return (digest || mac) && d->in.len >= PVC_KECCAK_WARP_MIN;
}

/* An RSA mechanism (key-pair generation included): its request runs on
 * two warps (pvc_lanes) and its block skips the gather (pvc_sm_gather) */
__device__ static inline bool pvc_rsa(const ve_desc *d)
{
	return d->mech >= PV_MECH_RSA_KEY_PAIR_GEN && d->mech <= PV_MECH_RSA_X_509;
}

/* Lanes of warp 0 that run a request: RSA requests run on all 32 with
 * identical data, so that kc_bn's Montgomery arithmetic is done by the
 * warp, and warp 1 computes the second CRT half beside it (mode 2 of
 * pvc_bn_warp.cuh); an RSA key-pair generation too (its candidates'
 * trial division split over the lanes, Miller-Rabin's exponentiations
 * and the pairwise check the warp's); ECDSA and SM2 signatures too, so
 * that k*G is computed by the warp (pvc_ec_warp.cuh; warp 1 only waits
 * for the release);
 * AES/SM4 GCM, CTR and ECB encrypt/decrypt (any phase) with
 * PVC_SYM_WARP_MIN bytes of input or more, so that CTR, ECB and GHASH are
 * split over the lanes (pvc_ctr_warp.cuh; warp 1 only waits);
 * SHA-3 digests and HMACs from PVC_KECCAK_WARP_MIN bytes, so that each
 * permutation is the warp's (pvc_keccak_warp.cuh; warp 1 only waits);
 * everything else on lane 0.  (The descriptor is the host's: any value
 * only picks the shape, ve_execute validates it.)  Not inlined: its
 * comparisons in the kernel's loop cost spills there (ptxas: 304 against
 * 216 bytes of spill loads). */
__device__ static __noinline__ uint32_t pvc_lanes(const ve_desc *d)
{
	const bool rsa = pvc_rsa(d);
	const bool op = d->op == PV_OP_SIGN || d->op == PV_OP_VERIFY ||
	                d->op == PV_OP_ENCRYPT || d->op == PV_OP_DECRYPT ||
	                d->op == PV_OP_GENERATE_PAIR;
	const bool ecsign = (d->mech == PV_MECH_ECDSA || d->mech == PV_MECH_SM2_SIGN) &&
	                    d->op == PV_OP_SIGN;
	const bool symmech = d->mech == PV_MECH_AES_GCM || d->mech == PV_MECH_SM4_GCM ||
	                     d->mech == PV_MECH_AES_CTR || d->mech == PV_MECH_SM4_CTR ||
	                     d->mech == PV_MECH_AES_ECB || d->mech == PV_MECH_SM4_ECB;
	const bool sym = symmech && (d->op == PV_OP_ENCRYPT || d->op == PV_OP_DECRYPT) &&
	                 d->in.len >= PVC_SYM_WARP_MIN;
	return (rsa && op) || ecsign || sym || pvc_keccak(d) ? 32u : 1u;
}

/* An RSA private-key operation (a signature or a decryption): with the
 * queue empty behind it, its block recruits its partner (pvc_pair_go) */
__device__ static inline bool pvc_rsa_priv(const ve_desc *d)
{
	return pvc_rsa(d) && d->mech != PV_MECH_RSA_KEY_PAIR_GEN &&
	       (d->op == PV_OP_SIGN || d->op == PV_OP_DECRYPT);
}

/* Worker blocks i and i + n of the grid's 2 n + (0 or 1) workers (the
 * last block is the poller) are pair i (pvc_pair.cuh) when the host gave
 * the buffers; side 0 and 1.  Blocks far apart in the grid: the
 * scheduler spreads consecutive blocks over the multiprocessors, so the
 * two blocks of a paired request do not share one (2i and 2i + 1 could). */
__device__ static inline pvcx_pair *pvc_pair_of(const pvc_kparams &p, uint32_t *side)
{
	const uint32_t n = (gridDim.x - 1u) / 2u;
	*side = n != 0u ? blockIdx.x / n : 0u;
	if (p.pairs == NULL || n == 0u || blockIdx.x >= 2u * n)
		return (pvcx_pair *)0;
	return (pvcx_pair *)p.pairs + blockIdx.x % n;
}

/* Thread 0 of block s of a pair, before it takes a ticket number: the two
 * blocks hold at most one ticket that is not ready between them, so that
 * while one waits for the next request the other is free to be recruited
 * for it.  Parks (PVCX_P) while the partner holds one.  Returns 1: take a
 * number now (PVCX_W is set); 2: recruited (PVCX_H); 0: the vault stops.
 * No capacity is lost to the parking: a parked block exists only beside
 * a block that waits for a ticket, so a request that finds no block free
 * found every block busy.  Not called when requests are queued (the next
 * ticket ready): then the block takes a number at once, as without
 * pairs (parked under load, a block would idle while requests wait). */
__device__ static uint32_t pvc_pair_wait(const pvc_kparams &p, pvcx_pair *pp, uint32_t s)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_device> w(pp->word);
	const uint32_t o = s ^ 1u;
	uint32_t v = w.load(cuda::memory_order_relaxed);
	unsigned ns = 32;

	for (;;) {
		if (v & PVCX_H(s)) {
			pvc_fence_acq_gpu();
			return 2u;
		}
		if (!(v & PVCX_W(o))) {
			if (w.compare_exchange_weak(v, (v | PVCX_W(s)) & ~PVCX_P(s), cuda::memory_order_acq_rel,
			                            cuda::memory_order_relaxed))
				return 1u;
			continue;
		}
		if (!(v & PVCX_P(s))) {
			if (!w.compare_exchange_weak(v, v | PVCX_P(s), cuda::memory_order_acq_rel,
			                             cuda::memory_order_relaxed))
				continue;
			v |= PVCX_P(s);
		}
		if (pvc_ld_rlx_gpu(&p.dev->stop)) {
			if (w.compare_exchange_weak(v, v & ~PVCX_P(s), cuda::memory_order_acq_rel,
			                            cuda::memory_order_relaxed))
				return 0u;
			continue;
		}
		__nanosleep(ns);
		if (ns < 512u)
			ns <<= 1;
		v = w.load(cuda::memory_order_relaxed);
	}
}

/* Thread 0 of block s, its ticket ready: clear PVCX_W; with want and the
 * partner parked, recruit it in the same step.  Returns whether it did. */
__device__ static bool pvc_pair_go(pvcx_pair *pp, uint32_t s, bool want)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_device> w(pp->word);
	const uint32_t o = s ^ 1u;
	uint32_t v = w.load(cuda::memory_order_relaxed);

	for (;;) {
		const bool rec = want && (v & PVCX_P(o));
		const uint32_t n = rec ? ((v & ~PVCX_W(s) & ~PVCX_P(o)) | PVCX_H(o)) : (v & ~PVCX_W(s));
		if (w.compare_exchange_weak(v, n, cuda::memory_order_acq_rel, cuda::memory_order_relaxed))
			return rec;
	}
}

#define PVC_POLL_WINDOW 128u

/* The poller block (pvc_ring.h): mirrors the host's ticket entries (ready
 * word and slot) and hdr.stop into device memory.  While idle only thread
 * 0 reads PCIe (the next ticket's entry and stop); once the next ticket is
 * ready the whole block reads its share of the window and the ready prefix
 * moves scan.  On stop, what was ready before it is mirrored first. */
__device__ static void pvc_poll(const pvc_kparams &p, uint32_t *s_gap, uint32_t *s_stop)
{
	const ve_ring_hdr *hdr = (const ve_ring_hdr *)p.ring;
	const uint32_t ne = VE_RING_TIX(p.nslots);
	const uint32_t w = ne < PVC_POLL_WINDOW ? ne : PVC_POLL_WINDOW;
	uint32_t scan = 0;
	unsigned ns = 32;

	for (;;) {
		if (threadIdx.x == 0) {
			/* stop, then the entry: with stop seen, the fence
			 * makes every entry the host made ready before it
			 * visible to the entry's load */
			const uint32_t st = pvc_ld_rlx_sys(&hdr->stop);
			if (st)
				pvc_fence_acq_sys();
			*s_stop = st;
			*s_gap = (uint32_t)pvc_ld_rlx_sys64(ve_ring_tix(p.ring, p.nslots, scan)) == scan + 1u ? w : 0u;
		}
		__syncthreads();
		const uint32_t stop = *s_stop;
		if (*s_gap != 0u) {
			for (uint32_t k = threadIdx.x; k < w; k += blockDim.x) {
				uint32_t t = scan + k;
				const uint64_t e = pvc_ld_acq_sys64(ve_ring_tix(p.ring, p.nslots, t));
				if ((uint32_t)e == t + 1u)
					pvc_st_rel_gpu64(&p.dready[t & (ne - 1u)], e);
				else
					atomicMin(s_gap, k);
			}
		}
		__syncthreads();
		const uint32_t gap = *s_gap;
		__syncthreads();
		if (stop && gap == 0u) {
			if (threadIdx.x == 0)
				pvc_st_rel_gpu(&p.dev->stop, 1u);
			return;
		}
		scan += gap;
		if (gap != 0u) {
			ns = 32;
		} else {
			__nanosleep(ns);
			if (ns < 512)
				ns <<= 1;
		}
	}
}

/* Keeping the blocks of a multiprocessor in step (thread 0 of a worker
 * block, after each request).  Blocks that drift apart each run a
 * different stage, and a P-256 signature's ~220 KB of code then does not
 * stay in the instruction caches: a signature takes close to twice as
 * long with the blocks drifting as with the blocks starting each request
 * together (gpu_bench veload measures both).  So a block that finishes
 * while others of its multiprocessor still run a request waits for the
 * last of them (sm_busy drops to 0 and it bumps sm_gen), then all claim
 * their next tickets together - but never longer than its own request
 * took: behind a long request (a key generation) short ones lose at most
 * half their rate, and a lone request never waits (it is the last).
 * Blocks waiting for a ticket are not waited for, and with wait false
 * (an RSA request: its loops are small and stay cached, so waiting would
 * only cost it throughput) the block only counts itself out.  Only a
 * hint: relaxed loads, no data passes through it. */
__device__ static void pvc_sm_gather(const pvc_kparams &p, uint32_t sm, uint64_t tclaim, bool wait)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_device> gen(p.dev->sm_gen[sm]);
	cuda::atomic_ref<uint32_t, cuda::thread_scope_device> stop(p.dev->stop);
	const uint32_t g = gen.load(cuda::memory_order_relaxed);
	unsigned ns = 64;

	if (atomicSub(&p.dev->sm_busy[sm], 1u) == 1u) {
		gen.store(g + 1u, cuda::memory_order_relaxed);
		return;
	}
	if (!wait)
		return;
	const uint64_t t0 = pvc_now(), until = t0 + (t0 - tclaim);
	while (gen.load(cuda::memory_order_relaxed) == g && !stop.load(cuda::memory_order_relaxed) &&
	       pvc_now() < until) {
		__nanosleep(ns);
		if (ns < 1024)
			ns <<= 1;
	}
}

/* Whether the next ticket is ready, i.e. a request is queued that no
 * block holds yet (a hint: relaxed loads). */
__device__ static __forceinline__ bool pvc_queued(const pvc_kparams &p)
{
	const uint32_t c0 = cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(p.dev->claim)
		.load(cuda::memory_order_relaxed);
	return (uint32_t)pvc_ld_rlx_gpu64(&p.dready[c0 & (VE_RING_TIX(p.nslots) - 1u)]) == c0 + 1u;
}

/* Run the engine on lanes threads of the block: 1 (thread 0), or the 32 of
 * warp 0 with warp 1 serving its jobs (pvc_bn_warp.cuh).  dd: a request
 * (ve_execute into *res); NULL: the idle work (ve_idle).  Lanes 1.. run on
 * a copy of lane 0's worker (so every lane draws the same bytes), wiped
 * after; lane 0's worker keeps what the engine left in it. */
__device__ static __noinline__ void pvc_engine(const ve_vault *sv, ve_worker *sw0, ve_worker *sw, uint32_t lanes,
	const ve_desc *dd, uint8_t *darena, uint32_t alen, ve_result *res)
{
	const uint32_t tid = threadIdx.x;

	if (tid > 0 && tid < lanes)
		*sw = *sw0;
	if (tid == 0)
		pvc_coop = lanes > 1u ? 2u : 0u;
	__syncthreads();
	if (tid < lanes) {
		if (dd != NULL)
			ve_execute(sv, sw, dd, darena, alen, res);
		else
			(void)ve_idle(sv, sw);
		if (lanes > 1u)
			pvcw_release();
	} else if (lanes > 1u && tid < 2u * lanes) {
		pvcw_helper();
	}
	if (tid > 0 && tid < lanes)
		kc_wipe(sw, sizeof *sw);
}

extern "C" __global__ void __launch_bounds__(PVC_BLOCK, 8)
pvc_vault_kernel(const pvc_kparams p)
{
	extern __shared__ uint4 s_dyn[];
	__shared__ uint32_t s_c, s_n, s_go, s_si;
	__shared__ uint64_t s_tclaim;
	uint32_t sm = PVC_MAX_SM;     /* thread 0: this block's multiprocessor */
	uint32_t hc = 0;              /* thread 0: the ticket number it holds */
	bool held = false;
	bool wset = false;            /* thread 0: it set its pair's PVCX_W */
	uint32_t unburnt = 0;         /* thread 0: jobs since the last burn */
	__shared__ uint32_t s_start[PVC_NSEG + 1];
	__shared__ uint32_t s_slot[PVC_NSEG];
	__shared__ uint32_t s_off[PVC_NSEG];
	__shared__ int32_t s_shift[PVC_NSEG];
	ve_vault *sv = (ve_vault *)s_dyn;
	ve_worker *sw0 = (ve_worker *)((uint8_t *)s_dyn + PVC_VAULT_SMEM);
	ve_worker *sw = sw0 + threadIdx.x;
	const uint32_t tid = threadIdx.x;
	ve_ring_hdr *hdr = (ve_ring_hdr *)p.ring;
	uint32_t side;
	pvcx_pair *const pp = pvc_pair_of(p, &side);

	if (tid == 0)
		pvc_prof_row = NULL;
	pvcw_mode(0);   /* also the barrier for pvc_prof_row */

	/* boot */
	if (tid == 0) {
		uint32_t has = *(const volatile uint32_t *)(p.staging + PVC_ST_HAS_MASTER);
		int rc = ve_boot(sv, has == 1u ? p.staging + PVC_ST_MASTER : (const uint8_t *)0,
		                 has == 1u ? 32u : 0u, p.staging + PVC_ST_BOOT_ENT, 48);
		s_go = (uint32_t)rc;
	}
	(void)ve_worker_init(sw, blockIdx.x * blockDim.x + tid, p.staging + PVC_ST_WORK_ENT, 48);
	pvc_burn();     /* the master key's and the seeds' traces in ve_boot's frames */
	__syncthreads();
	if (tid == 0) {
		asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
		if (pp != NULL)
			__stcg(&pp->smid[side], sm);
		__threadfence();
		if (atomicAdd(&p.dev->keys_loaded, 1u) == gridDim.x - 1u) {
			for (uint32_t i = 0; i < PVC_ST_LEN / 4u; i++)
				((volatile uint32_t *)p.staging)[i] = 0;
			__threadfence_system();
			pvc_st_rlx_sys(&p.gst->boot_rc, s_go);
			pvc_st_rlx_sys(&p.gst->sealed, sv->sealed);
			if (hdr->magic != VE_RING_MAGIC || hdr->version != VE_RING_VERSION ||
			    hdr->nslots != p.nslots || hdr->slot_arena != p.slot_arena)
				pvc_st_rlx_sys(&p.gst->fatal, 1u);
			pvc_st_rel_sys(&p.gst->booted, 1u);
		}
	}

	if (blockIdx.x == gridDim.x - 1u && gridDim.x > 1u) {
		pvc_poll(p, &s_c, &s_n);
		goto out;
	}
	for (;;) {
		/* the next ticket: the leader takes its number from the claim
		 * counter with one atomicAdd (not a CAS: every block that lost
		 * a CAS race for the same number would retry it, which bounds
		 * the rate of small requests) and polls its entry of the
		 * poller's mirror until the host publishes it.  A block
		 * without a ticket computes ahead first (ve_idle_wanted) if
		 * the next ticket is not ready; one that
		 * holds a ticket only waits for it, so a lone request never
		 * waits behind idle work.  A block burns the local memory its
		 * jobs used (s_go 5, pvc_burn.cuh) when its held ticket has not
		 * been ready for PVC_BURN_WAIT_NS, then polls on; under load
		 * after every PVC_BURN_EVERY jobs. */
		if (tid == 0) {
			unsigned ns = 32;
			const uint32_t mask = VE_RING_TIX(p.nslots) - 1u;
			s_go = 0;
			if (!held) {
				/* idle work only while the next ticket is not ready;
				 * then take the next ticket number: no retries */
				const bool ready0 = pvc_queued(p);
				if (unburnt >= PVC_BURN_EVERY) {
					s_go = 5;
				} else if (!ready0 && !pvc_ld_rlx_gpu(&p.dev->stop) && ve_idle_wanted(sv, sw0)) {
					s_go = 2;
				} else {
					/* requests queued (the next ticket ready): no
					 * pair protocol, the ticket is ready to serve and
					 * nobody is recruited under load */
					const uint32_t r = pp != NULL && !ready0 ? pvc_pair_wait(p, pp, side) : 1u;
					wset = pp != NULL && !ready0 && r == 1u;
					if (r == 1u) {
						hc = atomicAdd(&p.dev->claim, 1u);
						held = true;
					} else if (r == 2u) {
						s_go = 4;
					}
				}
			}
			const uint64_t t0 = pvc_now();
			while (held) {
				const uint64_t e = pvc_ld_rlx_gpu64(&p.dready[hc & mask]);
				if ((uint32_t)e == hc + 1u) {
					const uint32_t c = hc;
					pvc_fence_acq_gpu();
					held = false;
					/* the entry is free for its next ticket as soon as
					 * its slot is read (ve_ring.h step 5) */
					s_si = (uint32_t)(e >> 32);
					pvc_st_rel_sys(ve_ring_taken(p.ring, p.nslots, c), c + 1u);
					if (s_si >= p.nslots) {   /* names no slot: the host is broken */
						if (wset)
							(void)pvc_pair_go(pp, side, false);
						wset = false;
						pvc_st_rlx_sys(&p.gst->fatal, 1u);
						s_go = 3;
						break;
					}
					if (sm < PVC_MAX_SM)
						atomicAdd(&p.dev->sm_busy[sm], 1u);
					s_tclaim = pvc_trace(p, 0);
					s_c = c;
					s_go = 1;
					break;
				}
				if (pvc_ld_rlx_gpu(&p.dev->stop))
					break;
				if (unburnt != 0 && pvc_now() - t0 > PVC_BURN_WAIT_NS) {
					s_go = 5;       /* a long wait: burn, then poll on */
					break;
				}
				__nanosleep(ns);
				if (ns < 1024)
					ns <<= 1;
			}
		}
		__syncthreads();
		if (!s_go)
			break;
		if (s_go == 3u)
			continue;
		if (s_go == 5u) {
			/* every thread burns the local memory of the jobs since the
			 * last burn (pvc_burn.cuh): after a long wait for the held
			 * ticket (still held: the loop polls it again), and under
			 * load after PVC_BURN_EVERY jobs */
			pvc_burn();
			if (tid == 0)
				unburnt = 0;
			continue;
		}
		if (tid == 0)
			unburnt++;
		if (s_go == 4u) {
			/* recruited: both warps serve the partner's halves */
			pvcx_serve(pp, tid >> 5);
			__syncthreads();
			if (tid == 0)
				atomicAnd(&pp->word, ~PVCX_H(side));
			continue;
		}
		if (s_go == 2u) {
			if (tid == 0)
				pvc_prof_row = NULL;     /* no request's profile row */
			pvc_engine(sv, sw0, sw, 32u, (const ve_desc *)0, (uint8_t *)0, 0u, (ve_result *)0);
			__syncthreads();
			if (tid == 0)
				pvc_coop = 0;
			continue;
		}
		/* ticket c is this block's: thread 0 executes it, the block moves
		 * its data.  One ticket per block: the grid has more blocks than
		 * the ring has slots, so a block holding several would gain no
		 * parallelism. */
		const uint32_t c = s_c;
		const uint32_t t = c;
		const uint32_t n = 1;
		const bool mine = tid == 0;
		const uint32_t slot = s_si;
		if (tid == 0 && p.prof_rows != NULL) {
			pvc_prof_row = p.prof_rows + (size_t)slot * PVC_PROF_ROW;
			for (int k = 0; k < PVC_PROF_ROW; k++)
				((volatile uint64_t *)pvc_prof_row)[k] = 0;
			((volatile uint64_t *)pvc_prof_row)[PVC_PROF_CLAIM] = s_tclaim;
		}

		/* descriptors -> device */
		if (mine) {
			s_slot[tid] = slot;
			s_off[tid] = 0;
			s_start[tid + 1] = (uint32_t)(sizeof(ve_desc) / 16u);
		}
		if (tid == 0)
			s_start[0] = 0;
		__syncthreads();
		if (tid == 0)
			for (uint32_t i = 1; i <= n; i++)
				s_start[i] += s_start[i - 1];
		__syncthreads();
		pvc_move(p, PVC_MV_DESC, n, s_start, s_slot, s_off, s_shift);
		__syncthreads();

		/* input spans -> device, past the bytes the producer staged there
		 * (ve_ring.h staged_len; the out span then goes back to out_at) */
		const ve_desc *dd = p.ddesc + slot;
		/* the partner may take a ticket now; a lone RSA private-key
		 * operation (the next ticket not ready) recruits it if parked */
		if (tid == 0 && pp != NULL) {
			const bool want = !pvc_queued(p) && pvc_rsa_priv(dd);
			pvcw_xp = (wset || want) && pvc_pair_go(pp, side, want) ? pp : (pvcx_pair *)0;
			wset = false;
		}
		uint32_t in_end = mine ? pvc_in_end(dd, p.slot_arena) : 0u;
		uint32_t wipe_end = in_end;     /* grown by the outputs, below */
		if (mine) {
			int32_t out_shift = 0;
			const volatile ve_slot_host *hh = &pvc_slot(p, slot)->host;
			uint32_t staged = hh->staged_len & ~15u;
			const uint32_t at = hh->out_at;
			if (staged <= p.slot_arena && staged > wipe_end)
				wipe_end = staged;      /* staged, then rejected: wiped too */
			if (staged > pvc_r16(in_end))
				staged = pvc_r16(in_end);
			if (staged != 0u && (at & 15u) == 0u && (uint64_t)at + dd->out.len <= p.slot_arena)
				out_shift = (int32_t)at - (int32_t)dd->out.off;
			s_off[tid] = staged;
			s_start[tid + 1] = (pvc_r16(in_end) - staged) >> 4;
			s_shift[tid * 3] = out_shift;   /* for the out span, below */
			s_shift[tid * 3 + 1] = s_shift[tid * 3 + 2] = 0;
		}
		__syncthreads();
		if (tid == 0)
			for (uint32_t i = 1; i <= n; i++)
				s_start[i] += s_start[i - 1];
		__syncthreads();
		pvc_move(p, PVC_MV_IN, n, s_start, s_slot, s_off, s_shift);
		__syncthreads();
		if (mine) {
			const uint64_t t1 = pvc_trace(p, 1);
			if (pvc_prof_row != NULL)
				((volatile uint64_t *)pvc_prof_row)[PVC_PROF_INPUTS] = t1;
		}

		/* execute on the private device copies: lane 0, or the whole of
		 * warp 0 for RSA and EC signing (pvc_engine) */
		ve_result res;
		uint8_t *darena = p.darena + (size_t)slot * p.slot_arena;
		const uint32_t lanes = pvc_lanes(dd);
		const bool gather = !pvc_rsa(dd);
		res.status = PV_ERR_PROTOCOL;
		res.out_len = res.out2_len = res.state_len = 0;
		pvc_engine(sv, sw0, sw, lanes, dd, darena, p.slot_arena, &res);
		if (mine) {
			const uint64_t t2 = pvc_trace(p, 2);
			if (pvc_prof_row != NULL)
				((volatile uint64_t *)pvc_prof_row)[PVC_PROF_EXECUTED] = t2;
		}

		/* output spans -> host: 16-byte middles by the block, unaligned
		 * head/tail bytes by the owner (never a byte outside a span) */
		__syncthreads();
		if (tid == 0) {
			pvc_coop = 0;
			if (pvcw_xp != NULL) {     /* the partner goes back to its own work */
				pvc_st_rel_gpu(&pvcw_xp->ctl[0], PVCX_END);
				pvc_st_rel_gpu(&pvcw_xp->ctl[1], PVCX_END);
				pvcw_xp = NULL;
			}
		}
		if (mine) {
			uint8_t *harena = ve_slot_arena(pvc_slot(p, slot));
			for (int i = 0; i < 3; i++) {
				uint32_t off, len, a0, a1;
				volatile uint8_t *h = harena + s_shift[tid * 3 + i];
				pvc_out_span(dd, &res, i, &off, &len);
				a0 = pvc_r16(off);
				a1 = (off + len) & ~15u;
				if (len == 0 || a0 >= a1) {
					a0 = a1 = off;
					for (uint32_t b = off; b < off + len; b++)
						h[b] = darena[b];
				} else {
					for (uint32_t b = off; b < a0; b++)
						h[b] = darena[b];
					for (uint32_t b = a1; b < off + len; b++)
						h[b] = darena[b];
				}
				s_slot[tid * 3 + i] = slot;
				s_off[tid * 3 + i] = a0;
				s_start[tid * 3 + i + 1] = (a1 - a0) >> 4;
			}
			/* what to wipe afterwards: inputs and every output span */
			{
				ve_span o[3];
				o[0] = dd->out; o[1] = dd->out2; o[2] = dd->state_out;
				for (int i = 0; i < 3; i++)
					if (pvc_span_ok(o[i], p.slot_arena) && o[i].off + o[i].len > wipe_end)
						wipe_end = o[i].off + o[i].len;
			}
		}
		__syncthreads();
		if (tid == 0)
			for (uint32_t i = 1; i <= 3u * n; i++)
				s_start[i] += s_start[i - 1];
		__syncthreads();
		pvc_move(p, PVC_MV_OUT, 3u * n, s_start, s_slot, s_off, s_shift);
		__syncthreads();

		/* wipe the request's device copies BEFORE completing: once done_seq
		 * is released the producer may reuse the slot and another block
		 * may copy the next request into the same device slot */
		if (mine) {
			s_slot[tid] = slot;
			s_off[tid] = 0;
			s_start[tid + 1] = pvc_r16(wipe_end) >> 4;
			for (uint32_t i = 0; i < sizeof(ve_desc) / 16u; i++)
				((uint4 *)(p.ddesc + slot))[i] = make_uint4(0, 0, 0, 0);
		}
		__syncthreads();
		if (tid == 0)
			for (uint32_t i = 1; i <= n; i++)
				s_start[i] += s_start[i - 1];
		__syncthreads();
		pvc_move(p, PVC_MV_ZERO, n, s_start, s_slot, s_off, s_shift);
		__threadfence_system();
		__syncthreads();

		/* completion: result, then done_seq with system-scope release */
		if (mine) {
			ve_slot_dev *sd = &pvc_slot(p, slot)->dev;
			const uint64_t tdone = pvc_trace(p, 3);
			pvc_st_rlx_sys((uint32_t *)&sd->res.status, (uint32_t)res.status);
			pvc_st_rlx_sys(&sd->res.out_len, res.out_len);
			pvc_st_rlx_sys(&sd->res.out2_len, res.out2_len);
			pvc_st_rlx_sys(&sd->res.state_len, res.state_len);
			((volatile uint64_t *)&sd->t_claim)[0] = s_tclaim;
			((volatile uint64_t *)&sd->t_done)[0] = tdone;
			pvc_st_rel_sys(&sd->done_seq, t + 1u);
			pvc_st_rel_sys(&p.cdone[slot], t + 1u);
			pvc_st_rel_sys(&p.gst->last_done, t + 1u);
		}
		kc_wipe(&res, sizeof res);
		if (tid == 0 && sm < PVC_MAX_SM)
			pvc_sm_gather(p, sm, s_tclaim, gather);
		__syncthreads();
	}

out:
	/* exit: wipe the vault secrets and DRBGs in shared memory, and local
	 * memory (the poller's block and a stop during idle work included) */
	ve_worker_clear(sw);
	pvc_burn();
	__syncthreads();
	if (tid == 0)
		ve_vault_clear(sv);
	__syncthreads();
	{
		uint32_t words = (uint32_t)(PVC_SMEM / 4u);
		for (uint32_t i = tid; i < words; i += blockDim.x)
			((volatile uint32_t *)s_dyn)[i] = 0;
	}
	__syncthreads();
	if (tid == 0) {
		__threadfence();
		if (atomicAdd(&p.dev->blocks_done, 1u) == gridDim.x - 1u) {
			__threadfence_system();
			pvc_st_rel_sys(&p.gst->exited, 1u);
		}
	}
}

extern "C" unsigned pvc_kernel_block(void)
{
	return PVC_BLOCK;
}

extern "C" size_t pvc_kernel_smem(void)
{
	return PVC_SMEM;
}

extern "C" size_t pvc_kernel_pair_bytes(unsigned grid)
{
	return (size_t)(grid / 2u) * sizeof(pvcx_pair);
}

extern "C" cudaError_t pvc_kernel_prepare(int *blocks_per_sm)
{
	cudaError_t e = cudaFuncSetAttribute(pvc_vault_kernel,
		cudaFuncAttributeMaxDynamicSharedMemorySize, (int)pvc_kernel_smem());
	if (e != cudaSuccess)
		return e;
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm,
		pvc_vault_kernel, (int)PVC_BLOCK, pvc_kernel_smem());
}

extern "C" cudaError_t pvc_kernel_launch(const pvc_kparams *p, unsigned grid, cudaStream_t s)
{
	pvc_vault_kernel<<<grid, PVC_BLOCK, pvc_kernel_smem(), s>>>(*p);
	return cudaGetLastError();
}

extern "C" cudaError_t pvc_kernel_attrs(int *regs, size_t *local_bytes, size_t *static_smem)
{
	cudaFuncAttributes a;
	cudaError_t e = cudaFuncGetAttributes(&a, pvc_vault_kernel);
	if (e != cudaSuccess)
		return e;
	*regs = a.numRegs;
	*local_bytes = a.localSizeBytes;
	*static_smem = a.sharedSizeBytes;
	return cudaSuccess;
}
