/*
 * ec_ossl.c - OpenSSL 3.0 oracle helpers for the core_ec tests.
 */
#include "ec_ossl.h"

#include <string.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/hash/kc_hash.h"
#include "tsupport.h"

const char *eo_group(int curve)
{
	switch (curve) {
	case KC_EC_P256: return "prime256v1";
	case KC_EC_P384: return "secp384r1";
	case KC_EC_SM2:  return "SM2";
	default:         return NULL;
	}
}

static EVP_PKEY *eo_key_as(const char *type, int curve, const uint8_t *priv, const uint8_t *pub,
                           size_t publen)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pk = NULL;
	BIGNUM *bn = NULL;
	size_t flen = kc_ec_flen(curve);

	if (b == NULL)
		return NULL;
	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, eo_group(curve), 0);
	OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, publen);
	if (priv != NULL) {
		bn = BN_bin2bn(priv, (int)flen, NULL);
		OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bn);
	}
	params = OSSL_PARAM_BLD_to_param(b);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
	if (params == NULL || ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pk, priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
	                      params) <= 0)
		pk = NULL;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	BN_clear_free(bn);
	return pk;
}

EVP_PKEY *eo_key(int curve, const uint8_t *priv, const uint8_t *pub, size_t publen)
{
	return eo_key_as(curve == KC_EC_SM2 ? "SM2" : "EC", curve, priv, pub, publen);
}

EVP_PKEY *eo_keygen(int curve, uint8_t *priv, uint8_t *pub)
{
	EVP_PKEY *pk;
	BIGNUM *bn = NULL;
	size_t flen = kc_ec_flen(curve), publen = 0;

	if (curve == KC_EC_SM2)
		pk = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
	else
		pk = EVP_PKEY_Q_keygen(NULL, NULL, "EC", eo_group(curve));
	if (pk == NULL)
		return NULL;
	if (!EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &bn) ||
	    BN_bn2binpad(bn, priv, (int)flen) != (int)flen ||
	    !EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY, pub, 1 + 2 * flen, &publen) ||
	    publen != 1 + 2 * flen) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	BN_clear_free(bn);
	return pk;
}

int eo_der_to_raw(const uint8_t *der, size_t derlen, size_t flen, uint8_t *raw)
{
	const unsigned char *p = der;
	ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &p, (long)derlen);
	const BIGNUM *r, *ss;
	int ok;

	if (s == NULL)
		return -1;
	ECDSA_SIG_get0(s, &r, &ss);
	ok = BN_bn2binpad(r, raw, (int)flen) == (int)flen &&
	     BN_bn2binpad(ss, raw + flen, (int)flen) == (int)flen;
	ECDSA_SIG_free(s);
	return ok ? 0 : -1;
}

int eo_raw_to_der(const uint8_t *raw, size_t flen, uint8_t *der, size_t *derlen)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(raw, (int)flen, NULL);
	BIGNUM *ss = BN_bin2bn(raw + flen, (int)flen, NULL);
	unsigned char *p = der;
	int n;

	if (s == NULL || r == NULL || ss == NULL || !ECDSA_SIG_set0(s, r, ss)) {
		ECDSA_SIG_free(s);
		return -1;
	}
	n = i2d_ECDSA_SIG(s, &p);
	ECDSA_SIG_free(s);
	if (n <= 0)
		return -1;
	*derlen = (size_t)n;
	return 0;
}

void eo_drbg(kc_drbg *d)
{
	uint8_t ent[48], nonce[16];

	ts_rand(ent, sizeof ent);
	ts_rand(nonce, sizeof nonce);
	if (kc_drbg_init(d, ent, sizeof ent, nonce, sizeof nonce, (const uint8_t *)"core_ec", 7) != 0)
		memset(d, 0, sizeof *d);
}

const EVP_MD *eo_md(uint32_t halg)
{
	switch (halg) {
	case KC_HASH_SHA1:   return EVP_sha1();
	case KC_HASH_SHA224: return EVP_sha224();
	case KC_HASH_SHA256: return EVP_sha256();
	case KC_HASH_SHA384: return EVP_sha384();
	case KC_HASH_SHA512: return EVP_sha512();
	case KC_HASH_SM3:    return EVP_sm3();
	default:             return NULL;
	}
}

int eo_ecdh_point(int curve, const uint8_t *priv, const uint8_t *peer, size_t peerlen, uint8_t *x)
{
	int nid = curve == KC_EC_P256 ? NID_X9_62_prime256v1 : curve == KC_EC_P384 ? NID_secp384r1 : NID_sm2;
	EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
	EC_POINT *q = g ? EC_POINT_new(g) : NULL, *r = g ? EC_POINT_new(g) : NULL;
	BIGNUM *d = BN_bin2bn(priv, (int)kc_ec_flen(curve), NULL), *bx = BN_new();
	int ok = g && q && r && d && bx &&
	         EC_POINT_oct2point(g, q, peer, peerlen, NULL) == 1 &&
	         EC_POINT_mul(g, r, NULL, q, d, NULL) == 1 &&
	         EC_POINT_get_affine_coordinates(g, r, bx, NULL, NULL) == 1 &&
	         BN_bn2binpad(bx, x, (int)kc_ec_flen(curve)) == (int)kc_ec_flen(curve);

	BN_free(bx);
	BN_clear_free(d);
	EC_POINT_free(q);
	EC_POINT_free(r);
	EC_GROUP_free(g);
	return ok ? 0 : -1;
}
