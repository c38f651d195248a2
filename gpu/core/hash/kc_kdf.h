/*
 * kc_kdf.h - HKDF (RFC 5869) and PBKDF2 (RFC 8018 / PKCS #5 v2.1) over the
 * HMACs of kc_hmac.h.
 */
#ifndef KC_KDF_H
#define KC_KDF_H

#include "kc_hmac.h"

/* prk receives kc_hash_len(alg) bytes.  salt may be NULL/empty (= HashLen
 * zero bytes, RFC 5869 2.2). */
KC_API int kc_hkdf_extract(uint32_t alg, const uint8_t *salt, size_t saltlen,
                           const uint8_t *ikm, size_t ikmlen, uint8_t *prk);
/* PV_ERR_DATA_LEN if okmlen > 255 * hashlen. */
KC_API int kc_hkdf_expand(uint32_t alg, const uint8_t *prk, size_t prklen,
                          const uint8_t *info, size_t infolen,
                          uint8_t *okm, size_t okmlen);
KC_API int kc_hkdf(uint32_t alg, const uint8_t *salt, size_t saltlen,
                   const uint8_t *ikm, size_t ikmlen,
                   const uint8_t *info, size_t infolen,
                   uint8_t *okm, size_t okmlen);

/* PBKDF2 with HMAC-alg.  PV_ERR_ARGS if iterations == 0 or outlen == 0;
 * PV_ERR_DATA_LEN if outlen > (2^32 - 1) * hashlen.  The keyed inner/outer
 * states are computed once; each iteration costs two compressions
 * (HMAC-SHA-256/SHA-1/SHA-512/SM3) or two permutations (SHA-3). */
KC_API int kc_pbkdf2_hmac(uint32_t alg, const uint8_t *pw, size_t pwlen,
                          const uint8_t *salt, size_t saltlen, uint32_t iterations,
                          uint8_t *out, size_t outlen);

#endif /* KC_KDF_H */
