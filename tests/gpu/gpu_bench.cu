/*
 * gpu_bench.cu - small benchmark of the CUDA vault on the device machine.
 *
 *   kernel-only  the core primitive run by a plain batch kernel, one thread
 *                per message, data already in device memory, timed with
 *                CUDA events (median of 5 after a warm-up);
 *   end-to-end   the same messages as engine requests (PV_OP_DIGEST;
 *                PV_OP_ENCRYPT AES-GCM with a key blob, unwrapped by the
 *                vault for each request) through the ring (pv_cuda_submit /
 *                pv_cuda_wait from 8 host threads), timed with the host
 *                clock: input copy into pinned memory, PCIe both ways,
 *                polling, blob unwrap and completion included;
 *   latency      one SHA-256 of 16 bytes at a time (median round trip).
 *
 * Workloads: SHA-256, SHA3-256, SM3 over 4 KiB messages; AES-256-GCM seal
 * over 1 MiB messages; kernel-only also RSA-2048 PKCS#1 v1.5 SHA-256,
 * ECDSA P-256, SM2 (of a 32-byte digest) and Ed25519 (64-byte message)
 * signatures, each checked against the host (see pk_one).  Prints
 * "BENCH name mode req/s GB/s" lines (GB/s 0 for the signatures, "-" in
 * the summary table; n = SMs * 64 * scale signatures per launch).
 * PCIe: pinned cudaMemcpy host->device and device->host of 256 MiB (best
 * and median GB/s of 7), the link the end-to-end rows go through; then the
 * same 256 MiB read and written by kernels with 16-byte loads / stores
 * (zero-copy, as the vault kernel moves a request's data) from 1 block to
 * 8 per multiprocessor; malloc'd memory the same way where the system
 * lets a kernel use it (HMM); and the host's memcpy / explicit_bzero bandwidth
 * on 1, 8 and 16 threads (the producer's copies of a request); and a
 * caller's 1 MiB buffers to the GPU by the copy engine, registered,
 * staged through a pinned buffer or pageable (hr_thread).
 * usage: gpu_bench [scale [latency|pk|pkhost|sig|pcie|stagecalls|mm|hashlat|keygen|ecload|veload]]
 *   scale 1 = default sizes; 0.1 for a quick run;
 *   latency  the lone-request round trip alone;
 *   pk       the public-key kernel-only rates alone;
 *   pkhost   no GPU: the host half of the public-key checks (keygen, sign
 *            and verify with the same pk_one), host timings, no rate;
 *   sig      RSA-2048 and P-256 signatures through the vault ring without
 *            PKCS#11: a lone request split by stage, then 1024 in flight
 *            from 16 threads, and 512 threads with one request each;
 *   pcie     the PCIe copy bandwidth alone;
 *   stagecalls  copies of 4 KiB and 1 MiB to the GPU from 1, 16 and 64
 *            host threads with the vault open, each waited for by a
 *            blocking-sync event, by polling its event, or not at all (a
 *            word queued behind it): copies per second;
 *   ecload [n,... [carveout [dynamic shared bytes]]]  P-256 signatures on
 *            the vault's warp shape, kernel-only, n at once (default 1 to
 *            16 per multiprocessor);
 *   veload [n,... [stagger_us [work]]]  the same through ve_execute (key
 *            blob, request checks), without the ring; each block may start
 *            after a delay of up to stagger_us of its own; work adds the
 *            ring's per-request steps (VL_IN 1, VL_OUT 2, VL_WIPE 4,
 *            VL_REPS 8: four requests per block; VL_SYNC 16: all blocks
 *            start each request together; VL_RSA 32: RSA-2048 instead
 *            of P-256);
 *   keygen [n [bits]]  RSA key generation from n fixed seeds on the
 *            vault's warp shape and, up to 2,048 bits, on one thread, each
 *            key compared with the host's from the same seed (exit 1 on a
 *            difference), milliseconds per key; without n: 3 seeds of
 *            2,048 bits, one of 3,072 and one of 4,096;
 *   mm       the warp Montgomery product alone (pvc_bn_warp.cuh): cycles
 *            per product and per step for one limb per lane (32 limbs) and
 *            two (64 limbs), and a 1,088-bit exponentiation mod a 1,024-bit
 *            modulus (an RSA-2048 CRT half with its 64 blinding bits), one
 *            warp alone on the GPU, then on one and on both warps of a
 *            block, with and without the vault's launch bounds, and right
 *            to left with the squarings and the products on two warps,
 *            handed over every bit or every fourth (Yao's buckets), one
 *            half on two warps and both halves on four; results
 *            checked against the host;
 *   hashlat  cycles of one SHA-256 compression, one HMAC-SHA-256, a
 *            16-byte HMAC_DRBG draw and an RFC 6979 P-256 nonce on one
 *            thread alone, then on every thread of 8 blocks of 64 a
 *            multiprocessor (medians), outputs checked against the host.
 * Exit status: 0, 1 if a signature was wrong, 77 without a CUDA device.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <time.h>
#include <vector>
#include <cuda_runtime.h>
#include <cuda/atomic>

/* Compile-time budget: every KC_API function becomes its own device
 * function (__noinline__) instead of being inlined at each call site.
 * Fully inlining the core and the engine into one kernel made this
 * translation unit take well over 5 CPU-minutes in cicc; as separate
 * functions each is optimized once.  Same source, same semantics. */
#include "gpu/core/kc_defs.h"
#undef KC_API
#define KC_API __host__ __device__ static __noinline__ __attribute__((unused))

/* the vault kernel's warp-cooperative big-number hooks: every kernel here
 * sets its mode first (pvcw_mode) */
#include "gpu/cuda/pvc_bn_warp.cuh"
#include "gpu/cuda/pvc_ec_warp.cuh"
#include "gpu/cuda/pvc_keccak_warp.cuh"
#include "pvc_core_all.inc"
#include "gpu/cuda/pvc_ctr_warp.cuh"
#include "gpu/core/pv_err.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/sym/kc_sym.h"
#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/pk/kc_rsa.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/ed25519/kc_ed25519.h"
#include "gpu/cuda/pv_cuda.h"
#include "gpu/cuda/pvc_ring.h"        /* PVC_PROF_*: the profile rows */
#include "gpu/engine/ve_proto.h"
#include "gpu/engine/ve_engine.h"
#include "gpu/host/pv_bulk.h"
#include "tests/unit/core_pk/rsa_fault.h"

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
	exit(1); } } while (0)

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

__global__ void k_hash(uint32_t alg, const uint8_t *in, size_t len, uint32_t n, uint8_t *out)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	pvcw_mode(0);
	if (i < n)
		kc_hash(alg, in + (size_t)i * len, len, out + (size_t)i * 64);
}

__global__ void k_gcm(const uint8_t *key, const uint8_t *in, size_t len, uint32_t n, uint8_t *out)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	pvcw_mode(0);
	if (i >= n)
		return;
	kc_bc bc;
	kc_gcm g;
	uint8_t iv[12];
	for (int k = 0; k < 12; k++)
		iv[k] = (uint8_t)(i >> (k & 3));
	kc_bc_init(&bc, KC_BC_AES, key, 32);
	kc_gcm_init(&g, &bc, iv, 12);
	kc_gcm_encrypt(&g, in + (size_t)i * len, out + (size_t)i * (len + 16), len);
	kc_gcm_tag(&g, out + (size_t)i * (len + 16) + len);
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
}

struct result { const char *name, *mode; double reqs, gbs; };
static std::vector<result> results;

static void report(const char *name, const char *mode, double n, double bytes, double secs)
{
	result r = { name, mode, n / secs, bytes / secs / 1e9 };
	results.push_back(r);
	printf("BENCH %-12s %-12s %12.0f req/s %8.3f GB/s  (%.0f req in %.4f s)\n", name, mode, r.reqs, r.gbs, n, secs);
	fflush(stdout);
}

static void no_prep(void) {}

/* Seconds of the median of 5 timed launch()es after a warm-up one; prep()
 * runs before each, untimed. */
template <typename L, typename P = void (*)(void)>
static double median_launch_s(L launch, P prep = no_prep)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	std::vector<float> ms;
	for (int r = 0; r < 6; r++) {
		prep();
		CK(cudaEventRecord(a));
		launch();
		CK(cudaGetLastError());
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float t;
		CK(cudaEventElapsedTime(&t, a, b));
		if (r > 0)
			ms.push_back(t);
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	std::sort(ms.begin(), ms.end());
	return ms[ms.size() / 2] / 1e3;
}

/* kernel-only: median of 5 timed launches */
static void kernel_only(const char *name, int is_gcm, uint32_t alg, size_t len, uint32_t n)
{
	uint8_t *din, *dout, *dkey;
	size_t outsz = is_gcm ? (size_t)n * (len + 16) : (size_t)n * 64;
	CK(cudaMalloc(&din, (size_t)n * len));
	CK(cudaMalloc(&dout, outsz));
	CK(cudaMalloc(&dkey, 32));
	/* non-zero data: a fill kernel would do; memset with a pattern is enough for hashing cost */
	CK(cudaMemset(din, 0x5c, (size_t)n * len));
	CK(cudaMemset(dkey, 0x3a, 32));
	unsigned blk = is_gcm ? 64 : 128;
	double secs = median_launch_s([&] {
		if (is_gcm)
			k_gcm<<<(n + blk - 1) / blk, blk>>>(dkey, din, len, n, dout);
		else
			k_hash<<<(n + blk - 1) / blk, blk>>>(alg, din, len, n, dout);
	});
	report(name, "kernel-only", n, (double)n * len, secs);
	CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(dkey));
}

/* ---- public-key signatures, kernel-only ----------------------------------
 * One thread per signature, keys generated once on the host by the core's
 * own keygen (fixed DRBG seed) and copied to device memory.  pk_one is the
 * whole operation i: its 64-byte message derived from i, the digest
 * (SHA-256; SM3 of the message stands in for SM2's e = SM3(Z||M)), a DRBG
 * instantiated from i (RSA's exponent blinding, the hedge of the ECDSA /
 * SM2 nonces) and the signature.  The kernel and the host run the same
 * function: a few signatures are made and verified on the host before the
 * GPU is timed; afterwards every GPU return code is checked, a sample of
 * the GPU's signatures is verified on the host with the core's verify, and
 * the host's signatures are compared byte for byte with the GPU's for the
 * same i (with the DRBG seeded from i, all four are deterministic in i).
 * Any failure prints a FAIL line, no rate is reported for that operation
 * and main() returns 1.  The digest of 64 bytes and the DRBG instantiation
 * are inside the timed operation (a few HMAC/hash blocks: noise next to
 * the signature). */
enum { PK_RSA, PK_P256, PK_SM2, PK_ED25519, PK_RSA_WARP, PK_RSA_2WARP, PK_NKIND };
#define PK_SIGMAX 256            /* bytes reserved per signature in out[] */
#define PK_MSGLEN 64
#define PK_BLOCK  64u

struct pk_keys {
	kc_rsa_priv rsa;
	uint8_t p256[32], p256_pub[65];
	uint8_t sm2[32], sm2_pub[65];
	uint8_t ed[32], ed_pub[32];
};

static const char *const pk_name[PK_NKIND] = { "RSA2048-sign", "P256-sign", "SM2-sign", "Ed25519-sign",
	"RSA2048-sign-warp", "RSA2048-sign-2warp" };
static const size_t pk_siglen[PK_NKIND] = { 256, 64, 64, 64, 256, 256 };
/* lanes per operation: RSA_WARP is RSA on a whole warp, RSA_2WARP with a
 * second warp for the second CRT half, as the vault kernel runs it
 * (pvc_bn_warp.cuh); the same signatures as RSA */
static const uint32_t pk_lanes[PK_NKIND] = { 1, 1, 1, 1, 32, 64 };

__host__ __device__ static inline void pk_msg(int kind, uint32_t i, uint8_t m[PK_MSGLEN])
{
	for (int k = 0; k < PK_MSGLEN; k++)
		m[k] = (uint8_t)((i >> (8 * (k & 3))) + 131u * (uint32_t)k + 17u * (uint32_t)kind);
}

/* operation i of kind: its signature into sig; a PV_ERR_* code */
__host__ __device__ static inline int pk_one(int kind, uint32_t i, const pk_keys *K, uint8_t *sig)
{
	uint8_t m[PK_MSGLEN], h[32], ent[32];
	kc_drbg d;
	int rc;
	if (kind == PK_RSA_WARP || kind == PK_RSA_2WARP)
		kind = PK_RSA;
	pk_msg(kind, i, m);
	if (kind == PK_ED25519)
		return kc_ed25519_sign(K->ed, K->ed_pub, m, sizeof m, sig);
	for (int k = 0; k < 32; k++)
		ent[k] = (uint8_t)((i >> (8 * (k & 3))) ^ (uint32_t)(29 * k + kind));
	rc = kc_drbg_init(&d, ent, sizeof ent, (const uint8_t *)"gpu_bench pk", 12, NULL, 0);
	if (rc == PV_OK)
		rc = kc_hash(kind == PK_SM2 ? KC_HASH_SM3 : KC_HASH_SHA256, m, sizeof m, h);
	if (rc == PV_OK) {
		if (kind == PK_RSA)
			rc = kc_rsa_pkcs1_sign(&K->rsa, &d, KC_HASH_SHA256, h, 32, sig);
		else if (kind == PK_P256)
			rc = kc_ecdsa_sign(KC_EC_P256, K->p256, h, 32, &d, sig);
		else
			rc = kc_sm2_sign_digest(K->sm2, h, &d, sig);
	}
	kc_drbg_clear(&d);
	return rc;
}

template <int KIND>
__global__ void k_pk(const pk_keys *K, uint32_t n, uint8_t *out, int *rc)
{
	const uint32_t lanes = KIND == PK_RSA_2WARP ? 64u : KIND == PK_RSA_WARP ? 32u : 1u;
	uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / lanes;
	pvcw_mode(lanes == 64u ? 2u : lanes == 32u ? 1u : 0u);
	if (i >= n)
		return;
	if (lanes == 64u && threadIdx.x >= 32u) {
		pvcw_helper();
		return;
	}
	int r = pk_one(KIND, i, K, out + (size_t)i * PK_SIGMAX);
	if (lanes == 64u)
		pvcw_release();
	if (threadIdx.x % lanes == 0u)
		rc[i] = r;
}

static void pk_launch(int kind, unsigned grid, const pk_keys *dk, uint32_t n, uint8_t *out, int *rc)
{
	if (kind == PK_RSA)
		k_pk<PK_RSA><<<grid, PK_BLOCK>>>(dk, n, out, rc);
	else if (kind == PK_P256)
		k_pk<PK_P256><<<grid, PK_BLOCK>>>(dk, n, out, rc);
	else if (kind == PK_SM2)
		k_pk<PK_SM2><<<grid, PK_BLOCK>>>(dk, n, out, rc);
	else if (kind == PK_RSA_WARP)
		k_pk<PK_RSA_WARP><<<grid, PK_BLOCK>>>(dk, n, out, rc);
	else if (kind == PK_RSA_2WARP)
		k_pk<PK_RSA_2WARP><<<grid, PK_BLOCK>>>(dk, n, out, rc);
	else
		k_pk<PK_ED25519><<<grid, PK_BLOCK>>>(dk, n, out, rc);
}

static cudaError_t pk_attrs(int kind, cudaFuncAttributes *a)
{
	if (kind == PK_RSA)
		return cudaFuncGetAttributes(a, k_pk<PK_RSA>);
	if (kind == PK_P256)
		return cudaFuncGetAttributes(a, k_pk<PK_P256>);
	if (kind == PK_SM2)
		return cudaFuncGetAttributes(a, k_pk<PK_SM2>);
	if (kind == PK_RSA_WARP)
		return cudaFuncGetAttributes(a, k_pk<PK_RSA_WARP>);
	if (kind == PK_RSA_2WARP)
		return cudaFuncGetAttributes(a, k_pk<PK_RSA_2WARP>);
	return cudaFuncGetAttributes(a, k_pk<PK_ED25519>);
}

