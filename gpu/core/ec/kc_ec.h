/*
 * kc_ec.h - short-Weierstrass elliptic curves of the portable core:
 * NIST P-256, NIST P-384 and the SM2 curve (GB/T 32918 / GM/T 0003).
 *
 *   - key generation and public-key derivation (all three curves);
 *   - ECDSA (FIPS 186-4) with RFC 6979 nonces, hedged per RFC 6979 §3.6;
 *   - ECDH (the x coordinate of d*Q, SEC1 / PKCS#11 CKD_NULL);
 *   - SM2 signature (with Z = SM3(ENTL||ID||a||b||xG||yG||xA||yA)) and SM2
 *     public-key encryption.
 *
 * Encodings (all big-endian, fixed length; flen = 32 for P-256 and SM2, 48
 * for P-384):
 *   private key   flen bytes, 1 <= d <= n-1 (SM2 keys: d <= n-2);
 *   public key    SEC1 uncompressed 04||X||Y (1 + 2*flen bytes).  Inputs may
 *                 also be compressed (02/03||X, 1 + flen bytes); outputs are
 *                 always uncompressed;
 *   signature     r||s, 2*flen bytes (the PKCS#11 CKM_ECDSA format; SM2 too);
 *   ECDH secret   X coordinate, flen bytes;
 *   SM2 ciphertext C1||C3||C2 (GM/T 0003-2012 order): C1 = 04||x1||y1 (65
 *                 bytes), C3 = SM3(x2||M||y2) (32 bytes), C2 = M xor KDF
 *                 (len(M) bytes): total len(M) + 97.  (OpenSSL wraps the same
 *                 three parts in a DER SEQUENCE; convert outside the vault.)
 *
 * Errors (pv_err.h): PV_ERR_DOMAIN unknown curve id; PV_ERR_PUBKEY public key
 * / peer point malformed, of the wrong length, with a coordinate >= p, or not
 * on the curve; PV_ERR_ARGS private key out of range (0, >= n) or NULL
 * pointers; PV_ERR_DATA_LEN empty hash; PV_ERR_SIG_LEN signature length !=
 * 2*flen; PV_ERR_SIG_INVALID r or s out of [1, n-1] or signature wrong;
 * PV_ERR_RANDOM the DRBG failed; PV_ERR_BUF_SMALL output too small (SM2
 * encrypt/decrypt); PV_ERR_ENC_LEN SM2 ciphertext shorter than 97 bytes;
 * PV_ERR_ENC_INVALID SM2 ciphertext does not decrypt (bad C1, C3 mismatch).
 *
 * Constant time: everything that touches the private key or a nonce
 * (scalar multiplication, modular inversion, the RFC 6979 HMAC chain, SM2
 * decryption's checks) has no secret-dependent branch or index.  Signing
 * inverts its secrets (1/Z of k*G, k^-1, SM2's (1 + d)^-1) blinded: a*b
 * with b secret, uniform and drawn beside k from the nonce state is
 * inverted by a variable-time binary GCD (kc_ec_inv.c), which sees only a
 * value independent of a; the other inversions of secrets (key generation,
 * ECDH, SM2 encryption) are by Fermat.  Verification is over public data
 * only (variable-time inversions).  Randomness comes only from the
 * caller's kc_drbg.
 *
 * Stack (GPU threads: local memory).  Nothing is allocated; all state is
 * on the stack: the deepest path is the variable-base scalar multiplication
 * (a 16-entry table of projective points, 16 x 144 = 2304 bytes, plus the
 * accumulator) under kc_sm2_encrypt/decrypt and kc_ecdh, and the RFC 6979 /
 * SM3 contexts under the signers (~1 KiB).  The vault kernel's frames,
 * function by function and path by path: ninja cuda-frame-paths.  The
 * window table is read only by masked full scans, but it, the secret-
 * dependent accumulator and the field temporaries live in local memory
 * (device DRAM/L1), not in registers only; the vault kernel burns that
 * memory between requests (gpu/cuda/pvc_burn.cuh).
 * Under nvcc the field and group operations are __noinline__
 * (KC_EC_NOINLINE in kc_ec_int.h) to bound code size and compile time.
 */
#ifndef KC_EC_H
#define KC_EC_H

#include "gpu/core/kc_defs.h"
#include "gpu/core/hash/kc_drbg.h"

#define KC_EC_P256 1
#define KC_EC_P384 2
#define KC_EC_SM2  3

