/*
 * kc_ge25519.h - the Edwards25519 group (RFC 8032 section 5.1):
 *   -x^2 + y^2 = 1 + d x^2 y^2 over GF(2^255 - 19), d = -121665/121666,
 * in the coordinate systems of ref10 / "Twisted Edwards Curves Revisited"
 * (Hisil, Wong, Carter, Dawson 2008):
 *   p2      (X:Y:Z)        x = X/Z, y = Y/Z
 *   p3      (X:Y:Z:T)      extended, T = XY/Z
 *   p1p1    ((X:Z),(Y:T))  completed, x = X/Z, y = Y/T
 *   precomp (y+x, y-x, 2dxy)           affine, for tables
 *   cached  (Y+X, Y-X, Z, 2dT)         for repeated additions
 * The addition formulas are complete on this curve (a = -1 is a square and
 * d a non-square mod p): no exceptional cases, no branches.
 */
#ifndef KC_GE25519_H
#define KC_GE25519_H

#include "kc_f25519.h"

typedef struct kc_ge25519_p2 { kc_f25519 X, Y, Z; } kc_ge25519_p2;
typedef struct kc_ge25519_p3 { kc_f25519 X, Y, Z, T; } kc_ge25519_p3;
typedef struct kc_ge25519_p1p1 { kc_f25519 X, Y, Z, T; } kc_ge25519_p1p1;
typedef struct kc_ge25519_precomp { kc_f25519 yplusx, yminusx, xy2d; } kc_ge25519_precomp;
typedef struct kc_ge25519_cached { kc_f25519 YplusX, YminusX, Z, T2d; } kc_ge25519_cached;

/* The neutral element (0, 1). */
KC_API void kc_ge25519_p3_0(kc_ge25519_p3 *h);

/* Decode a point (RFC 8032 5.1.3).  Rejects, with PV_ERR_PUBKEY: a y
 * coordinate >= p (non-canonical), a y with no x on the curve, and x == 0
 * with the sign bit set.  Returns 0 on success.  Runs in constant time
 * apart from the final accept/reject. */
KC_API int kc_ge25519_frombytes(kc_ge25519_p3 *h, const uint8_t s[32]);
/* Encode (RFC 8032 5.1.2): y little endian, bit 255 = x mod 2. */
KC_API void kc_ge25519_p2_tobytes(uint8_t s[32], const kc_ge25519_p2 *h);
KC_API void kc_ge25519_p3_tobytes(uint8_t s[32], const kc_ge25519_p3 *h);

KC_API void kc_ge25519_p3_to_p2(kc_ge25519_p2 *r, const kc_ge25519_p3 *p);
KC_API void kc_ge25519_p3_to_cached(kc_ge25519_cached *r, const kc_ge25519_p3 *p);
KC_API void kc_ge25519_p1p1_to_p2(kc_ge25519_p2 *r, const kc_ge25519_p1p1 *p);
KC_API void kc_ge25519_p1p1_to_p3(kc_ge25519_p3 *r, const kc_ge25519_p1p1 *p);
KC_API void kc_ge25519_p3_neg(kc_ge25519_p3 *r, const kc_ge25519_p3 *p);

/* r = p + q, r = p - q (q cached or precomp), r = 2p. */
KC_API void kc_ge25519_add(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_cached *q);
KC_API void kc_ge25519_sub(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_cached *q);
KC_API void kc_ge25519_madd(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_precomp *q);
KC_API void kc_ge25519_msub(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_precomp *q);
KC_API void kc_ge25519_p2_dbl(kc_ge25519_p1p1 *r, const kc_ge25519_p2 *p);
KC_API void kc_ge25519_p3_dbl(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p);

/* h = a * B, a a 32-byte little-endian scalar with a[31] <= 127 (clamped
 * or reduced scalars qualify).  Constant time in a: 64 table lookups, each
 * reading a whole row of the precomputed table. */
KC_API void kc_ge25519_scalarmult_base(kc_ge25519_p3 *h, const uint8_t a[32]);

/* r = a * A + b * B.  VARIABLE TIME: for public inputs only (verification).
 * a, b are 32-byte little-endian scalars < 2^255 (bit 255 clear: the
 * signed sliding window may carry into bit 255 but not beyond; reduced
 * scalars, < L < 2^253, qualify). */
KC_API void kc_ge25519_double_scalarmult_vartime(kc_ge25519_p2 *r, const uint8_t a[32],
                                                 const kc_ge25519_p3 *A, const uint8_t b[32]);

/* Tables (kc_ge25519_tab.c, generated). */
KC_API void kc_ge25519_base_select(kc_ge25519_precomp *t, unsigned pos, int32_t b);
KC_API void kc_ge25519_base_odd(kc_ge25519_precomp *t, unsigned j);

#endif /* KC_GE25519_H */
