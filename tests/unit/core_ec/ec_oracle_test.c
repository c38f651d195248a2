/*
 * ec_oracle_test.c - P-256 / P-384 (and SM2-curve key derivation) against
 * OpenSSL 3.0 as the independent oracle: public keys, key generation, ECDSA
 * both ways over SHA-1/224/256/384/512 digests, with a nonce computed ahead,
 * ECDH, RFC 6979 vectors, and
 * the precise error codes for bad input.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/Basic.h>
#include <openssl/bn.h>
#include <openssl/evp.h>

#include "ec_ossl.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/pv_err.h"
#include "tsupport.h"

#define ITER 12

static const int curves[3] = { KC_EC_P256, KC_EC_P384, KC_EC_SM2 };

/* pub = d*G agrees with OpenSSL for OpenSSL-generated keys */
static void test_pubkey(void)
{
	int ci, i;
	uint8_t priv[48], pub[97], mine[97];

	for (ci = 0; ci < 3; ci++) {
		int curve = curves[ci];
		size_t flen = kc_ec_flen(curve);

		for (i = 0; i < ITER; i++) {
			EVP_PKEY *pk = eo_keygen(curve, priv, pub);

			CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
			CU_ASSERT_EQUAL(kc_ec_pubkey(curve, priv, mine), PV_OK);
			CU_ASSERT(memcmp(mine, pub, 1 + 2 * flen) == 0);
			CU_ASSERT_EQUAL(kc_ec_point_check(curve, pub, 1 + 2 * flen), PV_OK);
			CU_ASSERT_EQUAL(kc_ec_priv_check(curve, priv), PV_OK);
			EVP_PKEY_free(pk);
		}
	}
}

/* keys from kc_ec_keygen are accepted by OpenSSL (public and pairwise check) */
static void test_keygen(void)
{
	int ci, i;
	uint8_t priv[48], pub[97];
	kc_drbg d;

	eo_drbg(&d);
	for (ci = 0; ci < 3; ci++) {
		int curve = curves[ci];
		size_t flen = kc_ec_flen(curve);

		for (i = 0; i < ITER; i++) {
			EVP_PKEY *pk;
			EVP_PKEY_CTX *ctx;

			CU_ASSERT_EQUAL_FATAL(kc_ec_keygen(curve, &d, priv, pub), PV_OK);
			pk = eo_key(curve, priv, pub, 1 + 2 * flen);
			CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
			ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
			CU_ASSERT_EQUAL(EVP_PKEY_public_check(ctx), 1);
			CU_ASSERT_EQUAL(EVP_PKEY_pairwise_check(ctx), 1);
			EVP_PKEY_CTX_free(ctx);
			EVP_PKEY_free(pk);
		}
	}
	/* an unseeded DRBG is refused */
	memset(&d, 0, sizeof d);
	CU_ASSERT_EQUAL(kc_ec_keygen(KC_EC_P256, &d, priv, pub), PV_ERR_RANDOM);
}

static int ossl_sign(EVP_PKEY *pk, const uint8_t *h, size_t hlen, size_t flen, uint8_t *raw)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
	uint8_t der[128];
	size_t derlen = sizeof der;
	int rc = -1;

	if (ctx != NULL && EVP_PKEY_sign_init(ctx) > 0 &&
	    EVP_PKEY_sign(ctx, der, &derlen, h, hlen) > 0)
		rc = eo_der_to_raw(der, derlen, flen, raw);
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

static int ossl_verify(EVP_PKEY *pk, const uint8_t *h, size_t hlen, size_t flen, const uint8_t *raw)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
	uint8_t der[128];
	size_t derlen = sizeof der;
	int rc = -1;

	if (ctx != NULL && eo_raw_to_der(raw, flen, der, &derlen) == 0 &&
	    EVP_PKEY_verify_init(ctx) > 0)
		rc = EVP_PKEY_verify(ctx, der, derlen, h, hlen);
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

