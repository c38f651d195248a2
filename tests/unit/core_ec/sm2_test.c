/*
 * sm2_test.c - SM2 signature and encryption against OpenSSL 3.0 (EVP with
 * SM3 and EVP_PKEY_CTX_set1_id; SM2 ciphertext as OpenSSL's DER C1C3C2),
 * both directions, default and custom IDs, the nonce computed ahead
 * (kc_sm2_precompute / kc_sm2_sign_pre), and the error codes for bad input.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/Basic.h>
#include <openssl/bn.h>
#include <openssl/evp.h>

#include "ec_ossl.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/pv_err.h"
#include "tsupport.h"

#define ITER 12
static const char sm2_n[] = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123";

/* OpenSSL SM2 sign/verify of msg with id (id NULL: the default ID, set
 * explicitly as GM/T 0009 requires). */
static int ossl_sm2(EVP_PKEY *pk, int sign, const uint8_t *id, size_t idlen,
                    const uint8_t *msg, size_t mlen, uint8_t *raw)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
	uint8_t der[128];
	size_t derlen = sizeof der;
	int rc = -1;

	if (id == NULL) {
		id = (const uint8_t *)KC_SM2_DEFAULT_ID;
		idlen = KC_SM2_DEFAULT_ID_LEN;
	}
	if (md == NULL || pctx == NULL || EVP_PKEY_CTX_set1_id(pctx, id, idlen) <= 0)
		goto out;
	EVP_MD_CTX_set_pkey_ctx(md, pctx);
	if (sign) {
		if (EVP_DigestSignInit(md, NULL, EVP_sm3(), NULL, pk) > 0 &&
		    EVP_DigestSign(md, der, &derlen, msg, mlen) > 0)
			rc = eo_der_to_raw(der, derlen, 32, raw);
	} else {
		if (eo_raw_to_der(raw, 32, der, &derlen) == 0 &&
		    EVP_DigestVerifyInit(md, NULL, EVP_sm3(), NULL, pk) > 0)
			rc = EVP_DigestVerify(md, der, derlen, msg, mlen) == 1 ? 0 : 1;
	}
out:
	EVP_MD_CTX_free(md);
	EVP_PKEY_CTX_free(pctx);
	return rc;
}

static void test_sign_interop(void)
{
	uint8_t priv[32], pub[65], msg[200], id[40], sig[64], sig2[64];
	kc_drbg d;
	int i;

	eo_drbg(&d);
	for (i = 0; i < 2 * ITER; i++) {
		EVP_PKEY *pk = eo_keygen(KC_EC_SM2, priv, pub);
		size_t mlen = ts_rand_u32(sizeof msg + 1);
		int dflt = i & 1;
		size_t idlen = dflt ? 0 : 1 + ts_rand_u32(sizeof id);
		const uint8_t *idp = dflt ? NULL : id;

		CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
		ts_rand(msg, sizeof msg);
		ts_rand(id, sizeof id);
		/* ours -> OpenSSL (pub given, and derived from priv) */
		CU_ASSERT_EQUAL(kc_sm2_sign(priv, (i & 2) ? pub : NULL, idp, idlen, msg, mlen, &d, sig), PV_OK);
		CU_ASSERT_EQUAL(ossl_sm2(pk, 0, idp, idlen, msg, mlen, sig), 0);
		CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, idp, idlen, msg, mlen, sig, 64), PV_OK);
		/* the default ID spelled out is the same as NULL */
		if (dflt)
			CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, (const uint8_t *)KC_SM2_DEFAULT_ID,
			                              KC_SM2_DEFAULT_ID_LEN, msg, mlen, sig, 64), PV_OK);
		/* hedged vs deterministic */
		CU_ASSERT_EQUAL(kc_sm2_sign(priv, pub, idp, idlen, msg, mlen, &d, sig2), PV_OK);
		CU_ASSERT(memcmp(sig, sig2, 64) != 0);
		CU_ASSERT_EQUAL(kc_sm2_sign(priv, pub, idp, idlen, msg, mlen, NULL, sig), PV_OK);
		CU_ASSERT_EQUAL(kc_sm2_sign(priv, pub, idp, idlen, msg, mlen, NULL, sig2), PV_OK);
		CU_ASSERT(memcmp(sig, sig2, 64) == 0);
		CU_ASSERT_EQUAL(ossl_sm2(pk, 0, idp, idlen, msg, mlen, sig), 0);
		/* OpenSSL -> ours */
		CU_ASSERT_EQUAL_FATAL(ossl_sm2(pk, 1, idp, idlen, msg, mlen, sig), 0);
		CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, idp, idlen, msg, mlen, sig, 64), PV_OK);
		/* wrong ID, wrong message, corrupted signature */
		if (!dflt)
			CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, mlen, sig, 64), PV_ERR_SIG_INVALID);
		if (mlen > 0) {
			msg[ts_rand_u32((uint32_t)mlen)] ^= 0x01;
			CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, idp, idlen, msg, mlen, sig, 64), PV_ERR_SIG_INVALID);
		}
		CU_ASSERT_EQUAL_FATAL(ossl_sm2(pk, 1, idp, idlen, msg, mlen, sig), 0);
		sig[ts_rand_u32(64)] ^= (uint8_t)(1u << ts_rand_u32(8));
		CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, idp, idlen, msg, mlen, sig, 64), PV_ERR_SIG_INVALID);
		EVP_PKEY_free(pk);
	}
}

