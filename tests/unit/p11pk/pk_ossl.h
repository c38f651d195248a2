/*
 * pk_ossl.h - OpenSSL (the independent oracle) helpers for the public-key
 * tests of the engine suite and of p11pk: key generation, conversion to the
 * vault/PKCS#11 encodings, signature/ciphertext format conversions.
 */
#ifndef PK_OSSL_H
#define PK_OSSL_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>

EVP_PKEY *po_rsa_gen(int bits);
/* Big-endian components (minimal length) of an OpenSSL RSA key:
 * idx 0 n, 1 e, 2 d, 3 p, 4 q, 5 dp, 6 dq, 7 qinv. */
size_t po_rsa_comp(EVP_PKEY *k, int idx, uint8_t *out, size_t cap);
/* Vault import encoding (8 be16-length fields). */
size_t po_rsa_import_enc(EVP_PKEY *k, uint8_t *out, size_t cap);
/* Public key from big-endian n and e. */
EVP_PKEY *po_rsa_pub(const uint8_t *n, size_t nlen, const uint8_t *e, size_t elen);

/* group: "P-256", "P-384", "SM2" */
EVP_PKEY *po_ec_gen(const char *group);
size_t po_ec_priv(EVP_PKEY *k, uint8_t *d, size_t flen);     /* padded to flen */
size_t po_ec_pub(EVP_PKEY *k, uint8_t *pub, size_t cap);     /* 04||X||Y */
EVP_PKEY *po_ec_from_pub(const char *group, const uint8_t *pub, size_t len);
EVP_PKEY *po_ec_from_priv(const char *group, const uint8_t *d, size_t dlen);

/* ECDSA r||s <-> DER */
size_t po_rs2der(const uint8_t *rs, size_t flen, uint8_t *der);
int po_der2rs(const uint8_t *der, size_t len, size_t flen, uint8_t *rs);

/* Generic sign/verify through EVP_DigestSign/Verify (md NULL: one-shot
 * raw, e.g. Ed25519).  pad: 0 = default, RSA_PKCS1_PSS_PADDING etc.;
 * saltlen for PSS; mgf1 NULL = md. */
int po_verify(EVP_PKEY *k, const EVP_MD *md, int pad, int saltlen, const EVP_MD *mgf1,
              const uint8_t *msg, size_t len, const uint8_t *sig, size_t siglen);
size_t po_sign(EVP_PKEY *k, const EVP_MD *md, int pad, int saltlen, const EVP_MD *mgf1,
               const uint8_t *msg, size_t len, uint8_t *sig, size_t cap);
/* Verify / sign over a precomputed digest (EVP_PKEY_verify / _sign).
 * For ECDSA sig is DER. */
int po_verify_hash(EVP_PKEY *k, const EVP_MD *md, int pad, int saltlen,
                   const uint8_t *h, size_t hl, const uint8_t *sig, size_t siglen);
/* SM2 with a distinguishing ID (NULL = default "1234567812345678");
 * sig r||s (64). */
int po_sm2_verify(EVP_PKEY *k, const uint8_t *id, size_t idlen,
                  const uint8_t *msg, size_t len, const uint8_t rs[64]);
int po_sm2_sign(EVP_PKEY *k, const uint8_t *id, size_t idlen,
                const uint8_t *msg, size_t len, uint8_t rs[64]);
/* RSA / SM2 public-key encryption through EVP_PKEY_encrypt / decrypt.
 * pad: RSA_PKCS1_PADDING, RSA_PKCS1_OAEP_PADDING (md, mgf1, label),
 * RSA_NO_PADDING; SM2: pad 0 (ciphertext in OpenSSL's DER form). */
long po_encrypt(EVP_PKEY *k, int pad, const EVP_MD *md, const EVP_MD *mgf1,
                const uint8_t *label, size_t llen,
                const uint8_t *in, size_t len, uint8_t *out, size_t cap);
long po_decrypt(EVP_PKEY *k, int pad, const EVP_MD *md, const EVP_MD *mgf1,
                const uint8_t *label, size_t llen,
                const uint8_t *in, size_t len, uint8_t *out, size_t cap);
/* SM2 ciphertext C1||C3||C2 <-> OpenSSL DER SEQUENCE{x, y, C3, C2}. */
long po_sm2_raw2der(const uint8_t *raw, size_t len, uint8_t *der, size_t cap);
long po_sm2_der2raw(const uint8_t *der, size_t len, uint8_t *raw, size_t cap);
/* ECDH secret (X coordinate). */
size_t po_ecdh(EVP_PKEY *priv, EVP_PKEY *peer, uint8_t *out, size_t cap);
/* Public-key check (on-curve etc.); 1 = ok. */
int po_pub_check(EVP_PKEY *k);

#endif
