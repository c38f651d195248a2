/*
 * kc_rsa_pkcs1.c - RSASSA-PKCS1-v1_5 (sign/verify) and RSAES-PKCS1-v1_5
 * (encrypt/decrypt), RFC 8017 sections 8.2, 7.2, 9.2.
 *
 * Verification re-encodes the expected block and compares all k bytes: no
 * ASN.1 parsing, so BER variants, missing NULLs and trailing garbage are all
 * rejected.  Decryption checks the padding with masks only and moves the
 * message with kc_rsa_ct_unpad: one error code, one timing.
 */
#include "kc_rsa.h"
#include "kc_bn.h"
#include "../hash/kc_hash.h"
#include "../kc_util.h"
#include "../pv_err.h"

/* DigestInfo prefix for alg into out (19 bytes max); returns its length, or
 * 0 for an unsupported hash. */
KC_PRIV size_t kc_rsa_pkcs1_prefix(uint32_t alg, uint8_t *out)
{
	static const uint8_t sha1[15] = {
		0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14
	};
	static const uint8_t nist[19] = {
		0x30, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
		0x00, 0x05, 0x00, 0x04, 0x00
	};
	uint8_t oid;
	size_t hl;

	switch (alg) {
	case KC_HASH_SHA1:
		kc_memcpy(out, sha1, sizeof sha1);
		return sizeof sha1;
	case KC_HASH_SHA256:   oid = 0x01; break;
	case KC_HASH_SHA384:   oid = 0x02; break;
	case KC_HASH_SHA512:   oid = 0x03; break;
	case KC_HASH_SHA224:   oid = 0x04; break;
	case KC_HASH_SHA3_224: oid = 0x07; break;
	case KC_HASH_SHA3_256: oid = 0x08; break;
	case KC_HASH_SHA3_384: oid = 0x09; break;
	case KC_HASH_SHA3_512: oid = 0x0a; break;
	default:
		return 0;
	}
	hl = kc_hash_len(alg);
	kc_memcpy(out, nist, sizeof nist);
	out[1] = (uint8_t)(0x11 + hl);
	out[14] = oid;
	out[18] = (uint8_t)hl;
	return sizeof nist;
}

/* EM = 00 01 FF.. 00 [prefix] hash, k bytes */
KC_PRIV int kc_rsa_pkcs1_encode(uint8_t *em, size_t k, uint32_t alg, const uint8_t *hash, size_t hlen)
{
	uint8_t pre[19];
	size_t pl = 0, tl, i;

	if (alg != 0) {
		pl = kc_rsa_pkcs1_prefix(alg, pre);
		if (pl == 0)
			return PV_ERR_MECHANISM;
		if (hlen != kc_hash_len(alg))
			return PV_ERR_DATA_LEN;
	}
	tl = pl + hlen;
	if (tl + 11 > k)
		return PV_ERR_DATA_LEN;
	em[0] = 0x00;
	em[1] = 0x01;
	for (i = 2; i < k - tl - 1; i++)
		em[i] = 0xff;
	em[k - tl - 1] = 0x00;
	kc_memcpy(em + k - tl, pre, pl);
	kc_memcpy(em + k - hlen, hash, hlen);
	return PV_OK;
}

KC_API int kc_rsa_pkcs1_sign(const kc_rsa_priv *sk, kc_drbg *rng, uint32_t hash_alg,
                             const uint8_t *hash, size_t hlen, uint8_t *sig)
{
	uint8_t em[KC_RSA_MAX_BYTES];
	size_t k = kc_rsa_len(sk->bits);
	int rc;

	if (sk->bits < KC_RSA_MIN_BITS || sk->bits > KC_RSA_MAX_BITS)
		return PV_ERR_KEY_SIZE;
	rc = kc_rsa_pkcs1_encode(em, k, hash_alg, hash, hlen);
	KC_PROF(6);
	if (rc == PV_OK)
		rc = kc_rsa_private(sk, rng, em, k, sig);
	kc_wipe(em, sizeof em);
	return rc;
}

