/*
 * kc_bn.h - fixed-capacity, constant-time big integers for RSA.
 *
 * Representation: an integer is an array of uint32_t limbs, least
 * significant limb first, with an explicit limb count `nl` that is public
 * (it comes from the key size, never from a secret value).  Products are
 * 32x32->64 (the GPU's fast integer multiply).  Capacity: KC_BN_MAX_LIMBS
 * limbs = 4096 bits.  Nothing here allocates; temporaries are either small
 * fixed arrays on the stack or a workspace passed in by the caller.
 *
 * Constant time: every function runs in time that depends only on the limb
 * counts (and on the exponent *length* for kc_bn_modexp), never on limb
 * values.  The exceptions are named *_vartime and are only for public data.
 *
 * Control words ("ctl") are 0 or 1 in a uint32_t, as in kc_util.h.
 */
#ifndef KC_BN_H
#define KC_BN_H

#include "../kc_defs.h"

#define KC_BN_MAX_BITS  4096
#define KC_BN_MAX_LIMBS (KC_BN_MAX_BITS / 32)
/* Limbs of workspace kc_bn_modexp needs for a modulus of nl limbs. */
#define KC_BN_MODEXP_TMP(nl) (19u * (nl))

/* ---- basic (kc_bn.c) ---------------------------------------------------- */

/* x = 0 */
KC_API void kc_bn_zero(uint32_t *x, size_t nl);
/* Decode big-endian bytes into nl limbs.  Returns ctl 1 if the value fits
 * (all bytes beyond the nl*4 least significant ones are zero), 0 otherwise
 * (x then holds the value truncated mod 2^(32 nl)).  Constant time. */
KC_API uint32_t kc_bn_decode(uint32_t *x, size_t nl, const uint8_t *src, size_t len);
/* Encode x (nl limbs) into len big-endian bytes (truncating or zero
 * padding on the left). */
KC_API void kc_bn_encode(uint8_t *dst, size_t len, const uint32_t *x, size_t nl);
/* If ctl: x += y.  Returns the carry (only meaningful when ctl = 1). */
KC_API uint32_t kc_bn_add(uint32_t *x, const uint32_t *y, size_t nl, uint32_t ctl);
/* If ctl: x -= y.  Returns the borrow, i.e. 1 iff x < y (computed whether
 * or not ctl is set). */
KC_API uint32_t kc_bn_sub(uint32_t *x, const uint32_t *y, size_t nl, uint32_t ctl);
/* 1 iff x < y */
KC_API uint32_t kc_bn_lt(const uint32_t *x, const uint32_t *y, size_t nl);
/* 1 iff x == y */
KC_API uint32_t kc_bn_eq(const uint32_t *x, const uint32_t *y, size_t nl);
/* 1 iff x == 0 */
KC_API uint32_t kc_bn_iszero(const uint32_t *x, size_t nl);
/* If ctl: dst = src (nl limbs).  Constant time. */
KC_API void kc_bn_ccopy(uint32_t ctl, uint32_t *dst, const uint32_t *src, size_t nl);
/* Exact bit length (0 for 0), constant time. */
KC_API uint32_t kc_bn_bitlen(const uint32_t *x, size_t nl);
/* d (xl + yl limbs) = x * y.  d must not overlap x or y. */
KC_API void kc_bn_mul(uint32_t *d, const uint32_t *x, size_t xl, const uint32_t *y, size_t yl);
/* x = x * k + a (nl limbs); returns the limb carried out. */
KC_API uint32_t kc_bn_mul_small(uint32_t *x, size_t nl, uint32_t k, uint32_t a);
/* x mod k for a public k, 1 <= k < 2^31; constant time in x (bit-serial,
 * no hardware division). */
KC_API uint32_t kc_bn_mod_small(const uint32_t *x, size_t nl, uint32_t k);
/* Exact division x = x / k by a public odd k < 2^31 (bit-serial, constant
 * time in x); returns the remainder. */
KC_API uint32_t kc_bn_div_small(uint32_t *x, size_t nl, uint32_t k);
/* x = x >> 1 with `hi` (0/1) shifted into the top bit. */
KC_API void kc_bn_rshift1(uint32_t *x, size_t nl, uint32_t hi);
/* r (ml limbs) = a (al limbs) mod m (ml limbs, m != 0, top limb of m may be
 * zero).  Generic bit-serial reduction, constant time in a and m; cost
 * ~ 32*al*ml limb operations.  Any modulus (even ones too). */
KC_API void kc_bn_reduce(uint32_t *r, const uint32_t *a, size_t al, const uint32_t *m, size_t ml);

/* q = a / m, r = a mod m (all nl limbs, m != 0), bit-serial long division,
 * constant time in a and m.  q may not overlap a. */
KC_API void kc_bn_div(uint32_t *q, uint32_t *r, const uint32_t *a, const uint32_t *m, size_t nl);

