/*
 * kc_rsa.h - RSA for the vault: keys, raw operations (CRT with exponent
 * blinding and a fault check), key generation, PKCS#1 v1.5 signatures and
 * encryption, PSS, OAEP (RFC 8017).
 *
 * Keys are plain fixed-size structs (no pointers): they can be copied,
 * wrapped into a KeyStore blob and moved to the GPU as they are.  Every
 * number is stored big-endian and RIGHT-ALIGNED in its array (leading zero
 * bytes), e.g. OpenSSL's BN_bn2binpad(n, key.n, sizeof key.n).
 * `bits` is the exact bit length of n, KC_RSA_MIN_BITS..KC_RSA_MAX_BITS.
 * p and q must each fit in ceil(ceil(bits/2)/32) 32-bit limbs (true for
 * balanced keys such as OpenSSL's and ours); e is odd, 3 <= e < 2^31.
 *
 * Sizes: k = kc_rsa_len(bits) = (bits + 7) / 8 bytes is the length of every
 * signature, ciphertext and raw block, in and out.
 *
 * Randomness (exponent blinding, PSS salt, OAEP seed, PKCS#1 type-2 padding,
 * prime candidates, Miller-Rabin bases) comes from the caller's kc_drbg.
 *
 * Constant time: the private operation, key generation's accepted values
 * and the decryption padding checks never branch on or index by secret
 * data.  kc_rsa_private, kc_rsa_pkcs1_decrypt and kc_rsa_oaep_decrypt
 * compute their return code (and *outlen) with masks; a caller that must
 * not leak the result should not branch on it either beyond what it
 * reports.  Public-key operations are variable time in public data only.
 *
 * Stack: every array is sized for 4096-bit keys, whatever the key size
 * (kc_prime_gen's: for their primes, KC_PRIME_MAX_BITS).
 * Host: kc_rsa_private ~10 KiB of locals; the paddings add a 512-byte block.
 * GPU: in the vault kernel (docs/gpu-kernel.md; per-function frames and
 * paths: ninja cuda-frame-paths) the deepest paths are PKCS #1 / PSS
 * signing, decryption and key generation, each about 16-17 KB per thread,
 * and they set the kernel's whole frame.  Another kernel that
 * calls these sets cudaLimitStackSize from its own ptxas frame
 * (tests/gpu/gpu_kat.cu and gpu_bench.cu do).
 *
 * Errors (pv_err.h):
 *   PV_ERR_KEY_SIZE   bits out of range / key arrays inconsistent with bits
 *   PV_ERR_PUBKEY     n even, n's length != bits, bad e
 *   PV_ERR_DATA_LEN   input not k bytes (raw ops), message too long
 *   PV_ERR_ENC_LEN    ciphertext not k bytes
 *   PV_ERR_ENC_INVALID ciphertext >= n, or padding invalid (one code, one
 *                     timing for every padding failure)
 *   PV_ERR_SIG_LEN    signature not k bytes
 *   PV_ERR_SIG_INVALID signature does not verify (or >= n)
 *   PV_ERR_MECHANISM  unknown hash
 *   PV_ERR_MECH_PARAM bad salt length / parameters
 *   PV_ERR_RANDOM     the DRBG failed
 *   PV_ERR_GENERAL    private-operation fault check failed (output wiped)
 */
#ifndef KC_RSA_H
#define KC_RSA_H

#include "../kc_defs.h"
#include "../hash/kc_drbg.h"

#define KC_RSA_MIN_BITS   1024
#define KC_RSA_MAX_BITS   4096
#define KC_RSA_MAX_BYTES  (KC_RSA_MAX_BITS / 8)     /* 512: n, d, blocks */
#define KC_RSA_MAX_HBYTES (KC_RSA_MAX_BYTES / 2)    /* 256: p, q, dp, dq, qinv */

typedef struct kc_rsa_pub {
	uint32_t bits;                     /* exact bit length of n */
	uint32_t e;                        /* public exponent */
	uint8_t n[KC_RSA_MAX_BYTES];       /* big-endian, right-aligned */
} kc_rsa_pub;