#define KC_EC_MAX_FLEN   48                      /* P-384 */
#define KC_EC_MAX_PUBLEN (1 + 2 * KC_EC_MAX_FLEN)  /* 97 */
#define KC_EC_MAX_SIGLEN (2 * KC_EC_MAX_FLEN)      /* 96 */
#define KC_SM2_ENC_OVERHEAD 97                    /* 65 (C1) + 32 (C3) */
#define KC_SM2_DEFAULT_ID "1234567812345678"
#define KC_SM2_DEFAULT_ID_LEN 16

/* Field / scalar length in bytes (32 or 48); 0 for an unknown curve. */
KC_API size_t kc_ec_flen(int curve);

/* Generate d in [1, n-1] (SM2: [1, n-2]) from the DRBG by rejection
 * sampling, and pub = d*G (uncompressed, 1 + 2*flen bytes). */
KC_API int kc_ec_keygen(int curve, kc_drbg *drbg, uint8_t *priv, uint8_t *pub);
/* pub = d*G, uncompressed.  PV_ERR_ARGS if d is 0 or >= n. */
KC_API int kc_ec_pubkey(int curve, const uint8_t *priv, uint8_t *pub);
/* PV_OK if pub (len bytes, uncompressed or compressed) is a valid point. */
KC_API int kc_ec_point_check(int curve, const uint8_t *pub, size_t len);
/* Decode (compressed or uncompressed, checked) to uncompressed 04||X||Y. */
KC_API int kc_ec_point_decode(int curve, const uint8_t *in, size_t len, uint8_t *out);
/* PV_OK if priv is in [1, n-1]. */
KC_API int kc_ec_priv_check(int curve, const uint8_t *priv);

/* ECDSA.  hash: the message digest (any length >= 1; truncated to the bit
 * length of n).  The nonce is RFC 6979's HMAC_DRBG derivation with
 * HMAC-SHA-256 (P-256) / HMAC-SHA-384 (P-384) from (priv, hash), with
 * flen bytes of drbg output as the additional data k' of §3.6; drbg may be
 * NULL for the plain deterministic nonce of RFC 6979 (identical to the
 * RFC's test vectors when the digest is SHA-256 / SHA-384 respectively).
 * sig: r||s (2*flen bytes). */
KC_API int kc_ecdsa_sign(int curve, const uint8_t *priv, const uint8_t *hash, size_t hlen,
                         kc_drbg *drbg, uint8_t *sig);
/* A signature's nonce computed ahead (offline / online signing): the
 * vault draws k from a worker's DRBG while it has nothing else to do, and
 * the next signature then costs a few products mod n.  Opaque, limbs;
 * curve 0 when empty.  ECDSA (kc_ecdsa_precompute, any curve but SM2):
 * w = k^-1 mod n (Montgomery form) || r = x(k*G) mod n, 12 limbs each.
 * SM2 (kc_sm2_precompute, curve KC_EC_SM2): w = k || x1 = x(k*G) mod n ||
 * b, the blinding value of the signature's inversion of 1 + d, 8 limbs
 * each (so that SM2 does not grow ve_worker, 64 of which a vault block
 * keeps in shared memory). */
typedef struct kc_ec_pre {
	uint32_t w[24];
	int32_t curve;
	uint32_t pad_;
} kc_ec_pre;
/* k uniform in [1, n-1] from drbg, R = k*G, r = x(R) mod n != 0, k^-1;
 * the inversions blinded as in kc_ecdsa_sign (blinds from drbg).
 * PV_OK, PV_ERR_RANDOM if the DRBG fails, PV_ERR_DOMAIN for SM2 (its own
 * kc_sm2_precompute); *pre is empty unless PV_OK. */
KC_API int kc_ecdsa_precompute(int curve, kc_drbg *drbg, kc_ec_pre *pre);
/* ECDSA with pre's nonce (its curve must be curve, not SM2: else PV_ERR_ARGS);
 * checks and output as kc_ecdsa_sign.  *pre is wiped on every path, so a
 * nonce never signs twice.  PV_ERR_GENERAL if s = 0 (probability about
 * 2^-256): sign again with kc_ecdsa_sign. */
KC_API int kc_ecdsa_sign_pre(int curve, const uint8_t *priv, const uint8_t *hash, size_t hlen,
                             kc_ec_pre *pre, uint8_t *sig);
