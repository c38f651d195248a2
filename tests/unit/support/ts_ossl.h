/*
 * ts_ossl.h - OpenSSL as the symmetric oracle, shared by the unit suites
 * and tests/stress: one-shot EVP encryption / decryption, GCM over ECB.
 */
#ifndef TS_OSSL_H
#define TS_OSSL_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>

/* One-shot cipher; pad enables PKCS#7 (CBC_PAD).  For GCM: iv of ivl
 * bytes, aad, tag length tl; encryption appends the tag, decryption takes
 * it from the end of in (and fails if it does not verify).  *ol receives
 * the output length.  Returns 1 on success. */
int ts_ossl_crypt(const EVP_CIPHER *c, int enc, int pad, const uint8_t *k,
                  const uint8_t *iv, size_t ivl, const uint8_t *aad,
                  size_t al, size_t tl, const uint8_t *in, size_t n,
                  uint8_t *out, size_t *ol);

/* GCM encryption built on a block cipher's ECB in OpenSSL (NIST SP 800-38D,
 * bitwise GHASH: slow and obviously right, as an oracle should be) - the
 * reference for SM4-GCM (RFC 8998), which OpenSSL 3.0 lacks.  ecb: a
 * 16-byte-block ECB cipher (EVP_sm4_ecb(), EVP_aes_256_ecb(), ...); out
 * receives the ciphertext then tl (<= 16) bytes of tag.  1 on success. */
int ts_gcm_ecb(const EVP_CIPHER *ecb, const uint8_t *key, const uint8_t *iv, size_t ivl,
               const uint8_t *aad, size_t al, const uint8_t *in, size_t n, size_t tl,
               uint8_t *out);

#endif