/* the core's verify of signature i (host) */
static int pk_verify(int kind, uint32_t i, const pk_keys *K, const kc_rsa_pub *rpub, const uint8_t *sig)
{
	uint8_t m[PK_MSGLEN], h[32];
	if (kind == PK_RSA_WARP || kind == PK_RSA_2WARP)
		kind = PK_RSA;
	pk_msg(kind, i, m);
	if (kind == PK_ED25519)
		return kc_ed25519_verify(K->ed_pub, m, sizeof m, sig, 64);
	kc_hash(kind == PK_SM2 ? KC_HASH_SM3 : KC_HASH_SHA256, m, sizeof m, h);
	if (kind == PK_RSA)
		return kc_rsa_pkcs1_verify(rpub, KC_HASH_SHA256, h, 32, sig, 256);
	if (kind == PK_P256)
		return kc_ecdsa_verify(KC_EC_P256, K->p256_pub, 65, h, 32, sig, 64);
	return kc_sm2_verify_digest(K->sm2_pub, 65, h, sig, 64);
}

/* All keys from one DRBG with a fixed seed (a benchmark: reproducible). */
static int pk_keygen(pk_keys *K, kc_rsa_pub *rpub)
{
	kc_drbg d;
	uint8_t seed[32];
	int rc;
	memset(K, 0, sizeof *K);
	for (int k = 0; k < 32; k++)
		seed[k] = (uint8_t)(0xa5 ^ (k * 37));
	rc = kc_drbg_init(&d, seed, sizeof seed, (const uint8_t *)"gpu_bench keys", 14, NULL, 0);
	if (rc == PV_OK)
		rc = kc_rsa_keygen(&d, 2048, 65537, &K->rsa);
	if (rc == PV_OK)
		rc = kc_ec_keygen(KC_EC_P256, &d, K->p256, K->p256_pub);
	if (rc == PV_OK)
		rc = kc_ec_keygen(KC_EC_SM2, &d, K->sm2, K->sm2_pub);
	if (rc == PV_OK)
		rc = kc_ed25519_keygen(&d, K->ed, K->ed_pub);
	kc_drbg_clear(&d);
	kc_rsa_pub_from_priv(rpub, &K->rsa);
	return rc;
}

/* The host half: signature idx[j] of kind made by pk_one on the host into
 * sigs + j * PK_SIGMAX, verified with the core, and the same signature with
 * one bit flipped must be rejected.  Returns the number of failures; *ms,
 * the host's milliseconds per signature (one thread). */
static int pk_host_sign(int kind, const pk_keys *K, const kc_rsa_pub *rpub,
                        const uint32_t *idx, int m, uint8_t *sigs, double *ms)
{
	int bad = 0;
	double t = 0;
	for (int j = 0; j < m; j++) {
		uint8_t *s = sigs + (size_t)j * PK_SIGMAX;
		double t0 = now_s();
		int rc = pk_one(kind, idx[j], K, s);
		t += now_s() - t0;
		int vr = rc == PV_OK ? pk_verify(kind, idx[j], K, rpub, s) : rc;
		s[pk_siglen[kind] / 2] ^= 0x10;
		int fr = pk_verify(kind, idx[j], K, rpub, s);
		s[pk_siglen[kind] / 2] ^= 0x10;
		if (rc != PV_OK || vr != PV_OK || fr == PV_OK) {
			printf("FAIL %s host #%u: sign rc %d, verify %d, verify of a flipped bit %d\n",
			       pk_name[kind], idx[j], rc, vr, fr);
			bad++;
		}
	}
	*ms = 1e3 * t / m;
	return bad;
}

/* The rc words and signatures of n operations, from the device. */
static void fetch_sigs(const int *drc, const uint8_t *dout, uint32_t n, std::vector<int> &rc,
                       std::vector<uint8_t> &out)
{
	rc.resize(n);
	out.resize((size_t)n * PK_SIGMAX);
	CK(cudaMemcpy(rc.data(), drc, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost));
}

/* The RSA fault check on the GPU, in kind's shape: signatures with one CRT
 * field of the key corrupted (dp, dq, qinv, p, q, n: rsa_fault.h, as
 * test_rsa_ossl.c does on the host) must come back
 * PV_ERR_GENERAL with their output zeroed.  In PK_RSA_2WARP dq's and q's
 * faults are found by warp 1's half of the check (kc_rsa_core_check), a
 * wrong p or q only by p q == n.  dout / drc hold at least PK_NFAULT
 * operations.  Returns failures. */
#define PK_NFAULT 4u
static int pk_fault_check(int kind, const pk_keys *K, uint8_t *dout, int *drc)
{
	pk_keys *dbad, B;
	int bad = 0;

	CK(cudaMalloc(&dbad, sizeof *dbad));
	for (int f = 0; f < RSA_NFAULT; f++) {
		B = *K;
		rsa_fault(&B.rsa, f);
		CK(cudaMemcpy(dbad, &B, sizeof B, cudaMemcpyHostToDevice));
		/* not -1 (0xff...): that is PV_ERR_GENERAL itself */
		CK(cudaMemset(drc, 0x7f, PK_NFAULT * sizeof(int)));
		CK(cudaMemset(dout, 0xee, (size_t)PK_NFAULT * PK_SIGMAX));
		pk_launch(kind, (PK_NFAULT * pk_lanes[kind] + PK_BLOCK - 1) / PK_BLOCK, dbad, PK_NFAULT,
		          dout, drc);
		CK(cudaDeviceSynchronize());
		std::vector<int> rc;
		std::vector<uint8_t> out;
		fetch_sigs(drc, dout, PK_NFAULT, rc, out);
		for (uint32_t i = 0; i < PK_NFAULT; i++) {
			size_t nz = 0;
			for (size_t b = 0; b < pk_siglen[kind]; b++)
				nz += out[(size_t)i * PK_SIGMAX + b] != 0;
			if (rc[i] != PV_ERR_GENERAL || nz != 0) {
				printf("FAIL %s gpu #%u with a corrupted %s: rc %d (want %d), %zu non-zero bytes out\n",
				       pk_name[kind], i, rsa_fault_name(f), rc[i], PV_ERR_GENERAL, nz);
				bad++;
			}
		}
	}
	memset(&B, 0, sizeof B);
	CK(cudaFree(dbad));
	printf("BENCH %-12s fault check: %u/%u signatures with a corrupted dp, dq, qinv, p, q or n refused, "
	       "output zeroed\n", pk_name[kind], RSA_NFAULT * PK_NFAULT - (uint32_t)bad, RSA_NFAULT * PK_NFAULT);
	return bad;
}

/* kernel-only rate of one kind: n signatures per launch, median of 5 timed
 * launches after a warm-up, then the checks above (and, for RSA, the fault
 * check).  Returns failures. */
static int pk_kernel_only(int kind, const pk_keys *K, const kc_rsa_pub *rpub,
                          const pk_keys *dk, uint32_t n)
{
	const char *name = pk_name[kind];
	const int nh = 4, nv = 32;
	uint32_t hidx[nh] = { 0, 1, n / 2, n - 1 };
	std::vector<uint8_t> hsig((size_t)nh * PK_SIGMAX);
	double hms;
	int bad = pk_host_sign(kind, K, rpub, hidx, nh, hsig.data(), &hms);
	if (bad) {
		printf("FAIL %s: the host's signatures do not verify; GPU not timed\n", name);
		return bad;
	}

	cudaFuncAttributes fa;
	size_t stack;
	CK(pk_attrs(kind, &fa));
	CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
	if (fa.localSizeBytes > stack)
		CK(cudaDeviceSetLimit(cudaLimitStackSize, (fa.localSizeBytes + 1023) & ~(size_t)1023));
	CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
	unsigned grid = (n * pk_lanes[kind] + PK_BLOCK - 1) / PK_BLOCK;
	printf("BENCH %-12s n %u, %u blocks of %u, %d regs, %zu B local/thread, stack limit %zu B "
	       "(host: %.2f ms/op, one thread)\n", name, n, grid, PK_BLOCK, fa.numRegs,
	       (size_t)fa.localSizeBytes, stack, hms);
	fflush(stdout);

	uint8_t *dout;
	int *drc;
	CK(cudaMalloc(&dout, (size_t)n * PK_SIGMAX));
	CK(cudaMalloc(&drc, (size_t)n * sizeof(int)));
	double secs = median_launch_s([&] {
		pk_launch(kind, grid, dk, n, dout, drc);
	}, [&] {
		/* -1 everywhere: an operation that did not run cannot pass */
		CK(cudaMemset(drc, 0xff, (size_t)n * sizeof(int)));
		CK(cudaMemset(dout, 0, (size_t)n * PK_SIGMAX));
	});

	/* one operation alone in the grid: its latency on the GPU (the
	 * results checked below are those of the full launches, run again) */
	double lone = median_launch_s([&] {
		pk_launch(kind, (pk_lanes[kind] + PK_BLOCK - 1) / PK_BLOCK, dk, 1, dout, drc);
	});
	CK(cudaMemset(drc, 0xff, (size_t)n * sizeof(int)));
	CK(cudaMemset(dout, 0, (size_t)n * PK_SIGMAX));
	pk_launch(kind, grid, dk, n, dout, drc);
	CK(cudaDeviceSynchronize());
	printf("BENCH %-12s one operation alone: %.3f ms (kernel-only, launch included)\n", name, 1e3 * lone);

	/* the last launch's results */
	std::vector<int> rc;
	std::vector<uint8_t> out;
	fetch_sigs(drc, dout, n, rc, out);
	int rcbad = 0;
	for (uint32_t i = 0; i < n; i++)
		if (rc[i] != PV_OK && rcbad++ < 3)
			printf("FAIL %s gpu #%u: rc %d\n", name, i, rc[i]);
	int vbad = 0;
	for (int j = 0; j < nv; j++) {
		uint32_t i = (uint32_t)((uint64_t)j * (n - 1) / (nv - 1));
		int vr = pk_verify(kind, i, K, rpub, out.data() + (size_t)i * PK_SIGMAX);
		if (vr != PV_OK && vbad++ < 3)
			printf("FAIL %s gpu #%u: the host's verify says %d\n", name, i, vr);
	}
	int cbad = 0;
	for (int j = 0; j < nh; j++)
		if (memcmp(out.data() + (size_t)hidx[j] * PK_SIGMAX, hsig.data() + (size_t)j * PK_SIGMAX,
		           pk_siglen[kind]) != 0 && cbad++ < 3)
			printf("FAIL %s gpu #%u: signature differs from the host's\n", name, hidx[j]);
	bad = rcbad + vbad + cbad;
	printf("BENCH %-12s checks: %u/%u rc ok, %d/%d verified on the host, %d/%d equal to the host's bytes\n",
	       name, n - rcbad, n, nv - vbad, nv, nh - cbad, nh);
	if ((kind == PK_RSA || kind == PK_RSA_WARP || kind == PK_RSA_2WARP) && n >= PK_NFAULT)
		bad += pk_fault_check(kind, K, dout, drc);
	if (bad)
		printf("FAIL %s: wrong results on the GPU; no rate reported\n", name);
	else
		report(name, "kernel-only", n, 0, secs);
	CK(cudaFree(dout)); CK(cudaFree(drc));
	return bad;
}

/* The next number of a comma-separated list (0 at its end). */
static uint32_t next_n(const char **p)
{
	char *end;
	uint32_t n = (uint32_t)strtoul(*p, &end, 10);
	*p = *end == ',' ? end + 1 : end;
	return n;
}

/* Raises the device's stack limit to a kernel's local memory; returns
 * the limit before, for the caller to put back. */
static size_t stack_for(const cudaFuncAttributes &fa)
{
	size_t stack;
	CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
	if (fa.localSizeBytes > stack)
		CK(cudaDeviceSetLimit(cudaLimitStackSize, (fa.localSizeBytes + 1023) & ~(size_t)1023));
	return stack;
}

/* "ecload": how a P-256 signature's time grows with the signatures the
 * GPU runs at once, without the ring: k_ec2w is the vault kernel's shape
 * for an EC signature (warp 0's 32 lanes sign with identical data, the
 * comb hook on; warp 1 takes the blinded inversion job; blocks of 64, 8
 * per multiprocessor as the vault kernel's launch bound) with one
 * signature per block.  For each n: median of 5 launches after a warm-up,
 * every rc checked, 8 signatures verified on the host and signature 0
 * compared with the host's bytes.  carveout: the kernel's
 * cudaFuncAttributePreferredSharedMemoryCarveout (-1 = no preference). */
__global__ void __launch_bounds__(64, 8) k_ec2w(const pk_keys *K, uint32_t n, uint8_t *out, int *rc)
{
	const uint32_t i = blockIdx.x;
	pvcw_mode(2u);
	if (i >= n)
		return;
	if (threadIdx.x >= 32u) {
		pvcw_helper();
		return;
	}
	int r = pk_one(PK_P256, i, K, out + (size_t)i * PK_SIGMAX);
	pvcw_release();
	if (threadIdx.x == 0u)
		rc[i] = r;
}

static int ec_load(const char *list, int carveout, int dsmem)
{
	static pk_keys K;
	kc_rsa_pub rpub;
	if (pk_keygen(&K, &rpub) != PV_OK) {
		printf("FAIL ecload: key generation on the host failed\n");
		return 1;
	}
	uint32_t h0 = 0;
	uint8_t hsig[PK_SIGMAX];
	double hms;
	if (pk_host_sign(PK_P256, &K, &rpub, &h0, 1, hsig, &hms) != 0)
		return 1;
	cudaFuncAttributes fa;
	CK(cudaFuncGetAttributes(&fa, k_ec2w));
	const size_t stack = stack_for(fa);
	if (carveout != -1)
		CK(cudaFuncSetAttribute(k_ec2w, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
	if (dsmem > 0)
		CK(cudaFuncSetAttribute(k_ec2w, cudaFuncAttributeMaxDynamicSharedMemorySize, dsmem));
	int bps = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, k_ec2w, 64, (size_t)dsmem));
	printf("BENCH %-12s k_ec2w: %d regs, %zu B local/thread, %zu + %d B shared/block, %d blocks/SM, "
	       "carveout %d\n", "ecload", fa.numRegs, (size_t)fa.localSizeBytes, (size_t)fa.sharedSizeBytes,
	       dsmem, bps, carveout);
	pk_keys *dk;
	CK(cudaMalloc(&dk, sizeof K));
	CK(cudaMemcpy(dk, &K, sizeof K, cudaMemcpyHostToDevice));
	int bad = 0;
	for (const char *p = list; *p != '\0'; ) {
		const uint32_t n = next_n(&p);
		if (n == 0)
			break;
		uint8_t *dout;
		int *drc;
		CK(cudaMalloc(&dout, (size_t)n * PK_SIGMAX));
		CK(cudaMalloc(&drc, (size_t)n * sizeof(int)));
		CK(cudaMemset(drc, 0xff, (size_t)n * sizeof(int)));
		double secs = median_launch_s([&] { k_ec2w<<<n, 64, (size_t)dsmem>>>(dk, n, dout, drc); });
		std::vector<int> rc;
		std::vector<uint8_t> out;
		fetch_sigs(drc, dout, n, rc, out);
		int b = 0;
		for (uint32_t i = 0; i < n; i++)
			b += rc[i] != PV_OK;
		for (int j = 0; j < 8; j++) {
			uint32_t i = (uint32_t)((uint64_t)j * (n - 1) / 7);
			b += pk_verify(PK_P256, i, &K, &rpub, out.data() + (size_t)i * PK_SIGMAX) != PV_OK;
		}
		b += memcmp(out.data(), hsig, 64) != 0;
		printf("BENCH %-12s n %5u: %8.1f us per launch, %9.0f sig/s, %.2f per SM%s\n", "ecload", n,
		       secs * 1e6, n / secs, n / 132.0, b ? " FAIL: wrong results" : ", checked");
		bad += b;
		CK(cudaFree(dout)); CK(cudaFree(drc));
	}
	CK(cudaFree(dk));
	CK(cudaDeviceSetLimit(cudaLimitStackSize, stack));
	return bad;
}

