/*
 * ts_ossl.h - OpenSSL as the symmetric oracle, shared by the p11crypto
 * suite and tests/stress: one-shot EVP encryption / decryption.
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

#endif