/* ---- Montgomery arithmetic (kc_bn_mont.c), odd moduli only --------------- */

/* -m^-1 mod 2^32 from the low limb of an odd modulus. */
KC_API uint32_t kc_bn_ninv32(uint32_t m0);
/* d = x * y / R mod m, R = 2^(32 nl); requires x < R, y < m (then d < m).
 * d must not overlap x or y (x == y is fine). */
KC_API void kc_bn_montmul(uint32_t *d, const uint32_t *x, const uint32_t *y,
                          const uint32_t *m, size_t nl, uint32_t m0i);
/* d = x^2 / R mod m */
KC_API void kc_bn_montsqr(uint32_t *d, const uint32_t *x,
                          const uint32_t *m, size_t nl, uint32_t m0i);
/* r2 = R^2 mod m, for an odd m > 1 of at least minbits bits (a public
 * bound: 1 when nothing is known, the bit length for a public m; 0 or
 * more than 32 nl count as 1).  R mod m is 2^(minbits - 1) doubled
 * 32 nl - minbits + 1 times, so the time depends on nl and minbits only,
 * never on m. */
KC_API void kc_bn_r2(uint32_t *r2, const uint32_t *m, size_t nl, uint32_t m0i, uint32_t minbits);
/* d = x * R mod m (x < m), d != x */
KC_API void kc_bn_to_mont(uint32_t *d, const uint32_t *x, const uint32_t *r2,
                          const uint32_t *m, size_t nl, uint32_t m0i);
/* d = x / R mod m, d != x */
KC_API void kc_bn_from_mont(uint32_t *d, const uint32_t *x,
                            const uint32_t *m, size_t nl, uint32_t m0i);
/* r (nl limbs) = a mod m, where a has 2*nl limbs and a < m * R (true for
 * a < m * m', m' < R, e.g. c < n = p*q reduced mod p).  r != a. */
KC_API void kc_bn_mod_wide(uint32_t *r, const uint32_t *a, const uint32_t *r2,
                           const uint32_t *m, size_t nl, uint32_t m0i);
/* x = x^e mod m (x < m on input), e given as ebits bits in limbs (least
 * significant first).  Fixed window of 4 bits, the whole 16-entry table is
 * read for every window: time depends only on nl and ebits.
 * tmp: KC_BN_MODEXP_TMP(nl) limbs, wiped on return. */
KC_API void kc_bn_modexp(uint32_t *x, const uint32_t *e, size_t ebits,
                         const uint32_t *r2, const uint32_t *m, size_t nl,
                         uint32_t m0i, uint32_t *tmp);
/* The same for two moduli of nl limbs and two exponents of ebits bits:
 * x1 = x1^e1 mod m1, x2 = x2^e2 mod m2 (RSA's CRT halves).  The two are
 * independent, so an execution space may run them at once (the GPU: one
 * warp each).  tmp: KC_BN_MODEXP_TMP(nl) limbs, wiped on return. */
KC_API void kc_bn_modexp2(uint32_t *x1, const uint32_t *e1, const uint32_t *r2_1,
                          const uint32_t *m1, uint32_t m0i_1,
                          uint32_t *x2, const uint32_t *e2, const uint32_t *r2_2,
                          const uint32_t *m2, uint32_t m0i_2,
                          size_t ebits, size_t nl, uint32_t *tmp);
/* x = x^e mod m for a public exponent (variable time in e only).
 * tmp: 2*nl limbs. */
KC_API void kc_bn_modexp_pub(uint32_t *x, uint32_t e, const uint32_t *r2,
                             const uint32_t *m, size_t nl, uint32_t m0i,
                             uint32_t *tmp);

/* ---- inverses (kc_bn_inv.c) ---------------------------------------------- */

/* x = x^-1 mod m for odd m (binary extended GCD, 64*nl fixed iterations).
 * Returns ctl 1 if gcd(x, m) == 1 (x then holds the inverse), 0 otherwise
 * (x then holds garbage).  x < m on input.  tmp: 3*nl limbs. */
KC_API uint32_t kc_bn_modinv_odd(uint32_t *x, const uint32_t *m, size_t nl, uint32_t *tmp);
/* g = gcd(a, b) for odd a and b (binary GCD, 64*nl fixed iterations,
 * constant time).  tmp: 2*nl limbs. */
KC_API void kc_bn_gcd_odd(uint32_t *g, const uint32_t *a, const uint32_t *b, size_t nl, uint32_t *tmp);
/* d = e^-1 mod m for any m > 1 (even allowed, e.g. p-1 or phi) and a public
 * odd e, 3 <= e < 2^31.  d has nl limbs.  Returns ctl 1 iff gcd(e, m) == 1.
 * tmp: nl + 1 limbs. */
KC_API uint32_t kc_bn_inv_small_e(uint32_t *d, uint32_t e, const uint32_t *m, size_t nl, uint32_t *tmp);

#endif /* KC_BN_H */