/* All four kinds; n = SMs * 64 * scale per launch (one block of 64 per SM
 * at scale 1; at least 64).  Returns failures. */
static int pk_all(double scale)
{
	static pk_keys K;
	kc_rsa_pub rpub;
	int sms = 0, bad = 0;
	size_t stack0;
	double t0 = now_s();
	if (pk_keygen(&K, &rpub) != PV_OK) {
		printf("FAIL pk: key generation on the host failed\n");
		return 1;
	}
	printf("BENCH %-12s keys made on the host in %.2f s (RSA-2048, P-256, SM2, Ed25519)\n",
	       "pk-keygen", now_s() - t0);
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CK(cudaDeviceGetLimit(&stack0, cudaLimitStackSize));
	uint32_t n = (uint32_t)(sms * 64 * scale);
	if (n < 64) n = 64;
	pk_keys *dk;
	CK(cudaMalloc(&dk, sizeof K));
	CK(cudaMemcpy(dk, &K, sizeof K, cudaMemcpyHostToDevice));
	for (int kind = 0; kind < PK_NKIND; kind++)
		bad += pk_kernel_only(kind, &K, &rpub, dk, n);
	CK(cudaFree(dk));
	CK(cudaDeviceSetLimit(cudaLimitStackSize, stack0));   /* as the other phases found it */
	kc_rsa_priv_clear(&K.rsa);
	return bad;
}

/* "pkhost": the host half alone, no CUDA call (a check for machines
 * without a GPU).  Prints host timings only; nothing is reported as a rate. */
static int pk_host_only(void)
{
	static pk_keys K;
	kc_rsa_pub rpub;
	uint32_t idx[6] = { 0, 1, 2, 63, 4095, 0xfffffffeu };
	std::vector<uint8_t> s(sizeof idx / sizeof idx[0] * PK_SIGMAX), s2(s.size());
	int bad = 0;
	double t0 = now_s(), ms, ms2;
	if (pk_keygen(&K, &rpub) != PV_OK) {
		printf("FAIL pkhost: key generation failed\n");
		return 1;
	}
	printf("pkhost: keys made on the host in %.2f s\n", now_s() - t0);
	for (int kind = 0; kind < PK_NKIND; kind++) {
		if (pk_lanes[kind] > 1u)
			continue;           /* the same host signatures as its kind */
		int b = pk_host_sign(kind, &K, &rpub, idx, 6, s.data(), &ms);
		/* deterministic in i: a second run gives the same bytes */
		b += pk_host_sign(kind, &K, &rpub, idx, 6, s2.data(), &ms2);
		if (s != s2) {
			printf("FAIL pkhost %s: two host runs of the same i differ\n", pk_name[kind]);
			b++;
		}
		printf("pkhost %-12s %s: 12 host signatures verified, flipped bits rejected, "
		       "repeatable (%.2f ms/op on one host thread; not a GPU rate)\n",
		       pk_name[kind], b ? "FAIL" : "ok", (ms + ms2) / 2);
		bad += b;
	}
	return bad ? 1 : 0;
}

/* One request, laid out as gpu/client lays it: desc + arena. */
struct e2e_req {
	ve_desc d;
	std::vector<uint8_t> a;
	uint32_t copy_back;       /* arena bytes to copy back (through out) */
};

static uint32_t lay(std::vector<uint8_t> &a, ve_span *s, const uint8_t *p, size_t n)
{
	s->off = (uint32_t)a.size();
	s->len = (uint32_t)n;
	if (p)
		a.insert(a.end(), p, p + n);
	else
		a.resize(a.size() + n, 0);
	return s->off + s->len;
}

/* A SIGN request of the 32-byte digest h under a key blob; the output
 * span (256 bytes) at a 16-byte offset. */
static void sign_req(e2e_req &rq, uint32_t mech, uint32_t prf, const uint8_t id[16],
                     const std::vector<uint8_t> &blob, const uint8_t h[32])
{
	memset(&rq.d, 0, sizeof rq.d);
	rq.d.version = VE_DESC_VERSION;
	rq.d.op = PV_OP_SIGN;
	rq.d.mech = mech;
	rq.d.prf = prf;
	memcpy(rq.d.key_id, id, 16);
	lay(rq.a, &rq.d.key, blob.data(), blob.size());
	lay(rq.a, &rq.d.in, h, 32);
	rq.a.resize((rq.a.size() + 15u) & ~(size_t)15u, 0);
	rq.copy_back = lay(rq.a, &rq.d.out, NULL, 256);
}

struct e2e_arg {
	pv_cuda *v;
	const e2e_req *rq;
	int count, window, bad;
};

static void *e2e_thread(void *p)
{
	e2e_arg *a = (e2e_arg *)p;
	std::vector<uint32_t> t(a->window);
	std::vector<uint8_t> out(a->rq->a.size());
	int sent = 0, done = 0;
	while (done < a->count) {
		while (sent < a->count && sent - done < a->window) {
			int rc = sent == done
				? pv_cuda_submit(a->v, &a->rq->d, a->rq->a.data(), (uint32_t)a->rq->a.size(), &t[sent % a->window])
				: pv_cuda_try_submit(a->v, &a->rq->d, a->rq->a.data(), (uint32_t)a->rq->a.size(), &t[sent % a->window]);
			if (rc == PV_ERR_BUSY)
				break;
			if (rc != PV_OK) { a->bad++; return NULL; }
			sent++;
		}
		ve_result res;
		if (pv_cuda_wait(a->v, t[done % a->window], &res, out.data(), a->rq->copy_back) != PV_OK)
			a->bad++;
		done++;
	}
	return NULL;
}

static pv_cuda *open_vault(uint32_t nslots, uint32_t arena, int profile, int no_pairs = 0)
{
	char why[256];
	pv_cuda_params c;
	pv_cuda *v = NULL;
	uint8_t mk[32];
	memset(mk, 0x42, sizeof mk);
	memset(&c, 0, sizeof c);
	c.master = mk;
	c.master_len = 32;
	c.nslots = nslots;
	c.slot_arena = (arena + 63u) & ~63u;
	c.profile = profile;
	c.no_pairs = no_pairs;
	if (pv_cuda_open(&c, &v, why, sizeof why) != PV_OK) {
		printf("BENCH open failed: %s\n", why);
		return NULL;
	}
	pv_cuda_info in;
	if (pv_cuda_info_get(v, &in) == PV_OK)
		printf("BENCH vault: grid %u x %u, %d blocks/SM, %zu B shared/block\n",
		       in.grid, in.block, in.blocks_per_sm, in.smem_bytes);
	return v;
}

/* total requests from nthr host threads, each keeping win in flight */
/* With params.profile and snap != NULL, the profile rows (each slot's
 * latest request) are copied into *snap snap_s after the threads start,
 * while the load runs:
 * the rows left at the end hold the run's tail, when fewer are in flight. */
static void end_to_end(const char *name, const char *mode, pv_cuda *v, const e2e_req &rq,
                       uint32_t payload, int total, int nthr, int win,
                       std::vector<uint64_t> *snap = NULL, double snap_s = 0)
{
	std::vector<e2e_arg> args(nthr);
	std::vector<pthread_t> th(nthr);
	int per = total / nthr;
	{
		e2e_arg w = { v, &rq, win, win, 0 };
		e2e_thread(&w);
		if (w.bad)
			printf("BENCH %s: warm-up requests failed\n", name);
	}
	double t0 = now_s();
	for (int i = 0; i < nthr; i++) {
		e2e_arg a = { v, &rq, per, win, 0 };
		args[i] = a;
		pthread_create(&th[i], NULL, e2e_thread, &args[i]);
	}
	if (snap != NULL) {
		struct timespec ts = { (time_t)snap_s, (long)((snap_s - (double)(time_t)snap_s) * 1e9) };
		nanosleep(&ts, NULL);
		uint32_t nrows = 0;
		const uint64_t *rows = pv_cuda_profile_rows(v, &nrows);
		if (rows != NULL)
			snap->assign(rows, rows + (size_t)nrows * PVC_PROF_ROW);
	}
	int bad = 0;
	for (int i = 0; i < nthr; i++) {
		pthread_join(th[i], NULL);
		bad += args[i].bad;
	}
	double dt = now_s() - t0;
	if (bad)
		printf("BENCH %s: %d requests failed\n", name, bad);
	report(name, mode, (double)per * nthr, (double)per * nthr * payload, dt);
}

static void digest_e2e(const char *name, uint32_t mech, int total)
{
	e2e_req rq;
	std::vector<uint8_t> m(4096);
	for (size_t i = 0; i < m.size(); i++) m[i] = (uint8_t)(i * 7 + 1);
	memset(&rq.d, 0, sizeof rq.d);
	rq.d.version = VE_DESC_VERSION;
	rq.d.op = PV_OP_DIGEST;
	rq.d.mech = mech;
	lay(rq.a, &rq.d.in, m.data(), m.size());
	rq.copy_back = lay(rq.a, &rq.d.out, NULL, 64);
	pv_cuda *v = open_vault(512, (uint32_t)rq.a.size(), 0);
	if (v == NULL)
		return;
	end_to_end(name, "end-to-end", v, rq, 4096, total, 8, 512 / 8);
	pv_cuda_close(v);
}

/* One request through the vault, its result and the kernel's stage
 * stamps; PV_OK or the request's status. */
static int ring_call(pv_cuda *v, const e2e_req &rq, std::vector<uint8_t> &out, ve_result *res,
                     uint64_t tr[4])
{
	uint32_t t;
	out.resize(rq.a.size());
	if (pv_cuda_submit(v, &rq.d, rq.a.data(), (uint32_t)rq.a.size(), &t) != PV_OK)
		return PV_ERR_GENERAL;
	int rc = pv_cuda_wait(v, t, res, out.data(), rq.copy_back);
	pv_cuda_last_trace(v, tr);
	return rc;
}

/* A key imported into the vault: its blob (out) and, for a private key,
 * the public encoding (out2) into *pub. */
static int ring_import(pv_cuda *v, uint32_t type, uint32_t usage, const std::vector<uint8_t> &in,
                       const uint8_t id[16], std::vector<uint8_t> &blob, std::vector<uint8_t> *pub)
{
	e2e_req rq;
	std::vector<uint8_t> out;
	ve_result res;
	uint64_t tr[4];
	memset(&rq.d, 0, sizeof rq.d);
	rq.d.version = VE_DESC_VERSION;
	rq.d.op = PV_OP_IMPORT_KEY;
	rq.d.new_type = type;
	rq.d.new_usage = usage;
	memcpy(rq.d.new_id, id, 16);
	lay(rq.a, &rq.d.in, in.data(), in.size());
	rq.copy_back = lay(rq.a, &rq.d.out, NULL, PV_PKBLOB_MAX);
	if (pub != NULL)
		rq.copy_back = lay(rq.a, &rq.d.out2, NULL, PV_PK_PUB_MAX);
	int rc = ring_call(v, rq, out, &res, tr);
	if (rc != PV_OK)
		return rc;
	blob.assign(out.begin() + rq.d.out.off, out.begin() + rq.d.out.off + res.out_len);
	if (pub != NULL)
		pub->assign(out.begin() + rq.d.out2.off, out.begin() + rq.d.out2.off + res.out2_len);
	return PV_OK;
}

static void gcm_e2e(const char *name, int total)
{
	const uint32_t len = 1u << 20;
	uint8_t key[32], id[16];
	memset(key, 0x11, sizeof key);
	memset(id, 0x22, sizeof id);
	pv_cuda *v = open_vault(128, 2 * len + 4096, 0);
	if (v == NULL)
		return;
	/* import the key on the GPU: the blob is what the token would store */
	std::vector<uint8_t> blob;
	int rc = ring_import(v, PV_KEY_AES, PV_USE_ALL, std::vector<uint8_t>(key, key + 32), id, blob, NULL);
	if (rc != PV_OK) {
		printf("BENCH %s: import failed (%d)\n", name, rc);
		pv_cuda_close(v);
		return;
	}
	e2e_req rq;
	std::vector<uint8_t> iv(12, 0x33), m(len);
	for (size_t i = 0; i < m.size(); i++) m[i] = (uint8_t)(i * 13 + 5);
	memset(&rq.d, 0, sizeof rq.d);
	rq.d.version = VE_DESC_VERSION;
	rq.d.op = PV_OP_ENCRYPT;
	rq.d.mech = PV_MECH_AES_GCM;
	memcpy(rq.d.key_id, id, 16);
	lay(rq.a, &rq.d.key, blob.data(), blob.size());
	lay(rq.a, &rq.d.iv, iv.data(), 12);
	lay(rq.a, &rq.d.in, m.data(), len);
	rq.copy_back = lay(rq.a, &rq.d.out, NULL, len + 16);
	end_to_end(name, "end-to-end", v, rq, len, total, 8, 128 / 8);
	pv_cuda_close(v);
}

static void latency(void)
{
	e2e_req rq;
	memset(&rq.d, 0, sizeof rq.d);
	rq.d.version = VE_DESC_VERSION;
	rq.d.op = PV_OP_DIGEST;
	rq.d.mech = PV_MECH_SHA256;
	std::vector<uint8_t> m(16, 1);
	lay(rq.a, &rq.d.in, m.data(), 16);
	rq.copy_back = lay(rq.a, &rq.d.out, NULL, 32);
	pv_cuda *v = open_vault(64, 4096, 0);
	if (v == NULL)
		return;
	std::vector<double> us, st[3];
	std::vector<uint8_t> out(rq.a.size());
	for (int i = 0; i < 2100; i++) {
		uint32_t t;
		ve_result res;
		uint64_t tr[4];
		double t0 = now_s();
		pv_cuda_submit(v, &rq.d, rq.a.data(), (uint32_t)rq.a.size(), &t);
		pv_cuda_wait(v, t, &res, out.data(), rq.copy_back);
		if (i >= 100) {
			us.push_back((now_s() - t0) * 1e6);
			pv_cuda_last_trace(v, tr);
			for (int k = 0; k < 3; k++)
				st[k].push_back((double)(tr[k + 1] - tr[k]) / 1e3);
		}
	}
	std::sort(us.begin(), us.end());
	for (int k = 0; k < 3; k++)
		std::sort(st[k].begin(), st[k].end());
	printf("BENCH %-12s %-12s median %.2f us, p99 %.2f us (SHA-256 of 16 bytes, one in flight)\n",
	       "latency", "round-trip", us[us.size() / 2], us[us.size() * 99 / 100]);
	/* where the time goes, on the GPU's clock (medians) */
	printf("BENCH %-12s claim->inputs %.2f us, execute %.2f us, outputs+wipe %.2f us, "
	       "rest (publish->claim, completion->host) %.2f us\n", "latency-split",
	       st[0][st[0].size() / 2], st[1][st[1].size() / 2], st[2][st[2].size() / 2],
	       us[us.size() / 2] - st[0][st[0].size() / 2] - st[1][st[1].size() / 2] -
	       st[2][st[2].size() / 2]);
	result r = { "sha256-16B", "lat-us-med", us[us.size() / 2], 0 };
	results.push_back(r);
	pv_cuda_close(v);
}

static void be16_field(std::vector<uint8_t> &v, const uint8_t *p, size_t n)
{
	while (n > 1 && *p == 0) {
		p++;
		n--;
	}
	v.push_back((uint8_t)(n >> 8));
	v.push_back((uint8_t)n);
	v.insert(v.end(), p, p + n);
}

/* ring_import's input for an RSA private key: n, e, d, p, q, dp, dq, qinv */
static void rsa_import_in(const kc_rsa_priv &r, std::vector<uint8_t> &in)
{
	const uint8_t e[4] = { (uint8_t)(r.e >> 24), (uint8_t)(r.e >> 16), (uint8_t)(r.e >> 8), (uint8_t)r.e };
	be16_field(in, r.n, sizeof r.n); be16_field(in, e, 4); be16_field(in, r.d, sizeof r.d);
	be16_field(in, r.p, sizeof r.p); be16_field(in, r.q, sizeof r.q);
	be16_field(in, r.dp, sizeof r.dp); be16_field(in, r.dq, sizeof r.dq);
	be16_field(in, r.qinv, sizeof r.qinv);
}

