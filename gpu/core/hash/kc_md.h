/*
 * kc_md.h - the Merkle-Damgard framing that SHA-1, SHA-224/256,
 * SHA-384/512 (FIPS 180-4, 5.1) and SM3 (GB/T 32905) share: partial
 * blocks buffered in the state, then 0x80, zeroes and the message's bit
 * length, big-endian, in the last 8 bytes (16 for SHA-384/512); the
 * digest is the chaining value's words, big-endian.  Each algorithm's file
 * keeps its compression function and its initial values.
 */
#ifndef KC_MD_H
#define KC_MD_H

#include "../kc_defs.h"

/* Which compression function (SHA-1, SHA-256 and SM3 take 64-byte
 * blocks, SHA-512 128-byte ones); SHA-224 and SHA-384 use SHA-256's and
 * SHA-512's. */
#define KC_MD_SHA1 1u
#define KC_MD_SHA256 2u
#define KC_MD_SHA512 3u
#define KC_MD_SM3 4u

/* Absorb len bytes: h is the chaining value (uint32_t[5] / [8], SHA-512's
 * uint64_t[8]), buf the partial block, *count the bytes absorbed so far. */
KC_API void kc_md_update(uint32_t md, void *h, uint8_t *buf, uint64_t *count,
                         const void *data, size_t len);

/* Pad the count bytes absorbed, compress the last block(s) into h and
 * write the first outlen bytes of the digest (h's words big-endian: 20
 * bytes for SHA-1, 32 for SHA-256 and SM3, 64 for SHA-512).  The caller
 * wipes its state. */
KC_API void kc_md_final(uint32_t md, void *h, uint8_t *buf, uint64_t count,
                        uint8_t *out, size_t outlen);

#endif /* KC_MD_H */