typedef struct kc_rsa_priv {
	uint32_t bits;
	uint32_t e;
	uint8_t n[KC_RSA_MAX_BYTES];
	uint8_t d[KC_RSA_MAX_BYTES];       /* kept for export; CRT does not use it */
	uint8_t p[KC_RSA_MAX_HBYTES];
	uint8_t q[KC_RSA_MAX_HBYTES];
	uint8_t dp[KC_RSA_MAX_HBYTES];     /* d mod (p-1) */
	uint8_t dq[KC_RSA_MAX_HBYTES];     /* d mod (q-1) */
	uint8_t qinv[KC_RSA_MAX_HBYTES];   /* q^-1 mod p */
} kc_rsa_priv;

/* k = (bits + 7) / 8 */
KC_API size_t kc_rsa_len(uint32_t bits);

/* ---- keys and raw operations (kc_rsa_core.c) ----------------------------- */

/* PV_OK, PV_ERR_KEY_SIZE or PV_ERR_PUBKEY (see above). */
KC_API int kc_rsa_pub_check(const kc_rsa_pub *pk);
/* Copy bits, e, n. */
KC_API void kc_rsa_pub_from_priv(kc_rsa_pub *pk, const kc_rsa_priv *sk);
/* out = in^e mod n; in and out are k bytes (may be the same buffer);
 * in >= n gives PV_ERR_ENC_INVALID. */
KC_API int kc_rsa_public(const kc_rsa_pub *pk, const uint8_t *in, size_t inlen, uint8_t *out);
/* out = in^d mod n by CRT with exponent blinding (dp + r (p-1), r 64-bit
 * from rng) and a check out^e == in before release (mod p and mod q, with
 * p q == n: kc_rsa_core_check); k bytes in and out
 * (may be the same buffer).  PV_ERR_ENC_INVALID if in >= n; PV_ERR_GENERAL
 * (output zeroed) if the fault check fails or p/q do not fit.  Constant
 * time in the key and in the input value (these two codes are computed
 * with masks; PV_ERR_DATA_LEN / KEY_SIZE / RANDOM are public branches). */
KC_API int kc_rsa_private(const kc_rsa_priv *sk, kc_drbg *rng, const uint8_t *in, size_t inlen, uint8_t *out);
/* Full consistency check of a private key (n = pq, e d = 1 mod p-1 and
 * q-1 via dp/dq, qinv q = 1 mod p) — for imported keys.  Not constant
 * time in the result (it is a validity decision on import). */
KC_API int kc_rsa_priv_check(const kc_rsa_priv *sk);
/* Complete a key given as bits, e, n, d only (PKCS#11 objects may omit the
 * CRT attributes): recovers p > q (SP 800-56B C.2) with random bases from
 * rng, computes dp, dq, qinv, and runs kc_rsa_priv_check.  PV_ERR_KEY_TYPE
 * if d does not belong to (n, e); PV_ERR_KEY_SIZE if p or q exceeds the CRT
 * half size.  Import path only: NOT constant time (kc_rsa_import.c). */
KC_API int kc_rsa_priv_from_ned(kc_rsa_priv *sk, kc_drbg *rng);
/* Wipe a private key. */
KC_API void kc_rsa_priv_clear(kc_rsa_priv *sk);

/* ---- key generation (kc_rsa_keygen.c) ------------------------------------ */

/* bits in {1024, 2048, 3072, 4096} (any multiple of 2 in range works),
 * e odd >= 65537 < 2^31 (3 <= e allowed for tests).  Probable primes by
 * trial division + Miller-Rabin (FIPS 186-5 B.3 rounds), p, q >=
 * 1.5 * 2^(bits/2 - 1), p = q = 3 (mod 4), |p - q| > 2^(bits/2 - 100),
 * d = e^-1 mod lcm(p-1, q-1) > 2^(bits/2), then a private operation with
 * its fault check as a pairwise-consistency test.
 * PV_ERR_RANDOM if the DRBG fails; PV_ERR_KEY_SIZE for bad bits; PV_ERR_ARGS
 * for a bad e. */
KC_API int kc_rsa_keygen(kc_drbg *rng, uint32_t bits, uint32_t e, kc_rsa_priv *sk);

