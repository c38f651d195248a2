/*
 * kc_sha3.h - Keccak-f[1600], SHA3-224/256/384/512 and SHAKE128/256
 * (FIPS 202).
 *
 * One sponge state for all six: `rate` is the block size in bytes, `dsbyte`
 * the domain-separation/padding byte (0x06 for SHA-3, 0x1F for SHAKE), `pos`
 * the number of bytes absorbed into the current block (< rate).
 */
#ifndef KC_SHA3_H
#define KC_SHA3_H

#include "../kc_defs.h"

#define KC_SHA3_224_LEN 28
#define KC_SHA3_256_LEN 32
#define KC_SHA3_384_LEN 48
#define KC_SHA3_512_LEN 64
#define KC_SHA3_224_RATE 144
#define KC_SHA3_256_RATE 136
#define KC_SHA3_384_RATE 104
#define KC_SHA3_512_RATE 72
#define KC_SHAKE128_RATE 168
#define KC_SHAKE256_RATE 136

typedef struct kc_sha3_state {
	uint64_t a[25];
	uint32_t pos;
	uint16_t rate;
	uint8_t dsbyte;
	uint8_t mdlen;       /* fixed digest length, 0 for SHAKE */
} kc_sha3_state;

KC_API void kc_keccak_f1600(uint64_t st[25]);
/* mdlen: 28, 32, 48 or 64 (rate = 200 - 2*mdlen).  Other values: SHA3-256. */
KC_API void kc_sha3_init(kc_sha3_state *s, size_t mdlen);
/* bits: 128 or 256 (other values: SHAKE256). */
KC_API void kc_shake_init(kc_sha3_state *s, unsigned bits);
KC_API void kc_sha3_update(kc_sha3_state *s, const void *data, size_t len);
/* Writes mdlen bytes, wipes the state. */
KC_API void kc_sha3_final(kc_sha3_state *s, uint8_t *out);
/* Pads and squeezes len bytes (any length) in one call, wipes the state. */
KC_API void kc_shake_final(kc_sha3_state *s, uint8_t *out, size_t len);

#endif /* KC_SHA3_H */
