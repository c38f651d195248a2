/* te_common.c - see te_common.h. */
#include "te_common.h"

#include <openssl/core_names.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pv_vault *te_v;
uint8_t te_master[32];

const char *te_backend(void)
{
	const char *b = getenv("PIXELVAULT_BACKEND");
	return b != NULL && strcmp(b, "cuda") == 0 ? "cuda" : "cpu";
}

int te_open_other(const uint8_t *master, size_t mlen, uint32_t workers, uint32_t nslots,
                  uint32_t max_data, pv_vault **v)
{
	char *saved = getenv("PIXELVAULT_BACKEND") ? strdup(getenv("PIXELVAULT_BACKEND")) : NULL;
	int rc;

	setenv("PIXELVAULT_BACKEND", "cpu", 1);
	rc = pv_vault_open_key(master, mlen, workers, nslots, max_data, v);
	if (saved != NULL) {
		setenv("PIXELVAULT_BACKEND", saved, 1);
		free(saved);
	} else {
		unsetenv("PIXELVAULT_BACKEND");
	}
	return rc;
}

int te_open(uint32_t workers)
{
	ts_rand(te_master, sizeof te_master);
	return pv_vault_open_key(te_master, sizeof te_master, workers, 0, 0, &te_v);
}

void te_close(void)
{
	pv_vault_close(te_v);
	te_v = NULL;
}

int te_import(pv_vault *v, uint32_t type, uint32_t usage, const uint8_t *k, size_t klen, te_key *out)
{
	pv_req r;
	int rc;

	memset(out, 0, sizeof *out);
	ts_rand(out->id, sizeof out->id);
	pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);
	r.in = k;
	r.in_len = klen;
	r.new_type = type;
	r.new_usage = usage;
	memcpy(r.new_id, out->id, PV_OBJ_ID_LEN);
	r.out = out->blob;
	r.out_cap = sizeof out->blob;
	rc = pv_vault_call(v, &r);
	out->len = r.out_len;
	out->type = type;
	return rc;
}

void te_use(pv_req *r, const te_key *k)
{
	r->key = k->blob;
	r->key_len = k->len;
	memcpy(r->key_id, k->id, PV_OBJ_ID_LEN);
}

const EVP_CIPHER *te_evp_cipher(uint32_t mech, size_t kl)
{
	switch (mech) {
	case PV_MECH_AES_ECB: case PV_MECH_AES_CBC: case PV_MECH_AES_CBC_PAD:
		if (mech == PV_MECH_AES_ECB)
			return kl == 16 ? EVP_aes_128_ecb() : kl == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
		return kl == 16 ? EVP_aes_128_cbc() : kl == 24 ? EVP_aes_192_cbc() : EVP_aes_256_cbc();
	case PV_MECH_AES_CTR:
		return kl == 16 ? EVP_aes_128_ctr() : kl == 24 ? EVP_aes_192_ctr() : EVP_aes_256_ctr();
	case PV_MECH_AES_CFB128:
		return kl == 16 ? EVP_aes_128_cfb128() : kl == 24 ? EVP_aes_192_cfb128() : EVP_aes_256_cfb128();
	case PV_MECH_AES_GCM:
		return kl == 16 ? EVP_aes_128_gcm() : kl == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
	case PV_MECH_SM4_ECB: return EVP_sm4_ecb();
	case PV_MECH_SM4_CBC: case PV_MECH_SM4_CBC_PAD: return EVP_sm4_cbc();
	case PV_MECH_SM4_CTR: return EVP_sm4_ctr();
	case PV_MECH_SM4_CFB128: return EVP_sm4_cfb128();
	default: return NULL;
	}
}

const EVP_MD *te_evp_md(uint32_t mech)
{
	switch (mech & 0xff) {
	case 1: return EVP_sha1();
	case 2: return EVP_sha224();
	case 3: return EVP_sha256();
	case 4: return EVP_sha384();
	case 5: return EVP_sha512();
	case 6: return EVP_sha3_224();
	case 7: return EVP_sha3_256();
	case 8: return EVP_sha3_384();
	case 9: return EVP_sha3_512();
	case 10: return EVP_sm3();
	default: return NULL;
	}
}

int te_ossl_crypt(uint32_t mech, int enc, const uint8_t *k, size_t klen, const uint8_t *iv,
                  const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok;
	int pad = mech == PV_MECH_AES_CBC_PAD || mech == PV_MECH_SM4_CBC_PAD;

	ok = EVP_CipherInit_ex(c, te_evp_cipher(mech, klen), NULL, k, iv, enc) &&
	     EVP_CIPHER_CTX_set_padding(c, pad) &&
	     EVP_CipherUpdate(c, out, &l1, in, (int)len) &&
	     EVP_CipherFinal_ex(c, out + l1, &l2);
	EVP_CIPHER_CTX_free(c);
	return ok ? l1 + l2 : -1;
}
