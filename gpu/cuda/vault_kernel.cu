/*
 * vault_kernel.cu - the persistent vault kernel.
 *
 * ONE translation unit: the portable core's .c files are #included below
 * (pvc_core_all.inc, generated from meson's core_src), so every KC_API
 * function is __host__ __device__ static inline here and the whole request
 * path is register-allocated together (no relocatable device code).
 *
 * Shape: a grid of (multiprocessors x resident blocks) blocks that never
 * return while the vault is open.  Per block:
 *   boot     every thread loads the master key from the device staging
 *            buffer into 8 registers; the last block to do so wipes the
 *            staging buffer and publishes ctl.booted (system-scope release);
 *   loop     the leader polls ctl.head (system-scope acquire, with
 *            exponential __nanosleep back-off while idle) and claims up to
 *            blockDim tickets with atomicCAS on the device-memory claim
 *            counter; each thread takes one request: acquire-load of its
 *            descriptor's seq, descriptor copied into registers and
 *            validated, the block copies every input host -> device memory
 *            (16-byte, flattened across the batch), each thread executes
 *            its request in its shared-memory workspace, the block copies
 *            the outputs device -> host, __threadfence_system(), then each
 *            thread writes its completion record and releases comp.seq;
 *            then the device copies and the workspace are wiped;
 *   exit     ctl.stop set and nothing left to claim: shared memory wiped,
 *            key registers cleared, the last block publishes ctl.exited.
 *
 * No word is RMW'd by both host and GPU (see pvc_ring.h).
 */
#include <cuda/atomic>

#include "pvc_core_all.inc"
#include "gpu/core/pv_err.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_hmac.h"
#if __has_include("gpu/core/sym/kc_gcm.c")
#include "gpu/core/sym/kc_sym.h"
#define PVC_HAVE_GCM 1
#else
#define PVC_HAVE_GCM 0
#endif
#include "gpu/cuda/pvc_kernel.h"

#define PVC_BLOCK 64u
#define PVC_UNROLL 8

/* Per-thread workspace in shared memory: registers and shared memory are
 * the storage the CUDA API gives the host no way to read. */
typedef struct pvc_mk_hmac {
	uint8_t key[32];
	kc_hmac_ctx m;
} pvc_mk_hmac;
#if PVC_HAVE_GCM
typedef struct pvc_ws_gcm {
	kc_bc bc;
	kc_gcm g;
	uint8_t tag[16];
} pvc_ws_gcm;
#endif
typedef union pvc_ws {
	kc_hash_ctx h;
	pvc_mk_hmac mk;
#if PVC_HAVE_GCM
	pvc_ws_gcm gcm;
#endif
	uint4 align_;
} pvc_ws;

/* The master key, held in registers: eight scalars, never an array that
 * could be indexed at run time. */
typedef struct pvc_mk {
	uint32_t w0, w1, w2, w3, w4, w5, w6, w7;
} pvc_mk;

__device__ static inline uint32_t pvc_ld_acq_sys(uint32_t *p)
{
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*p);
	return r.load(cuda::memory_order_acquire);
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

__device__ static inline uint32_t pvc_ld_vol(const uint32_t *p)
{
	return *(const volatile uint32_t *)p;
}

__device__ static inline uint32_t pvc_round16(uint32_t x)
{
	return (x + 15u) & ~15u;
}

/* Largest r in [0, n) with start[r] <= k (start is the exclusive prefix of
 * chunk counts, start[n] = total). */
