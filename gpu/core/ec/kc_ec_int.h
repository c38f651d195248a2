/*
 * kc_ec_int.h - internals of the short-Weierstrass curve code (P-256, P-384,
 * SM2; all with a = -3).  Not for callers outside gpu/core/ec: use kc_ec.h.
 *
 * Numbers are little-endian arrays of 32-bit limbs, always KC_EC_MAXL (12)
 * long; only the first nl limbs (8 or 12) are used.  Field elements mod p and
 * scalars mod n are kept in Montgomery form (x*R mod m, R = 2^(32*nl)) by the
 * kc_ecf_* functions, which work for either modulus (kc_ec_mod).
 * Points are projective (X:Y:Z), x = X/Z, y = Y/Z; the identity is (0:1:0).
 * Group law: the complete formulas of Renes-Costello-Batina 2016 for a = -3
 * (algorithms 4 and 6), so there are no exceptional cases to branch on.
 */
#ifndef KC_EC_INT_H
#define KC_EC_INT_H

#include "gpu/core/kc_defs.h"
#include "gpu/core/hash/kc_hmac.h"
#include "gpu/core/hash/kc_drbg.h"

#define KC_EC_MAXL 12

/* r = a^-1 (kc_ecf_inv_blind) computed elsewhere while the caller goes on:
 * KC_EC_COOP_INV_POST(m, a, b) starts it (1) or declines (0), and
 * KC_EC_COOP_INV_TAKE(r) waits for the result of a posted one.  The vault
 * kernel's warp 1 does it (pvc_bn_warp.cuh) while warp 0 computes k*G;
 * elsewhere nothing is posted. */
#ifndef KC_EC_COOP_INV_POST
#define KC_EC_COOP_INV_POST(m, a, b) 0
#define KC_EC_COOP_INV_TAKE(r) ((void)(r))
#endif

/* Under nvcc every KC_API function is inline; the field and group
 * operations are called thousands of times per scalar multiplication, and
 * inlining all of them makes the kernel (and its compile time) explode.
 * They stay real calls on the GPU; the host build is unaffected. */
#ifdef __CUDACC__
#define KC_EC_NOINLINE __noinline__
#else
#define KC_EC_NOINLINE
#endif

/*
 * Declassification for the ctgrind tests.  A few decisions derived from
 * secrets are public by design: "this DRBG candidate is out of range, draw
 * another", "the private key is out of range", "r or s came out 0", "the
 * SM2 ciphertext failed its check"; and a secret times a secret uniform
 * blinding value is independent of the secret (kc_ecf_inv_blind).  The ct test program (tests/ct/ec)
 * compiles these sources with -DKC_CT_VALIDATION so that valgrind is told
 * the decision bit is public (as BoringSSL's constant_time_declassify);
 * in every real build (host library, CUDA) it is the identity.
 */
#ifdef KC_CT_VALIDATION
#include <valgrind/memcheck.h>
#define KC_EC_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define KC_EC_DECLASSIFY(p, n) ((void)0)
#endif
KC_PRIV uint32_t kc_ec_public_ctl(uint32_t ctl)
{
	KC_EC_DECLASSIFY(&ctl, sizeof ctl);
	return ctl;
}
#define KC_EC_MAX_FLEN_INT 48

typedef struct kc_ec_mod {
	uint32_t nl;                 /* limbs in use */
	uint32_t m0i;                /* -m^-1 mod 2^32 */
	uint32_t m[KC_EC_MAXL];      /* the (odd, prime) modulus */
	uint32_t r2[KC_EC_MAXL];     /* R^2 mod m */
	uint32_t one[KC_EC_MAXL];    /* R mod m: 1 in Montgomery form */
	uint32_t em2[KC_EC_MAXL];    /* m - 2: Fermat inversion exponent */
} kc_ec_mod;

typedef struct kc_ec_params {
	uint32_t nl;                 /* limbs: 8 or 12 */
	uint32_t flen;               /* bytes of a coordinate / scalar */
	uint32_t comb_d;             /* comb spacing: bits / 4 */
	kc_ec_mod p;                 /* field */
	kc_ec_mod n;                 /* group order (cofactor 1) */
	uint32_t sqrt_e[KC_EC_MAXL]; /* (p+1)/4 (p = 3 mod 4 for all three) */
	uint32_t b[KC_EC_MAXL];      /* b, Montgomery */
	uint32_t gx[KC_EC_MAXL];     /* generator, Montgomery */
	uint32_t gy[KC_EC_MAXL];
	uint32_t comb[15][2][KC_EC_MAXL]; /* fixed-base comb table (affine) */
} kc_ec_params;