/* PV_OK if valid, PV_ERR_SIG_INVALID if not (incl. r or s not in [1,n-1]),
 * PV_ERR_SIG_LEN / PV_ERR_PUBKEY / PV_ERR_DOMAIN / PV_ERR_DATA_LEN. */
KC_API int kc_ecdsa_verify(int curve, const uint8_t *pub, size_t publen,
                           const uint8_t *hash, size_t hlen,
                           const uint8_t *sig, size_t siglen);

/* ECDH: secret = X(d * peer), flen bytes.  peer: uncompressed or
 * compressed; rejected with PV_ERR_PUBKEY if invalid. Works for SM2 keys too
 * (plain ECDH on the SM2 curve, not the SM2 key-exchange protocol). */
KC_API int kc_ecdh(int curve, const uint8_t *priv, const uint8_t *peer, size_t peerlen,
                   uint8_t *secret);

/* SM2 ------------------------------------------------------------------ */
/* Z = SM3(ENTL||ID||a||b||xG||yG||xA||yA).  id == NULL selects the default
 * ID "1234567812345678"; idlen must be < 8192 (ENTL is 16 bits). pub: 65
 * bytes uncompressed (or compressed 33). */
KC_API int kc_sm2_z(const uint8_t *pub, size_t publen, const uint8_t *id, size_t idlen,
                    uint8_t z[32]);
/* Sign e = SM3(Z||msg).  pub may be NULL (derived from priv).  Nonce:
 * RFC 6979 derivation with HMAC-SM3 from (priv, e), hedged with drbg output
 * (drbg may be NULL: deterministic).  sig: r||s, 64 bytes.  PV_ERR_ARGS if
 * priv is 0 or >= n-1. */
KC_API int kc_sm2_sign(const uint8_t *priv, const uint8_t *pub,
                       const uint8_t *id, size_t idlen,
                       const uint8_t *msg, size_t msglen,
                       kc_drbg *drbg, uint8_t *sig);
/* The same with a precomputed e (32 bytes) = SM3(Z||msg). */
KC_API int kc_sm2_sign_digest(const uint8_t *priv, const uint8_t *e, kc_drbg *drbg,
                              uint8_t *sig);
/* An SM2 nonce computed ahead (kc_ec_pre): k uniform in [1, n-1] from
 * drbg, x1 = x(k*G) mod n (1/Z blinded), and the blinding value of the
 * signature's (1 + d)^-1, all from drbg.  PV_OK, PV_ERR_RANDOM if the
 * DRBG fails; *pre is empty unless PV_OK. */
KC_API int kc_sm2_precompute(kc_drbg *drbg, kc_ec_pre *pre);
/* kc_sm2_sign_digest with pre's nonce (curve KC_EC_SM2, else
 * PV_ERR_ARGS).  *pre is wiped on every path, so a nonce never signs
 * twice.  PV_ERR_GENERAL if this k does not fit e (r = 0, r + k = n or
 * s = 0, probability about 2^-255): sign again with kc_sm2_sign_digest. */
KC_API int kc_sm2_sign_pre(const uint8_t *priv, const uint8_t *e, kc_ec_pre *pre, uint8_t *sig);
KC_API int kc_sm2_verify(const uint8_t *pub, size_t publen,
                         const uint8_t *id, size_t idlen,
                         const uint8_t *msg, size_t msglen,
                         const uint8_t *sig, size_t siglen);
KC_API int kc_sm2_verify_digest(const uint8_t *pub, size_t publen, const uint8_t *e,
                                const uint8_t *sig, size_t siglen);
/* Encrypt msg (len >= 1) to C1||C3||C2.  *outlen: in, capacity of out;
 * out, len + 97.  PV_ERR_BUF_SMALL (with *outlen set to the size needed) if
 * out is too small, PV_ERR_DATA_LEN if len == 0. */
KC_API int kc_sm2_encrypt(const uint8_t *pub, size_t publen,
                          const uint8_t *msg, size_t len,
                          kc_drbg *drbg, uint8_t *out, size_t *outlen);
/* Decrypt C1||C3||C2.  *outlen: in, capacity; out, len - 97.  On any
 * failure nothing of the plaintext is left in out (it is zeroed). */
KC_API int kc_sm2_decrypt(const uint8_t *priv, const uint8_t *in, size_t len,
                          uint8_t *out, size_t *outlen);

#endif /* KC_EC_H */