/* The execute stage of one request split at the KC_PROF marks it passed
 * (kc_defs.h), in the order of their times: pf[k] gets the time from the
 * previous mark (or the inputs' arrival) to mark k, pf[KC_PROF_N] the
 * rest up to the end of execute. */
static void prof_split(const uint64_t tr[4], const uint64_t pr[KC_PROF_N], std::vector<double> *pf)
{
	std::vector<std::pair<uint64_t, int>> at;
	for (int k = 0; k < KC_PROF_N; k++)
		if (pr[k] >= tr[1] && pr[k] <= tr[2])
			at.push_back(std::make_pair(pr[k], k));
	std::sort(at.begin(), at.end());
	uint64_t prev = tr[1];
	for (const auto &a : at) {
		pf[a.second].push_back((double)(a.first - prev) / 1e3);
		prev = a.first;
	}
	pf[KC_PROF_N].push_back((double)(tr[2] - prev) / 1e3);
}

static void prof_print(const char *name, const char *what, std::vector<double> *pf)
{
	/* each mark's name (kc_defs.h), and the order in which they pass */
	static const char *mark[KC_PROF_N] = { "unpack", "nonce-state", "nonce+blinds", "k*G",
		"x(R)-mod-n", "s", "pkcs1-pad", "rsa-load", "rng", "crt-prep", "modexp2", "recombine",
		"fault-check", "blob-gcm", "load-n", "r2-p", "prep-p", "m2-mod-p", "check-p", "check-q",
		"blob-ghash", "blob-ctr" };
	static const int order[KC_PROF_N + 1] = { 20, 21, 13, 0, 1, 2, 3, 4, 5, 6, 14, 7, 8, 15, 16, 9, 10,
		17, 11, 18, 19, 12, KC_PROF_N };
	printf("BENCH %-12s %s execute split (medians, us):", name, what);
	for (int i = 0; i <= KC_PROF_N; i++) {
		const int k = order[i];
		std::vector<double> &v = pf[k];
		if (v.empty())
			continue;
		std::sort(v.begin(), v.end());
		printf(" %s %.0f", k < KC_PROF_N ? mark[k] : "rest", v[v.size() / 2]);
	}
	printf("\n");
}

/* a profile row's pair columns (pvc_ring.h) */
#define PROF_PAIR_N (PVC_PROF_ROW - PVC_PROF_PAIR)

/* The KC_PROF marks of the latest request (a lone one): the row with the
 * newest claim stamp (pv_cuda_profile_rows). */
static void last_marks(pv_cuda *v, uint64_t pr[KC_PROF_N + PROF_PAIR_N])
{
	uint32_t nrows = 0;
	const uint64_t *rows = pv_cuda_profile_rows(v, &nrows), *last = NULL;
	for (uint32_t i = 0; i < nrows; i++) {
		const uint64_t *r = rows + (size_t)i * PVC_PROF_ROW;
		if (last == NULL || r[PVC_PROF_CLAIM] > last[PVC_PROF_CLAIM])
			last = r;
	}
	for (int k = 0; k < KC_PROF_N; k++)
		pr[k] = last != NULL ? last[PVC_PROF_MARK + k] : 0;
	for (int k = 0; k < PROF_PAIR_N; k++)
		pr[KC_PROF_N + k] = last != NULL ? last[PVC_PROF_PAIR + k] : 0;
}

/* The split of the requests under load: each slot's last request, from
 * its row of stamps (pv_cuda_profile_rows), as prof_split does for a lone
 * one; also the claim -> inputs time. */
static void loaded_split(pv_cuda *v, const char *name, const char *mode,
                         const std::vector<uint64_t> *snap = NULL)
{
	uint32_t nrows = 0;
	const uint64_t *rows = pv_cuda_profile_rows(v, &nrows);
	if (snap != NULL) {      /* the rows copied while the load ran */
		rows = snap->data();
		nrows = (uint32_t)(snap->size() / PVC_PROF_ROW);
	}
	std::vector<double> pf[KC_PROF_N + 1], in, ex;
	for (uint32_t i = 0; i < nrows; i++) {
		const uint64_t *r = rows + (size_t)i * PVC_PROF_ROW;
		const uint64_t tr[4] = { r[PVC_PROF_CLAIM], r[PVC_PROF_INPUTS], r[PVC_PROF_EXECUTED], 0 };
		if (tr[0] == 0 || tr[1] < tr[0] || tr[2] < tr[1])
			continue;
		in.push_back((double)(tr[1] - tr[0]) / 1e3);
		ex.push_back((double)(tr[2] - tr[1]) / 1e3);
		prof_split(tr, r + PVC_PROF_MARK, pf);
	}
	if (in.empty()) {
		printf("BENCH %-12s %s: no profile rows\n", name, mode);
		return;
	}
	std::sort(in.begin(), in.end());
	std::sort(ex.begin(), ex.end());
	printf("BENCH %-12s %s: %zu requests' stamps%s, claim->inputs median %.0f us, execute median %.0f us\n",
	       name, mode, in.size(), snap == NULL ? "" : " (taken during the run)", in[in.size() / 2],
	       ex[ex.size() / 2]);
	prof_print(name, mode, pf);
}

/* "sig": signatures through the vault ring without PKCS#11 - a lone
 * request's time split by the kernel's stamps, then the rate with 1024 in
 * flight (16 host threads, 64 each) and with 512 threads one request each
 * (the PKCS#11 pattern).  Separates the GPU side from the token's and
 * p11bench's.  The lone requests run on a vault with the KC_PROF stamps
 * on, the rates on a second one without them (same master key, so the
 * same blobs). */
static int sig_ring(double scale)
{
	static pk_keys K;
	kc_rsa_pub rpub;
	int bad = 0;
	if (pk_keygen(&K, &rpub) != PV_OK) {
		printf("FAIL sig: key generation on the host failed\n");
		return 1;
	}
	e2e_req rqs[2];
	bool ok[2] = { false, false };
	const uint8_t id[16] = { 7, 7, 7 };
	pv_cuda *v = NULL;
	/* kind 2: RSA again on a vault without worker pairs (no_pairs), the
	 * A/B of a lone RSA request on two blocks against one */
	for (int kind = 0; kind < 3; kind++) {
		const char *name = kind == 1 ? "ring-P256" : kind ? "ring-RSA2048-1blk" : "ring-RSA2048";
		if (kind != 1) {
			if (v != NULL)
				pv_cuda_close(v);
			v = open_vault(1024, 8192, 1, kind == 2);
			if (v == NULL)
				return 1;
		}
		std::vector<uint8_t> in, blob, pub, out;
		if (kind == 1) {
			in.assign(K.p256, K.p256 + 32);
		} else {
			rsa_import_in(K.rsa, in);
		}
		int rc = ring_import(v, kind == 1 ? PV_KEY_EC_P256 : PV_KEY_RSA, PV_USE_SIGN, in, id, blob, &pub);
		if (rc != PV_OK) {
			printf("FAIL %s: import rc %d\n", name, rc);
			bad++;
			continue;
		}
		e2e_req rq1, &rq = kind < 2 ? rqs[kind] : rq1;
		uint8_t h[32];
		for (int k = 0; k < 32; k++) h[k] = (uint8_t)(k * 5 + 3);
		sign_req(rq, kind == 1 ? PV_MECH_ECDSA : PV_MECH_RSA_PKCS, kind == 1 ? 0 : PV_MECH_SHA256, id, blob, h);
		std::vector<double> us, st[3], pf[KC_PROF_N + 1], xp[2][4];
		ve_result res;
		uint64_t tr[4], pr[KC_PROF_N + PROF_PAIR_N];
		size_t same_sm = 0;
		for (int i = 0; i < 40; i++) {
			double t0 = now_s();
			rc = ring_call(v, rq, out, &res, tr);
			if (rc != PV_OK)
				break;
			us.push_back((now_s() - t0) * 1e6);
			for (int k = 0; k < 3; k++)
				st[k].push_back((double)(tr[k + 1] - tr[k]) / 1e3);
			last_marks(v, pr);
			prof_split(tr, pr, pf);
			/* a paired request's halves: from the CRT preparation's
			 * end to the partner's last y_j, to its taking, to the
			 * buckets' combination */
			for (int hh = 0; hh < 2; hh++) {
				const uint64_t *px = pr + KC_PROF_N + 4 * hh;
				if (px[0] != 0 && pr[9] != 0 && px[0] >= pr[9] && px[1] >= px[0] &&
				    px[2] >= px[1]) {
					xp[hh][0].push_back((double)(px[0] - pr[9]) / 1e3);
					for (int k = 1; k < 3; k++)
						xp[hh][k].push_back((double)(px[k] - px[k - 1]) / 1e3);
				}
			}
			const uint64_t sms = pr[KC_PROF_N + PVC_PROF_PAIR_SMS];
			if (pr[KC_PROF_N] != 0 && (uint32_t)(sms >> 32) == (uint32_t)sms)
				same_sm++;
		}
		const uint8_t *sig = out.data() + rq.d.out.off;
		int vr = rc != PV_OK ? rc : kind == 1 ? kc_ecdsa_verify(KC_EC_P256, pub.data(), pub.size(), h, 32, sig, 64)
		                                 : kc_rsa_pkcs1_verify(&rpub, KC_HASH_SHA256, h, 32, sig, 256);
		if (rc != PV_OK || vr != PV_OK) {
			printf("FAIL %s: sign rc %d, host verify %d\n", name, rc, vr);
			bad++;
			continue;
		}
		std::sort(us.begin(), us.end());
		for (int k = 0; k < 3; k++)
			std::sort(st[k].begin(), st[k].end());
		printf("BENCH %-12s lone: median %.0f us (claim->inputs %.0f, execute %.0f, outputs+wipe %.0f, "
		       "rest %.0f us); the host verified the signature\n", name, us[us.size() / 2],
		       st[0][st[0].size() / 2], st[1][st[1].size() / 2], st[2][st[2].size() / 2],
		       us[us.size() / 2] - st[0][st[0].size() / 2] - st[1][st[1].size() / 2] - st[2][st[2].size() / 2]);
		prof_print(name, "lone", pf);
		if (kind != 1) {
			printf("BENCH %-12s lone: %zu of %zu requests on two blocks (%zu of them on one "
			       "multiprocessor)", name, xp[0][0].size(), us.size(), same_sm);
			/* pvc_pair.cuh's stamps: the partner's last y_j stored, taken,
			 * the buckets combined */
			for (int hh = 0; hh < 2; hh++) {
				std::vector<double> *x = xp[hh];
				if (x[0].empty())
					continue;
				for (int k = 0; k < 3; k++)
					std::sort(x[k].begin(), x[k].end());
				printf("; half %d (medians, us): the partner's squarings %.0f, the last y_j taken %.1f "
				       "later, the buckets combined %.1f after that", hh, x[0][x[0].size() / 2],
				       x[1][x[1].size() / 2], x[2][x[2].size() / 2]);
			}
			printf("\n");
		}
		if (kind < 2)
			ok[kind] = true;
	}
	pv_cuda_close(v);
	/* the rates with the stamps on too: ~13 posted writes per request;
	 * each slot's row then holds its last request's stamps */
	v = open_vault(1024, 8192, 1);
	if (v == NULL)
		return bad + 1;
	for (int kind = 0; kind < 2; kind++) {
		const char *name = kind ? "ring-P256" : "ring-RSA2048";
		if (!ok[kind])
			continue;
		int total = (int)((kind ? 60000 : 30000) * scale);
		if (total < 2048) total = 2048;
		/* P-256 also at 128 and 528 in flight (1 and 4 per multiprocessor):
		 * how each stage grows with the load */
		static const int win[3] = { 8, 33, 64 };
		static const char *const mode[3] = { "128-async", "528-async", "1024-async" };
		for (int k = kind ? 0 : 2; k < 3; k++) {
			pv_cuda_clear_profile_rows(v);
			end_to_end(name, mode[k], v, rqs[kind], 0, total * win[k] / 64, 16, win[k]);
			loaded_split(v, name, mode[k]);
		}
		/* as PKCS#11 callers do: one request at a time per thread */
		end_to_end(name, "512-sync", v, rqs[kind], 0, total, 512, 1);
		if (kind) {   /* P-256 as p11bench drives it at 1,024 threads */
			pv_cuda_clear_profile_rows(v);
			std::vector<uint64_t> snap;
			end_to_end(name, "1024-sync", v, rqs[kind], 0, 4 * total, 1024, 1, &snap, 0.15);
			loaded_split(v, name, "1024-sync", &snap);
		}
	}
	pv_cuda_close(v);
	kc_rsa_priv_clear(&K.rsa);
	return bad;
}

/* "veload": the vault's own execute path without the ring - every block
 * boots a ve_vault from the same master key as the ring vault that made
 * the key blob, then runs ve_execute on its own copy of one P-256 SIGN
 * request exactly as the vault kernel does (warp 0's 32 lanes with
 * identical data and DRBG, warp 1 in pvcw_helper, blocks of 64, 8 per
 * multiprocessor).  Thread 0 stamps %globaltimer around ve_execute, so the
 * rates below leave out the boot: execute median, and n / (last end -
 * first start).  Against ecload (the signing core alone) this measures
 * what the engine around it (blob unwrap, request checks, copies) costs
 * under load. */
#define VL_VSMEM ((sizeof(ve_vault) + 15u) & ~(size_t)15u)
#define VL_SMEM (VL_VSMEM + 64u * sizeof(ve_worker))
/* veload's per-request work beside ve_execute, as the vault kernel does
 * it (bits of `work`): */
#define VL_IN 1u     /* the request from mapped host memory by the block
                        (16-byte volatile loads) into its device copy    */
#define VL_OUT 2u    /* the output span back to mapped host memory, then
                        __threadfence_system and three system-scope
                        release stores (its done word, a per-request
                        word, one word every block writes)             */
#define VL_WIPE 4u   /* the device copy wiped after                     */
#define VL_REPS 8u   /* 4 requests per block, one after the other       */
#define VL_SYNC 16u  /* every block waits for all the others before
                        each request (a grid-wide barrier), so that the
                        blocks of a multiprocessor run the same stage at
                        the same time, as a batch would               */
#define VL_RSA 32u   /* an RSA-2048 PKCS#1 v1.5 SHA-256 signature instead
                        of P-256 (a lone RSA request under Nsight)      */