typedef struct kc_ec_pt {
	uint32_t x[KC_EC_MAXL], y[KC_EC_MAXL], z[KC_EC_MAXL];
} kc_ec_pt;

/* Curve parameters for KC_EC_P256/P384/SM2, or NULL for an unknown id. */
KC_API const kc_ec_params *kc_ec_params_get(int curve);

/* ---- field / scalar arithmetic (kc_ec_field.c), constant time ---------- */
/* r may alias a or b everywhere. Inputs are < m. */
KC_API void kc_ecf_add(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b);
KC_API void kc_ecf_sub(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b);
/* Montgomery product: r = a*b/R mod m */
KC_API void kc_ecf_mul(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b);
KC_API void kc_ecf_to_mont(const kc_ec_mod *m, uint32_t *r, const uint32_t *a);
KC_API void kc_ecf_from_mont(const kc_ec_mod *m, uint32_t *r, const uint32_t *a);
/* r = a^e (Montgomery in and out); e is PUBLIC (branches on its bits). */
KC_API void kc_ecf_pow(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *e);
/* r = a^-1 (Montgomery), by Fermat; 0 maps to 0.  Constant time. */
KC_API void kc_ecf_inv(const kc_ec_mod *m, uint32_t *r, const uint32_t *a);
/* r = a^-1 (Montgomery), 0 maps to 0, by a binary extended GCD in
 * VARIABLE time (kc_ec_inv.c): only for a public a, or a blinded one. */
KC_API void kc_ecf_inv_vartime(const kc_ec_mod *m, uint32_t *r, const uint32_t *a);
/* r = a^-1 (Montgomery) for a secret a: b must be secret, uniformly random
 * in [1, m) and used for nothing else; a*b is declassified and inverted in
 * variable time, r = (a b)^-1 b.  0 maps to 0. */
KC_API void kc_ecf_inv_blind(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b);
/* ctl: 1 if a == 0 */
KC_API uint32_t kc_ecf_is_zero(const kc_ec_mod *m, const uint32_t *a);
/* ctl: 1 if a == b */
KC_API uint32_t kc_ecf_eq(const kc_ec_mod *m, const uint32_t *a, const uint32_t *b);
/* ctl: 1 if a < b (nl limbs) */
KC_API uint32_t kc_ecf_lt(uint32_t nl, const uint32_t *a, const uint32_t *b);
/* Big-endian bytes (exactly 4*nl of them) to limbs, not Montgomery.
 * Returns ctl: 1 if the value is < m. */
KC_API uint32_t kc_ecf_decode(const kc_ec_mod *m, uint32_t *r, const uint8_t *src);
/* Limbs (not Montgomery) to 4*nl big-endian bytes. */
KC_API void kc_ecf_encode(const kc_ec_mod *m, uint8_t *dst, const uint32_t *a);
/* r = a if ctl else r (all KC_EC_MAXL limbs), constant time */
KC_API void kc_ecf_cmov(uint32_t *r, const uint32_t *a, uint32_t ctl, uint32_t nwords);
/* r = a - m if a >= m (a < 2m, nl limbs), constant time; for x mod n. */
KC_API void kc_ecf_reduce_once(const kc_ec_mod *m, uint32_t *r, const uint32_t *a);

/* ---- group law and scalar multiplication (kc_ec_point.c) -------------- */
KC_API void kc_ecp_set_inf(const kc_ec_params *c, kc_ec_pt *p);
KC_API void kc_ecp_add(const kc_ec_params *c, kc_ec_pt *r, const kc_ec_pt *p, const kc_ec_pt *q);
KC_API void kc_ecp_dbl(const kc_ec_params *c, kc_ec_pt *r, const kc_ec_pt *p);
/* Affine (Montgomery) coordinates of p; returns ctl 1 unless p is the identity. */
KC_API uint32_t kc_ecp_to_affine(const kc_ec_params *c, const kc_ec_pt *p, uint32_t *x, uint32_t *y);
/* r = k*p, k big-endian flen bytes (secret), constant time: 4-bit fixed
 * window, table of 16 points scanned in full for each window. */
