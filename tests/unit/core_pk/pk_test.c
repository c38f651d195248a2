/* pk_test.c - see pk_test.h */
#include "pk_test.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pk_drbg(kc_drbg *d)
{
	uint8_t ent[48], nonce[16];
	ts_rand(ent, sizeof ent);
	ts_rand(nonce, sizeof nonce);
	if (kc_drbg_init(d, ent, sizeof ent, nonce, sizeof nonce, (const uint8_t *)"core_pk", 7) != 0) {
		fprintf(stderr, "kc_drbg_init failed\n");
		exit(2);
	}
}

const EVP_MD *pk_md(uint32_t alg)
{
	switch (alg) {
	case KC_HASH_SHA1: return EVP_sha1();
	case KC_HASH_SHA224: return EVP_sha224();
	case KC_HASH_SHA256: return EVP_sha256();
	case KC_HASH_SHA384: return EVP_sha384();
	case KC_HASH_SHA512: return EVP_sha512();
	case KC_HASH_SHA3_224: return EVP_sha3_224();
	case KC_HASH_SHA3_256: return EVP_sha3_256();
	case KC_HASH_SHA3_384: return EVP_sha3_384();
	case KC_HASH_SHA3_512: return EVP_sha3_512();
	}
	return NULL;
}

uint32_t pk_alg_from_name(const char *name)
{
	static const struct { const char *n; uint32_t a; } t[] = {
		{ "SHA-1", KC_HASH_SHA1 }, { "SHA-224", KC_HASH_SHA224 }, { "SHA-256", KC_HASH_SHA256 },
		{ "SHA-384", KC_HASH_SHA384 }, { "SHA-512", KC_HASH_SHA512 },
		{ "SHA3-224", KC_HASH_SHA3_224 }, { "SHA3-256", KC_HASH_SHA3_256 },
		{ "SHA3-384", KC_HASH_SHA3_384 }, { "SHA3-512", KC_HASH_SHA3_512 },
	};
	size_t i;
	for (i = 0; name && i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(name, t[i].n))
			return t[i].a;
	return 0;
}

size_t pk_digest(uint32_t alg, const uint8_t *data, size_t len, uint8_t *out)
{
	unsigned int ol = 0;
	if (!EVP_Digest(data, len, out, &ol, pk_md(alg), NULL))
		return 0;
	return ol;
}

static int bn_fixed(const BIGNUM *b, uint8_t *dst, size_t dlen)
{
	return BN_bn2binpad(b, dst, (int)dlen) == (int)dlen;
}

int pk_hex_fixed(const char *hex, uint8_t *dst, size_t dlen)
{
	size_t n, off = 0;
	uint8_t *b = ts_unhex(hex, &n);
	if (!b)
		return 0;
	while (off < n && b[off] == 0)
		off++;
	if (n - off > dlen) {
		free(b);
		return 0;
	}
	memset(dst, 0, dlen);
	memcpy(dst + dlen - (n - off), b + off, n - off);
	free(b);
	return 1;
}

static BIGNUM *get_bn(EVP_PKEY *pkey, const char *name)
{
	BIGNUM *b = NULL;
	EVP_PKEY_get_bn_param(pkey, name, &b);
	return b;
}

int pk_priv_from_evp(kc_rsa_priv *sk, EVP_PKEY *pkey)
{
	static const char *names[] = { OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_D,
		OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
		OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
		OSSL_PKEY_PARAM_RSA_COEFFICIENT1 };
	uint8_t *dst[7];
	size_t len[7] = { KC_RSA_MAX_BYTES, KC_RSA_MAX_BYTES, KC_RSA_MAX_HBYTES, KC_RSA_MAX_HBYTES,
		KC_RSA_MAX_HBYTES, KC_RSA_MAX_HBYTES, KC_RSA_MAX_HBYTES };
	BIGNUM *e;
	int i, ok = 1;
	memset(sk, 0, sizeof *sk);
	dst[0] = sk->n; dst[1] = sk->d; dst[2] = sk->p; dst[3] = sk->q;
	dst[4] = sk->dp; dst[5] = sk->dq; dst[6] = sk->qinv;
	for (i = 0; i < 7; i++) {
		BIGNUM *b = get_bn(pkey, names[i]);
		if (!b || !bn_fixed(b, dst[i], len[i]))
			ok = 0;
		if (i == 0 && b)
			sk->bits = (uint32_t)BN_num_bits(b);
		BN_clear_free(b);
	}
	e = get_bn(pkey, OSSL_PKEY_PARAM_RSA_E);
	if (!e || BN_num_bits(e) > 31)
		ok = 0;
	else
		sk->e = (uint32_t)BN_get_word(e);
	BN_free(e);
	return ok;
}

