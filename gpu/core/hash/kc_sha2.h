/*
 * kc_sha2.h - SHA-224/256 and SHA-384/512 (FIPS 180-4), per-algorithm API.
 *
 * States are plain structs (no pointers): they may be copied, serialized and
 * moved between host and GPU.  `count` is the number of bytes absorbed so
 * far; the partial block is buf[0 .. count % block).
 */
#ifndef KC_SHA2_H
#define KC_SHA2_H

#include "../kc_defs.h"

#define KC_SHA224_LEN 28
#define KC_SHA256_LEN 32
#define KC_SHA384_LEN 48
#define KC_SHA512_LEN 64
#define KC_SHA256_BLOCK 64
#define KC_SHA512_BLOCK 128

typedef struct kc_sha256_state {
	uint32_t h[8];
	uint64_t count;
	uint8_t buf[KC_SHA256_BLOCK];
} kc_sha256_state;

typedef struct kc_sha512_state {
	uint64_t h[8];
	uint64_t count;      /* bytes; messages are < 2^64 bytes */
	uint8_t buf[KC_SHA512_BLOCK];
} kc_sha512_state;

/* One compression of a 64-byte block into h (used by the PBKDF2 fast path). */
KC_API void kc_sha256_compress(uint32_t h[8], const uint8_t *block);
KC_API void kc_sha224_init(kc_sha256_state *s);
KC_API void kc_sha256_init(kc_sha256_state *s);
KC_API void kc_sha256_update(kc_sha256_state *s, const void *data, size_t len);
/* Writes outlen (<= 32) leading bytes of the digest, then wipes the state.
 * SHA-256: 32, SHA-224: 28. */
KC_API void kc_sha256_final_n(kc_sha256_state *s, uint8_t *out, size_t outlen);
KC_API void kc_sha256_final(kc_sha256_state *s, uint8_t *out);   /* 32 bytes */
KC_API void kc_sha224_final(kc_sha256_state *s, uint8_t *out);   /* 28 bytes */

KC_API void kc_sha512_compress(uint64_t h[8], const uint8_t *block);
KC_API void kc_sha384_init(kc_sha512_state *s);
KC_API void kc_sha512_init(kc_sha512_state *s);
KC_API void kc_sha512_update(kc_sha512_state *s, const void *data, size_t len);
KC_API void kc_sha512_final_n(kc_sha512_state *s, uint8_t *out, size_t outlen);
KC_API void kc_sha512_final(kc_sha512_state *s, uint8_t *out);   /* 64 bytes */
KC_API void kc_sha384_final(kc_sha512_state *s, uint8_t *out);   /* 48 bytes */

#endif /* KC_SHA2_H */
