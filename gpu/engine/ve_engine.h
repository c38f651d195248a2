/*
 * ve_engine.h - the portable vault engine: boot, per-worker state and the
 * execution of one request.  Same code on CPU worker threads and (later)
 * in the persistent CUDA kernel, so it follows the gpu/core rules.
 *
 *   ve_vault   the vault's secrets, read-only after ve_boot: the KEK that
 *              wraps every key blob not bound to a token key and every
 *              PIN record (HKDF-SHA256 of the master key), and the
 *              per-boot state key that seals multi-part states and login
 *              tickets.
 *   ve_worker  one per worker (thread / GPU warp): its HMAC_DRBG, and an
 *              ECDSA or SM2 nonce computed while it was idle (ve_idle).
 *   ve_execute runs one request: desc is copied and validated first, inputs
 *              are read from the arena, outputs written to it, the result
 *              into *res.
 */
#ifndef VE_ENGINE_H
#define VE_ENGINE_H

#include "ve_proto.h"
#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/sym/kc_sym.h"
#include "gpu/core/ec/kc_ec.h"

/* HKDF info label of the KEK and of the state-sealing key. */
#define VE_KEK_LABEL   "PixelVault KEK v1"
#define VE_MASTER_LEN  32u

/* A key that seals blobs: its AES-256 schedule and its GCM hash key H
 * with H's powers, pow[k] = H^(k+1) (kc_ghash_powers). */
typedef struct ve_kek {
	kc_bc bc;
	uint8_t pow[KC_GHASH_POW_N][16];
} ve_kek;

typedef struct ve_vault {
	ve_kek kek;                /* the blob KEK (master key)                */
	kc_bc stk;                 /* AES-256 schedule of the per-boot state key,
	                              which seals states and login tickets     */
	uint8_t stk_h[16];         /* the state key's H (kc_gcm_hkey)          */
	uint32_t sealed;           /* 1: no master key, every op but NOP fails */
	uint32_t pad_;
} ve_vault;

typedef struct ve_worker {
	kc_drbg drbg;
	uint64_t nreq;             /* requests executed                        */
	uint32_t index;
	int32_t pre_curve;         /* the curve ve_idle computes a nonce for   */
	kc_ec_pre pre;             /* a signature nonce computed ahead         */
} ve_worker;

/* Boot: master == NULL (or mlen != 32) leaves the vault sealed.  entropy
 * (>= 32 bytes of host entropy) seeds the boot DRBG that draws the state
 * key.  PV_ERR_RANDOM if the entropy is short. */
KC_API int ve_boot(ve_vault *v, const uint8_t *master, size_t mlen,
                   const uint8_t *entropy, size_t elen);
KC_API void ve_vault_clear(ve_vault *v);

/* Per-worker DRBG, instantiated from >= 32 bytes of entropy; index is the
 * personalization string (distinct per worker). */
KC_API int ve_worker_init(ve_worker *w, uint32_t index,
                          const uint8_t *entropy, size_t elen);
KC_API int ve_worker_reseed(ve_worker *w, const uint8_t *entropy, size_t elen);
KC_API void ve_worker_clear(ve_worker *w);

/* What a worker does while it has no request (the backend calls ve_idle
 * when its queue is empty, never in front of a waiting request): one
 * signature nonce ahead, from the worker's DRBG, for the curve it signed
 * with last (P-256 until it has signed): kc_ecdsa_precompute, or
 * kc_sm2_precompute after an SM2 signature.  The next signature on that
 * curve then costs a few products mod n (SM2: and the inversion of 1 + d)
 * instead of the nonce's derivation and k*G.  The nonce is used once and
 * wiped (kc_ecdsa_sign_pre, kc_sm2_sign_pre).  Then the DRBG's output
 * ahead (kc_drbg_fill), so that the next small draw (RSA's blinding
 * bytes, a blob's nonce) costs a copy instead of ten SHA-256
 * compressions.  ve_idle_wanted: 1 if ve_idle has work; ve_idle returns 1
 * if it did some. */
KC_API int ve_idle_wanted(const ve_vault *v, const ve_worker *w);
KC_API int ve_idle(const ve_vault *v, ve_worker *w);

/* Run one request.  The descriptor is copied first; the spans are checked
 * against arena_len (and outputs against overlap with inputs) before any
 * byte is read.  Always writes *res (status PV_OK or PV_ERR_*). */
KC_API void ve_execute(const ve_vault *v, ve_worker *w, const ve_desc *desc,
                       uint8_t *arena, uint32_t arena_len, ve_result *res);

#endif /* VE_ENGINE_H */
