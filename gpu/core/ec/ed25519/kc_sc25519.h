/*
 * kc_sc25519.h - scalars modulo the Ed25519 group order
 *   L = 2^252 + 27742317777372353535851937790883648493,
 * as 32-byte little-endian strings.  Constant time.
 */
#ifndef KC_SC25519_H
#define KC_SC25519_H

#include "../../kc_defs.h"

/* out = s mod L for a 64-byte little-endian s (a SHA-512 output). */
KC_API void kc_sc25519_reduce(uint8_t out[32], const uint8_t s[64]);
/* out = (a * b + c) mod L; a, b, c are 32-byte little-endian values
 * < 2^256 (they need not be reduced).  out may alias any input. */
KC_API void kc_sc25519_muladd(uint8_t out[32], const uint8_t a[32],
                              const uint8_t b[32], const uint8_t c[32]);
/* 1 if s < L (canonical scalar), else 0.  Constant time. */
KC_API uint32_t kc_sc25519_is_canonical(const uint8_t s[32]);

#endif /* KC_SC25519_H */
