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

/* SHA-256's round constants (FIPS 180-4, 4.2.2): the initializer of the
 * portable compression's table and of the host's SHA-extension one
 * (gpu/core/cpu/kc_cpu_sha.c) */
#define KC_SHA256_K { \
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, \
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, \
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, \
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, \
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, \
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, \
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, \
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2 \
}

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
