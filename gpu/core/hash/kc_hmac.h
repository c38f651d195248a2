/*
 * kc_hmac.h - HMAC (RFC 2104, FIPS 198-1) over every fixed-length hash of
 * kc_hash.h (SHA-1, SHA-2, SHA-3, SM3).  SHAKE is rejected.
 *
 * The ctx holds the two keyed states (after the ipad / opad block); it is
 * plain and may be copied: a copy taken right after kc_hmac_init is a
 * precomputed key that can MAC many messages without rehashing the key.
 * Constant time in key and message content (branches on lengths only).
 */
#ifndef KC_HMAC_H
#define KC_HMAC_H

#include "kc_hash.h"

typedef struct kc_hmac_ctx {
	kc_hash_ctx inner, outer;
} kc_hmac_ctx;

/* PV_OK; PV_ERR_MECHANISM for SHAKE or an unknown alg; PV_ERR_ARGS for a
 * NULL key with keylen > 0.  Any key length, 0 included. */
KC_API int kc_hmac_init(kc_hmac_ctx *c, uint32_t alg, const uint8_t *key, size_t keylen);
KC_API void kc_hmac_update(kc_hmac_ctx *c, const void *data, size_t len);
/* Writes kc_hash_len(alg) bytes and wipes the ctx. */
KC_API void kc_hmac_final(kc_hmac_ctx *c, uint8_t *out);
KC_API int kc_hmac(uint32_t alg, const uint8_t *key, size_t keylen,
                   const void *data, size_t len, uint8_t *out);
/* Constant-time check of a received tag against the MAC of data:
 * PV_OK if the first taglen bytes match, PV_ERR_SIG_INVALID otherwise,
 * PV_ERR_SIG_LEN if taglen is 0 or larger than the digest. */
KC_API int kc_hmac_verify(uint32_t alg, const uint8_t *key, size_t keylen,
                          const void *data, size_t len,
                          const uint8_t *tag, size_t taglen);
KC_API void kc_hmac_clear(kc_hmac_ctx *c);

/* A key for the Merkle-Damgard hashes (SHA-1, SHA-2, SM3) that keeps only
 * the chaining values after the ipad and the opad block.  Each MAC
 * (kc_hmac_md_start, _add, _end) runs in a kc_hmac_md state from a copy of
 * one chaining value, where a kc_hmac_ctx copy moves two kc_hash_ctx sized
 * for SHA-3: for one key that MACs many short messages (HMAC_DRBG, RFC
 * 6979 nonces), where copying and wiping those in local memory would take
 * half of each HMAC's time on a GPU thread.  Plain;
 * constant time as kc_hmac. */
typedef struct kc_hmac_key {
	uint32_t alg, md;           /* KC_HASH_*, its KC_MD_* compression */
	uint32_t hlen, blen, cvlen; /* digest, block, chaining value bytes */
	uint32_t pad_;
	uint64_t cv[2][8];          /* ipad / opad chaining values */
} kc_hmac_key;
/* One MAC in progress: its chaining value, the bytes absorbed (the key
 * block included) and the partial block. */
typedef struct kc_hmac_md {
	union { uint32_t w[16]; uint64_t d[8]; } h;   /* kc_md reads either */
	uint64_t count;
	uint8_t buf[KC_HASH_MAX_BLOCK];
} kc_hmac_md;
/* PV_OK; PV_ERR_MECHANISM for SHA-3, SHAKE or an unknown alg; PV_ERR_ARGS
 * for a NULL key with keylen > 0. */
KC_API int kc_hmac_key_init(kc_hmac_key *k, uint32_t alg, const uint8_t *key, size_t keylen);
KC_API void kc_hmac_md_start(const kc_hmac_key *k, kc_hmac_md *s);
KC_API void kc_hmac_md_add(const kc_hmac_key *k, kc_hmac_md *s, const void *data, size_t len);
/* Writes k->hlen bytes and wipes what s used. */
KC_API void kc_hmac_md_end(const kc_hmac_key *k, kc_hmac_md *s, uint8_t *out);
KC_API void kc_hmac_key_clear(kc_hmac_key *k);

#endif /* KC_HMAC_H */