KC_API void kc_ecp_mul(const kc_ec_params *c, kc_ec_pt *r, const kc_ec_pt *p, const uint8_t *k);
/* r = k*G, constant time: 4-teeth comb over the public table, scanned in full. */
KC_API void kc_ecp_mulgen(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *k);
/* r = u1*G + u2*q (verification: public inputs). */
KC_API void kc_ecp_mul2(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *u1, const kc_ec_pt *q, const uint8_t *u2);
/* Decode SEC1 (04||X||Y, or 02/03||X) into an affine point with Z = 1,
 * checking X, Y < p and the curve equation.  Returns 0 or PV_ERR_PUBKEY. */
KC_API int kc_ecp_decode(const kc_ec_params *c, kc_ec_pt *p, const uint8_t *src, size_t len);
/* Encode as 04||X||Y (1 + 2*flen bytes); returns ctl 1 unless identity. */
KC_API uint32_t kc_ecp_encode(const kc_ec_params *c, uint8_t *dst, const kc_ec_pt *p);

/* ---- scalars (kc_ec_key.c) --------------------------------------------- */
/* ctl: 1 if 1 <= k <= n-1-sub (k: big-endian flen bytes). */
KC_API uint32_t kc_ec_scalar_ok(const kc_ec_params *c, const uint8_t *k, uint32_t sub);
/* Hash to integer mod n: leftmost flen bytes (left-padded if shorter), reduced once. */
KC_API void kc_ec_hash_to_n(const kc_ec_params *c, uint32_t *e, const uint8_t *h, size_t hlen);

/* ---- RFC 6979 nonces (kc_ec_nonce.c) ----------------------------------- */
/* HMAC_DRBG-style generator of RFC 6979 §3.2 steps b-h, with the hash alg
 * whose output length equals flen (SHA-256 for 32, SHA-384 for 48, or SM3).
 * extra (may be NULL/0) is k' of §3.6, appended in steps d and f. */
typedef struct kc_ec_nonce {
	uint8_t K[KC_EC_MAX_FLEN_INT], V[KC_EC_MAX_FLEN_INT];
	uint32_t alg, hlen, first;
	kc_hmac_key key;      /* HMAC keyed with K (re-keyed when K changes) */
} kc_ec_nonce;
KC_API int kc_ec_nonce_init(kc_ec_nonce *st, uint32_t alg, const uint8_t *x, const uint8_t *h1,
                            uint32_t flen, const uint8_t *extra, size_t elen);
/* Next candidate k (flen bytes, not yet range-checked). */
KC_API void kc_ec_nonce_next(kc_ec_nonce *st, uint8_t *k);
/* Blinding values for the current candidate, for kc_ecf_inv_blind:
 * b0 uniform in [1, m0) and, unless m1 is NULL, b1 in [1, m1), from
 * HMAC_K(V || 0x02 || i || ctr) (rejection sampling over ctr) - side
 * outputs that leave K and V as they are, so the nonce sequence (and every
 * signature) is unchanged.  Both moduli have 4*nl == hlen bytes.
 * PV_OK, or PV_ERR_GENERAL if 8 draws in a row were out of range (each
 * happens with probability below 2^-32). */
KC_API int kc_ec_nonce_blinds(const kc_ec_nonce *st, const kc_ec_mod *m0, uint32_t *b0,
                              const kc_ec_mod *m1, uint32_t *b1);

/* x(R) mod n for a projective R (raw limbs); ctl 1 unless R is the
 * identity.  _pub: R is public (verification), 1/Z in variable time.
 * _blind: R is secret (signing), 1/Z by kc_ecf_inv_blind with bz, a
 * blinding value mod p (kc_ec_nonce_blinds). */
KC_API uint32_t kc_ec_xmodn_pub(const kc_ec_params *c, const kc_ec_pt *R, uint32_t *r);
KC_API uint32_t kc_ec_xmodn_blind(const kc_ec_params *c, const kc_ec_pt *R, uint32_t *r,
                                  const uint32_t *bz);

/* b uniform in [1, m) from the DRBG (rejection sampling; a rejected
 * candidate is discarded, so the branch is public).  PV_OK, or
 * PV_ERR_RANDOM if the DRBG fails or 8 draws in a row are out of range. */
KC_API int kc_ec_rand_mod(kc_drbg *drbg, const kc_ec_mod *m, uint32_t *b);

#endif /* KC_EC_INT_H */
