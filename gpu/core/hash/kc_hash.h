/*
 * kc_hash.h - hash functions of the portable core, by algorithm number.
 *
 *   SHA-1, SHA-224/256/384/512 (FIPS 180-4), SHA3-224/256/384/512 and
 *   SHAKE128/256 (FIPS 202), SM3 (GB/T 32905-2016).
 *
 * kc_hash_ctx is plain and self-contained (no pointers): it may be copied
 * with memcpy or struct assignment, serialized (C_GetOperationState) and
 * moved between host and GPU.  A ctx read back from outside must be checked
 * with kc_hash_check() before use.
 *
 * Per-algorithm entry points: kc_sha1.h, kc_sha2.h, kc_sha3.h, kc_sm3.h.
 * HMAC: kc_hmac.h.  HKDF/PBKDF2: kc_kdf.h.  HMAC_DRBG: kc_drbg.h.
 *
 * Nothing here branches on or indexes by data; only on lengths and alg.
 */
#ifndef KC_HASH_H
#define KC_HASH_H

#include "../kc_defs.h"
#include "kc_sha1.h"
#include "kc_sha2.h"
#include "kc_sha3.h"
#include "kc_sm3.h"

#define KC_HASH_SHA1      1
#define KC_HASH_SHA224    2
#define KC_HASH_SHA256    3
#define KC_HASH_SHA384    4
#define KC_HASH_SHA512    5
#define KC_HASH_SHA3_224  6
#define KC_HASH_SHA3_256  7
#define KC_HASH_SHA3_384  8
#define KC_HASH_SHA3_512  9
#define KC_HASH_SM3      10
#define KC_HASH_SHAKE128 11
#define KC_HASH_SHAKE256 12
#define KC_HASH_MAX_LEN   64     /* largest fixed digest */
#define KC_HASH_MAX_BLOCK 168    /* largest block/rate (SHAKE128) */

typedef struct kc_hash_ctx {
	uint32_t alg;        /* KC_HASH_*, 0 when wiped / never initialised */
	uint32_t pad_;       /* explicit, keeps the layout free of holes */
	union {
		kc_sha1_state sha1;      /* SHA-1 */
		kc_sha256_state sha256;  /* SHA-224, SHA-256 */
		kc_sha512_state sha512;  /* SHA-384, SHA-512 */
		kc_sha3_state sha3;      /* SHA3-*, SHAKE* */
		kc_sm3_state sm3;        /* SM3 */
	} u;
} kc_hash_ctx;

/* Digest length in bytes; 0 if unknown, and 0 for SHAKE (use kc_hash_xof). */
KC_API size_t kc_hash_len(uint32_t alg);
/* Block (or sponge rate) in bytes; 0 if unknown.  This is the HMAC block. */
KC_API size_t kc_hash_block_len(uint32_t alg);

/* PV_OK, or PV_ERR_MECHANISM (ctx left with alg 0) if alg is unknown. */
KC_API int kc_hash_init(kc_hash_ctx *c, uint32_t alg);
/* No-op on a ctx whose alg is unknown. */
KC_API void kc_hash_update(kc_hash_ctx *c, const void *data, size_t len);
/* Writes kc_hash_len(alg) bytes (nothing for SHAKE) and wipes the ctx. */
KC_API void kc_hash_final(kc_hash_ctx *c, uint8_t *out);
/* SHAKE only: pads and squeezes len bytes; one call finalizes (wipes the
 * ctx).  PV_ERR_MECHANISM (ctx untouched) for a fixed-length hash. */
KC_API int kc_hash_xof(kc_hash_ctx *c, uint8_t *out, size_t len);
/* One shot: PV_OK, or PV_ERR_MECHANISM for unknown algorithms and SHAKE. */
KC_API int kc_hash(uint32_t alg, const void *data, size_t len, uint8_t *out);
/* One-shot SHAKE128/256 with any output length; PV_ERR_MECHANISM otherwise. */
KC_API int kc_shake(uint32_t alg, const void *data, size_t len, uint8_t *out, size_t outlen);

/* PV_OK if c is a consistent state of a known algorithm (as produced by
 * kc_hash_init/update), PV_ERR_STATE otherwise.  Use on a ctx restored from
 * outside (C_SetOperationState) before calling update/final on it. */
KC_API int kc_hash_check(const kc_hash_ctx *c);

/* Wipe a ctx without producing output (abandoned operation). */
KC_API void kc_hash_clear(kc_hash_ctx *c);

#endif /* KC_HASH_H */