static void ecdsa_cross(int curve, uint32_t halg)
{
	size_t flen = kc_ec_flen(curve), hlen = kc_hash_len(halg);
	uint8_t priv[48], pub[97], msg[64], h[64], sig[96], sig2[96];
	kc_drbg d;
	int i;

	eo_drbg(&d);
	for (i = 0; i < ITER; i++) {
		EVP_PKEY *pk = eo_keygen(curve, priv, pub);

		CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
		ts_rand(msg, sizeof msg);
		CU_ASSERT_EQUAL_FATAL(kc_hash(halg, msg, sizeof msg, h), PV_OK);
		/* ours -> OpenSSL */
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, priv, h, hlen, &d, sig), PV_OK);
		CU_ASSERT_EQUAL(ossl_verify(pk, h, hlen, flen, sig), 1);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, 1 + 2 * flen, h, hlen, sig, 2 * flen), PV_OK);
		/* hedged: two signatures of the same hash differ */
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, priv, h, hlen, &d, sig2), PV_OK);
		CU_ASSERT(memcmp(sig, sig2, 2 * flen) != 0);
		/* deterministic without DRBG */
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, priv, h, hlen, NULL, sig), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, priv, h, hlen, NULL, sig2), PV_OK);
		CU_ASSERT(memcmp(sig, sig2, 2 * flen) == 0);
		CU_ASSERT_EQUAL(ossl_verify(pk, h, hlen, flen, sig), 1);
		/* OpenSSL -> ours */
		CU_ASSERT_EQUAL_FATAL(ossl_sign(pk, h, hlen, flen, sig), 0);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, 1 + 2 * flen, h, hlen, sig, 2 * flen), PV_OK);
		/* corruptions are rejected */
		sig[ts_rand_u32((uint32_t)(2 * flen))] ^= (uint8_t)(1u << ts_rand_u32(8));
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, 1 + 2 * flen, h, hlen, sig, 2 * flen),
		                PV_ERR_SIG_INVALID);
		CU_ASSERT_EQUAL_FATAL(ossl_sign(pk, h, hlen, flen, sig), 0);
		h[ts_rand_u32((uint32_t)hlen < flen ? (uint32_t)hlen : (uint32_t)flen)] ^= 0x80;
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, 1 + 2 * flen, h, hlen, sig, 2 * flen),
		                PV_ERR_SIG_INVALID);
		EVP_PKEY_free(pk);
	}
}

/* A nonce computed ahead (kc_ecdsa_precompute) signs once: the
 * signature verifies with OpenSSL and with ours, the nonce is wiped after
 * use, a used, empty or other-curve nonce is refused, and two nonces from
 * one DRBG differ. */
static void ecdsa_pre_cross(int curve, int other)
{
	size_t flen = kc_ec_flen(curve);
	uint8_t priv[48], pub[97], msg[64], h[64], sig[96], sig2[96];
	kc_ec_pre pre, pre2;
	kc_drbg d;
	int i;

	eo_drbg(&d);
	for (i = 0; i < ITER; i++) {
		EVP_PKEY *pk = eo_keygen(curve, priv, pub);
		uint32_t halg = flen == 48 ? KC_HASH_SHA384 : KC_HASH_SHA256;

		CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
		ts_rand(msg, sizeof msg);
		CU_ASSERT_EQUAL_FATAL(kc_hash(halg, msg, sizeof msg, h), PV_OK);
		CU_ASSERT_EQUAL_FATAL(kc_ecdsa_precompute(curve, &d, &pre), PV_OK);
		CU_ASSERT_EQUAL(pre.curve, curve);
		CU_ASSERT_EQUAL_FATAL(kc_ecdsa_precompute(curve, &d, &pre2), PV_OK);
		CU_ASSERT(memcmp(pre.w + 12, pre2.w + 12, 48) != 0);
		CU_ASSERT_EQUAL(kc_ecdsa_sign_pre(curve, priv, h, flen, &pre, sig), PV_OK);
		CU_ASSERT(ts_all_zero(&pre, sizeof pre));
		CU_ASSERT_EQUAL(ossl_verify(pk, h, flen, flen, sig), 1);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, 1 + 2 * flen, h, flen, sig, 2 * flen), PV_OK);
		/* used: refused (and nothing written) */
		memset(sig2, 0xa5, sizeof sig2);
		CU_ASSERT_EQUAL(kc_ecdsa_sign_pre(curve, priv, h, flen, &pre, sig2), PV_ERR_ARGS);
		CU_ASSERT(sig2[0] == 0xa5 && sig2[2 * flen - 1] == 0xa5);
		/* the second nonce: another r for the same hash */
		CU_ASSERT_EQUAL(kc_ecdsa_sign_pre(curve, priv, h, flen, &pre2, sig2), PV_OK);
		CU_ASSERT(memcmp(sig, sig2, flen) != 0);
		CU_ASSERT_EQUAL(ossl_verify(pk, h, flen, flen, sig2), 1);
		/* another curve's nonce: refused and wiped */
		CU_ASSERT_EQUAL_FATAL(kc_ecdsa_precompute(other, &d, &pre), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_sign_pre(curve, priv, h, flen, &pre, sig2), PV_ERR_ARGS);
		CU_ASSERT(ts_all_zero(&pre, sizeof pre));
		/* bad input still gets its own code, and uses the nonce up */
		CU_ASSERT_EQUAL_FATAL(kc_ecdsa_precompute(curve, &d, &pre), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_sign_pre(curve, priv, h, 0, &pre, sig2), PV_ERR_DATA_LEN);
		CU_ASSERT(ts_all_zero(&pre, sizeof pre));
		EVP_PKEY_free(pk);
	}
	CU_ASSERT_EQUAL(kc_ecdsa_precompute(99, &d, &pre), PV_ERR_DOMAIN);
	CU_ASSERT_EQUAL(kc_ecdsa_precompute(curve, NULL, &pre), PV_ERR_ARGS);
	CU_ASSERT_EQUAL(kc_ecdsa_sign_pre(curve, priv, h, flen, NULL, sig), PV_ERR_ARGS);
}

