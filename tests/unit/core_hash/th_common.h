/*
 * th_common.h - shared bits of the core_hash suites: the algorithm table
 * (PixelVault id <-> OpenSSL name) and a CUnit main helper.
 */
#ifndef TH_COMMON_H
#define TH_COMMON_H

#include <CUnit/Basic.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/pv_err.h"
#include "tsupport.h"

typedef struct th_alg {
	uint32_t id;
	const char *name;      /* OpenSSL digest name */
	size_t len, block;     /* expected kc_hash_len / kc_hash_block_len */
} th_alg;

static const th_alg th_algs[] = {
	{ KC_HASH_SHA1, "SHA1", 20, 64 },
	{ KC_HASH_SHA224, "SHA224", 28, 64 },
	{ KC_HASH_SHA256, "SHA256", 32, 64 },
	{ KC_HASH_SHA384, "SHA384", 48, 128 },
	{ KC_HASH_SHA512, "SHA512", 64, 128 },
	{ KC_HASH_SHA3_224, "SHA3-224", 28, 144 },
	{ KC_HASH_SHA3_256, "SHA3-256", 32, 136 },
	{ KC_HASH_SHA3_384, "SHA3-384", 48, 104 },
	{ KC_HASH_SHA3_512, "SHA3-512", 64, 72 },
	{ KC_HASH_SM3, "SM3", 32, 64 },
	{ KC_HASH_SHAKE128, "SHAKE128", 0, 168 },
	{ KC_HASH_SHAKE256, "SHAKE256", 0, 136 },
};
#define TH_NALGS (sizeof th_algs / sizeof th_algs[0])

/* A Merkle-Damgard hash (SHA-1, SHA-2, SM3): one kc_hmac_key takes. */
static inline int th_is_md(uint32_t id)
{
	return id == KC_HASH_SHA1 || id == KC_HASH_SHA224 || id == KC_HASH_SHA256 ||
	       id == KC_HASH_SHA384 || id == KC_HASH_SHA512 || id == KC_HASH_SM3;
}

/* Random-input rounds per algorithm; PV_TEST_ROUNDS overrides. */
static inline int th_rounds(int dflt)
{
	const char *e = getenv("PV_TEST_ROUNDS");
	return e && *e ? atoi(e) : dflt;
}

/* Random length in [0, max], biased towards block boundaries one time in 4. */
static inline size_t th_rand_len(size_t max, size_t block)
{
	if (block && ts_rand_u32(4) == 0) {
		size_t k = ts_rand_u32((uint32_t)(max / block + 1));
		size_t l = k * block + ts_rand_u32(5) - 2;   /* may wrap: clamp */
		if (l <= max)
			return l;
	}
	return ts_rand_u32((uint32_t)max + 1);
}

#endif
