/*
 * kc_sha1.h - SHA-1 (FIPS 180-4).  For legacy interoperability (HMAC-SHA1,
 * PKCS#11 CKM_SHA_1, OAEP-SHA1); never for new signatures.
 */
#ifndef KC_SHA1_H
#define KC_SHA1_H

#include "../kc_defs.h"

#define KC_SHA1_LEN 20
#define KC_SHA1_BLOCK 64

typedef struct kc_sha1_state {
	uint32_t h[5];
	uint32_t pad_;       /* explicit, keeps the layout free of holes */
	uint64_t count;
	uint8_t buf[KC_SHA1_BLOCK];
} kc_sha1_state;

KC_API void kc_sha1_compress(uint32_t h[5], const uint8_t *block);
KC_API void kc_sha1_init(kc_sha1_state *s);
KC_API void kc_sha1_update(kc_sha1_state *s, const void *data, size_t len);
KC_API void kc_sha1_final(kc_sha1_state *s, uint8_t *out);       /* 20 bytes */

#endif /* KC_SHA1_H */