KC_API int kc_rsa_pkcs1_verify(const kc_rsa_pub *pk, uint32_t hash_alg,
                               const uint8_t *hash, size_t hlen,
                               const uint8_t *sig, size_t siglen)
{
	uint8_t em[KC_RSA_MAX_BYTES], want[KC_RSA_MAX_BYTES];
	size_t k;
	int rc;

	rc = kc_rsa_pub_check(pk);
	if (rc != PV_OK)
		return rc;
	k = kc_rsa_len(pk->bits);
	if (siglen != k)
		return PV_ERR_SIG_LEN;
	rc = kc_rsa_pkcs1_encode(want, k, hash_alg, hash, hlen);
	if (rc != PV_OK)
		return rc;
	rc = kc_rsa_public(pk, sig, siglen, em);
	if (rc == PV_ERR_ENC_INVALID)
		return PV_ERR_SIG_INVALID;
	if (rc != PV_OK)
		return rc;
	return kc_ct_eq(em, want, k) ? PV_OK : PV_ERR_SIG_INVALID;
}

KC_API int kc_rsa_pkcs1_encrypt(const kc_rsa_pub *pk, kc_drbg *rng,
                                const uint8_t *msg, size_t mlen, uint8_t *out)
{
	uint8_t em[KC_RSA_MAX_BYTES];
	size_t k, ps, i;
	int rc;

	rc = kc_rsa_pub_check(pk);
	if (rc != PV_OK)
		return rc;
	k = kc_rsa_len(pk->bits);
	if (mlen + 11 > k)
		return PV_ERR_DATA_LEN;
	ps = k - mlen - 3;
	em[0] = 0x00;
	em[1] = 0x02;
	if (kc_drbg_generate(rng, em + 2, ps, (const uint8_t *)0, 0) != 0)
		return PV_ERR_RANDOM;
	for (i = 2; i < 2 + ps; i++) {
		while (em[i] == 0) {
			if (kc_drbg_generate(rng, em + i, 1, (const uint8_t *)0, 0) != 0) {
				kc_wipe(em, sizeof em);
				return PV_ERR_RANDOM;
			}
		}
	}
	em[2 + ps] = 0x00;
	kc_memcpy(em + 3 + ps, msg, mlen);
	rc = kc_rsa_public(pk, em, k, out);
	kc_wipe(em, sizeof em);
	return rc;
}

KC_API int kc_rsa_ct_unpad(uint8_t *buf, size_t k, uint32_t start, uint32_t good, size_t *outlen)
{
	uint32_t sh, msk, mlen;
	size_t i, step;

	/* shift left by start, one masked pass per bit of start */
	sh = start;
	for (step = 1; step <= k; step <<= 1) {
		uint8_t m8 = (uint8_t)(0u - (sh & 1u));
		for (i = 0; i < k; i++) {
			uint8_t v = i + step < k ? buf[i + step] : (uint8_t)0;
			buf[i] = (uint8_t)(buf[i] ^ (m8 & (buf[i] ^ v)));
		}
		sh >>= 1;
	}
	good &= kc_ctl_eq32(sh, 0);          /* start < 2^passes, always true */
	msk = 0u - good;
	for (i = 0; i < k; i++)
		buf[i] &= (uint8_t)msk;
	mlen = ((uint32_t)k - start) & msk;
	*outlen = (size_t)mlen;
	return (int)((uint32_t)PV_ERR_ENC_INVALID & ~msk);
}

KC_API int kc_rsa_pkcs1_decrypt(const kc_rsa_priv *sk, kc_drbg *rng,
                                const uint8_t *in, size_t inlen,
                                uint8_t *out, size_t *outlen)
{
	uint32_t range = 0, good = 0, found = 0, zidx = 0;
	size_t k, i;
	int rc;

	*outlen = 0;
	if (sk->bits < KC_RSA_MIN_BITS || sk->bits > KC_RSA_MAX_BITS)
		return PV_ERR_KEY_SIZE;
	k = kc_rsa_len(sk->bits);
	if (inlen != k)
		return PV_ERR_ENC_LEN;
	rc = kc_rsa_private_ct(sk, rng, in, inlen, out, &good, &range);
	if (rc != PV_OK)
		return rc;
	good &= kc_ctl_eq32(out[0], 0x00);
	good &= kc_ctl_eq32(out[1], 0x02);
	for (i = 2; i < k; i++) {
		uint32_t z = kc_ctl_eq32(out[i], 0) & (found ^ 1u);
		zidx = kc_ctl_mux32(z, (uint32_t)i, zidx);
		found |= z;
	}
	good &= found;
	good &= kc_ctl_lt32(zidx, 10) ^ 1u;   /* at least 8 bytes of PS */
	return kc_rsa_ct_unpad(out, k, zidx + 1, good, outlen);
}
