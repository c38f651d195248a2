/*
 * kc_ed25519.h - Ed25519 signatures (RFC 8032 section 5.1): pure Ed25519
 * (no context, no prehash), and Ed25519ctx / Ed25519ph (kc_ed25519_sign_ex,
 * at the end).
 *
 * Keys: the private key is the 32-byte seed of RFC 8032 (what PKCS#11
 * CKA_VALUE of a CKK_EC_EDWARDS private key holds); the public key is the
 * 32-byte point encoding.  Signatures are 64 bytes R || S.
 *
 * Constant time in the seed and every value derived from it (the clamped
 * scalar, the prefix, the nonce r).  The message and the public key are
 * public.  Verification is variable time (public inputs only).
 *
 * Verification equation (documented choice): cofactorless,
 *     encode([S]B - [k]A) == R   (byte comparison), k = SHA-512(R||A||M),
 * as ref10, OpenSSL, BoringSSL and RFC 8032's own reference code do; the
 * batch-compatible cofactored check [8][S]B = [8]R + [8][k]A is NOT used.
 * This also rejects non-canonical encodings of R.  In addition:
 *   - S must be canonical, 0 <= S < L, else PV_ERR_SIG_INVALID
 *     (RFC 8032 5.1.7 step 1; prevents signature malleability);
 *   - A must decode per RFC 8032 5.1.3 (canonical y < p, x recoverable,
 *     no "negative zero" x), else PV_ERR_PUBKEY.  Small-order A and R are
 *     not rejected (RFC 8032 does not require it).
 */
#ifndef KC_ED25519_H
#define KC_ED25519_H

#include "../../kc_defs.h"
#include "../../hash/kc_drbg.h"

#define KC_ED25519_SEED_LEN 32
#define KC_ED25519_PUB_LEN  32
#define KC_ED25519_SIG_LEN  64

/* pub = encode([s]B), s = clamp(SHA-512(seed)[0..31]).
 * 0, or PV_ERR_ARGS for a NULL pointer. */
KC_API int kc_ed25519_pubkey(const uint8_t seed[32], uint8_t pub[32]);

/* Draw a fresh 32-byte seed from the DRBG and derive its public key.
 * 0, PV_ERR_ARGS, or the DRBG's error (PV_ERR_RANDOM; seed/pub wiped). */
KC_API int kc_ed25519_keygen(kc_drbg *d, uint8_t seed[32], uint8_t pub[32]);

/* sig = Ed25519 signature of msg[0..len) (deterministic, RFC 8032 5.1.6).
 * pub must be the public key of seed, as stored with it (authenticated)
 * in the KeyStore: signing with a mismatched pub leaks the private scalar
 * to whoever sees both signatures.  Pass pub == NULL to have it derived
 * from the seed here (one more fixed-base multiplication).
 * msg may be NULL when len == 0.  0, or PV_ERR_ARGS. */
KC_API int kc_ed25519_sign(const uint8_t seed[32], const uint8_t pub[32],
                           const uint8_t *msg, size_t len, uint8_t sig[64]);

/* 0 if sig is a valid signature of msg under pub; otherwise
 *   PV_ERR_SIG_LEN      siglen != 64,
 *   PV_ERR_PUBKEY       pub does not decode to a curve point,
 *   PV_ERR_SIG_INVALID  S >= L, or the equation above fails,
 *   PV_ERR_ARGS         NULL pointer (msg may be NULL when len == 0). */
KC_API int kc_ed25519_verify(const uint8_t pub[32], const uint8_t *msg, size_t len,
                             const uint8_t *sig, size_t siglen);

/*
 * The other two RFC 8032 algorithms of the Ed25519 family (section 5.1),
 * for PKCS#11 CKM_EDDSA with CK_EDDSA_PARAMS: both hashes are prefixed
 * with dom2(F, C) = "SigEd25519 no Ed25519 collisions" || F || len(C) || C.
 *   KC_ED25519_CTX        Ed25519ctx, F = 0, msg is M
 *   KC_ED25519_PH         Ed25519ph,  F = 1, msg is M (SHA-512 taken here)
 *   KC_ED25519_PH_DIGEST  Ed25519ph,  F = 1, msg is PH(M) = SHA-512(M),
 *                         len must be 64 (for a caller that streamed M)
 * ctx: the context C, 0..255 bytes (RFC 8032 says Ed25519ctx SHOULD NOT be
 * used with an empty one; it is still computed, not refused).  Same keys,
 * same verification equation and checks as pure Ed25519; a signature of
 * one variant (or context) never verifies under another.
 * Errors: PV_ERR_MECH_PARAM for mode > 2 or ctxlen > 255, PV_ERR_DATA_LEN
 * for a PH_DIGEST input that is not 64 bytes, otherwise as the pure
 * functions above.  Pure Ed25519 is NOT mode 0 here: use kc_ed25519_sign.
 */
#define KC_ED25519_CTX       0u
#define KC_ED25519_PH        1u
#define KC_ED25519_PH_DIGEST 2u

KC_API int kc_ed25519_sign_ex(const uint8_t seed[32], const uint8_t pub[32],
                              uint32_t mode, const uint8_t *ctx, size_t ctxlen,
                              const uint8_t *msg, size_t len, uint8_t sig[64]);
KC_API int kc_ed25519_verify_ex(const uint8_t pub[32], uint32_t mode,
                                const uint8_t *ctx, size_t ctxlen,
                                const uint8_t *msg, size_t len,
                                const uint8_t *sig, size_t siglen);

#endif /* KC_ED25519_H */