/* ---- primes (kc_prime.c) ------------------------------------------------- */

/* Probable-prime test of the big-endian unsigned integer w (len bytes, up to
 * 4096 bits): w < 2048 exactly by table, then trial division by the odd
 * primes < 2048 and `rounds` Miller-Rabin rounds with random bases from rng
 * (use >= 40 for untrusted input).  Returns 1 (probably prime), 0
 * (composite), or a negative error (PV_ERR_DATA_LEN: too large,
 * PV_ERR_RANDOM).  For public / candidate values: it branches on small
 * cases, on the 2-adic valuation of w - 1 and stops at the first failing
 * round.  (Key generation uses the same Miller-Rabin on p = 3 mod 4, where
 * no branch depends on an accepted prime.) */
KC_API int kc_prime_test(kc_drbg *rng, const uint8_t *w, size_t len, uint32_t rounds);
/* Miller-Rabin rounds FIPS 186-5 Table B.1 asks for a prime of pbits bits
 * in RSA key generation. */
KC_API uint32_t kc_prime_mr_rounds(uint32_t pbits);

/* ---- PKCS#1 v1.5 (kc_rsa_pkcs1.c) ---------------------------------------- */

/* hash_alg: a KC_HASH_* id (SHA-1, SHA-224/256/384/512, SHA3-256/384/512)
 * whose DigestInfo prefixes hash[hlen] (hlen must be kc_hash_len), or 0 for
 * "raw" (CKM_RSA_PKCS: hash is any data of at most k - 11 bytes). */
KC_API int kc_rsa_pkcs1_sign(const kc_rsa_priv *sk, kc_drbg *rng, uint32_t hash_alg,
                             const uint8_t *hash, size_t hlen, uint8_t *sig);
/* Re-encodes the expected block and compares it in full (no parsing). */
KC_API int kc_rsa_pkcs1_verify(const kc_rsa_pub *pk, uint32_t hash_alg,
                               const uint8_t *hash, size_t hlen,
                               const uint8_t *sig, size_t siglen);
/* Type-2 encryption, msg up to k - 11 bytes; out is k bytes.  (Zero bytes
 * drawn for PS are redrawn with a branch: encryption is not claimed
 * constant time in the DRBG output.) */
KC_API int kc_rsa_pkcs1_encrypt(const kc_rsa_pub *pk, kc_drbg *rng,
                                const uint8_t *msg, size_t mlen, uint8_t *out);
/* out must have room for k bytes (it is the work buffer); the message is
 * left in out[0 .. *outlen).  Every padding failure gives
 * PV_ERR_ENC_INVALID, *outlen = 0 and out zeroed, after the same work. */
KC_API int kc_rsa_pkcs1_decrypt(const kc_rsa_priv *sk, kc_drbg *rng,
                                const uint8_t *in, size_t inlen,
                                uint8_t *out, size_t *outlen);

/* ---- PSS (kc_rsa_pss.c) -------------------------------------------------- */

/* mhash: the message digest (hlen = kc_hash_len(hash_alg)); mgf_alg: the
 * MGF1 hash; slen: salt length in bytes (0 .. k - hlen - 2). */
KC_API int kc_rsa_pss_sign(const kc_rsa_priv *sk, kc_drbg *rng, uint32_t hash_alg,
                           uint32_t mgf_alg, size_t slen,
                           const uint8_t *mhash, size_t hlen, uint8_t *sig);
KC_API int kc_rsa_pss_verify(const kc_rsa_pub *pk, uint32_t hash_alg,
                             uint32_t mgf_alg, size_t slen,
                             const uint8_t *mhash, size_t hlen,
                             const uint8_t *sig, size_t siglen);

/* ---- OAEP (kc_rsa_oaep.c) ------------------------------------------------ */

/* msg up to k - 2 hLen - 2 bytes; out is k bytes. */
KC_API int kc_rsa_oaep_encrypt(const kc_rsa_pub *pk, kc_drbg *rng, uint32_t hash_alg,
                               uint32_t mgf_alg, const uint8_t *label, size_t llen,
                               const uint8_t *msg, size_t mlen, uint8_t *out);
