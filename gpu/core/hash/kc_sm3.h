/*
 * kc_sm3.h - SM3 (GB/T 32905-2016, also ISO/IEC 10118-3:2018).
 */
#ifndef KC_SM3_H
#define KC_SM3_H

#include "../kc_defs.h"

#define KC_SM3_LEN 32
#define KC_SM3_BLOCK 64

typedef struct kc_sm3_state {
	uint32_t h[8];
	uint64_t count;
	uint8_t buf[KC_SM3_BLOCK];
} kc_sm3_state;

KC_API void kc_sm3_compress(uint32_t h[8], const uint8_t *block);
KC_API void kc_sm3_init(kc_sm3_state *s);
KC_API void kc_sm3_update(kc_sm3_state *s, const void *data, size_t len);
KC_API void kc_sm3_final(kc_sm3_state *s, uint8_t *out);         /* 32 bytes */

#endif /* KC_SM3_H */