__device__ static inline uint32_t pvc_find(const uint32_t *start, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n;     /* invariant: start[lo] <= k < start[hi] */
	while (hi - lo > 1u) {
		uint32_t mid = (lo + hi) >> 1;
		if (start[mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

#define PVC_COPY_IN 0    /* host slot [0, len)          -> device slot     */
#define PVC_COPY_OUT 1   /* device slot [off, off+len)  -> host slot       */
#define PVC_ZERO 2       /* device slot [0, len) := 0                      */

/* Block-cooperative 16-byte copies over the whole batch, flattened so that
 * one round trip over PCIe carries PVC_UNROLL loads per thread whatever the
 * request sizes.  start[] is in 16-byte chunks; off[] in bytes. */
__device__ static void pvc_block_move(const pvc_kparams &p, int mode, uint32_t n,
	const uint32_t *start, const uint32_t *slot, const uint32_t *off)
{
	uint32_t total = start[n];
	uint32_t step = blockDim.x * PVC_UNROLL;
	for (uint32_t k0 = threadIdx.x; k0 < total; k0 += step) {
		uint4 v[PVC_UNROLL];
		uint4 *dst[PVC_UNROLL];
#pragma unroll
		for (int j = 0; j < PVC_UNROLL; j++) {
			uint32_t k = k0 + (uint32_t)j * blockDim.x;
			dst[j] = 0;
			v[j] = make_uint4(0, 0, 0, 0);
			if (k < total) {
				uint32_t r = pvc_find(start, n, k);
				size_t base = (size_t)slot[r] * p.slot_bytes + off[r] + (size_t)(k - start[r]) * 16u;
				if (mode == PVC_COPY_IN) {
					v[j] = __ldcv((const uint4 *)(p.harena + base));
					dst[j] = (uint4 *)(p.darena + base);
				} else if (mode == PVC_COPY_OUT) {
					v[j] = *(const uint4 *)(p.darena + base);
					dst[j] = (uint4 *)(p.harena + base);
				} else {
					dst[j] = (uint4 *)(p.darena + base);
				}
			}
		}
#pragma unroll
		for (int j = 0; j < PVC_UNROLL; j++) {
			if (dst[j] != 0) {
				if (mode == PVC_COPY_OUT)
					__stcs(dst[j], v[j]);
				else
					*dst[j] = v[j];
			}
		}
	}
}

__device__ static void pvc_mk_bytes(uint8_t *k, const pvc_mk &mk)
{
	kc_store_le32(k + 0, mk.w0);  kc_store_le32(k + 4, mk.w1);
	kc_store_le32(k + 8, mk.w2);  kc_store_le32(k + 12, mk.w3);
	kc_store_le32(k + 16, mk.w4); kc_store_le32(k + 20, mk.w5);
	kc_store_le32(k + 24, mk.w6); kc_store_le32(k + 28, mk.w7);
}

/* Execute one validated request: input in device memory (a private copy),
 * output to device memory, secrets only in registers and in ws. */
__device__ static int pvc_exec(uint32_t op, uint32_t alg, uint32_t param,
	const uint8_t *in, uint32_t in_len, uint8_t *out, uint32_t out_cap,
	uint32_t *out_len, pvc_ws *ws, const pvc_mk &mk)
{
	*out_len = 0;
	switch (op) {
	case PVC_OP_ECHO:
		if (in_len > out_cap)
			return PV_ERR_BUF_SMALL;
		kc_memcpy(out, in, in_len);
		*out_len = in_len;
		return PV_OK;
	case PVC_OP_DIGEST: {
		size_t dl = kc_hash_len(alg);
		if (dl == 0)
			return PV_ERR_MECHANISM;
		if (dl > out_cap)
			return PV_ERR_BUF_SMALL;
		if (kc_hash_init(&ws->h, alg) != PV_OK)
			return PV_ERR_MECHANISM;
		kc_hash_update(&ws->h, in, in_len);
		kc_hash_final(&ws->h, out);
		*out_len = (uint32_t)dl;
		return PV_OK;
	}
	case PVC_OP_MK_HMAC: {
		if (out_cap < 32)
			return PV_ERR_BUF_SMALL;
		pvc_mk_bytes(ws->mk.key, mk);
		int rc = kc_hmac_init(&ws->mk.m, KC_HASH_SHA256, ws->mk.key, 32);
		if (rc == PV_OK) {
			kc_hmac_update(&ws->mk.m, in, in_len);
			kc_hmac_final(&ws->mk.m, out);
			*out_len = 32;
		}
		return rc;
	}
#if PVC_HAVE_GCM
	case PVC_OP_GCM_SEAL:
	case PVC_OP_GCM_OPEN: {
		uint32_t klen = alg, aad = param, hdr, dlen;
		int rc;
		if (klen != 16 && klen != 24 && klen != 32)
			return PV_ERR_KEY_SIZE;
		hdr = klen + 12u;
		if (in_len < hdr || in_len - hdr < aad)
			return PV_ERR_DATA_LEN;
		dlen = in_len - hdr - aad;
		if (op == PVC_OP_GCM_OPEN) {
			if (dlen < 16)
				return PV_ERR_ENC_LEN;
			dlen -= 16;
			if (out_cap < dlen)
				return PV_ERR_BUF_SMALL;
		} else if (out_cap < dlen || out_cap - dlen < 16) {
			return PV_ERR_BUF_SMALL;
		}
		rc = kc_bc_init(&ws->gcm.bc, KC_BC_AES, in, klen);
		if (rc == PV_OK)
			rc = kc_gcm_init(&ws->gcm.g, &ws->gcm.bc, in + klen, 12);
		kc_bc_clear(&ws->gcm.bc);
		if (rc == PV_OK)
			rc = kc_gcm_aad(&ws->gcm.g, in + hdr, aad);
		if (rc != PV_OK) {
			kc_gcm_clear(&ws->gcm.g);
			return rc;
		}
		if (op == PVC_OP_GCM_SEAL) {
			rc = kc_gcm_encrypt(&ws->gcm.g, in + hdr + aad, out, dlen);
			if (rc == PV_OK) {
				kc_gcm_tag(&ws->gcm.g, ws->gcm.tag);
				kc_memcpy(out + dlen, ws->gcm.tag, 16);
				*out_len = dlen + 16u;
			}
		} else {
			rc = kc_gcm_decrypt(&ws->gcm.g, in + hdr + aad, out, dlen);
			if (rc == PV_OK)
				rc = kc_gcm_check_tag(&ws->gcm.g, in + hdr + aad + dlen, 16);
			if (rc == PV_OK)
				*out_len = dlen;
			else
				kc_wipe(out, dlen);   /* never release unauthenticated text */
		}
		kc_gcm_clear(&ws->gcm.g);
		return rc;
	}
#endif
	default:
		return PV_ERR_MECHANISM;
	}
}

extern "C" __global__ void __launch_bounds__(PVC_BLOCK)
pvc_vault_kernel(const pvc_kparams p)
{
	extern __shared__ uint4 s_dyn[];            /* PVC_BLOCK workspaces */
	__shared__ uint32_t s_base, s_n;
	__shared__ uint32_t s_start[PVC_BLOCK + 1];
	__shared__ uint32_t s_slot[PVC_BLOCK];
	__shared__ uint32_t s_off[PVC_BLOCK];
	pvc_ws *ws = (pvc_ws *)s_dyn + threadIdx.x;
	const uint32_t tid = threadIdx.x;
	pvc_mk mk;

	/* boot: master key into registers, staging wiped by the last block */
	mk.w0 = pvc_ld_vol(p.mk_staging + 0); mk.w1 = pvc_ld_vol(p.mk_staging + 1);
	mk.w2 = pvc_ld_vol(p.mk_staging + 2); mk.w3 = pvc_ld_vol(p.mk_staging + 3);
	mk.w4 = pvc_ld_vol(p.mk_staging + 4); mk.w5 = pvc_ld_vol(p.mk_staging + 5);
	mk.w6 = pvc_ld_vol(p.mk_staging + 6); mk.w7 = pvc_ld_vol(p.mk_staging + 7);
	__syncthreads();
	if (tid == 0) {
		__threadfence();
		if (atomicAdd(&p.dev->keys_loaded, 1u) == gridDim.x - 1u) {
			for (int i = 0; i < 8; i++)
				((volatile uint32_t *)p.mk_staging)[i] = 0;
			__threadfence_system();
			if (pvc_ld_vol(&p.ctl->magic) != PVC_RING_MAGIC)
				pvc_st_rlx_sys(&p.ctl->fatal, 1u);
			pvc_st_rel_sys(&p.ctl->booted, 1u);
		}
	}

	for (;;) {
		/* claim a batch */
		if (tid == 0) {
			unsigned ns = 32;
			cuda::atomic_ref<uint32_t, cuda::thread_scope_device> claim(p.dev->claim);
			for (;;) {
				uint32_t h = pvc_ld_acq_sys(&p.ctl->head);
				uint32_t c = claim.load(cuda::memory_order_relaxed);
				if ((int32_t)(h - c) > 0) {
					uint32_t n = h - c;
					if (n > blockDim.x)
						n = blockDim.x;
					if (atomicCAS(&p.dev->claim, c, c + n) == c) {
						s_base = c;
						s_n = n;
						break;
					}
					continue;
				}
				if (pvc_ld_acq_sys(&p.ctl->stop)) {
					s_n = 0;
					break;
				}
				__nanosleep(ns);
				if (ns < 2048)
					ns <<= 1;
			}
		}
		__syncthreads();
		const uint32_t n = s_n;
		if (n == 0)
			break;

		/* descriptor -> registers, validated */
		const uint32_t t = s_base + tid;
		const uint32_t slot = t % p.nslots;
		uint32_t op = 0, alg = 0, param = 0, in_len = 0, out_off = 0, out_cap = 0;
		uint32_t out_len = 0;
		int rc = PV_ERR_PROTOCOL;
		bool valid = false;
		if (tid < n) {
			pvc_desc *d = p.desc + slot;
			if (pvc_ld_acq_sys(&d->seq) == t + 1u) {
				op = pvc_ld_vol(&d->op);
				alg = pvc_ld_vol(&d->alg);
				param = pvc_ld_vol(&d->param);
				in_len = pvc_ld_vol(&d->in_len);
				out_off = pvc_ld_vol(&d->out_off);
				out_cap = pvc_ld_vol(&d->out_cap);
				rc = PV_OK;
				if (in_len > p.slot_bytes || (out_off & 15u) != 0 ||
				    out_off < pvc_round16(in_len) || out_off > p.slot_bytes ||
				    out_cap > p.slot_bytes - out_off)
					rc = PV_ERR_ARGS;
			}
			valid = rc == PV_OK;
			if (!valid)
				in_len = out_off = out_cap = 0;
			s_slot[tid] = slot;
			s_off[tid] = 0;
			s_start[tid + 1] = pvc_round16(in_len) >> 4;
		}
		__syncthreads();
		if (tid == 0) {
			s_start[0] = 0;
			for (uint32_t i = 1; i <= n; i++)
				s_start[i] += s_start[i - 1];
		}
		__syncthreads();
		pvc_block_move(p, PVC_COPY_IN, n, s_start, s_slot, s_off);
		__syncthreads();

		/* execute: one thread per request */
		uint8_t *din = p.darena + (size_t)slot * p.slot_bytes;
		uint8_t *dout = din + out_off;
		if (tid < n && rc == PV_OK) {
			rc = pvc_exec(op, alg, param, din, in_len, dout, out_cap, &out_len, ws, mk);
			if (rc != PV_OK || out_len > out_cap)
				out_len = 0;
			/* the copy-out moves whole 16-byte chunks: zero the tail */
			for (uint32_t i = out_len; i < pvc_round16(out_len); i++)
				dout[i] = 0;
			kc_wipe(ws, sizeof *ws);
		}
		__syncthreads();
		if (tid < n) {
			s_off[tid] = out_off;
			s_start[tid + 1] = pvc_round16(out_len) >> 4;
		}
		__syncthreads();
		if (tid == 0)
			for (uint32_t i = 1; i <= n; i++)
				s_start[i] += s_start[i - 1];
		__syncthreads();
		pvc_block_move(p, PVC_COPY_OUT, n, s_start, s_slot, s_off);
		__threadfence_system();
		__syncthreads();

		/* completion: record, then seq with system-scope release */
		if (tid < n) {
			pvc_comp *c = p.comp + slot;
			pvc_st_rlx_sys((uint32_t *)&c->rc, (uint32_t)rc);
			pvc_st_rlx_sys(&c->out_len, out_len);
			pvc_st_rel_sys(&c->seq, t + 1u);
		}

		/* wipe this batch's device copies (inputs may hold keys, outputs
		 * plaintext): the whole slot range that was used */
		__syncthreads();
		if (tid < n) {
			s_off[tid] = 0;
			s_start[tid + 1] = valid ? (out_off + pvc_round16(out_cap)) >> 4 : 0u;
		}
		__syncthreads();
		if (tid == 0)
			for (uint32_t i = 1; i <= n; i++)
				s_start[i] += s_start[i - 1];
		__syncthreads();
		pvc_block_move(p, PVC_ZERO, n, s_start, s_slot, s_off);
		__syncthreads();
	}

	/* exit: wipe shared memory and key registers */
	{
		uint32_t words = (uint32_t)(PVC_BLOCK * sizeof(pvc_ws) / 4u);
		for (uint32_t i = tid; i < words; i += blockDim.x)
			((volatile uint32_t *)s_dyn)[i] = 0;
		for (uint32_t i = tid; i < PVC_BLOCK; i += blockDim.x) {
			s_slot[i] = 0;
			s_off[i] = 0;
		}
	}
	mk.w0 = mk.w1 = mk.w2 = mk.w3 = mk.w4 = mk.w5 = mk.w6 = mk.w7 = 0;
	asm volatile("" : : "r"(mk.w0), "r"(mk.w1), "r"(mk.w2), "r"(mk.w3),
		"r"(mk.w4), "r"(mk.w5), "r"(mk.w6), "r"(mk.w7) : "memory");
	__syncthreads();
	if (tid == 0) {
		__threadfence();
		if (atomicAdd(&p.dev->blocks_done, 1u) == gridDim.x - 1u) {
			__threadfence_system();
			pvc_st_rel_sys(&p.ctl->exited, 1u);
		}
	}
}

extern "C" unsigned pvc_kernel_block(void)
{
	return PVC_BLOCK;
}

extern "C" size_t pvc_kernel_smem(void)
{
	return (size_t)PVC_BLOCK * sizeof(pvc_ws);
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