static void test_ecdsa_pre(void)
{
	ecdsa_pre_cross(KC_EC_P256, KC_EC_P384);
	ecdsa_pre_cross(KC_EC_P384, KC_EC_P256);
}

static void test_ecdsa_p256(void)
{
	ecdsa_cross(KC_EC_P256, KC_HASH_SHA1);
	ecdsa_cross(KC_EC_P256, KC_HASH_SHA224);
	ecdsa_cross(KC_EC_P256, KC_HASH_SHA256);
	ecdsa_cross(KC_EC_P256, KC_HASH_SHA384);
	ecdsa_cross(KC_EC_P256, KC_HASH_SHA512);
}

static void test_ecdsa_p384(void)
{
	ecdsa_cross(KC_EC_P384, KC_HASH_SHA256);
	ecdsa_cross(KC_EC_P384, KC_HASH_SHA384);
	ecdsa_cross(KC_EC_P384, KC_HASH_SHA512);
}

/* RFC 6979 A.2.5 / A.2.6 (also reproduced with pyca/cryptography's
 * deterministic_signing): drbg == NULL gives exactly these signatures. */
static void test_rfc6979(void)
{
	static const struct {
		int curve;
		uint32_t halg;
		const char *x, *msg, *r, *s;
	} v[] = {
		{ KC_EC_P256, KC_HASH_SHA256,
		  "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721", "sample",
		  "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
		  "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8" },
		{ KC_EC_P256, KC_HASH_SHA256,
		  "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721", "test",
		  "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
		  "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083" },
		{ KC_EC_P384, KC_HASH_SHA384,
		  "6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D896D5724E4C70A825F872C9EA60D2EDF5",
		  "sample",
		  "94EDBB92A5ECB8AAD4736E56C691916B3F88140666CE9FA73D64C4EA95AD133C81A648152E44ACF96E36DD1E80FABE46",
		  "99EF4AEB15F178CEA1FE40DB2603138F130E740A19624526203B6351D0A3A94FA329C145786E679E7B82C71A38628AC8" },
		{ KC_EC_P384, KC_HASH_SHA384,
		  "6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D896D5724E4C70A825F872C9EA60D2EDF5",
		  "test",
		  "8203B63D3C853E8D77227FB377BCF7B7B772E97892A80F36AB775D509D7A5FEB0542A7F0812998DA8F1DD3CA3CF023DB",
		  "DDD0760448D42D8A43AF45AF836FCE4DE8BE06B485E9B61B827C2F13173923E06A739F040649A667BF3B828246BAA5A5" },
	};
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		size_t xl, rl, sl, flen = kc_ec_flen(v[i].curve);
		uint8_t *x = ts_unhex(v[i].x, &xl), *r = ts_unhex(v[i].r, &rl), *s = ts_unhex(v[i].s, &sl);
		uint8_t h[64], sig[96], pub[97];

		CU_ASSERT_EQUAL_FATAL(kc_hash(v[i].halg, v[i].msg, strlen(v[i].msg), h), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(v[i].curve, x, h, kc_hash_len(v[i].halg), NULL, sig), PV_OK);
		CU_ASSERT(memcmp(sig, r, flen) == 0);
		CU_ASSERT(memcmp(sig + flen, s, flen) == 0);
		CU_ASSERT_EQUAL(kc_ec_pubkey(v[i].curve, x, pub), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(v[i].curve, pub, 1 + 2 * flen, h,
		                                kc_hash_len(v[i].halg), sig, 2 * flen), PV_OK);
		free(x); free(r); free(s);
	}
}

