/* pk_test.h - helpers shared by the core_pk suites: DRBG from OpenSSL's
 * RNG, key conversion between kc_rsa_priv/kc_rsa_pub and OpenSSL EVP_PKEY,
 * Wycheproof key import, hash-id mapping. */
#ifndef PK_TEST_H
#define PK_TEST_H

#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/pk/kc_rsa.h"
#include "tsupport.h"

/* A DRBG seeded from OpenSSL's RAND. */
void pk_drbg(kc_drbg *d);
/* kc hash id <-> OpenSSL; name like "SHA-256" (Wycheproof) -> kc id (0 if unknown) */
const EVP_MD *pk_md(uint32_t alg);
uint32_t pk_alg_from_name(const char *name);
/* OpenSSL digest of data with kc hash id alg; returns the length. */
size_t pk_digest(uint32_t alg, const uint8_t *data, size_t len, uint8_t *out);

/* Right-aligned copy of big-endian hex / BIGNUM into dst[dlen]; 0 if it
 * does not fit. */
int pk_hex_fixed(const char *hex, uint8_t *dst, size_t dlen);
/* kc key from/to OpenSSL */
int pk_priv_from_evp(kc_rsa_priv *sk, EVP_PKEY *pkey);
int pk_pub_from_evp(kc_rsa_pub *pk, EVP_PKEY *pkey);
EVP_PKEY *pk_evp_from_priv(const kc_rsa_priv *sk);
EVP_PKEY *pk_evp_gen(int bits);
/* Wycheproof group keys: "privateKey" object (all CRT fields, or only
 * n/e/d: then p, q are recovered), or "publicKey" object. */
int pk_wp_priv(const ts_wp_case *tc, kc_rsa_priv *sk);
int pk_wp_pub(const ts_wp_case *tc, kc_rsa_pub *pk);

#endif