__device__ uint32_t vl_bar;     /* VL_SYNC's arrivals (zeroed per launch) */
__global__ void __launch_bounds__(64, 8) k_ve2w(const uint8_t *boot, const ve_desc *d, uint8_t *arenas,
                                               const uint8_t *host, uint32_t *hdone, uint32_t alen,
                                               uint32_t n, ve_result *res, uint64_t *ts,
                                               uint32_t stagger_us, uint32_t work)
{
	extern __shared__ __align__(16) uint8_t vl_dyn[];
	ve_vault *sv = (ve_vault *)vl_dyn;
	ve_worker *sw0 = (ve_worker *)(vl_dyn + VL_VSMEM);
	ve_worker *sw = sw0 + threadIdx.x;
	const uint32_t i = blockIdx.x, tid = threadIdx.x;
	const uint32_t reps = work & VL_REPS ? 4u : 1u;
	pvcw_mode(2u);
	if (tid == 0)
		(void)ve_boot(sv, boot, 32, boot + 32, 48);
	(void)ve_worker_init(sw, i * 64u + tid, boot + 80, 48);
	__syncthreads();
	if (i >= n)
		return;
	if (stagger_us != 0u && tid == 0) {
		/* start after a delay of its own, so that the blocks of a
		 * multiprocessor are at different stages, as in the vault */
		uint64_t t, t0;
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
		const uint64_t until = t0 + 1000ull * ((i * 2654435761u) % stagger_us);
		do {
			__nanosleep(1000);
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		} while (t < until);
	}
	__syncthreads();
	for (uint32_t q = 0; q < reps; q++) {
		const uint32_t j = i * reps + q;
		uint8_t *a = arenas + (size_t)j * alen;
		uint64_t t;
		if ((work & VL_SYNC) && tid == 0) {
			cuda::atomic_ref<uint32_t, cuda::thread_scope_device> bar(vl_bar);
			bar.fetch_add(1u, cuda::memory_order_relaxed);
			while (bar.load(cuda::memory_order_relaxed) < (q + 1u) * n)
				__nanosleep(200);
		}
		__syncthreads();
		if (tid == 0) {
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
			ts[4 * j] = t;
		}
		if (work & VL_IN) {
			const uint4 *h = (const uint4 *)(host + (size_t)j * alen);
			for (uint32_t k = tid; k < alen / 16u; k += blockDim.x)
				((uint4 *)a)[k] = __ldcv(h + k);
			__syncthreads();
		}
		if (tid > 0 && tid < 32)
			*sw = *sw0;
		__syncthreads();
		if (tid < 32) {
			ve_result r;
			uint64_t t0, t1;
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
			ve_execute(sv, sw, d, a, alen, &r);
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
			pvcw_release();
			if (tid == 0) {
				res[j] = r;
				ts[4 * j + 1] = t0;
				ts[4 * j + 2] = t1;
			}
		} else {
			pvcw_helper();
		}
		if (tid > 0 && tid < 32)
			kc_wipe(sw, sizeof *sw);
		__syncthreads();
		if (work & VL_OUT) {
			uint4 *h = (uint4 *)(host + (size_t)j * alen + d->out.off);
			for (uint32_t k = tid; k < d->out.len / 16u; k += blockDim.x)
				__stcs(h + k, ((const uint4 *)(a + d->out.off))[k]);   /* as pvc_move */
			__threadfence_system();
			__syncthreads();
			if (tid == 0) {
				cuda::atomic_ref<uint32_t, cuda::thread_scope_system>(hdone[2 * j]).store(
					j + 1u, cuda::memory_order_release);
				cuda::atomic_ref<uint32_t, cuda::thread_scope_system>(hdone[2 * j + 1]).store(
					j + 1u, cuda::memory_order_release);
				cuda::atomic_ref<uint32_t, cuda::thread_scope_system>(hdone[2 * n * reps]).store(
					j + 1u, cuda::memory_order_release);
			}
		}
		if (work & VL_WIPE) {
			for (uint32_t k = tid; k < alen / 16u; k += blockDim.x)
				((uint4 *)a)[k] = make_uint4(0, 0, 0, 0);
			__syncthreads();
		}
		if (tid == 0) {
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
			ts[4 * j + 3] = t;
		}
		__syncthreads();
	}
	kc_wipe(sw, sizeof *sw);
	__syncthreads();
	if (tid == 0)
		kc_wipe(sv, sizeof *sv);
}

/* "hashlat": what the serial hashing of a signature costs one GPU thread
 * - a SHA-256 compression, an HMAC-SHA-256 of 32 bytes, a 16-byte
 * HMAC_DRBG draw (RSA's blinding bytes), an RFC 6979 nonce's state and
 * first candidate (P-256, hedged with 32 bytes) - alone (one thread on
 * the device) and with every thread of 8 blocks of 64 a multiprocessor
 * doing the same (the vault's shape under load, where each thread has its
 * own locals in local memory); cycles by clock64 around the call, each
 * output checked against the host's. */
#define HL_OPS 4
static const char *const hl_name[HL_OPS] = { "sha256-compress", "hmac-sha256-32B", "drbg-16B",
                                             "rfc6979-p256" };

__host__ __device__ static inline long long hl_clock(void)
{
#ifdef __CUDA_ARCH__
	return clock64();
#else
	return 0;
#endif
}

/* op on thread tid's inputs: out (32 bytes), the cycles of the call */
__host__ __device__ static long long hl_run(int op, uint32_t tid, uint8_t *out)
{
	uint8_t key[32], msg[64];
	long long t0 = 0, t1 = 0;
	int i;

	for (i = 0; i < 64; i++)
		msg[i] = (uint8_t)(tid * 7u + (uint32_t)i);
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(tid + 3u * (uint32_t)i);
	if (op == 0) {
		uint32_t h[8];
		for (i = 0; i < 8; i++)
			h[i] = tid + (uint32_t)i;
		t0 = hl_clock();
		kc_sha256_compress(h, msg);
		t1 = hl_clock();
		for (i = 0; i < 8; i++)
			kc_store_be32(out + 4 * i, h[i]);
	} else if (op == 1) {
		t0 = hl_clock();
		(void)kc_hmac(KC_HASH_SHA256, key, 32, msg, 32, out);
		t1 = hl_clock();
	} else if (op == 2) {
		kc_drbg d;
		(void)kc_drbg_init(&d, key, 32, msg, 16, NULL, 0);
		t0 = hl_clock();
		(void)kc_drbg_generate(&d, out, 16, NULL, 0);
		t1 = hl_clock();
		(void)kc_drbg_generate(&d, out + 16, 16, NULL, 0);
		kc_drbg_clear(&d);
	} else {
		kc_ec_nonce st;
		t0 = hl_clock();
		(void)kc_ec_nonce_init(&st, KC_HASH_SHA256, key, msg, 32, msg + 32, 32);
		kc_ec_nonce_next(&st, out);
		t1 = hl_clock();
		kc_wipe(&st, sizeof st);
	}
	return t1 - t0;
}

__global__ void k_hashlat(int op, uint32_t n, uint8_t *out, long long *cyc)
{
	const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
	uint8_t o[32];

	if (tid >= n)
		return;
	const long long c = hl_run(op, tid, o);
	for (int i = 0; i < 32; i++)
		out[32u * tid + (uint32_t)i] = o[i];
	cyc[tid] = c;
}

static int hashlat_bench(void)
{
	int sms = 0, clk = 0, bad = 0;
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
	const uint32_t blocks = 8u * (uint32_t)sms, n = blocks * 64u;
	uint8_t *dout, *hout = (uint8_t *)malloc(32u * n), want[32];
	long long *dcyc, *hcyc = (long long *)malloc(sizeof(long long) * n);
	CK(cudaMalloc(&dout, 32u * n));
	CK(cudaMalloc(&dcyc, sizeof(long long) * n));
	for (int op = 0; op < HL_OPS; op++) {
		long long alone;
		for (int rep = 0; rep < 2; rep++)    /* the first launch loads the code */
			k_hashlat<<<1, 1>>>(op, 1u, dout, dcyc);
		CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(&alone, dcyc, sizeof alone, cudaMemcpyDeviceToHost));
		k_hashlat<<<blocks, 64>>>(op, n, dout, dcyc);
		CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(hout, dout, 32u * n, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(hcyc, dcyc, sizeof(long long) * n, cudaMemcpyDeviceToHost));
		int same = 1;
		for (uint32_t t = 0; t < n; t += n / 16u) {
			(void)hl_run(op, t, want);
			same &= std::memcmp(hout + 32u * t, want, 32) == 0;
		}
		bad |= !same;
		std::sort(hcyc, hcyc + n);
		const double khz = clk;
		printf("BENCH hashlat %-16s alone %8lld cycles (%7.1f us); %u threads (8 blocks of 64 a multiprocessor): "
		       "median %9lld cycles (%8.1f us), p90 %9lld; outputs %s the host's\n", hl_name[op], alone,
		       alone / (khz / 1000.0), n, hcyc[n / 2], hcyc[n / 2] / (khz / 1000.0), hcyc[(n * 9u) / 10u],
		       same ? "equal to" : "DIFFERENT from");
	}
	cudaFree(dout); cudaFree(dcyc);
	free(hout); free(hcyc);
	return bad;
}

/* "mm": the warp product and exponentiation of a lone RSA half, timed by
 * clock64 on warp 0 of a single block (warp 1 idle, as in a lone request's
 * serial stretches), MM_N products in a dependent chain d = d b / R. */
#define MM_N 256
template <int K>
__device__ long long mm_chain(const uint32_t *m, const uint32_t *x, uint32_t m0i, uint32_t nl,
                              uint32_t *out)
{
	uint32_t a[K], b[K], mm[K];
	pvcw_ld<K>(mm, m, nl);
	pvcw_ld<K>(a, x, nl);
	pvcw_ld<K>(b, x, nl);
	const long long t0 = clock64();
	for (int i = 0; i < MM_N; i++)
		pvcw_mm<K>(a, a, b, mm, nl, m0i);
	const long long t1 = clock64();
	pvcw_st<K>(out, a, nl);
	return t1 - t0;
}

__global__ void k_mm(const uint32_t *m, const uint32_t *x, uint32_t m0i, uint32_t nl,
                     uint32_t *out, long long *cyc)
{
	pvcw_mode(1u);
	if (threadIdx.x >= 32u)
		return;
	const long long c = nl <= 32u ? mm_chain<1>(m, x, m0i, nl, out) : mm_chain<2>(m, x, m0i, nl, out);
	if (threadIdx.x == 0u)
		*cyc = c;
}

__global__ void k_mm_exp(const uint32_t *m, uint32_t *x, const uint32_t *e, uint32_t ebits,
                         const uint32_t *r2, uint32_t m0i, uint32_t nl, long long *cyc)
{
	pvcw_mode(1u);
	if (threadIdx.x >= 32u)
		return;
	const long long t0 = clock64();
	pvcw_modexp<1>(x, e, ebits, r2, m, nl, m0i);
	const long long t1 = clock64();
	if (threadIdx.x == 0u)
		*cyc = t1 - t0;
}

/* The same exponentiation on both warps of the block at once (each its
 * own x: warp w's is x + 32 w), as a lone RSA signature runs its two CRT
 * halves; LB builds it under the vault kernel's __launch_bounds__(64, 8),
 * i.e. at most 128 registers a thread.  cyc[w] is warp w's time. */
__device__ __forceinline__ void mm_exp_warp(const uint32_t *m, uint32_t *x, const uint32_t *e,
	uint32_t ebits, const uint32_t *r2, uint32_t m0i, uint32_t nl, uint32_t warps, long long *cyc)
{
	pvcw_mode(1u);
	const uint32_t w = threadIdx.x >> 5;
	if (w >= warps)
		return;
	const long long t0 = clock64();
	pvcw_modexp<1>(x + 32u * w, e, ebits, r2, m, nl, m0i);
	const long long t1 = clock64();
	if ((threadIdx.x & 31u) == 0u)
		cyc[w] = t1 - t0;
}

__global__ void k_mm_exp2(const uint32_t *m, uint32_t *x, const uint32_t *e, uint32_t ebits,
                          const uint32_t *r2, uint32_t m0i, uint32_t nl, uint32_t warps, long long *cyc)
{
	mm_exp_warp(m, x, e, ebits, r2, m0i, nl, warps, cyc);
}

__global__ void __launch_bounds__(64, 8) k_mm_exp2_lb(const uint32_t *m, uint32_t *x, const uint32_t *e,
	uint32_t ebits, const uint32_t *r2, uint32_t m0i, uint32_t nl, uint32_t warps, long long *cyc)
{
	mm_exp_warp(m, x, e, ebits, r2, m0i, nl, warps, cyc);
}

/* The same exponentiation right to left on two warps (what a block of
 * four warps, two a CRT half, would give a lone signature): warp 2h
 * squares, y_0 = mont(x), y_(j+1) = y_j^(2^WIN), and hands each y_j over
 * in shared memory; warp 2h + 1 multiplies it into bucket d_j, the j-th
 * WIN-bit digit of e (Yao's method; the bucket read and written by masks
 * over all of them, constant time), and at the end combines the buckets,
 * prod B_d^d, in 2 (2^WIN - 2) products.  The squarings are the only
 * chain: ebits products instead of the window's ebits + ebits / 4 + 15,
 * with a hand-over every WIN of them.  Named barriers 1 + 4h + b ("y_j in
 * buffer b") and 3 + 4h + b ("buffer b read") keep the squarer at most
 * two hand-overs ahead. */
__device__ __forceinline__ void rl_arrive(uint32_t id)
{
	__syncwarp();
	asm volatile("bar.arrive %0, 64;" ::"r"(id) : "memory");
}

__device__ __forceinline__ void rl_sync(uint32_t id)
{
	__syncwarp();
	asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory");
}

template <int WIN>
__device__ __forceinline__ void mm_exp_rl(const uint32_t *mp, uint32_t *xp, const uint32_t *e,
	uint32_t ebits, const uint32_t *r2p, uint32_t m0i, uint32_t nl, long long *cyc)
{
	__shared__ uint32_t ybuf[2][2][32];
	pvcw_mode(1u);
	const uint32_t w = threadIdx.x >> 5, h = w >> 1, L = pvcw_lane(), nw = ebits / WIN;
	uint32_t m[1], r2[1], x[1], one[1], y[1];
	pvcw_exp_in<1>(m, r2, x, one, mp, r2p, xp + 32u * h, nl);
	const long long t0 = clock64();
	if ((w & 1u) == 0u) {
		pvcw_mm<1>(y, x, r2, m, nl, m0i);                 /* mont(x) */
		for (uint32_t j = 0; j < nw; j++) {
			const uint32_t b = j & 1u;
			if (j >= 2u)
				rl_sync(3u + 4u * h + b);
			ybuf[h][b][L] = y[0];
			rl_arrive(1u + 4u * h + b);
			if (j + 1u < nw)
				for (int k = 0; k < WIN; k++)
					pvcw_mm<1>(y, y, y, m, nl, m0i);
		}
		const long long t1 = clock64();
		if (L == 0u)
			cyc[2u + h] = t1 - t0;
	} else {
		uint32_t bk[1 << WIN], r1[1], yy[1];
		pvcw_mm<1>(r1, one, r2, m, nl, m0i);              /* mont(1) */
#pragma unroll
		for (int k = 0; k < (1 << WIN); k++)
			bk[k] = r1[0];
		for (uint32_t j = 0; j < nw; j++) {
			const uint32_t b = j & 1u, pos = WIN * j;
			rl_sync(1u + 4u * h + b);
			yy[0] = ybuf[h][b][L];
			if (j + 2u < nw)
				rl_arrive(3u + 4u * h + b);
			const uint32_t d = (e[pos >> 5] >> (pos & 31u)) & ((1u << WIN) - 1u);
			pvcx_bucket_mul<WIN>(bk, d, yy, m, nl, m0i);
		}
		uint32_t A[1];
		pvcx_buckets_out<WIN>(A, bk, m, nl, m0i);         /* prod B_d^d (pvc_pair.cuh) */
		pvcw_st<1>(xp + 32u * h, A, nl);
		const long long t1 = clock64();
		if (L == 0u)
			cyc[h] = t1 - t0;
	}
}

template <int WIN>
__global__ void __launch_bounds__(128, 4) k_mm_exp_rl(const uint32_t *m, uint32_t *x, const uint32_t *e,
	uint32_t ebits, const uint32_t *r2, uint32_t m0i, uint32_t nl, long long *cyc)
{
	mm_exp_rl<WIN>(m, x, e, ebits, r2, m0i, nl, cyc);
}

/* The vault's shape of the same for a lone request (pvc_pair.cuh): block
 * 1's warp h squares half h, block 0's warp h multiplies WIN-bit digits,
 * the hand-over through device memory; both halves at once. */
template <int WIN>
__global__ void __launch_bounds__(64, 8) k_mm_exp_pair(pvcx_pair *pp, const uint32_t *m, uint32_t *x,
	const uint32_t *e, uint32_t ebits, const uint32_t *r2, uint32_t m0i, uint32_t nl, long long *cyc)
{
	const uint32_t h = threadIdx.x >> 5;
	pvcw_mode(1u);
	if (blockIdx.x == 1u) {
		pvcx_serve(pp, h);
		return;
	}
	const long long t0 = clock64();
	pvcx_modexp<WIN>(pp, h, x + 32u * h, e, ebits, r2, m, nl, m0i);
	const long long t1 = clock64();
	if (pvcw_lane() == 0u)
		cyc[h] = t1 - t0;
	__syncthreads();
	if (threadIdx.x == 0u) {
		pvc_st_rel_gpu(&pp->ctl[0], PVCX_END);
		pvc_st_rel_gpu(&pp->ctl[1], PVCX_END);
	}
}

