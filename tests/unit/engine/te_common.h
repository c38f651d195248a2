/*
 * te_common.h - helpers shared by the engine suite: a vault on the CPU
 * backend with a random master key, key import, one-call wrappers, and
 * OpenSSL references.
 */
#ifndef TE_COMMON_H
#define TE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <CUnit/Basic.h>
#include <openssl/evp.h>

#include "gpu/vault.h"
#include "tsupport.h"

extern pv_vault *te_v;          /* opened by te_open */
extern uint8_t te_master[32];

int te_open(uint32_t workers);  /* random master key */
/* The backend te_open's vault runs on: "cuda" when $PIXELVAULT_BACKEND
 * says so (the suite run on a GPU), else "cpu". */
const char *te_backend(void);
/* A second vault while te_v is open: always on the CPU backend, since a GPU
 * holds one vault (docs/gpu-validation.md); where te_v runs on a GPU this
 * also checks blobs across backends. */
int te_open_other(const uint8_t *master, size_t mlen, uint32_t workers, uint32_t nslots,
                  uint32_t max_data, pv_vault **v);
void te_close(void);

/* A blob held by the test. */
typedef struct te_key {
	uint8_t blob[PV_BLOB_MAX];
	size_t len;
	uint8_t id[PV_OBJ_ID_LEN];
	uint32_t type;
} te_key;

/* Import raw key bytes as type with usage; random object id. */
int te_import(pv_vault *v, uint32_t type, uint32_t usage, const uint8_t *k, size_t klen, te_key *out);
/* Attach key to a request. */
void te_use(pv_req *r, const te_key *k);

/* OpenSSL cipher for a vault mech and key length (NULL if none). */
const EVP_CIPHER *te_evp_cipher(uint32_t mech, size_t keylen);
const EVP_MD *te_evp_md(uint32_t mech);     /* digest or HMAC mech */
/* OpenSSL one-shot of a non-GCM cipher mech; returns output length or -1. */
int te_ossl_crypt(uint32_t mech, int enc, const uint8_t *k, size_t klen, const uint8_t *iv,
                  const uint8_t *in, size_t len, uint8_t *out);


#endif