/* e = SM3(Z || msg) with OpenSSL's SM3 over our Z (default ID) */
static void sm2_e(const uint8_t *pub, const uint8_t *msg, size_t mlen, uint8_t e[32])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int elen = 32;
	uint8_t z[32];

	CU_ASSERT_FATAL(md != NULL);
	CU_ASSERT_EQUAL(kc_sm2_z(pub, 65, NULL, 0, z), PV_OK);
	CU_ASSERT_EQUAL(EVP_DigestInit_ex(md, EVP_sm3(), NULL), 1);
	EVP_DigestUpdate(md, z, 32);
	EVP_DigestUpdate(md, msg, mlen);
	CU_ASSERT_EQUAL(EVP_DigestFinal_ex(md, e, &elen), 1);
	EVP_MD_CTX_free(md);
}

/* digest interface: e = SM3(Z || M) computed with OpenSSL's SM3 over our Z */
static void test_sign_digest(void)
{
	uint8_t priv[32], pub[65], e[32], sig[64], msg[50];
	EVP_PKEY *pk = eo_keygen(KC_EC_SM2, priv, pub);
	kc_drbg d;

	eo_drbg(&d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
	ts_rand(msg, sizeof msg);
	sm2_e(pub, msg, sizeof msg, e);
	CU_ASSERT_EQUAL(kc_sm2_sign_digest(priv, e, &d, sig), PV_OK);
	CU_ASSERT_EQUAL(ossl_sm2(pk, 0, NULL, 0, msg, sizeof msg, sig), 0);
	CU_ASSERT_EQUAL(kc_sm2_verify_digest(pub, 65, e, sig, 64), PV_OK);
	CU_ASSERT_EQUAL(ossl_sm2(pk, 1, NULL, 0, msg, sizeof msg, sig), 0);
	CU_ASSERT_EQUAL(kc_sm2_verify_digest(pub, 65, e, sig, 64), PV_OK);
	EVP_PKEY_free(pk);
}

/* A nonce computed ahead (kc_sm2_precompute) signs once: OpenSSL and
 * ours verify the signature, r - e mod n is the nonce's x1 (so the
 * signature used it), the nonce is wiped after use, and a used, empty or
 * ECDSA nonce is refused (and wiped), as is an ECDSA signature with an SM2
 * one. */
static void test_sign_pre(void)
{
	uint8_t priv[32], pub[65], e[32], msg[50], sig[64], sig2[64], x1[32], zero[32] = { 0 };
	BIGNUM *n = NULL, *r = BN_new(), *be = BN_new(), *bx = BN_new();
	BN_CTX *bc = BN_CTX_new();
	kc_ec_pre pre, pre2;
	kc_drbg d;
	int i, j;

	CU_ASSERT_FATAL(r != NULL && be != NULL && bx != NULL && bc != NULL);
	CU_ASSERT_FATAL(BN_hex2bn(&n, sm2_n) > 0);
	eo_drbg(&d);
	for (i = 0; i < ITER; i++) {
		EVP_PKEY *pk = eo_keygen(KC_EC_SM2, priv, pub);

		CU_ASSERT_FATAL(pk != NULL);
		ts_rand(msg, sizeof msg);
		sm2_e(pub, msg, sizeof msg, e);

		CU_ASSERT_EQUAL_FATAL(kc_sm2_precompute(&d, &pre), PV_OK);
		CU_ASSERT_EQUAL(pre.curve, KC_EC_SM2);
		for (j = 0; j < 32; j++)
			x1[31 - j] = (uint8_t)(pre.w[8 + j / 4] >> (8 * (j % 4)));
		CU_ASSERT_EQUAL(kc_sm2_sign_pre(priv, e, &pre, sig), PV_OK);
		CU_ASSERT(ts_all_zero(&pre, sizeof pre));
		CU_ASSERT_EQUAL(ossl_sm2(pk, 0, NULL, 0, msg, sizeof msg, sig), 0);
		CU_ASSERT_EQUAL(kc_sm2_verify_digest(pub, 65, e, sig, 64), PV_OK);
		/* r = (e + x1) mod n */
		BN_bin2bn(sig, 32, r);
		BN_bin2bn(e, 32, be);
		CU_ASSERT_EQUAL(BN_mod_sub(bx, r, be, n, bc), 1);
		CU_ASSERT_EQUAL(BN_bn2binpad(bx, sig2, 32), 32);
		CU_ASSERT(memcmp(sig2, x1, 32) == 0);
		/* used: refused, nothing written */
		memset(sig2, 0xa5, sizeof sig2);
		CU_ASSERT_EQUAL(kc_sm2_sign_pre(priv, e, &pre, sig2), PV_ERR_ARGS);
		CU_ASSERT(sig2[0] == 0xa5 && sig2[63] == 0xa5);
		/* an ECDSA nonce: refused and wiped; an SM2 nonce signs no ECDSA */
		CU_ASSERT_EQUAL_FATAL(kc_ecdsa_precompute(KC_EC_P256, &d, &pre), PV_OK);
		CU_ASSERT_EQUAL(kc_sm2_sign_pre(priv, e, &pre, sig2), PV_ERR_ARGS);
		CU_ASSERT(ts_all_zero(&pre, sizeof pre));
		CU_ASSERT_EQUAL_FATAL(kc_sm2_precompute(&d, &pre2), PV_OK);
		CU_ASSERT_EQUAL(kc_ecdsa_sign_pre(KC_EC_SM2, priv, e, 32, &pre2, sig2), PV_ERR_ARGS);
		CU_ASSERT(ts_all_zero(&pre2, sizeof pre2));
		/* a bad key uses the nonce up too */
		CU_ASSERT_EQUAL_FATAL(kc_sm2_precompute(&d, &pre2), PV_OK);
		CU_ASSERT_EQUAL(kc_sm2_sign_pre(zero, e, &pre2, sig2), PV_ERR_ARGS);
		CU_ASSERT(ts_all_zero(&pre2, sizeof pre2));
		EVP_PKEY_free(pk);
	}
	CU_ASSERT_EQUAL(kc_ecdsa_precompute(KC_EC_SM2, &d, &pre), PV_ERR_DOMAIN);
	CU_ASSERT_EQUAL(kc_sm2_precompute(NULL, &pre), PV_ERR_ARGS);
	CU_ASSERT_EQUAL(kc_sm2_sign_pre(priv, e, NULL, sig), PV_ERR_ARGS);
	BN_free(n);
	BN_free(r);
	BN_free(be);
	BN_free(bx);
	BN_CTX_free(bc);
}

/* ---- OpenSSL's SM2 ciphertext: SEQUENCE { INTEGER x1, INTEGER y1,
 * OCTET STRING C3, OCTET STRING C2 } <-> our C1||C3||C2 ---------------- */
static size_t der_len(uint8_t *p, size_t n)
{
	if (n < 128) { p[0] = (uint8_t)n; return 1; }
	if (n < 256) { p[0] = 0x81; p[1] = (uint8_t)n; return 2; }
	p[0] = 0x82; p[1] = (uint8_t)(n >> 8); p[2] = (uint8_t)n; return 3;
}

static size_t der_int(uint8_t *p, const uint8_t *v, size_t n)
{
	size_t o = 0, l;
	uint8_t tmp[4];

	while (n > 1 && v[0] == 0) { v++; n--; }
	p[o++] = 0x02;
	l = der_len(tmp, n + (v[0] >> 7));
	memcpy(p + o, tmp, l); o += l;
	if (v[0] & 0x80) p[o++] = 0;
	memcpy(p + o, v, n);
	return o + n;
}

static size_t ours_to_der(const uint8_t *c, size_t clen, uint8_t *der)
{
	uint8_t body[2048], tmp[4];
	size_t o = 0, l, mlen = clen - 97;

	o += der_int(body + o, c + 1, 32);
	o += der_int(body + o, c + 33, 32);
	body[o++] = 0x04; o += der_len(body + o, 32); memcpy(body + o, c + 65, 32); o += 32;
	body[o++] = 0x04; o += der_len(body + o, mlen); memcpy(body + o, c + 97, mlen); o += mlen;
	der[0] = 0x30;
	l = der_len(tmp, o);
	memcpy(der + 1, tmp, l);
	memcpy(der + 1 + l, body, o);
	return 1 + l + o;
}

static int der_get(const uint8_t **p, const uint8_t *end, uint8_t tag, size_t *len)
{
	const uint8_t *q = *p;
	size_t n;

	if (q + 2 > end || q[0] != tag) return -1;
	n = q[1]; q += 2;
	if (n == 0x81) { n = q[0]; q++; }
	else if (n == 0x82) { n = ((size_t)q[0] << 8) | q[1]; q += 2; }
	else if (n > 0x7f) return -1;
	if (q + n > end) return -1;
	*p = q; *len = n;
	return 0;
}

static int der_to_ours(const uint8_t *der, size_t dlen, uint8_t *c, size_t *clen)
{
	const uint8_t *p = der, *end = der + dlen;
	size_t n, k;

	if (der_get(&p, end, 0x30, &n)) return -1;
	c[0] = 0x04;
	for (k = 0; k < 2; k++) {
		if (der_get(&p, end, 0x02, &n)) return -1;
		while (n > 32 && *p == 0) { p++; n--; }
		if (n > 32) return -1;
		memset(c + 1 + 32 * k, 0, 32 - n);
		memcpy(c + 1 + 32 * k + 32 - n, p, n);
		p += n;
	}
	if (der_get(&p, end, 0x04, &n) || n != 32) return -1;
	memcpy(c + 65, p, 32); p += 32;
	if (der_get(&p, end, 0x04, &n)) return -1;
	memcpy(c + 97, p, n);
	*clen = 97 + n;
	return 0;
}

static int ossl_crypt(EVP_PKEY *pk, int enc, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
	int rc = -1;

	if (ctx != NULL && (enc ? EVP_PKEY_encrypt_init(ctx) : EVP_PKEY_decrypt_init(ctx)) > 0)
		rc = (enc ? EVP_PKEY_encrypt(ctx, out, outlen, in, inlen)
		          : EVP_PKEY_decrypt(ctx, out, outlen, in, inlen)) > 0 ? 0 : -1;
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

static void test_encrypt_interop(void)
{
	static const size_t lens[] = { 1, 2, 31, 32, 33, 64, 100, 257, 1000 };
	uint8_t priv[32], pub[65], msg[1000], ct[1200], der[1300], pt[1200];
	kc_drbg d;
	size_t i, ctlen, derlen, ptlen;

	eo_drbg(&d);
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		EVP_PKEY *pk = eo_keygen(KC_EC_SM2, priv, pub);
		size_t len = lens[i];

		CU_ASSERT_PTR_NOT_NULL_FATAL(pk);
		ts_rand(msg, len);
		/* ours -> OpenSSL */
		ctlen = sizeof ct;
		CU_ASSERT_EQUAL_FATAL(kc_sm2_encrypt(pub, 65, msg, len, &d, ct, &ctlen), PV_OK);
		CU_ASSERT_EQUAL(ctlen, len + 97);
		CU_ASSERT_EQUAL(ct[0], 0x04);
		derlen = ours_to_der(ct, ctlen, der);
		ptlen = sizeof pt;
		CU_ASSERT_EQUAL(ossl_crypt(pk, 0, der, derlen, pt, &ptlen), 0);
		CU_ASSERT(ptlen == len && memcmp(pt, msg, len) == 0);
		ptlen = sizeof pt;
		CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_OK);
		CU_ASSERT(ptlen == len && memcmp(pt, msg, len) == 0);
		/* OpenSSL -> ours */
		derlen = sizeof der;
		CU_ASSERT_EQUAL_FATAL(ossl_crypt(pk, 1, msg, len, der, &derlen), 0);
		CU_ASSERT_EQUAL_FATAL(der_to_ours(der, derlen, ct, &ctlen), 0);
		CU_ASSERT_EQUAL(ctlen, len + 97);
		ptlen = sizeof pt;
		CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_OK);
		CU_ASSERT(ptlen == len && memcmp(pt, msg, len) == 0);
		/* tampering: C3, C2, C1 */
		ct[65 + ts_rand_u32(32)] ^= 0x10;
		ptlen = sizeof pt;
		memset(pt, 0xaa, sizeof pt);
		CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_ERR_ENC_INVALID);
		CU_ASSERT_EQUAL(ptlen, 0);
		CU_ASSERT(pt[0] == 0 && pt[len - 1] == 0);    /* plaintext cleared */
		CU_ASSERT_EQUAL(der_to_ours(der, derlen, ct, &ctlen), 0);
		ct[97 + ts_rand_u32((uint32_t)len)] ^= 0x01;
		ptlen = sizeof pt;
		CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_ERR_ENC_INVALID);
		CU_ASSERT_EQUAL(der_to_ours(der, derlen, ct, &ctlen), 0);
		ct[64] ^= 0x01;                                /* C1 off the curve */
		ptlen = sizeof pt;
		CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_ERR_ENC_INVALID);
		EVP_PKEY_free(pk);
	}
}

