/* kc_hmac.c - HMAC (RFC 2104 / FIPS 198-1) over kc_hash. */
#include "kc_hmac.h"
#include "kc_md.h"
#include "../kc_util.h"
#include "../pv_err.h"

/* k0 of RFC 2104: the key, or its hash if longer than the block B,
 * zero-padded to KC_HASH_MAX_BLOCK bytes. */
KC_PRIV void kc_hmac_k0(uint8_t k0[KC_HASH_MAX_BLOCK], uint32_t alg, const uint8_t *key,
                        size_t keylen, size_t B)
{
	kc_memset(k0, 0, KC_HASH_MAX_BLOCK);
	if (keylen > B)
		kc_hash(alg, key, keylen, k0);
	else
		kc_memcpy(k0, key, keylen);
}

KC_API int kc_hmac_init(kc_hmac_ctx *c, uint32_t alg, const uint8_t *key, size_t keylen)
{
	uint8_t k0[KC_HASH_MAX_BLOCK];
	size_t B = kc_hash_block_len(alg), i;

	if (kc_hash_len(alg) == 0)
		return PV_ERR_MECHANISM;      /* unknown or SHAKE */
	if (!key && keylen)
		return PV_ERR_ARGS;
	kc_hmac_k0(k0, alg, key, keylen, B);
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

/* c's Merkle-Damgard compression (KC_MD_*; 0 if its algorithm has none)
 * and where its chaining value lies, of *cvlen bytes. */
KC_PRIV uint32_t kc_hmac_md_of(kc_hash_ctx *c, const void **h, uint32_t *cvlen)
{
	switch (c->alg) {
	case KC_HASH_SHA1: *h = c->u.sha1.h; *cvlen = 20u; return KC_MD_SHA1;
	case KC_HASH_SHA224:
	case KC_HASH_SHA256: *h = c->u.sha256.h; *cvlen = 32u; return KC_MD_SHA256;
	case KC_HASH_SHA384:
	case KC_HASH_SHA512: *h = c->u.sha512.h; *cvlen = 64u; return KC_MD_SHA512;
	case KC_HASH_SM3: *h = c->u.sm3.h; *cvlen = 32u; return KC_MD_SM3;
	default: return 0u;
	}
}

KC_API int kc_hmac_key_init(kc_hmac_key *k, uint32_t alg, const uint8_t *key, size_t keylen)
{
	uint8_t k0[KC_HASH_MAX_BLOCK];
	kc_hash_ctx t;
	const void *h = (const void *)0;
	uint32_t cvlen = 0, md, j;
	size_t B = kc_hash_block_len(alg), i;

	kc_memset(k, 0, sizeof *k);
	if (kc_hash_len(alg) == 0)
		return PV_ERR_MECHANISM;
	if (!key && keylen)
		return PV_ERR_ARGS;
	kc_hash_init(&t, alg);
	md = kc_hmac_md_of(&t, &h, &cvlen);
	if (md == 0u) {
		kc_hash_clear(&t);
		return PV_ERR_MECHANISM;      /* SHA-3: no chaining value */
	}
	kc_hmac_k0(k0, alg, key, keylen, B);
	for (j = 0; j < 2u; j++) {
		for (i = 0; i < B; i++)
			k0[i] ^= j == 0u ? 0x36 : 0x36 ^ 0x5c;
		kc_hash_init(&t, alg);
		kc_hash_update(&t, k0, B);
		kc_memcpy(k->cv[j], h, cvlen);
	}
	k->alg = alg;
	k->md = md;
	k->hlen = (uint32_t)kc_hash_len(alg);
	k->blen = (uint32_t)B;
	k->cvlen = cvlen;
	kc_hash_clear(&t);
	kc_wipe(k0, sizeof k0);
	return PV_OK;
}

KC_API void kc_hmac_md_start(const kc_hmac_key *k, kc_hmac_md *s)
{
	kc_memcpy(s->h.d, k->cv[0], k->cvlen);
	s->count = k->blen;                 /* the ipad block; buf empty */
}

KC_API void kc_hmac_md_add(const kc_hmac_key *k, kc_hmac_md *s, const void *data, size_t len)
{
	kc_md_update(k->md, s->h.d, s->buf, &s->count, data, len);
}

KC_API void kc_hmac_md_end(const kc_hmac_key *k, kc_hmac_md *s, uint8_t *out)
{
	uint8_t ih[KC_HASH_MAX_LEN];

	kc_md_final(k->md, s->h.d, s->buf, s->count, ih, k->hlen);
	kc_memcpy(s->h.d, k->cv[1], k->cvlen);
	s->count = k->blen;
	kc_md_update(k->md, s->h.d, s->buf, &s->count, ih, k->hlen);
	kc_md_final(k->md, s->h.d, s->buf, s->count, out, k->hlen);
	kc_wipe(ih, k->hlen);
	kc_wipe(s->h.d, k->cvlen);
	kc_wipe(s->buf, k->blen);
	s->count = 0;
}

KC_API void kc_hmac_key_clear(kc_hmac_key *k)
{
	kc_wipe(k, sizeof *k);
}
