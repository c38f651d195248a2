/*
 * ed_test.h - shared helpers of the core_ed suite: CUnit runner and the
 * OpenSSL Ed25519 oracle (EVP_PKEY_ED25519).  Test code only.
 */
#ifndef ED_TEST_H
#define ED_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>
#include <openssl/evp.h>
#include "tsupport.h"

/* pub = OpenSSL's public key for seed; 0 on success */
static inline int ossl_pub(const uint8_t seed[32], uint8_t pub[32])
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	size_t n = 32;
	int rc = -1;
	if (k && EVP_PKEY_get_raw_public_key(k, pub, &n) == 1 && n == 32)
		rc = 0;
	EVP_PKEY_free(k);
	return rc;
}

/* sig = OpenSSL's Ed25519 signature; 0 on success */
static inline int ossl_sign(const uint8_t seed[32], const uint8_t *msg, size_t len, uint8_t sig[64])
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	size_t n = 64;
	int rc = -1;
	if (k && m && EVP_DigestSignInit(m, NULL, NULL, NULL, k) == 1 &&
	    EVP_DigestSign(m, sig, &n, msg, len) == 1 && n == 64)
		rc = 0;
	EVP_MD_CTX_free(m);
	EVP_PKEY_free(k);
	return rc;
}

/* 1 if OpenSSL accepts sig, 0 if it rejects it (or the key) */
static inline int ossl_verify(const uint8_t pub[32], const uint8_t *msg, size_t len,
                              const uint8_t *sig, size_t siglen)
{
	EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, 32);
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	int ok = 0;
	if (k && m && EVP_DigestVerifyInit(m, NULL, NULL, NULL, k) == 1 &&
	    EVP_DigestVerify(m, sig, siglen, msg, len) == 1)
		ok = 1;
	EVP_MD_CTX_free(m);
	EVP_PKEY_free(k);
	return ok;
}

/* Register tests and run; returns the process exit status. */
typedef struct ed_test { const char *name; void (*fn)(void); } ed_test;

static inline int ed_run(const char *suite, const ed_test *t, size_t n)
{
	CU_pSuite s;
	size_t i;
	int bad;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite(suite, NULL, NULL);
	for (i = 0; i < n; i++)
		CU_add_test(s, t[i].name, t[i].fn);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	bad = CU_get_number_of_failures() != 0 || CU_get_number_of_tests_failed() != 0;
	CU_cleanup_registry();
	return bad ? 1 : 0;
}

#endif
