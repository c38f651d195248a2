/*
 * kc_f25519.h - arithmetic in GF(2^255 - 19), constant time.
 *
 * Representation (as in ref10): ten signed 32-bit limbs in radix 2^25.5,
 *   f = f[0] + f[1]*2^26 + f[2]*2^51 + f[3]*2^77 + ... + f[9]*2^230,
 * even limbs nominally 26 bits, odd limbs 25 bits.  Products are 32x32->64
 * (the GPU's fast integer multiply).  Values are not kept canonical: only
 * kc_f25519_tobytes() produces the unique representative in [0, p).
 *
 * Bounds (ref10): kc_f25519_mul/sq/carry outputs have |f[i]| <= 2^25 (even)
 * / 2^24 (odd); add/sub do not carry, and mul/sq accept inputs with
 * |f[i]| <= 1.65 * 2^26 / 1.65 * 2^25, i.e. sums of up to three carried
 * values.  Callers in this directory respect that.
 *
 * Nothing here branches on or indexes by the value of a field element.
 */
#ifndef KC_F25519_H
#define KC_F25519_H

#include "../../kc_defs.h"

typedef int32_t kc_f25519[10];

/* Full unrolling of the fixed-count limb loops: on the GPU it keeps limb
 * arrays in registers (no run-time indexing, no local memory). */
#if defined(__CUDA_ARCH__)        /* nvcc, device pass */
#define KC_ED_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)         /* nvcc, host pass: neither pragma is known to both
                                     its front end and gcc; host speed is moot there */
#define KC_ED_UNROLL
#elif defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define KC_ED_UNROLL _Pragma("GCC unroll 16")
#elif defined(__clang__)
#define KC_ED_UNROLL _Pragma("clang loop unroll(full)")
#else
#define KC_ED_UNROLL
#endif

KC_API void kc_f25519_0(kc_f25519 h);
KC_API void kc_f25519_1(kc_f25519 h);
KC_API void kc_f25519_copy(kc_f25519 h, const kc_f25519 f);
KC_API void kc_f25519_add(kc_f25519 h, const kc_f25519 f, const kc_f25519 g);
KC_API void kc_f25519_sub(kc_f25519 h, const kc_f25519 f, const kc_f25519 g);
KC_API void kc_f25519_neg(kc_f25519 h, const kc_f25519 f);
/* h = f * g, h = f^2 (h may alias f or g). */
KC_API void kc_f25519_mul(kc_f25519 h, const kc_f25519 f, const kc_f25519 g);
KC_API void kc_f25519_sq(kc_f25519 h, const kc_f25519 f);
/* h = f^(2^n), n >= 1 (n public). */
KC_API void kc_f25519_sqn(kc_f25519 h, const kc_f25519 f, unsigned n);
/* h = 1/f (= f^(p-2); 0 maps to 0). */
KC_API void kc_f25519_invert(kc_f25519 h, const kc_f25519 f);
/* h = f^((p-5)/8) = f^(2^252 - 3), the core of square roots. */
KC_API void kc_f25519_pow22523(kc_f25519 h, const kc_f25519 f);
/* Square root of u/v (RFC 8032 5.1.3 step 2-3): writes x with
 * x^2 * v == u and returns 1, or returns 0 if u/v is not a square (x then
 * holds an unspecified value).  Constant time; v != 0 expected.  The
 * returned root is either one of the two roots (caller fixes the sign). */
KC_API uint32_t kc_f25519_sqrt_ratio(kc_f25519 x, const kc_f25519 u, const kc_f25519 v);

/* 32 little-endian bytes -> element; the top bit (bit 255) is ignored and
 * values >= p are accepted (they are reduced by the arithmetic). */
KC_API void kc_f25519_frombytes(kc_f25519 h, const uint8_t s[32]);
/* Canonical encoding in [0, p), little endian, bit 255 clear. */
KC_API void kc_f25519_tobytes(uint8_t s[32], const kc_f25519 h);
/* 1 if s (bit 255 ignored) encodes a value < p, else 0 (constant time). */
KC_API uint32_t kc_f25519_bytes_canonical(const uint8_t s[32]);

/* f = g if ctl == 1; unchanged if ctl == 0. */
KC_API void kc_f25519_cmov(kc_f25519 f, const kc_f25519 g, uint32_t ctl);
/* swap f and g if ctl == 1. */
KC_API void kc_f25519_cswap(kc_f25519 f, kc_f25519 g, uint32_t ctl);
/* 1 if f mod p is odd ("negative" in RFC 8032 terms), else 0. */
KC_API uint32_t kc_f25519_isneg(const kc_f25519 f);
/* 1 if f mod p == 0, else 0. */
KC_API uint32_t kc_f25519_iszero(const kc_f25519 f);
/* 1 if f == g mod p, else 0. */
KC_API uint32_t kc_f25519_eq(const kc_f25519 f, const kc_f25519 g);

#endif /* KC_F25519_H */
