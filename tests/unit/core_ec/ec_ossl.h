/*
 * ec_ossl.h - OpenSSL 3.0 oracle helpers shared by the core_ec tests
 * (EVP keys from raw bytes, DER <-> raw signatures, DRBG seeding).
 */
#ifndef EC_OSSL_H
#define EC_OSSL_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include "gpu/core/hash/kc_drbg.h"

/* KC_EC_* curve id -> OpenSSL group name / key type */
const char *eo_group(int curve);
/* EVP_PKEY from raw private key (may be NULL) and uncompressed public key. */
EVP_PKEY *eo_key(int curve, const uint8_t *priv, const uint8_t *pub, size_t publen);
/* x(d*Q) with OpenSSL's EC_POINT_mul (any of the three curves). */
int eo_ecdh_point(int curve, const uint8_t *priv, const uint8_t *peer, size_t peerlen, uint8_t *x);
/* A fresh OpenSSL key pair; priv (flen) and pub (1+2flen) written out. */
EVP_PKEY *eo_keygen(int curve, uint8_t *priv, uint8_t *pub);
/* DER ECDSA-Sig-Value <-> raw r||s of 2*flen bytes. 0 on success. */
int eo_der_to_raw(const uint8_t *der, size_t derlen, size_t flen, uint8_t *raw);
int eo_raw_to_der(const uint8_t *raw, size_t flen, uint8_t *der, size_t *derlen);
/* Seed a kc_drbg from OpenSSL's RAND. */
void eo_drbg(kc_drbg *d);
/* OpenSSL digest for a KC_HASH_* id */
const EVP_MD *eo_md(uint32_t halg);

#endif