/* As kc_rsa_pkcs1_decrypt: out has room for k bytes, constant-time decode. */
KC_API int kc_rsa_oaep_decrypt(const kc_rsa_priv *sk, kc_drbg *rng, uint32_t hash_alg,
                               uint32_t mgf_alg, const uint8_t *label, size_t llen,
                               const uint8_t *in, size_t inlen,
                               uint8_t *out, size_t *outlen);

/* ---- MGF1 (kc_rsa_mgf1.c) ------------------------------------------------ */

/* out[0..olen) ^= MGF1(seed, olen) with hash alg.  PV_ERR_MECHANISM for an
 * unknown hash. */
KC_API int kc_rsa_mgf1_xor(uint32_t alg, const uint8_t *seed, size_t slen,
                           uint8_t *out, size_t olen);

/* ---- internal, shared by the files of gpu/core/pk ------------------------ */

/* kc_rsa_private without the final verdict: returns PV_OK or a *public*
 * error (length, key size, DRBG); sets *range to ctl (in < n) and *ok to
 * ctl (in < n and the result passed the fault check); out is zeroed when
 * *ok is 0.  Nothing branches on the input value, *range or *ok. */
KC_API int kc_rsa_private_ct(const kc_rsa_priv *sk, kc_drbg *rng, const uint8_t *in,
                             size_t inlen, uint8_t *out, uint32_t *ok, uint32_t *range);
/* One prime's CRT preparation for kc_rsa_private_ct: px (hl limbs) and its
 * R^2 mod px in r2, ex = d_x + r (px - 1) (hl + 2 limbs, r the 64 bits at
 * rnd), m = c mod px from cw (c in 2 hl limbs), *m0ip = -px^-1 mod 2^32.
 * pb and db are the key's 256-byte big-endian fields.  Returns ctl: the
 * fields fit and px is odd.  (The CUDA vault runs q's on a second warp
 * beside p's: KC_RSA_COOP_PREP_POST / _TAKE, kc_rsa_core.c.) */
KC_API uint32_t kc_rsa_core_prep(uint32_t *m, uint32_t *ex, const uint32_t *cw, const uint8_t *pb,
                                 const uint8_t *db, const uint8_t *rnd, uint32_t bits, size_t hl,
                                 uint32_t *px, uint32_t *r2, uint32_t *m0ip);
/* One prime's half of kc_rsa_private_ct's fault check: ctl of (s mod px)^e
 * == c mod px, for the result s and the input c in 2 hl limbs each, px,
 * its r2 and m0i from kc_rsa_core_prep.  (The CUDA vault runs q's on the
 * second warp beside p's: KC_RSA_COOP_CHECK_POST / _TAKE.) */
KC_API uint32_t kc_rsa_core_check(const uint32_t *sw, const uint32_t *cw, uint32_t e,
                                  const uint32_t *px, const uint32_t *r2, uint32_t m0i, size_t hl);
/* Random prime p of exactly pbits bits (top two bits set, p = 3 mod 4),
 * gcd(e, p-1) = 1, with dp = e^-1 mod (p-1); p and dp have
 * ceil(pbits/32) limbs.  pbits 16..KC_PRIME_MAX_BITS (a prime of the
 * largest key), else PV_ERR_ARGS; PV_ERR_RANDOM on DRBG failure or no
 * prime found. */
#define KC_PRIME_MAX_BITS (KC_RSA_MAX_BITS / 2)
#define KC_PRIME_MAX_LIMBS (KC_PRIME_MAX_BITS / 32)
KC_API int kc_prime_gen(kc_drbg *rng, uint32_t *p, uint32_t pbits, uint32_t e, uint32_t *dp);
/* Constant-time tail of a decryption: the message is buf[start .. k);
 * moves it to buf[0 ..) with log2(k) masked shift passes, zeroes the rest;
 * if good == 0 zeroes everything and *outlen = 0.  Returns PV_OK or
 * PV_ERR_ENC_INVALID, computed with masks. */
KC_API int kc_rsa_ct_unpad(uint8_t *buf, size_t k, uint32_t start, uint32_t good, size_t *outlen);

#endif /* KC_RSA_H */