static void test_ecdh(void)
{
	int ci, i;
	uint8_t pa[48], qa[97], pb[48], qb[97], s1[48], s2[48], comp[49];
	size_t slen;

	for (ci = 0; ci < 3; ci++) {
		int curve = curves[ci];
		size_t flen = kc_ec_flen(curve);

		for (i = 0; i < ITER; i++) {
			EVP_PKEY *ka = eo_keygen(curve, pa, qa), *kb = eo_keygen(curve, pb, qb);

			CU_ASSERT_PTR_NOT_NULL_FATAL(ka);
			CU_ASSERT_PTR_NOT_NULL_FATAL(kb);
			if (curve == KC_EC_SM2) {
				/* OpenSSL's SM2 key type does not derive: EC_POINT_mul */
				CU_ASSERT_EQUAL(eo_ecdh_point(curve, pa, qb, 1 + 2 * flen, s2), 0);
			} else {
				EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, ka, NULL);

				CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
				slen = sizeof s2;
				CU_ASSERT_EQUAL(EVP_PKEY_derive_init(ctx), 1);
				CU_ASSERT_EQUAL(EVP_PKEY_derive_set_peer(ctx, kb), 1);
				CU_ASSERT_EQUAL(EVP_PKEY_derive(ctx, s2, &slen), 1);
				CU_ASSERT_EQUAL(slen, flen);
				EVP_PKEY_CTX_free(ctx);
			}
			CU_ASSERT_EQUAL(kc_ecdh(curve, pa, qb, 1 + 2 * flen, s1), PV_OK);
			CU_ASSERT(memcmp(s1, s2, flen) == 0);
			CU_ASSERT_EQUAL(kc_ecdh(curve, pb, qa, 1 + 2 * flen, s1), PV_OK);
			CU_ASSERT(memcmp(s1, s2, flen) == 0);
			/* compressed peer point */
			comp[0] = (uint8_t)(0x02 | (qb[2 * flen] & 1));
			memcpy(comp + 1, qb + 1, flen);
			CU_ASSERT_EQUAL(kc_ecdh(curve, pa, comp, 1 + flen, s1), PV_OK);
			CU_ASSERT(memcmp(s1, s2, flen) == 0);
			{
				uint8_t un[97];

				CU_ASSERT_EQUAL(kc_ec_point_decode(curve, comp, 1 + flen, un), PV_OK);
				CU_ASSERT(memcmp(un, qb, 1 + 2 * flen) == 0);
				comp[0] ^= 1;   /* the other root: a valid point, different y */
				CU_ASSERT_EQUAL(kc_ec_point_decode(curve, comp, 1 + flen, un), PV_OK);
				CU_ASSERT(memcmp(un + 1, qb + 1, flen) == 0);
				CU_ASSERT(memcmp(un + 1 + flen, qb + 1 + flen, flen) != 0);
			}
			EVP_PKEY_free(ka);
			EVP_PKEY_free(kb);
		}
	}
}

/* n of each curve, big-endian */
static const char *order_hex(int curve)
{
	switch (curve) {
	case KC_EC_P256: return "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551";
	case KC_EC_P384: return "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF"
	                        "581A0DB248B0A77AECEC196ACCC52973";
	default:         return "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123";
	}
}

