/* kc_kdf.c - HKDF (RFC 5869) and PBKDF2 (RFC 8018, 5.2) over kc_hmac. */
#include "kc_kdf.h"
#include "../kc_util.h"
#include "../pv_err.h"

KC_API int kc_hkdf_extract(uint32_t alg, const uint8_t *salt, size_t saltlen,
                           const uint8_t *ikm, size_t ikmlen, uint8_t *prk)
{
	/* An empty salt is HashLen zero bytes: both pad to the same HMAC key. */
	if ((!salt && saltlen) || (!ikm && ikmlen))
		return PV_ERR_ARGS;
	return kc_hmac(alg, salt, saltlen, ikm, ikmlen, prk);
}

KC_API int kc_hkdf_expand(uint32_t alg, const uint8_t *prk, size_t prklen,
                          const uint8_t *info, size_t infolen,
                          uint8_t *okm, size_t okmlen)
{
	kc_hmac_ctx base, c;
	uint8_t t[KC_HASH_MAX_LEN];
	size_t n = kc_hash_len(alg), done = 0, tlen = 0;
	uint8_t ctr = 0;
	int rc;

	if (n == 0)
		return PV_ERR_MECHANISM;
	if (okmlen > 255 * n)
		return PV_ERR_DATA_LEN;
	if (!info && infolen)
		return PV_ERR_ARGS;
	rc = kc_hmac_init(&base, alg, prk, prklen);
	if (rc != PV_OK)
		return rc;
	while (done < okmlen) {
		size_t take = okmlen - done < n ? okmlen - done : n;
		ctr++;
		c = base;
		kc_hmac_update(&c, t, tlen);
		kc_hmac_update(&c, info, infolen);
		kc_hmac_update(&c, &ctr, 1);
		kc_hmac_final(&c, t);
		tlen = n;
		kc_memcpy(okm + done, t, take);
		done += take;
	}
	kc_wipe(t, sizeof t);
	kc_wipe(&base, sizeof base);
	return PV_OK;
}

KC_API int kc_hkdf(uint32_t alg, const uint8_t *salt, size_t saltlen,
                   const uint8_t *ikm, size_t ikmlen,
                   const uint8_t *info, size_t infolen,
                   uint8_t *okm, size_t okmlen)
{
	uint8_t prk[KC_HASH_MAX_LEN];
	size_t n = kc_hash_len(alg);
	int rc;

	if (n == 0)
		return PV_ERR_MECHANISM;
	if (okmlen > 255 * n)
		return PV_ERR_DATA_LEN;
	rc = kc_hkdf_extract(alg, salt, saltlen, ikm, ikmlen, prk);
	if (rc == PV_OK)
		rc = kc_hkdf_expand(alg, prk, n, info, infolen, okm, okmlen);
	kc_wipe(prk, sizeof prk);
	return rc;
}

/*
 * PBKDF2-HMAC-SHA-256 inner loop on raw compression states.  ih/oh are the
 * chaining values after the ipad/opad blocks; u (32 bytes) is U_1 on entry.
 * Each further U_j = HMAC(P, U_{j-1}) is two compressions of prepared
 * blocks: [U || 0x80 || 0 || bitlen 768] from ih, then [inner || pad] from oh.
 */
KC_PRIV void kc_pbkdf2_sha256_loop(const uint32_t ih[8], const uint32_t oh[8],
                                   uint8_t u[32], uint8_t acc[32], uint32_t iterations)
{
	uint8_t blk[64];
	uint32_t h[8];
	uint32_t it;
	unsigned i;

	kc_memset(blk, 0, sizeof blk);
	blk[32] = 0x80;
	kc_store_be64(blk + 56, (uint64_t)(64 + 32) * 8);
	kc_memcpy(blk, u, 32);
	for (it = 1; it < iterations; it++) {
		for (i = 0; i < 8; i++)
			h[i] = ih[i];
		kc_sha256_compress(h, blk);
		for (i = 0; i < 8; i++)
			kc_store_be32(blk + 4 * i, h[i]);
		for (i = 0; i < 8; i++)
			h[i] = oh[i];
		kc_sha256_compress(h, blk);
		for (i = 0; i < 8; i++)
			kc_store_be32(blk + 4 * i, h[i]);
		for (i = 0; i < 32; i++)
			acc[i] ^= blk[i];
	}
	kc_wipe(blk, sizeof blk);
	kc_wipe(h, sizeof h);
}

KC_API int kc_pbkdf2_hmac(uint32_t alg, const uint8_t *pw, size_t pwlen,
                          const uint8_t *salt, size_t saltlen, uint32_t iterations,
                          uint8_t *out, size_t outlen)
{
	kc_hmac_ctx base, c;
	uint8_t u[KC_HASH_MAX_LEN], acc[KC_HASH_MAX_LEN], be[4];
	size_t n = kc_hash_len(alg), done = 0, i;
	uint32_t blkno = 0, it;
	int rc;

	if (n == 0)
		return PV_ERR_MECHANISM;
	if (iterations == 0 || outlen == 0 || !out)
		return PV_ERR_ARGS;
	if ((!salt && saltlen) || (!pw && pwlen))
		return PV_ERR_ARGS;
	if ((uint64_t)outlen > (uint64_t)0xffffffffu * n)
		return PV_ERR_DATA_LEN;
	rc = kc_hmac_init(&base, alg, pw, pwlen);
	if (rc != PV_OK)
		return rc;
	while (done < outlen) {
		size_t take = outlen - done < n ? outlen - done : n;
		blkno++;
		kc_store_be32(be, blkno);
		c = base;
		kc_hmac_update(&c, salt, saltlen);
		kc_hmac_update(&c, be, 4);
		kc_hmac_final(&c, u);
		kc_memcpy(acc, u, n);
		if (alg == KC_HASH_SHA256) {
			kc_pbkdf2_sha256_loop(base.inner.u.sha256.h, base.outer.u.sha256.h,
			                      u, acc, iterations);
		} else {
			for (it = 1; it < iterations; it++) {
				c = base;
				kc_hmac_update(&c, u, n);
				kc_hmac_final(&c, u);
				for (i = 0; i < n; i++)
					acc[i] ^= u[i];
			}
		}
		kc_memcpy(out + done, acc, take);
		done += take;
	}
	kc_wipe(u, sizeof u);
	kc_wipe(acc, sizeof acc);
	kc_wipe(&base, sizeof base);
	kc_wipe(&c, sizeof c);
	return PV_OK;
}
