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

#endif /* KC_HMAC_H */