static const char *prime_hex(int curve)
{
	switch (curve) {
	case KC_EC_P256: return "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF";
	case KC_EC_P384: return "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE"
	                        "FFFFFFFF0000000000000000FFFFFFFF";
	default:         return "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF";
	}
}

static void test_bad_input(void)
{
	static const int bad_curves[] = { 0, 4, -1, 23 };
	uint8_t priv[48], pub[97], h[64], sig[96], tmp[97], sec[48];
	size_t i, nl, pl;
	int ci;
	kc_drbg d;

	eo_drbg(&d);
	memset(h, 0x11, sizeof h);
	for (i = 0; i < sizeof bad_curves / sizeof bad_curves[0]; i++) {
		int c = bad_curves[i];

		CU_ASSERT_EQUAL(kc_ec_flen(c), 0);
		CU_ASSERT_EQUAL(kc_ec_keygen(c, &d, priv, pub), PV_ERR_DOMAIN);
		CU_ASSERT_EQUAL(kc_ec_pubkey(c, priv, pub), PV_ERR_DOMAIN);
		CU_ASSERT_EQUAL(kc_ec_point_check(c, pub, 65), PV_ERR_DOMAIN);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(c, priv, h, 32, &d, sig), PV_ERR_DOMAIN);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(c, pub, 65, h, 32, sig, 64), PV_ERR_DOMAIN);
		CU_ASSERT_EQUAL(kc_ecdh(c, priv, pub, 65, sec), PV_ERR_DOMAIN);
	}
	for (ci = 0; ci < 3; ci++) {
		int curve = curves[ci];
		size_t flen = kc_ec_flen(curve), publen = 1 + 2 * flen;
		uint8_t *n = ts_unhex(order_hex(curve), &nl), *p = ts_unhex(prime_hex(curve), &pl);

		CU_ASSERT_EQUAL_FATAL(nl, flen);
		CU_ASSERT_EQUAL_FATAL(kc_ec_keygen(curve, &d, priv, pub), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, priv, h, 32, &d, sig), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, sig, 2 * flen), PV_OK);
		/* lengths */
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, sig, 2 * flen - 1), PV_ERR_SIG_LEN);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, sig, 2 * flen + 1), PV_ERR_SIG_LEN);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, sig, 0), PV_ERR_SIG_LEN);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 0, sig, 2 * flen), PV_ERR_DATA_LEN);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, priv, h, 0, &d, sig), PV_ERR_DATA_LEN);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen - 1, h, 32, sig, 2 * flen), PV_ERR_PUBKEY);
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, pub, publen + 1), PV_ERR_PUBKEY);
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, pub, 0), PV_ERR_PUBKEY);
		/* r, s = 0 or n or 2^bits - 1 */
		memcpy(tmp, sig, 2 * flen);
		memset(tmp, 0, flen);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, tmp, 2 * flen), PV_ERR_SIG_INVALID);
		memcpy(tmp, sig, 2 * flen);
		memset(tmp + flen, 0, flen);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, tmp, 2 * flen), PV_ERR_SIG_INVALID);
		memcpy(tmp, n, flen);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, tmp, 2 * flen), PV_ERR_SIG_INVALID);
		memcpy(tmp, sig, 2 * flen);
		memcpy(tmp + flen, n, flen);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, tmp, 2 * flen), PV_ERR_SIG_INVALID);
		memset(tmp + flen, 0xff, flen);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, pub, publen, h, 32, tmp, 2 * flen), PV_ERR_SIG_INVALID);
		/* private key 0, n, 2^bits - 1 */
		memset(tmp, 0, flen);
		{
			uint8_t out[97];

			CU_ASSERT_EQUAL(kc_ec_pubkey(curve, tmp, out), PV_ERR_ARGS);
		}
		CU_ASSERT_EQUAL(kc_ec_priv_check(curve, tmp), PV_ERR_ARGS);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, tmp, h, 32, &d, sig), PV_ERR_ARGS);
		CU_ASSERT_EQUAL(kc_ecdh(curve, tmp, pub, publen, sec), PV_ERR_ARGS);
		CU_ASSERT_EQUAL(kc_ec_priv_check(curve, n), PV_ERR_ARGS);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, n, h, 32, &d, sig), PV_ERR_ARGS);
		memset(tmp, 0xff, flen);
		CU_ASSERT_EQUAL(kc_ec_priv_check(curve, tmp), PV_ERR_ARGS);
		memcpy(tmp, n, flen);
		tmp[flen - 1]--;   /* n - 1: the largest valid key */
		CU_ASSERT_EQUAL(kc_ec_priv_check(curve, tmp), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_sign(curve, tmp, h, 32, &d, sig), PV_OK);
		/* points: off the curve, bad prefix, identity, x or y >= p */
		memcpy(tmp, pub, publen);
		tmp[publen - 1] ^= 1;
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, tmp, publen), PV_ERR_PUBKEY);
		CU_ASSERT_EQUAL(kc_ecdh(curve, priv, tmp, publen, sec), PV_ERR_PUBKEY);
		CU_ASSERT_EQUAL(kc_ecdsa_verify(curve, tmp, publen, h, 32, sig, 2 * flen), PV_ERR_PUBKEY);
		memcpy(tmp, pub, publen);
		tmp[0] = 0x05;
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, tmp, publen), PV_ERR_PUBKEY);
		tmp[0] = 0x00;
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, tmp, 1), PV_ERR_PUBKEY);
		memset(tmp, 0, publen);
		tmp[0] = 0x04;
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, tmp, publen), PV_ERR_PUBKEY);
		CU_ASSERT_EQUAL(kc_ecdh(curve, priv, tmp, publen, sec), PV_ERR_PUBKEY);
		/* y + p: same value mod p but not reduced */
		{
			BIGNUM *y = BN_bin2bn(pub + 1 + flen, (int)flen, NULL);
			BIGNUM *pp = BN_bin2bn(p, (int)flen, NULL);
			BN_add(y, y, pp);
			if (BN_num_bytes(y) <= (int)flen) {   /* fits in flen bytes */
				memcpy(tmp, pub, publen);
				BN_bn2binpad(y, tmp + 1 + flen, (int)flen);
				CU_ASSERT_EQUAL(kc_ec_point_check(curve, tmp, publen), PV_ERR_PUBKEY);
			}
			BN_free(y);
			BN_free(pp);
		}
		memcpy(tmp, pub, publen);
		memcpy(tmp + 1, p, flen);          /* x = p */
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, tmp, publen), PV_ERR_PUBKEY);
		tmp[0] = 0x02;                     /* compressed x = p */
		CU_ASSERT_EQUAL(kc_ec_point_check(curve, tmp, 1 + flen), PV_ERR_PUBKEY);
		/* a point of the wrong curve */
		{
			int other = curve == KC_EC_P256 ? KC_EC_SM2 : KC_EC_P256;
			uint8_t op[48], oq[97];

			if (kc_ec_flen(other) == flen) {
				CU_ASSERT_EQUAL(kc_ec_keygen(other, &d, op, oq), PV_OK);
				CU_ASSERT_EQUAL(kc_ec_point_check(curve, oq, publen), PV_ERR_PUBKEY);
				CU_ASSERT_EQUAL(kc_ecdh(curve, priv, oq, publen, sec), PV_ERR_PUBKEY);
			}
		}
		free(n);
		free(p);
	}
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("ec_oracle", NULL, NULL);
	CU_add_test(s, "pubkey = OpenSSL (P-256, P-384, SM2)", test_pubkey);
	CU_add_test(s, "keygen accepted by OpenSSL", test_keygen);
	CU_add_test(s, "ECDSA P-256 x SHA-1/224/256/384/512 both ways", test_ecdsa_p256);
	CU_add_test(s, "ECDSA P-384 x SHA-256/384/512 both ways", test_ecdsa_p384);
	CU_add_test(s, "ECDSA with a nonce computed ahead (P-256, P-384)", test_ecdsa_pre);
	CU_add_test(s, "RFC 6979 deterministic vectors", test_rfc6979);
	CU_add_test(s, "ECDH = OpenSSL derive (incl. compressed peers)", test_ecdh);
	CU_add_test(s, "bad input -> precise PV_ERR codes", test_bad_input);
	return ts_run();
}