int pk_pub_from_evp(kc_rsa_pub *pk, EVP_PKEY *pkey)
{
	BIGNUM *n = get_bn(pkey, OSSL_PKEY_PARAM_RSA_N), *e = get_bn(pkey, OSSL_PKEY_PARAM_RSA_E);
	int ok = n && e && bn_fixed(n, pk->n, sizeof pk->n) && BN_num_bits(e) <= 31;
	if (ok) {
		pk->bits = (uint32_t)BN_num_bits(n);
		pk->e = (uint32_t)BN_get_word(e);
	}
	BN_free(n);
	BN_free(e);
	return ok;
}

EVP_PKEY *pk_evp_from_priv(const kc_rsa_priv *sk)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	EVP_PKEY *pkey = NULL;
	BIGNUM *b[8];
	b[0] = BN_bin2bn(sk->n, sizeof sk->n, NULL);
	b[1] = BN_new();
	BN_set_word(b[1], sk->e);
	b[2] = BN_bin2bn(sk->d, sizeof sk->d, NULL);
	b[3] = BN_bin2bn(sk->p, sizeof sk->p, NULL);
	b[4] = BN_bin2bn(sk->q, sizeof sk->q, NULL);
	b[5] = BN_bin2bn(sk->dp, sizeof sk->dp, NULL);
	b[6] = BN_bin2bn(sk->dq, sizeof sk->dq, NULL);
	b[7] = BN_bin2bn(sk->qinv, sizeof sk->qinv, NULL);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, b[0]);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, b[1]);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, b[2]);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, b[3]);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, b[4]);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, b[5]);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, b[6]);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, b[7]);
	params = OSSL_PARAM_BLD_to_param(bld);
	if (EVP_PKEY_fromdata_init(ctx) <= 0 || EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_KEYPAIR, params) <= 0)
		pkey = NULL;
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	for (int i = 0; i < 8; i++)
		BN_clear_free(b[i]);
	return pkey;
}

EVP_PKEY *pk_evp_gen(int bits)
{
	return EVP_RSA_gen((unsigned int)bits);
}

static const char *wp_obj_str(json_object *o, const char *k)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return json_object_get_string(v);
}

/* Recover p, q from n, e, d (RFC 8017 / NIST SP 800-56B C.2 method). */
static int recover_pq(const BIGNUM *n, const BIGNUM *e, const BIGNUM *d, BIGNUM *p, BIGNUM *q)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *k = BN_new(), *t = BN_new(), *g = BN_new(), *y = BN_new(), *n1 = BN_new(), *x = BN_new();
	int s = 0, found = 0, tries, i;
	BN_mul(k, d, e, ctx);
	BN_sub_word(k, 1);
	BN_copy(t, k);
	while (!BN_is_odd(t)) {
		BN_rshift1(t, t);
		s++;
	}
	BN_copy(n1, n);
	BN_sub_word(n1, 1);
	for (tries = 0; tries < 100 && !found; tries++) {
		BN_set_word(g, 2 + (unsigned)tries);
		BN_mod_exp(y, g, t, n, ctx);
		for (i = 0; i < s && !found; i++) {
			if (BN_is_one(y) || !BN_cmp(y, n1))
				break;
			BN_mod_sqr(x, y, n, ctx);
			if (BN_is_one(x)) {
				BN_sub_word(y, 1);
				BN_gcd(p, y, n, ctx);
				BN_div(q, NULL, n, p, ctx);
				found = 1;
			}
			BN_copy(y, x);
		}
	}
	BN_free(k); BN_free(t); BN_free(g); BN_free(y); BN_free(n1); BN_free(x);
	BN_CTX_free(ctx);
	return found;
}