static void test_bad_input(void)
{
	uint8_t priv[32], pub[65], msg[16], sig[64], ct[200], pt[200], tmp[65];
	size_t nl, ctlen, ptlen;
	uint8_t *n = ts_unhex(sm2_n, &nl);
	kc_drbg d;

	eo_drbg(&d);
	memset(msg, 0x42, sizeof msg);
	CU_ASSERT_EQUAL_FATAL(kc_ec_keygen(KC_EC_SM2, &d, priv, pub), PV_OK);
	CU_ASSERT_EQUAL_FATAL(kc_sm2_sign(priv, pub, NULL, 0, msg, sizeof msg, &d, sig), PV_OK);
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, sizeof msg, sig, 64), PV_OK);
	/* signature length, r/s range */
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, sizeof msg, sig, 63), PV_ERR_SIG_LEN);
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, sizeof msg, sig, 65), PV_ERR_SIG_LEN);
	memcpy(tmp, sig, 64); memset(tmp, 0, 32);
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, sizeof msg, tmp, 64), PV_ERR_SIG_INVALID);
	memcpy(tmp, sig, 64); memset(tmp + 32, 0, 32);
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, sizeof msg, tmp, 64), PV_ERR_SIG_INVALID);
	memcpy(tmp, sig, 64); memcpy(tmp, n, 32);
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, sizeof msg, tmp, 64), PV_ERR_SIG_INVALID);
	memcpy(tmp, sig, 64); memcpy(tmp + 32, n, 32);
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, NULL, 0, msg, sizeof msg, tmp, 64), PV_ERR_SIG_INVALID);
	/* ID length: ENTL is 16 bits, so at most 8191 bytes */
	{
		static uint8_t bigid[8192];

		CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, bigid, sizeof bigid, msg, sizeof msg, sig, 64), PV_ERR_ARGS);
		CU_ASSERT_EQUAL(kc_sm2_sign(priv, pub, bigid, sizeof bigid, msg, sizeof msg, &d, tmp), PV_ERR_ARGS);
		CU_ASSERT_EQUAL(kc_sm2_verify(pub, 65, bigid, sizeof bigid - 1, msg, sizeof msg, sig, 64),
		                PV_ERR_SIG_INVALID);
	}
	/* public key invalid */
	memcpy(tmp, pub, 65); tmp[64] ^= 1;
	CU_ASSERT_EQUAL(kc_sm2_verify(tmp, 65, NULL, 0, msg, sizeof msg, sig, 64), PV_ERR_PUBKEY);
	CU_ASSERT_EQUAL(kc_sm2_verify(pub, 64, NULL, 0, msg, sizeof msg, sig, 64), PV_ERR_PUBKEY);
	CU_ASSERT_EQUAL(kc_sm2_z(tmp, 65, NULL, 0, tmp), PV_ERR_PUBKEY);
	ctlen = sizeof ct;
	CU_ASSERT_EQUAL(kc_sm2_encrypt(tmp, 65, msg, sizeof msg, &d, ct, &ctlen), PV_ERR_PUBKEY);
	/* private key range: 0, n-1 (SM2 signing needs d <= n-2), n */
	memset(tmp, 0, 32);
	CU_ASSERT_EQUAL(kc_sm2_sign(tmp, pub, NULL, 0, msg, sizeof msg, &d, sig), PV_ERR_ARGS);
	memcpy(tmp, n, 32); tmp[31]--;
	CU_ASSERT_EQUAL(kc_sm2_sign_digest(tmp, pub + 1, &d, sig), PV_ERR_ARGS);
	CU_ASSERT_EQUAL(kc_sm2_sign(n, pub, NULL, 0, msg, sizeof msg, &d, sig), PV_ERR_ARGS);
	tmp[31]--;   /* n-2 is fine */
	{
		uint8_t e[32] = { 1 };

		CU_ASSERT_EQUAL(kc_sm2_sign_digest(tmp, e, &d, sig), PV_OK);
	}
	/* encryption lengths and buffers */
	ctlen = sizeof ct;
	CU_ASSERT_EQUAL(kc_sm2_encrypt(pub, 65, msg, 0, &d, ct, &ctlen), PV_ERR_DATA_LEN);
	ctlen = sizeof msg + 96;
	CU_ASSERT_EQUAL(kc_sm2_encrypt(pub, 65, msg, sizeof msg, &d, ct, &ctlen), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(ctlen, sizeof msg + 97);
	ctlen = 0;
	CU_ASSERT_EQUAL(kc_sm2_encrypt(pub, 65, msg, sizeof msg, &d, NULL, &ctlen), PV_OK);
	CU_ASSERT_EQUAL(ctlen, sizeof msg + 97);
	ctlen = sizeof ct;
	CU_ASSERT_EQUAL_FATAL(kc_sm2_encrypt(pub, 65, msg, sizeof msg, &d, ct, &ctlen), PV_OK);
	ptlen = sizeof pt;
	CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, 97, pt, &ptlen), PV_ERR_ENC_LEN);
	CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, 10, pt, &ptlen), PV_ERR_ENC_LEN);
	ptlen = sizeof msg - 1;
	CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(ptlen, sizeof msg);
	ptlen = sizeof pt;
	CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen - 1, pt, &ptlen), PV_ERR_ENC_INVALID);
	ptlen = sizeof pt;
	ct[0] = 0x02;    /* compressed C1 not accepted in the 65-byte slot */
	CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_ERR_ENC_INVALID);
	ct[0] = 0x04;
	ptlen = sizeof pt;
	CU_ASSERT_EQUAL(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen), PV_OK);
	CU_ASSERT(ptlen == sizeof msg && memcmp(pt, msg, sizeof msg) == 0);
	/* keygen never yields n-1 (cannot check statistically): at least valid */
	CU_ASSERT_EQUAL(kc_ec_priv_check(KC_EC_SM2, priv), PV_OK);
	free(n);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("sm2", NULL, NULL);
	CU_add_test(s, "SM2 sign/verify <-> OpenSSL, default and custom IDs", test_sign_interop);
	CU_add_test(s, "SM2 digest interface", test_sign_digest);
	CU_add_test(s, "SM2 with a nonce computed ahead", test_sign_pre);
	CU_add_test(s, "SM2 encrypt/decrypt <-> OpenSSL (DER C1C3C2)", test_encrypt_interop);
	CU_add_test(s, "SM2 bad input -> precise PV_ERR codes", test_bad_input);
	return ts_run();
}
