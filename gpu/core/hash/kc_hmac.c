/* kc_hmac.c - HMAC (RFC 2104 / FIPS 198-1) over kc_hash. */
#include "kc_hmac.h"
#include "../kc_util.h"
#include "../pv_err.h"

KC_API int kc_hmac_init(kc_hmac_ctx *c, uint32_t alg, const uint8_t *key, size_t keylen)
{
	uint8_t k0[KC_HASH_MAX_BLOCK];
	size_t B = kc_hash_block_len(alg), i;

	if (kc_hash_len(alg) == 0)
		return PV_ERR_MECHANISM;      /* unknown or SHAKE */
	if (!key && keylen)
		return PV_ERR_ARGS;
	kc_memset(k0, 0, sizeof k0);
	if (keylen > B) {
		kc_hash_init(&c->inner, alg);
		kc_hash_update(&c->inner, key, keylen);
		kc_hash_final(&c->inner, k0);
	} else {
		kc_memcpy(k0, key, keylen);
	}
	for (i = 0; i < B; i++)
		k0[i] ^= 0x36;
	kc_hash_init(&c->inner, alg);
	kc_hash_update(&c->inner, k0, B);
	for (i = 0; i < B; i++)
		k0[i] ^= 0x36 ^ 0x5c;
	kc_hash_init(&c->outer, alg);
	kc_hash_update(&c->outer, k0, B);
	kc_wipe(k0, sizeof k0);
	return PV_OK;
}

KC_API void kc_hmac_update(kc_hmac_ctx *c, const void *data, size_t len)
{
	kc_hash_update(&c->inner, data, len);
}

KC_API void kc_hmac_final(kc_hmac_ctx *c, uint8_t *out)
{
	uint8_t ih[KC_HASH_MAX_LEN];
	size_t n = kc_hash_len(c->inner.alg);

	kc_hash_final(&c->inner, ih);
	kc_hash_update(&c->outer, ih, n);
	kc_hash_final(&c->outer, out);
	kc_wipe(ih, sizeof ih);
	kc_wipe(c, sizeof *c);
}

KC_API int kc_hmac(uint32_t alg, const uint8_t *key, size_t keylen,
                   const void *data, size_t len, uint8_t *out)
{
	kc_hmac_ctx c;
	int rc = kc_hmac_init(&c, alg, key, keylen);
	if (rc != PV_OK)
		return rc;
	kc_hmac_update(&c, data, len);
	kc_hmac_final(&c, out);
	return PV_OK;
}

KC_API int kc_hmac_verify(uint32_t alg, const uint8_t *key, size_t keylen,
                          const void *data, size_t len,
                          const uint8_t *tag, size_t taglen)
{
	uint8_t mac[KC_HASH_MAX_LEN];
	size_t n = kc_hash_len(alg);
	uint32_t ok;
	int rc;

	if (n == 0)
		return PV_ERR_MECHANISM;
	if (taglen == 0 || taglen > n)
		return PV_ERR_SIG_LEN;
	rc = kc_hmac(alg, key, keylen, data, len, mac);
	if (rc != PV_OK)
		return rc;
	ok = kc_ct_eq(mac, tag, taglen);
	kc_wipe(mac, sizeof mac);
	return (int)kc_ctl_mux32(ok, (uint32_t)PV_OK, (uint32_t)PV_ERR_SIG_INVALID);
}

KC_API void kc_hmac_clear(kc_hmac_ctx *c)
{
	kc_wipe(c, sizeof *c);
}