/* RSA key-pair generation from a fixed seed, on the vault kernel's shape
 * for it (mode 2: warp 0 runs kc_rsa_keygen on all lanes with identical
 * data, warp 1 serves the pairwise check's second exponentiation) or on
 * thread 0 alone (mode 0).  The same seed must give the host's key. */
__global__ void __launch_bounds__(64, 8) k_keygen(const uint8_t *seed, uint32_t bits, uint32_t mode,
                                                  kc_rsa_priv *out, int *rc)
{
	pvcw_mode(mode);
	if (mode == 2u && threadIdx.x >= 32u) {
		pvcw_helper();
		return;
	}
	if (threadIdx.x >= (mode ? 32u : 1u))
		return;
	kc_drbg d;
	kc_rsa_priv sk;
	kc_wipe(&sk, sizeof sk);
	int r = kc_drbg_init(&d, seed, 32, (const uint8_t *)"gpu_bench keygen", 16, NULL, 0);
	if (r == PV_OK)
		r = kc_rsa_keygen(&d, bits, 65537, &sk);
	if (mode == 2u)
		pvcw_release();
	if (threadIdx.x == 0u) {
		*out = sk;
		*rc = r;
	}
	kc_drbg_clear(&d);
	kc_wipe(&sk, sizeof sk);
}

/* "keygen [n [bits]]": n seeds, each generated on the host, on the warp
 * shape and (up to 2,048 bits) on one thread; every key compared with the
 * host's.  Returns the number of differences or failures. */
static int keygen_bench(uint32_t n, uint32_t bits)
{
	uint8_t *dseed;
	kc_rsa_priv *dk, host, got;
	int *drc, bad = 0;
	cudaEvent_t e0, e1;
	double sum[2] = { 0, 0 }, hsum = 0;
	uint32_t runs[2] = { 0, 0 };
	CK(cudaMalloc(&dseed, 32));
	CK(cudaMalloc(&dk, sizeof(kc_rsa_priv)));
	CK(cudaMalloc(&drc, sizeof(int)));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	for (uint32_t k = 0; k < n; k++) {
		uint8_t seed[32];
		kc_drbg d;
		for (int j = 0; j < 32; j++)
			seed[j] = (uint8_t)(k * 131u + (uint32_t)j * 29u + 7u);
		double t0 = now_s();
		int hrc = kc_drbg_init(&d, seed, 32, (const uint8_t *)"gpu_bench keygen", 16, NULL, 0);
		if (hrc == PV_OK)
			hrc = kc_rsa_keygen(&d, bits, 65537, &host);
		kc_drbg_clear(&d);
		double hms = 1e3 * (now_s() - t0);
		hsum += hms;
		CK(cudaMemcpy(dseed, seed, 32, cudaMemcpyHostToDevice));
		for (uint32_t mode = 2u;; mode = 0u) {
			int rc = -1;
			float ms = 0;
			CK(cudaMemset(dk, 0, sizeof(kc_rsa_priv)));
			CK(cudaEventRecord(e0));
			k_keygen<<<1, 64>>>(dseed, bits, mode, dk, drc);
			CK(cudaEventRecord(e1));
			CK(cudaEventSynchronize(e1));
			CK(cudaGetLastError());
			CK(cudaEventElapsedTime(&ms, e0, e1));
			CK(cudaMemcpy(&got, dk, sizeof got, cudaMemcpyDeviceToHost));
			CK(cudaMemcpy(&rc, drc, sizeof rc, cudaMemcpyDeviceToHost));
			const bool same = hrc == PV_OK && rc == PV_OK && memcmp(&got, &host, sizeof got) == 0;
			printf("keygen RSA-%u seed %u: host %.1f ms, %s %.1f ms, %s\n", bits, k, hms,
			       mode ? "warp" : "one thread", (double)ms, same ? "the host's key" : "DIFFERENT");
			bad += !same;
			sum[mode ? 0 : 1] += ms;
			runs[mode ? 0 : 1]++;
			if (mode == 0u || bits > 2048u)
				break;
		}
		kc_wipe(&host, sizeof host);
		kc_wipe(&got, sizeof got);
	}
	printf("keygen RSA-%u mean of %u: host (one core) %.1f ms, warp %.1f ms", bits, n, hsum / n,
	       runs[0] ? sum[0] / runs[0] : 0.0);
	if (runs[1])
		printf(", one thread %.1f ms", sum[1] / runs[1]);
	printf("; %s\n", bad ? "FAILED" : "every key the host's");
	CK(cudaEventDestroy(e0));
	CK(cudaEventDestroy(e1));
	CK(cudaFree(dseed));
	CK(cudaFree(dk));
	CK(cudaFree(drc));
	return bad;
}