int pk_wp_priv(const ts_wp_case *tc, kc_rsa_priv *sk)
{
	json_object *o;
	const char *nh, *eh, *dh;
	BIGNUM *n = NULL, *e = NULL, *d = NULL, *p, *q;
	int ok;
	memset(sk, 0, sizeof *sk);
	if (!json_object_object_get_ex(tc->group, "privateKey", &o) || !json_object_is_type(o, json_type_object))
		return 0;
	nh = wp_obj_str(o, "modulus");
	eh = wp_obj_str(o, "publicExponent");
	dh = wp_obj_str(o, "privateExponent");
	if (!nh || !eh || !dh)
		return 0;
	BN_hex2bn(&n, nh);
	BN_hex2bn(&e, eh);
	BN_hex2bn(&d, dh);
	sk->bits = (uint32_t)BN_num_bits(n);
	sk->e = (uint32_t)BN_get_word(e);
	ok = pk_hex_fixed(nh, sk->n, sizeof sk->n) && pk_hex_fixed(dh, sk->d, sizeof sk->d);
	if (wp_obj_str(o, "prime1")) {
		ok = ok && pk_hex_fixed(wp_obj_str(o, "prime1"), sk->p, sizeof sk->p)
			&& pk_hex_fixed(wp_obj_str(o, "prime2"), sk->q, sizeof sk->q)
			&& pk_hex_fixed(wp_obj_str(o, "exponent1"), sk->dp, sizeof sk->dp)
			&& pk_hex_fixed(wp_obj_str(o, "exponent2"), sk->dq, sizeof sk->dq)
			&& pk_hex_fixed(wp_obj_str(o, "coefficient"), sk->qinv, sizeof sk->qinv);
	} else {
		/* only n, e, d: recover the CRT form with OpenSSL BN */
		BN_CTX *ctx = BN_CTX_new();
		BIGNUM *t = BN_new(), *dp = BN_new(), *dq = BN_new(), *qi = BN_new();
		p = BN_new();
		q = BN_new();
		ok = ok && recover_pq(n, e, d, p, q);
		if (ok) {
			BN_sub(t, p, BN_value_one()); BN_mod(dp, d, t, ctx);
			BN_sub(t, q, BN_value_one()); BN_mod(dq, d, t, ctx);
			BN_mod_inverse(qi, q, p, ctx);
			ok = bn_fixed(p, sk->p, sizeof sk->p) && bn_fixed(q, sk->q, sizeof sk->q)
				&& bn_fixed(dp, sk->dp, sizeof sk->dp) && bn_fixed(dq, sk->dq, sizeof sk->dq)
				&& bn_fixed(qi, sk->qinv, sizeof sk->qinv);
		}
		BN_free(p); BN_free(q); BN_free(t); BN_free(dp); BN_free(dq); BN_free(qi);
		BN_CTX_free(ctx);
	}
	BN_free(n); BN_free(e); BN_free(d);
	return ok;
}

int pk_wp_pub(const ts_wp_case *tc, kc_rsa_pub *pk)
{
	json_object *o;
	const char *nh, *eh;
	BIGNUM *n = NULL, *e = NULL;
	int ok;
	memset(pk, 0, sizeof *pk);
	if ((!json_object_object_get_ex(tc->group, "publicKey", &o) || !json_object_is_type(o, json_type_object))
	    && (!json_object_object_get_ex(tc->group, "privateKey", &o) || !json_object_is_type(o, json_type_object)))
		return 0;
	nh = wp_obj_str(o, "modulus");
	eh = wp_obj_str(o, "publicExponent");
	if (!nh || !eh)
		return 0;
	BN_hex2bn(&n, nh);
	BN_hex2bn(&e, eh);
	pk->bits = (uint32_t)BN_num_bits(n);
	pk->e = (uint32_t)BN_get_word(e);
	ok = pk_hex_fixed(nh, pk->n, sizeof pk->n) && BN_num_bits(e) <= 31;
	BN_free(n);
	BN_free(e);
	return ok;
}
