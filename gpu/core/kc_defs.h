/*
 * kc_defs.h - the one execution-space header of the portable crypto core.
 *
 * gpu/core (and gpu/engine) is written once in the common subset of C99 and
 * CUDA C++.  Every function is declared with KC_API:
 *   - under nvcc it is `__host__ __device__ static inline`; the CUDA backend
 *     builds its kernel as one translation unit that #includes the .c files
 *     (whole-program register allocation, no relocatable device code);
 *   - in the host build it is an ordinary external function compiled into
 *     libpv_core.a.
 * KC_PRIV marks file-local helpers (always static); KC_OUTLINE a file-local
 * helper whose callers should share one copy of its code, or whose locals
 * should not be part of its caller's frame (on the GPU: never inlined, for
 * the instruction cache or the stack).
 *
 * Rules for code under gpu/core: include only <stdint.h>, <stddef.h> and
 * headers of gpu/core; no libc, no allocation, no VLAs; fixed-width types and
 * explicit casts; never branch on or index by secret data.
 */
#ifndef KC_DEFS_H
#define KC_DEFS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define KC_API __host__ __device__ static inline
#define KC_PRIV __host__ __device__ static inline
#define KC_OUTLINE __host__ __device__ static __noinline__ __attribute__((unused))
#else
#define KC_API
#define KC_PRIV static inline
#define KC_OUTLINE static
#endif

/* KC_ALIGN16 on a buffer that kc_memcpy copies to or from a 16-byte
 * aligned field: the same alignment on both sides is what lets it move
 * words instead of bytes (one thread against local memory on the GPU). */
#define KC_ALIGN16 __attribute__((aligned(16)))

/* KC_UNROLL before a loop with a public, constant trip count: unroll it, so
 * that the arrays it indexes stay in registers - fully in nvcc's device
 * pass, up to 32 iterations with gcc on the host (Keccak's 24-step rho and
 * pi: at 16, half of its lanes went through memory and SHA3-256 ran at
 * 60 % of the speed).  The host pass of nvcc gets nothing (its front end
 * and host compiler disagree on the spelling). */
#if defined(__CUDA_ARCH__)
#define KC_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define KC_UNROLL
#elif defined(__clang__)
#define KC_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define KC_UNROLL _Pragma("GCC unroll 32")
#else
#define KC_UNROLL
#endif

/* KC_PROF(k): a time stamp at mark k of the current request, for the split
 * of a lone request's execute time (gpu_bench sig); the vault kernel
 * defines it, everywhere else it is nothing.  Marks: 0 key unwrapped
 * (ve_pk_open); EC signing 1 nonce state, 2 nonce + blinds, 3 k*G,
 * 4 x(R) mod n, 5 s; RSA 6 PKCS#1 v1.5 padded, 7 n and the input
 * loaded (kc_rsa_private_ct), 8 blinding bytes drawn, 9 CRT halves
 * prepared, 10 both exponentiations, 11 recombined, 12 fault check.
 * Finer ones within those: 13 a private key blob's AES-GCM opened
 * (before its unpacking), 14 n loaded, 15 R^2 mod p (kc_rsa_core_prep),
 * 16 p's CRT half prepared (before q's is taken), 17 m2 mod p
 * (recombination), 18 p's half of the fault check, 19 q's taken; 20 a
 * blob's GHASH passes done, 21 its CTR pass done (kc_gcm_open_pw).  A
 * mark's index is its name, not its place: gpu_bench orders a request's
 * marks by time.
 * PVC_PROF_ROW (gpu/cuda/pvc_ring.h) holds PVC_PROF_MARK + KC_PROF_N. */
#define KC_PROF_N 22
#ifndef KC_PROF
#define KC_PROF(k) ((void)0)
#endif

#if defined(__GNUC__) || defined(__CUDACC__)
#define KC_UNUSED __attribute__((unused))
#else
#define KC_UNUSED
#endif

#endif /* KC_DEFS_H */