static int mm_bench(void)
{
	uint32_t hm[64], hx[64], he[34], hr2[32], got[64], want[64], t[64];
	static uint32_t tmp[KC_BN_MODEXP_TMP(32)];
	uint32_t *dm, *dx, *de, *dr2, *dout;
	long long *dc, c;
	int bad = 0, clk = 0;
	std::srand(7);
	for (int i = 0; i < 64; i++) {
		hm[i] = (uint32_t)std::rand() ^ ((uint32_t)std::rand() << 16);
		hx[i] = (uint32_t)std::rand() ^ ((uint32_t)std::rand() << 16);
	}
	for (int i = 0; i < 34; i++)
		he[i] = (uint32_t)std::rand() ^ ((uint32_t)std::rand() << 16);
	CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
	CK(cudaMalloc(&dm, 256)); CK(cudaMalloc(&dx, 256)); CK(cudaMalloc(&de, sizeof he));
	CK(cudaMalloc(&dr2, 128)); CK(cudaMalloc(&dout, 256)); CK(cudaMalloc(&dc, sizeof c));
	for (uint32_t nl = 32; nl <= 64; nl += 32) {
		hm[0] |= 1u;
		hm[nl - 1] |= 0x80000000u;
		hx[nl - 1] &= 0x7fffffffu;
		const uint32_t m0i = kc_bn_ninv32(hm[0]);
		CK(cudaMemcpy(dm, hm, 4 * nl, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(dx, hx, 4 * nl, cudaMemcpyHostToDevice));
		for (int rep = 0; rep < 2; rep++)      /* the first launch loads the code */
			k_mm<<<1, 64>>>(dm, dx, m0i, nl, dout, dc);
		CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(got, dout, 4 * nl, cudaMemcpyDeviceToHost));
		std::memcpy(want, hx, 4 * nl);
		for (int i = 0; i < MM_N; i++) {
			kc_bn_montmul(t, want, hx, hm, nl, m0i);
			std::memcpy(want, t, 4 * nl);
		}
		const bool ok = std::memcmp(got, want, 4 * nl) == 0;
		bad |= !ok;
		printf("BENCH mm %u limbs (%u per lane): %.0f cycles per product, %.1f per step, %.2f us per product; "
		       "%d products %s the host's\n", nl, nl / 32, (double)c / MM_N, (double)c / MM_N / nl,
		       (double)c / MM_N / (clk / 1000.0), MM_N, ok ? "equal to" : "DIFFERENT from");
	}
	/* one RSA-2048 CRT half: 1,024-bit modulus, 1,088-bit exponent */
	hm[31] |= 0x80000000u;
	const uint32_t m0i = kc_bn_ninv32(hm[0]);
	kc_bn_r2(hr2, hm, 32, m0i, 1024);
	CK(cudaMemcpy(dm, hm, 128, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(de, he, sizeof he, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dr2, hr2, 128, cudaMemcpyHostToDevice));
	for (int rep = 0; rep < 2; rep++) {
		CK(cudaMemcpy(dx, hx, 128, cudaMemcpyHostToDevice));
		k_mm_exp<<<1, 64>>>(dm, dx, de, 1088, dr2, m0i, 32, dc);
	}
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(got, dx, 128, cudaMemcpyDeviceToHost));
	std::memcpy(want, hx, 128);
	kc_bn_modexp(want, he, 1088, hr2, hm, 32, m0i, tmp);
	const bool ok = std::memcmp(got, want, 128) == 0;
	bad |= !ok;
	printf("BENCH mm exponentiation, 1,024-bit modulus, 1,088-bit exponent: %lld cycles, %.0f us at %.2f GHz; "
	       "%s the host's\n", c, (double)c / (clk / 1000.0), clk / 1e6, ok ? "equal to" : "DIFFERENT from");
	/* the same on one and on two warps of a block, without and with the
	 * vault's launch bounds */
	uint32_t *dx2;
	long long *dc2, c2[4];   /* [2], [3]: the right-to-left runs' squaring warps */
	CK(cudaMalloc(&dx2, 256)); CK(cudaMalloc(&dc2, sizeof c2));
	for (int lb = 0; lb < 2; lb++)
		for (uint32_t warps = 1; warps <= 2; warps++) {
			for (int rep = 0; rep < 2; rep++) {
				CK(cudaMemcpy(dx2, hx, 128, cudaMemcpyHostToDevice));
				CK(cudaMemcpy(dx2 + 32, hx, 128, cudaMemcpyHostToDevice));
				if (lb)
					k_mm_exp2_lb<<<1, 64>>>(dm, dx2, de, 1088, dr2, m0i, 32, warps, dc2);
				else
					k_mm_exp2<<<1, 64>>>(dm, dx2, de, 1088, dr2, m0i, 32, warps, dc2);
			}
			CK(cudaDeviceSynchronize());
			CK(cudaMemcpy(c2, dc2, sizeof c2, cudaMemcpyDeviceToHost));
			CK(cudaMemcpy(got, dx2, 256, cudaMemcpyDeviceToHost));
			bool ok2 = std::memcmp(got, want, 128) == 0 && (warps < 2 || std::memcmp(got + 32, want, 128) == 0);
			bad |= !ok2;
			printf("BENCH mm exponentiation on %u warp%s of a block%s: %.0f us", warps, warps > 1 ? "s" : "",
			       lb ? ", __launch_bounds__(64, 8)" : "", (double)c2[0] / (clk / 1000.0));
			if (warps > 1)
				printf(" and %.0f us", (double)c2[1] / (clk / 1000.0));
			printf("; %s the host's\n", ok2 ? "equal to" : "DIFFERENT from");
		}
	/* right to left, two warps a half, a hand-over every bit or every
	 * fourth bit: one half (64 threads), both halves (128) */
	for (uint32_t run = 0; run < 4; run++) {
		const uint32_t halves = 1u + (run & 1u), win = run < 2u ? 1u : 4u;
		for (int rep = 0; rep < 2; rep++) {
			CK(cudaMemcpy(dx2, hx, 128, cudaMemcpyHostToDevice));
			CK(cudaMemcpy(dx2 + 32, hx, 128, cudaMemcpyHostToDevice));
			if (win == 1u)
				k_mm_exp_rl<1><<<1, 64 * halves>>>(dm, dx2, de, 1088, dr2, m0i, 32, dc2);
			else
				k_mm_exp_rl<4><<<1, 64 * halves>>>(dm, dx2, de, 1088, dr2, m0i, 32, dc2);
		}
		CK(cudaDeviceSynchronize());
		CK(cudaGetLastError());
		CK(cudaMemcpy(c2, dc2, sizeof c2, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(got, dx2, 256, cudaMemcpyDeviceToHost));
		bool ok2 = std::memcmp(got, want, 128) == 0 && (halves < 2 || std::memcmp(got + 32, want, 128) == 0);
		bad |= !ok2;
		printf("BENCH mm exponentiation right to left, squarings and products on two warps, a hand-over "
		       "every %u bit%s, %u %s (%u warps, __launch_bounds__(128, 4)): %.0f us", win, win > 1 ? "s" : "",
		       halves, halves > 1 ? "halves" : "half", 2 * halves, (double)c2[0] / (clk / 1000.0));
		if (halves > 1)
			printf(" and %.0f us", (double)c2[1] / (clk / 1000.0));
		printf(" (the squaring warp %.0f us); %s the host's\n", (double)c2[2] / (clk / 1000.0),
		       ok2 ? "equal to" : "DIFFERENT from");
	}
	/* the vault's lone-request shape: the products on a second block, with
	 * 4- and 2-bit digits (the vault's: PVCX_WIN) */
	pvcx_pair *dpp;
	CK(cudaMalloc(&dpp, sizeof *dpp));
	CK(cudaMemset(dpp, 0, sizeof *dpp));
	for (int win = 4; win >= 2; win -= 2) {
		for (int rep = 0; rep < 2; rep++) {
			CK(cudaMemcpy(dx2, hx, 128, cudaMemcpyHostToDevice));
			CK(cudaMemcpy(dx2 + 32, hx, 128, cudaMemcpyHostToDevice));
			if (win == 4)
				k_mm_exp_pair<4><<<2, 64>>>(dpp, dm, dx2, de, 1088, dr2, m0i, 32, dc2);
			else
				k_mm_exp_pair<2><<<2, 64>>>(dpp, dm, dx2, de, 1088, dr2, m0i, 32, dc2);
		}
		CK(cudaDeviceSynchronize());
		CK(cudaGetLastError());
		CK(cudaMemcpy(c2, dc2, sizeof c2, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(got, dx2, 256, cudaMemcpyDeviceToHost));
		bool ok2 = std::memcmp(got, want, 128) == 0 && std::memcmp(got + 32, want, 128) == 0;
		bad |= !ok2;
		printf("BENCH mm exponentiation right to left across two blocks (the vault's lone RSA shape, "
		       "pvc_pair.cuh), %d-bit digits%s, both halves: %.0f us and %.0f us; %s the host's\n", win,
		       win == (int)PVCX_WIN ? " (the vault's)" : "", (double)c2[0] / (clk / 1000.0),
		       (double)c2[1] / (clk / 1000.0), ok2 ? "equal to" : "DIFFERENT from");
	}
	cudaFree(dpp);
	cudaFree(dx2); cudaFree(dc2);
	cudaFree(dm); cudaFree(dx); cudaFree(de); cudaFree(dr2); cudaFree(dout); cudaFree(dc);
	return bad;
}

static int ve_load(const char *list, uint32_t stagger_us, uint32_t work)
{
	static pk_keys K;
	kc_rsa_pub rpub;
	if (pk_keygen(&K, &rpub) != PV_OK)
		return 1;
	pv_cuda *v = open_vault(64, 8192, 0);
	if (v == NULL)
		return 1;
	const uint8_t id[16] = { 9, 9, 9 };
	const bool rsa = (work & VL_RSA) != 0u;
	std::vector<uint8_t> blob, pub, in;
	if (rsa)
		rsa_import_in(K.rsa, in);
	else
		in.assign(K.p256, K.p256 + 32);
	int rc = ring_import(v, rsa ? PV_KEY_RSA : PV_KEY_EC_P256, PV_USE_SIGN, in, id, blob, &pub);
	pv_cuda_close(v);
	if (rc != PV_OK) {
		printf("FAIL veload: import rc %d\n", rc);
		return 1;
	}
	e2e_req rq;
	uint8_t h[32];
	for (int k = 0; k < 32; k++) h[k] = (uint8_t)(k * 5 + 3);
	/* VL_OUT copies the output 16 bytes at a time: 64 or 256 bytes */
	sign_req(rq, rsa ? PV_MECH_RSA_PKCS : PV_MECH_ECDSA, rsa ? PV_MECH_SHA256 : 0, id, blob, h);
	const uint32_t alen = (uint32_t)((rq.a.size() + 255u) & ~(size_t)255u);
	rq.a.resize(alen, 0);
	/* the master key of open_vault, fixed boot entropy */
	uint8_t boot[128];
	memset(boot, 0x42, 32);
	for (int k = 32; k < 128; k++) boot[k] = (uint8_t)(k * 7 + 1);
	cudaFuncAttributes fa;
	CK(cudaFuncGetAttributes(&fa, k_ve2w));
	const size_t stack = stack_for(fa);
	int bps = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, k_ve2w, 64, VL_SMEM));
	const uint32_t reps = work & VL_REPS ? 4u : 1u;
	int sms = 0;
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	printf("BENCH %-12s k_ve2w: %d regs, %zu B local/thread, %zu + %zu B shared/block, %d blocks/SM, "
	       "request arena %u B (blob %zu B), work %u%s%s%s%s%s%s\n", "veload", fa.numRegs,
	       (size_t)fa.localSizeBytes, (size_t)fa.sharedSizeBytes, (size_t)VL_SMEM, bps, alen, blob.size(), work,
	       work & VL_IN ? " in" : "", work & VL_OUT ? " out" : "", work & VL_WIPE ? " wipe" : "",
	       work & VL_REPS ? " 4-per-block" : "", work & VL_SYNC ? " synced" : "", rsa ? " RSA-2048" : "");
	uint8_t *dboot;
	ve_desc *dd;
	CK(cudaMalloc(&dboot, sizeof boot));
	CK(cudaMalloc(&dd, sizeof rq.d));
	CK(cudaMemcpy(dboot, boot, sizeof boot, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dd, &rq.d, sizeof rq.d, cudaMemcpyHostToDevice));
	int bad = 0;
	for (const char *p = list; *p != '\0'; ) {
		const uint32_t n = next_n(&p);
		if (n == 0)
			break;
		const uint32_t nr = n * reps;
		if ((work & VL_SYNC) && n > (uint32_t)bps * (uint32_t)sms) {
			printf("BENCH veload       n %5u: more blocks than fit at once, no grid barrier\n", n);
			continue;
		}
		std::vector<uint8_t> arenas((size_t)nr * alen);
		for (uint32_t i = 0; i < nr; i++)
			memcpy(arenas.data() + (size_t)i * alen, rq.a.data(), alen);
		uint8_t *da, *hh, *dh;
		uint32_t *hd, *dhd;
		ve_result *dr;
		uint64_t *dts;
		CK(cudaMalloc(&da, arenas.size()));
		CK(cudaMalloc(&dr, (size_t)nr * sizeof(ve_result)));
		CK(cudaMalloc(&dts, (size_t)nr * 4 * sizeof(uint64_t)));
		CK(cudaHostAlloc((void **)&hh, arenas.size(), cudaHostAllocMapped));
		CK(cudaHostAlloc((void **)&hd, (2 * (size_t)nr + 1) * sizeof(uint32_t), cudaHostAllocMapped));
		CK(cudaHostGetDevicePointer((void **)&dh, hh, 0));
		CK(cudaHostGetDevicePointer((void **)&dhd, hd, 0));
		std::vector<double> ex, tot, mk;
		std::vector<uint64_t> ts((size_t)nr * 4);
		std::vector<ve_result> res(nr);
		for (int it = 0; it < 4; it++) {     /* a warm-up, then 3 */
			memcpy(hh, arenas.data(), arenas.size());
			memset(hd, 0, (2 * (size_t)nr + 1) * sizeof(uint32_t));
			if (work & VL_IN)      /* the request has to come from the host copy */
				CK(cudaMemset(da, 0, arenas.size()));
			else
				CK(cudaMemcpy(da, arenas.data(), arenas.size(), cudaMemcpyHostToDevice));
			CK(cudaMemset(dr, 0xff, (size_t)nr * sizeof(ve_result)));
			const uint32_t zero = 0;
			CK(cudaMemcpyToSymbol(vl_bar, &zero, sizeof zero));
			k_ve2w<<<n, 64, VL_SMEM>>>(dboot, dd, da, dh, dhd, alen, n, dr, dts, stagger_us, work);
			CK(cudaDeviceSynchronize());
			CK(cudaMemcpy(ts.data(), dts, ts.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
			if (it == 0)
				continue;
			uint64_t lo = ~0ull, hi = 0;
			for (uint32_t j = 0; j < nr; j++) {
				ex.push_back((double)(ts[4 * j + 2] - ts[4 * j + 1]) / 1e3);
				tot.push_back((double)(ts[4 * j + 3] - ts[4 * j]) / 1e3);
				lo = ts[4 * j] < lo ? ts[4 * j] : lo;
				hi = ts[4 * j + 3] > hi ? ts[4 * j + 3] : hi;
			}
			mk.push_back((double)(hi - lo) / 1e3);
		}
		CK(cudaMemcpy(res.data(), dr, res.size() * sizeof(ve_result), cudaMemcpyDeviceToHost));
		std::vector<uint8_t> dev(arenas.size());
		CK(cudaMemcpy(dev.data(), da, dev.size(), cudaMemcpyDeviceToHost));
		/* the signatures: the host copy when they came back, else the
		 * device copy unless it was wiped */
		const uint8_t *sigs = (work & VL_OUT) ? hh : (work & VL_WIPE) ? NULL : dev.data();
		int b = 0;
		for (uint32_t j = 0; j < nr; j++)
			b += res[j].status != PV_OK || ((work & VL_OUT) && (hd[2 * j] != j + 1u || hd[2 * j + 1] != j + 1u));
		for (int k = 0; k < 8 && b == 0 && sigs != NULL; k++) {
			uint32_t j = (uint32_t)((uint64_t)k * (nr - 1) / 7);
			const uint8_t *sig = sigs + (size_t)j * alen + rq.d.out.off;
			b += rsa ? res[j].out_len != 256 || kc_rsa_pkcs1_verify(&rpub, KC_HASH_SHA256, h, 32, sig, 256) != PV_OK
			         : res[j].out_len != 64 ||
			           kc_ecdsa_verify(KC_EC_P256, pub.data(), pub.size(), h, 32, sig, 64) != PV_OK;
		}
		if ((work & VL_WIPE) && b == 0)
			for (size_t k = 0; k < dev.size(); k++)
				b += dev[k] != 0;          /* every device copy wiped */
		std::sort(ex.begin(), ex.end());
		std::sort(tot.begin(), tot.end());
		std::sort(mk.begin(), mk.end());
		printf("BENCH %-12s n %5u, stagger %u us, work %u: execute median %7.1f us (p90 %7.1f), request %7.1f us, "
		       "span %7.1f us, %9.0f sig/s, %.2f per SM%s\n", "veload", n, stagger_us, work, ex[ex.size() / 2],
		       ex[ex.size() * 9 / 10], tot[tot.size() / 2], mk[mk.size() / 2],
		       nr / (mk[mk.size() / 2] * 1e-6), n / 132.0,
		       b ? " FAIL: wrong results" : sigs != NULL ? ", checked" : ", rc and wipe checked");
		bad += b;
		CK(cudaFree(da)); CK(cudaFree(dr)); CK(cudaFree(dts));
		CK(cudaFreeHost(hh)); CK(cudaFreeHost(hd));
	}
	CK(cudaFree(dboot)); CK(cudaFree(dd));
	CK(cudaDeviceSetLimit(cudaLimitStackSize, stack));
	return bad;
}

static void summary(void)
{
	printf("\n%-12s %-12s %14s %10s\n", "workload", "mode", "req/s", "GB/s");
	for (auto &r : results)
		if (strcmp(r.mode, "lat-us-med") == 0)
			printf("%-12s %-12s %11.2f us %10s\n", r.name, "round-trip", r.reqs, "-");
		else if (r.gbs == 0)    /* signatures: GB/s means nothing */
			printf("%-12s %-12s %14.0f %10s\n", r.name, r.mode, r.reqs, "-");
		else
			printf("%-12s %-12s %14.0f %10.3f\n", r.name, r.mode, r.reqs, r.gbs);
}

/* Zero-copy: blocks of 64 threads read (or write) pinned host memory with
 * 16-byte loads (stores), 8 in flight per thread - the vault kernel's way
 * of moving a request's data (vault_kernel.cu pvc_move). */
__global__ void k_zc(const uint4 *h, uint4 *w, size_t n16, int write, uint32_t *sink)
{
	const size_t step = (size_t)gridDim.x * blockDim.x * 8u;
	uint32_t acc = 0;
	for (size_t k0 = (size_t)blockIdx.x * blockDim.x * 8u + threadIdx.x; k0 < n16; k0 += step) {
		uint4 v[8];
#pragma unroll
		for (int j = 0; j < 8; j++) {
			const size_t k = k0 + (size_t)j * blockDim.x;
			if (write) {
				if (k < n16)
					__stcs(w + k, make_uint4((uint32_t)k, 1, 2, 3));
			} else {
				v[j] = k < n16 ? __ldcv(h + k) : make_uint4(0, 0, 0, 0);
			}
		}
		if (!write)
#pragma unroll
			for (int j = 0; j < 8; j++)
				acc ^= v[j].x ^ v[j].w;
	}
	if (acc == 0x12345678u)
		*sink = acc;
}

static void pcie_zero_copy(void *h, size_t sz)
{
	cudaEvent_t e0, e1;
	uint32_t *sink = NULL;
	int sms = 0;
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CK(cudaMalloc(&sink, 4));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	const unsigned grids[] = { 1u, 16u, (unsigned)sms, 8u * (unsigned)sms };
	for (int dir = 0; dir < 2; dir++)
		for (unsigned g : grids) {
			std::vector<double> gbs;
			for (int i = 0; i <= 5; i++) {
				float ms = 0;
				CK(cudaEventRecord(e0));
				k_zc<<<g, 64>>>((const uint4 *)h, (uint4 *)h, sz / 16u, dir, sink);
				CK(cudaEventRecord(e1));
				CK(cudaEventSynchronize(e1));
				CK(cudaGetLastError());
				CK(cudaEventElapsedTime(&ms, e0, e1));
				if (i > 0)
					gbs.push_back((double)sz / (1e-3 * ms) / 1e9);
			}
			std::sort(gbs.begin(), gbs.end());
			printf("BENCH %-12s zero-copy %s  %5u blocks x 64: best %8.3f GB/s, median %8.3f GB/s\n",
			       dir == 0 ? "PCIe-H2D" : "PCIe-D2H", dir == 0 ? "loads " : "stores", g,
			       gbs.back(), gbs[gbs.size() / 2]);
		}
	fflush(stdout);
	CK(cudaEventDestroy(e0));
	CK(cudaEventDestroy(e1));
	CK(cudaFree(sink));
}

/* The caller's own (pageable, malloc'd) memory read and written by a
 * kernel, where the system lets the GPU use it (HMM: attribute
 * cudaDevAttrPageableMemoryAccess): what a request could move with no
 * copy through pinned memory.  Three passes each way (pages may migrate
 * on the first); the host then reads back what the kernel wrote. */
static void pcie_pageable(size_t sz)
{
	int pma = 0, hpt = 0, sms = 0;
	CK(cudaDeviceGetAttribute(&pma, cudaDevAttrPageableMemoryAccess, 0));
	CK(cudaDeviceGetAttribute(&hpt, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	printf("BENCH PCIe-pageable pageable memory access %d, host page tables %d%s\n", pma, hpt,
	       pma ? "" : ": a kernel cannot use malloc'd memory here");
	if (!pma)
		return;
	uint4 *h = (uint4 *)aligned_alloc(4096, sz);
	uint32_t *sink = NULL;
	cudaEvent_t e0, e1;
	if (h == NULL)
		return;
	memset(h, 0x5a, sz);
	CK(cudaMalloc(&sink, 4));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	for (int dir = 0; dir < 2; dir++)
		for (int pass = 0; pass < 3; pass++) {
			float ms = 0;
			CK(cudaEventRecord(e0));
			k_zc<<<8u * (unsigned)sms, 64>>>(h, h, sz / 16u, dir, sink);
			CK(cudaEventRecord(e1));
			CK(cudaEventSynchronize(e1));
			CK(cudaGetLastError());
			CK(cudaEventElapsedTime(&ms, e0, e1));
			printf("BENCH PCIe-pageable %s pass %d: %8.3f GB/s (%u blocks x 64, 256 MiB malloc'd)\n",
			       dir == 0 ? "loads " : "stores", pass + 1, (double)sz / (1e-3 * ms) / 1e9,
			       8u * (unsigned)sms);
		}
	printf("BENCH PCIe-pageable the host reads the kernel's stores back: %s\n",
	       h[12345].x == 12345u && h[12345].y == 1u ? "yes" : "NO");
	fflush(stdout);
	CK(cudaEventDestroy(e0));
	CK(cudaEventDestroy(e1));
	CK(cudaFree(sink));
	free(h);
}

/* One thread of a host bandwidth row: what to do (mode), and back the
 * bytes per second it moved and whether a call failed. */
struct bw_arg { int mode; double bytes; int err; };

/* nt threads of fn, each with its own bw_arg of the given mode: the
 * summed bytes per second; *err counts the threads that failed. */
static double bw_threads(int nt, int mode, void *(*fn)(void *), int *err)
{
	std::vector<pthread_t> th((size_t)nt);
	std::vector<bw_arg> args((size_t)nt);
	double tot = 0;
	for (int i = 0; i < nt; i++) {
		args[(size_t)i].mode = mode;
		args[(size_t)i].err = 0;
		pthread_create(&th[(size_t)i], NULL, fn, &args[(size_t)i]);
	}
	*err = 0;
	for (int i = 0; i < nt; i++) {
		pthread_join(th[(size_t)i], NULL);
		tot += args[(size_t)i].bytes;
		*err += args[(size_t)i].err;
	}
	return tot;
}

/* Host memory: what a 1 MiB request costs the host's cores besides the
 * link - the producer copies its input into the pinned arena, its output
 * out of it, and wipes the arena (explicit_bzero, mode 1); modes 2 and 3
 * are the same with the producer's pv_bulk_copy / pv_bulk_wipe
 * (non-temporal stores).  Each thread over its own 2 x 64 MiB (out of
 * cache), 1 MiB at a time, ~0.4 s. */
static void *hm_thread(void *vp)
{
	bw_arg *a = (bw_arg *)vp;
	const size_t buf = (size_t)64 << 20, chunk = (size_t)1 << 20;
	uint8_t *src = (uint8_t *)malloc(buf), *dst = (uint8_t *)malloc(buf);
	a->bytes = 0;
	if (src == NULL || dst == NULL) {
		a->err = 1;
		free(src);
		free(dst);
		return NULL;
	}
	memset(src, 0x5a, buf);
	memset(dst, 0xa5, buf);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double el = 0;
	size_t off = 0;
	a->bytes = 0;
	while (el < 0.4) {
		for (int k = 0; k < 16; k++) {
			if (a->mode == 0)
				memcpy(dst + off, src + off, chunk);
			else if (a->mode == 1)
				explicit_bzero(dst + off, chunk);
			else if (a->mode == 2)
				pv_bulk_copy(dst + off, src + off, chunk);
			else
				pv_bulk_wipe(dst + off, chunk);
			off = (off + chunk) % buf;
			a->bytes += (double)chunk;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		el = (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec);
	}
	a->bytes /= el;
	free(src);
	free(dst);
	return NULL;
}

/* Getting a caller's 1 MiB buffer (pageable, out of cache) to the GPU by
 * the copy engine, three ways, T threads each with its own stream and
 * device buffer, ~0.4 s each: "register" = cudaHostRegister the buffer,
 * cudaMemcpyAsync from it, sync, cudaHostUnregister (no host copy);
 * "stage" = memcpy into a pinned buffer of the thread's, then the same
 * DMA (what a copy-engine path with the ring's arena costs); "pageable"
 * = cudaMemcpyAsync straight from the pageable buffer (the driver stages
 * it); "stage-bulk" = "stage" with pv_bulk_copy.  Whether dropping the
 * host copy can pay for the registration is what decides the GCM 1 MiB
 * path (docs/benchmarks.md). */
static void *hr_thread(void *vp)
{
	bw_arg *a = (bw_arg *)vp;
	const size_t buf = (size_t)64 << 20, chunk = (size_t)1 << 20;
	uint8_t *src = (uint8_t *)malloc(buf), *pin = NULL, *dev = NULL;
	cudaStream_t st = NULL;
	a->bytes = 0;
	a->err = src == NULL || cudaHostAlloc((void **)&pin, chunk, cudaHostAllocDefault) != cudaSuccess ||
	         cudaMalloc((void **)&dev, chunk) != cudaSuccess ||
	         cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess;
	if (!a->err) {
		memset(src, 0x5a, buf);
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		double el = 0;
		size_t off = 0;
		while (el < 0.4 && !a->err) {
			for (int k = 0; k < 8 && !a->err; k++) {
				uint8_t *p = src + off;
				cudaError_t e = cudaSuccess;
				if (a->mode == 0) {
					e = cudaHostRegister(p, chunk, cudaHostRegisterDefault);
					if (e == cudaSuccess)
						e = cudaMemcpyAsync(dev, p, chunk, cudaMemcpyHostToDevice, st);
					if (e == cudaSuccess)
						e = cudaStreamSynchronize(st);
					if (cudaHostUnregister(p) != cudaSuccess)
						e = cudaErrorUnknown;
				} else if (a->mode == 1 || a->mode == 3) {
					if (a->mode == 1)
						memcpy(pin, p, chunk);
					else
						pv_bulk_copy(pin, p, chunk);
					e = cudaMemcpyAsync(dev, pin, chunk, cudaMemcpyHostToDevice, st);
					if (e == cudaSuccess)
						e = cudaStreamSynchronize(st);
				} else {
					e = cudaMemcpyAsync(dev, p, chunk, cudaMemcpyHostToDevice, st);
					if (e == cudaSuccess)
						e = cudaStreamSynchronize(st);
				}
				a->err = e != cudaSuccess;
				off = (off + chunk) % buf;
				a->bytes += (double)chunk;
			}
			clock_gettime(CLOCK_MONOTONIC, &t);
			el = (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec);
		}
		a->bytes /= el;
	}
	if (st != NULL)
		cudaStreamDestroy(st);
	cudaFree(dev);
	cudaFreeHost(pin);
	free(src);
	return NULL;
}

/* One row per mode and thread count (1, 8, 16) of fn's threads. */
static void bw_rows(const char *what, const char *const *mode_name, int modes, void *(*fn)(void *),
                    const char *note, const char *fail)
{
	const int ts[] = { 1, 8, 16 };
	for (int mode = 0; mode < modes; mode++)
		for (int nt : ts) {
			int err;
			const double tot = bw_threads(nt, mode, fn, &err);
			printf("BENCH %-12s %-14s %2d threads: %8.3f GB/s (%s)%s\n", what, mode_name[mode], nt,
			       tot / 1e9, note, err ? fail : "");
		}
	fflush(stdout);
}

/* PCIe bandwidth of the link the ring uses: pinned host <-> device
 * cudaMemcpy of 256 MiB, one warm-up and 7 timed copies each way (CUDA
 * events around each copy); prints best and median GB/s (1e9 bytes/s) and
 * records the median in the summary, so that end-to-end GB/s (GCM-256/1M)
 * can be read against the measured link. */
static void pcie_bw(void)
{
	const size_t sz = (size_t)256 << 20;
	const int reps = 7;
	void *h = NULL, *d = NULL;
	cudaEvent_t e0, e1;

	CK(cudaMallocHost(&h, sz));
	CK(cudaMalloc(&d, sz));
	memset(h, 0x5a, sz);
	CK(cudaMemset(d, 0xa5, sz));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	for (int dir = 0; dir < 2; dir++) {
		std::vector<double> gbs;
		for (int i = 0; i <= reps; i++) {
			float ms = 0;
			CK(cudaEventRecord(e0));
			if (dir == 0)
				CK(cudaMemcpy(d, h, sz, cudaMemcpyHostToDevice));
			else
				CK(cudaMemcpy(h, d, sz, cudaMemcpyDeviceToHost));
			CK(cudaEventRecord(e1));
			CK(cudaEventSynchronize(e1));
			CK(cudaEventElapsedTime(&ms, e0, e1));
			if (i > 0)          /* the first copy is the warm-up */
				gbs.push_back((double)sz / (1e-3 * ms) / 1e9);
		}
		std::sort(gbs.begin(), gbs.end());
		const double best = gbs.back(), med = gbs[gbs.size() / 2];
		const char *name = dir == 0 ? "PCIe-H2D" : "PCIe-D2H";
		printf("BENCH %-12s %-12s best %8.3f GB/s, median %8.3f GB/s  (%d copies of 256 MiB, pinned)\n",
		       name, "cudaMemcpy", best, med, reps);
		result r = { name, "copy-median", med * 1e9 / (double)sz, med };
		results.push_back(r);
	}
	fflush(stdout);
	pcie_zero_copy(h, sz);
	pcie_pageable(sz);
	static const char *const hm_name[4] = { "memcpy", "explicit_bzero", "bulk-copy", "bulk-wipe" };
	static const char *const hr_name[4] = { "register", "stage", "pageable", "stage-bulk" };
	bw_rows("host-memory", hm_name, 4, hm_thread, "1 MiB at a time, buffers out of cache",
	        " FAIL: out of memory");
	bw_rows("caller-H2D", hr_name, 4, hr_thread, "1 MiB buffers of the caller to the GPU",
	        " FAIL: a CUDA call failed");
	CK(cudaEventDestroy(e0));
	CK(cudaEventDestroy(e1));
	CK(cudaFree(d));
	CK(cudaFreeHost(h));
}

/* "stagecalls": how fast host threads can have the copy engine move a
 * buffer to the GPU and know it is there, in the three ways a producer
 * could wait for it (pv_cuda_stage; docs/gpu-validation.md runs 157-162,
 * where every request staged capped the embedded vault at ~22k/s):
 * block = a blocking-sync event and cudaEventSynchronize (main's
 * pv_cuda_stage), poll = cudaEventQuery between sched_yield calls
 * (wip/stage-poll), async = the copy and a 4-byte word behind it queued,
 * nothing waited for (wip/stage-async; counted when queued, the streams
 * drained before the clock stops).  Copies go on 8 shared non-blocking
 * streams by thread (as pv_cuda_stage's by slot), with the vault open so
 * that its kernel holds the GPU as in the token. */
struct sc_arg {
	int mode;
	size_t bytes;
	uint8_t *h, *d;
	uint32_t *word_h, *word_d;
	cudaStream_t st;
	cudaEvent_t ev;
	volatile int *stop;
	uint64_t n;
	int err;
};

static void *sc_thread(void *vp)
{
	sc_arg *a = (sc_arg *)vp;
	while (!*a->stop && !a->err) {
		cudaError_t e = cudaMemcpyAsync(a->d, a->h, a->bytes, cudaMemcpyHostToDevice, a->st);
		if (e == cudaSuccess && a->mode == 2) {
			/* the word's value does not matter here; the driver throttles
			 * the queue once it is full, so the rate is the copies' */
			e = cudaMemcpyAsync(a->word_d, a->word_h, sizeof(uint32_t), cudaMemcpyHostToDevice, a->st);
		} else if (e == cudaSuccess) {
			e = cudaEventRecord(a->ev, a->st);
			if (e == cudaSuccess && a->mode == 0)
				e = cudaEventSynchronize(a->ev);
			while (e == cudaSuccess && a->mode == 1) {
				e = cudaEventQuery(a->ev);
				if (e == cudaErrorNotReady) {
					sched_yield();
					e = cudaSuccess;
				} else {
					break;
				}
			}
		}
		if (e != cudaSuccess)
			a->err = 1;
		else
			a->n++;
	}
	return NULL;
}

static int stage_calls(void)
{
	static const char *const mname[3] = { "block", "poll", "async" };
	const int nthr[] = { 1, 16, 64 };
	const size_t sizes[] = { 4096, (size_t)1 << 20 };
	const int maxt = 64, nst = 8;
	uint8_t *h = NULL, *d = NULL;
	uint32_t *wh = NULL, *wd = NULL;
	cudaStream_t st[8];
	int bad = 0;
	CK(cudaHostAlloc((void **)&h, (size_t)maxt << 20, cudaHostAllocPortable));
	CK(cudaHostAlloc((void **)&wh, (size_t)maxt * 64, cudaHostAllocPortable));
	CK(cudaMalloc((void **)&d, (size_t)maxt << 20));
	CK(cudaMalloc((void **)&wd, (size_t)maxt * 64));
	memset(h, 0x5a, (size_t)maxt << 20);
	memset(wh, 0, (size_t)maxt * 64);
	for (int i = 0; i < nst; i++)
		CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
	pv_cuda *v = open_vault(64, 64u << 10, 0);
	if (v == NULL)
		return 1;
	for (int m = 0; m < 3; m++)
		for (size_t sz : sizes)
			for (int t : nthr) {
				std::vector<pthread_t> th((size_t)t);
				std::vector<sc_arg> args((size_t)t);
				volatile int stop = 0;
				for (int i = 0; i < t; i++) {
					sc_arg &a = args[(size_t)i];
					memset(&a, 0, sizeof a);
					a.mode = m;
					a.bytes = sz;
					a.h = h + ((size_t)i << 20);
					a.d = d + ((size_t)i << 20);
					a.word_h = wh + (size_t)i * 16u;
					a.word_d = wd + (size_t)i * 16u;
					a.st = st[i % nst];
					a.stop = &stop;
					CK(cudaEventCreateWithFlags(&a.ev, cudaEventDisableTiming |
					                                   (m == 0 ? cudaEventBlockingSync : 0)));
				}
				const double t0 = now_s();
				for (int i = 0; i < t; i++)
					pthread_create(&th[(size_t)i], NULL, sc_thread, &args[(size_t)i]);
				while (now_s() - t0 < 0.5)
					usleep(1000);
				stop = 1;
				uint64_t n = 0;
				int err = 0;
				for (int i = 0; i < t; i++) {
					pthread_join(th[(size_t)i], NULL);
					n += args[(size_t)i].n;
					err += args[(size_t)i].err;
					CK(cudaEventDestroy(args[(size_t)i].ev));
				}
				for (int i = 0; i < nst; i++)
					CK(cudaStreamSynchronize(st[i]));
				const double el = now_s() - t0;
				bad += err != 0;
				printf("BENCH stage-calls  %-5s %7zu B %2d threads: %9.0f copies/s %8.3f GB/s%s\n",
				       mname[m], sz, t, (double)n / el, (double)n * (double)sz / el / 1e9,
				       err ? "  FAIL: a CUDA call failed" : "");
				fflush(stdout);
			}
	pv_cuda_close(v);
	for (int i = 0; i < nst; i++)
		CK(cudaStreamDestroy(st[i]));
	CK(cudaFree(d));
	CK(cudaFree(wd));
	CK(cudaFreeHost(h));
	CK(cudaFreeHost(wh));
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	char why[256];
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	/* "pkhost": the public-key checks on the host, no CUDA call at all */
	if (argc > 2 && strcmp(argv[2], "pkhost") == 0) {
		printf("gpu_bench: pkhost: host only, no GPU used and no rate reported\n");
		return pk_host_only();
	}
	if (pv_cuda_probe(0, why, sizeof why) != PV_OK) {
		printf("SKIP: no CUDA device\n");
		return 77;
	}
	/* "latency" as the second argument: the lone-request round trip alone */
	bool lat_only = argc > 2 && strcmp(argv[2], "latency") == 0;
	/* "pcie": the pinned host <-> device copy bandwidth alone */
	if (argc > 2 && strcmp(argv[2], "pcie") == 0) {
		printf("gpu_bench: %s, PCIe bandwidth only\n", why);
		pcie_bw();
		summary();
		return 0;
	}
	/* "pk": the public-key kernel-only rates alone */
	bool pk_only = argc > 2 && strcmp(argv[2], "pk") == 0;
	/* "ecload [n,n,... [carveout [dsmem]]]": P-256 on the vault's warp shape, by
	 * signatures at once */
	if (argc > 2 && strcmp(argv[2], "ecload") == 0) {
		printf("gpu_bench: %s, P-256 signatures by load, kernel-only\n", why);
		return ec_load(argc > 3 ? argv[3] : "1,132,264,528,1056,2112",
		               argc > 4 ? atoi(argv[4]) : -1, argc > 5 ? atoi(argv[5]) : 0) ? 1 : 0;
	}
	/* "veload [n,n,... [stagger_us [work]]]": the vault's execute path
	 * without the ring, optionally with the ring's per-request steps */
	if (argc > 2 && strcmp(argv[2], "veload") == 0) {
		printf("gpu_bench: %s, ve_execute signatures by load, no ring\n", why);
		return ve_load(argc > 3 ? argv[3] : "1,132,264,528,1056",
		               argc > 4 ? (uint32_t)atoi(argv[4]) : 0u,
		               argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 0) : 0u) ? 1 : 0;
	}
	/* "hashlat": the serial hashing of a signature on one thread */
	if (argc > 2 && strcmp(argv[2], "hashlat") == 0) {
		printf("gpu_bench: %s, SHA-256 / HMAC / HMAC_DRBG / RFC 6979 on one thread\n", why);
		return hashlat_bench();
	}
	/* "mm": the warp Montgomery product and a CRT half's exponentiation */
	if (argc > 2 && strcmp(argv[2], "mm") == 0) {
		printf("gpu_bench: %s, warp Montgomery products, one warp\n", why);
		return mm_bench();
	}
	/* "keygen [n [bits]]": RSA key generation, the warp shape against one
	 * thread and the host, from fixed seeds */
	if (argc > 2 && strcmp(argv[2], "keygen") == 0) {
		printf("gpu_bench: %s, RSA key generation\n", why);
		if (argc > 3)
			return keygen_bench((uint32_t)atoi(argv[3]), argc > 4 ? (uint32_t)atoi(argv[4]) : 2048u) ? 1 : 0;
		int bad = keygen_bench(3, 2048);
		bad += keygen_bench(1, 3072);
		bad += keygen_bench(1, 4096);
		return bad ? 1 : 0;
	}
	/* "stagecalls": the copy engine's round trips by way of waiting */
	if (argc > 2 && strcmp(argv[2], "stagecalls") == 0) {
		printf("gpu_bench: %s, copy-engine round trips from host threads\n", why);
		return stage_calls();
	}
	/* "sig": signatures through the ring, without PKCS#11 */
	if (argc > 2 && strcmp(argv[2], "sig") == 0) {
		printf("gpu_bench: %s, scale %.2f, signatures through the ring\n", why, scale);
		int bad = sig_ring(scale);
		summary();
		return bad ? 1 : 0;
	}
	printf("gpu_bench: %s, scale %.2f%s\n", why, scale,
	       lat_only ? ", latency only" : pk_only ? ", public-key kernel-only" : "");
	if (lat_only) {
		latency();
		return results.empty() ? 1 : 0;
	}
	if (pk_only) {
		int bad = pk_all(scale);
		summary();
		return bad ? 1 : 0;
	}
	uint32_t nh = (uint32_t)(65536 * scale), ng = (uint32_t)(1024 * scale);
	if (nh < 256) nh = 256;
	if (ng < 16) ng = 16;
	kernel_only("SHA-256/4K", 0, KC_HASH_SHA256, 4096, nh);
	kernel_only("SHA3-256/4K", 0, KC_HASH_SHA3_256, 4096, nh);
	kernel_only("SM3/4K", 0, KC_HASH_SM3, 4096, nh);
	kernel_only("GCM-256/1M", 1, 0, 1 << 20, ng);
	int pk_bad = pk_all(scale);

	latency();
	int nreq = (int)(100000 * scale);
	if (nreq < 2048) nreq = 2048;
	digest_e2e("SHA-256/4K", PV_MECH_SHA256, nreq);
	digest_e2e("SHA3-256/4K", PV_MECH_SHA3_256, nreq);
	digest_e2e("SM3/4K", PV_MECH_SM3, nreq);
	int ngr = (int)(1024 * scale);
	if (ngr < 64) ngr = 64;
	gcm_e2e("GCM-256/1M", ngr);
	pcie_bw();

	summary();
	return pk_bad ? 1 : 0;
}
