/*
 * p11b_ossl.c - p11bench's OpenSSL 3 side: the same operations through EVP
 * (EVP_DigestSign: RSA PKCS#1 v1.5 SHA-256, ECDSA P-256 SHA-256, SM2 with
 * SM3 and the default ID, Ed25519; EVP_Digest; AES-256-GCM encryption),
 * public keys from the token's attributes, and the check that an output
 * (the token's or OpenSSL's) is right: signature verifies, digest equal,
 * GCM ciphertext decrypts to the input with a valid tag.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include "provisioning/p11bench/p11bench.h"

void p11b_next_iv(uint8_t iv[12])
{
	int i;

	for (i = 11; i >= 4 && ++iv[i] == 0; i--)
		;
}

EVP_PKEY *p11b_ossl_pub(enum p11b_alg alg, const uint8_t *a, size_t al,
                        const uint8_t *b, size_t bl)
{
	OSSL_PARAM_BLD *pb;
	OSSL_PARAM *p = NULL;
	EVP_PKEY_CTX *pc = NULL;
	EVP_PKEY *k = NULL;
	BIGNUM *n = NULL, *e = NULL;
	int ok;

	if (alg == A_ED25519)
		return al == 32 ? EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, a, al) : NULL;
	if ((pb = OSSL_PARAM_BLD_new()) == NULL)
		return NULL;
	if (alg == A_RSA) {
		n = BN_bin2bn(a, (int)al, NULL);
		e = BN_bin2bn(b, (int)bl, NULL);
		ok = n && e && OSSL_PARAM_BLD_push_BN(pb, OSSL_PKEY_PARAM_RSA_N, n) &&
		     OSSL_PARAM_BLD_push_BN(pb, OSSL_PKEY_PARAM_RSA_E, e);
	} else {
		ok = OSSL_PARAM_BLD_push_utf8_string(pb, OSSL_PKEY_PARAM_GROUP_NAME,
		                                     alg == A_SM2 ? "SM2" : "prime256v1", 0) &&
		     OSSL_PARAM_BLD_push_octet_string(pb, OSSL_PKEY_PARAM_PUB_KEY, a, al);
	}
	if (ok && (p = OSSL_PARAM_BLD_to_param(pb)) != NULL &&
	    (pc = EVP_PKEY_CTX_new_from_name(NULL, alg == A_RSA ? "RSA" : alg == A_SM2 ? "SM2" : "EC",
	                                     NULL)) != NULL &&
	    EVP_PKEY_fromdata_init(pc) > 0)
		EVP_PKEY_fromdata(pc, &k, EVP_PKEY_PUBLIC_KEY, p);
	EVP_PKEY_CTX_free(pc);
	OSSL_PARAM_free(p);
	OSSL_PARAM_BLD_free(pb);
	BN_free(n);
	BN_free(e);
	return k;
}

static const char *md_name(enum p11b_alg alg)
{
	switch (alg) {
	case A_SM2: case A_SM3: return "SM3";
	case A_SHA3_256: return "SHA3-256";
	case A_ED25519: case A_AES: return NULL;
	default: return "SHA256";
	}
}

int p11b_ossl_keys(p11b_state *st)
{
	enum p11b_alg alg = st->m->alg;
	const char *md = md_name(alg);

	if (md != NULL && (st->md = EVP_MD_fetch(NULL, md, NULL)) == NULL)
		return -1;
	if (alg == A_AES)
		return (st->gcm = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL)) != NULL ? 0 : -1;
	if (st->m->kind != K_SIGN)
		return 0;
	st->ossl_key = alg == A_RSA ? EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048) :
	               alg == A_P256 ? EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256") :
	               alg == A_SM2 ? EVP_PKEY_Q_keygen(NULL, NULL, "SM2") :
	               EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	return st->ossl_key != NULL ? 0 : -1;
}

void p11b_ossl_free(p11b_state *st)
{
	EVP_PKEY_free(st->tok_pub);
	EVP_PKEY_free(st->ossl_key);
	EVP_MD_free((EVP_MD *)st->md);
	EVP_CIPHER_free(st->gcm);
	OPENSSL_cleanse(st->aes, sizeof st->aes);
	free(st->in);
}

/* The token's ECDSA and SM2 signatures are r||s (an SM2 one: 32 bytes
 * each); OpenSSL's are DER. */
static int rs_to_der(const uint8_t *rs, size_t len, uint8_t **der)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(rs, (int)len / 2, NULL), *t = BN_bin2bn(rs + len / 2, (int)len / 2, NULL);
	int n = -1;

	if (s != NULL && r != NULL && t != NULL && ECDSA_SIG_set0(s, r, t) == 1) {
		r = t = NULL;
		n = i2d_ECDSA_SIG(s, der);
	}
	BN_free(r);
	BN_free(t);
	ECDSA_SIG_free(s);
	return n;
}

static int der_to_rs(const uint8_t *der, size_t dl, uint8_t *rs, size_t len)
{
	ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &der, (long)dl);
	int ok = s != NULL &&
	         BN_bn2binpad(ECDSA_SIG_get0_r(s), rs, (int)len / 2) == (int)len / 2 &&
	         BN_bn2binpad(ECDSA_SIG_get0_s(s), rs + len / 2, (int)len / 2) == (int)len / 2;

	ECDSA_SIG_free(s);
	return ok ? 0 : -1;
}

/* SM2 with SM3 and the default distinguishing ID, set on the key's own
 * context (EVP_PKEY_CTX_set1_id): some OpenSSL 3.0 builds refuse a valid
 * signature when the ID comes as a DIST_ID init parameter instead. */
static int sm2_init(EVP_MD_CTX *c, EVP_PKEY *k, int verify)
{
	static const uint8_t id[] = "1234567812345678";
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);

	if (pc == NULL || EVP_PKEY_CTX_set1_id(pc, id, 16) <= 0) {
		EVP_PKEY_CTX_free(pc);
		return -1;
	}
	EVP_MD_CTX_reset(c);
	EVP_MD_CTX_set_pkey_ctx(c, pc);       /* c does not own pc: freed below */
	if ((verify ? EVP_DigestVerifyInit(c, NULL, EVP_sm3(), NULL, k)
	            : EVP_DigestSignInit(c, NULL, EVP_sm3(), NULL, k)) <= 0) {
		EVP_MD_CTX_set_pkey_ctx(c, NULL);
		EVP_PKEY_CTX_free(pc);
		return -1;
	}
	return 0;
}

static void sm2_done(EVP_MD_CTX *c)
{
	EVP_PKEY_CTX *pc = EVP_MD_CTX_get_pkey_ctx(c);

	EVP_MD_CTX_set_pkey_ctx(c, NULL);
	EVP_PKEY_CTX_free(pc);
}

/* 1: rs (64 bytes) is k's SM2 signature of msg. */
static int sm2_verify(EVP_MD_CTX *c, EVP_PKEY *k, const uint8_t *msg, size_t len,
                      const uint8_t rs[64])
{
	uint8_t *der = NULL;
	int n, ok = 0;

	if ((n = rs_to_der(rs, 64, &der)) > 0 && sm2_init(c, k, 1) == 0) {
		ok = EVP_DigestVerify(c, der, (size_t)n, msg, len) == 1;
		sm2_done(c);
	}
	OPENSSL_free(der);
	return ok;
}

static int sm2_sign(EVP_MD_CTX *c, EVP_PKEY *k, const uint8_t *msg, size_t len,
                    uint8_t rs[64])
{
	uint8_t der[80];
	size_t dl = sizeof der;
	int ok;

	if (sm2_init(c, k, 0) != 0)
		return -1;
	ok = EVP_DigestSign(c, der, &dl, msg, len) == 1;
	sm2_done(c);
	return ok ? der_to_rs(der, dl, rs, 64) : -1;
}

/* RSA and P-256 (SM2: sm2_init). */
static int sign_init(EVP_MD_CTX *c, const p11b_state *st, EVP_PKEY *k, int verify)
{
	const char *md = md_name(st->m->alg);

	EVP_MD_CTX_reset(c);
	if (verify)
		return EVP_DigestVerifyInit_ex(c, NULL, md, NULL, NULL, k, NULL) > 0 ? 0 : -1;
	return EVP_DigestSignInit_ex(c, NULL, md, NULL, NULL, k, NULL) > 0 ? 0 : -1;
}

static int gcm_init(EVP_CIPHER_CTX *cx, const p11b_state *st, const uint8_t iv[12], int enc)
{
	return EVP_CipherInit_ex2(cx, st->gcm, st->aes, iv, enc, NULL) > 0 ? 0 : -1;
}

int p11b_ossl_op(EVP_MD_CTX *c, EVP_CIPHER_CTX *cx, const p11b_state *st, p11b_out *o)
{
	size_t len = st->m->len;
	unsigned dl;
	int l1, l2;

	switch (st->m->kind) {
	case K_SIGN:
		if (st->m->alg == A_SM2) {
			o->len = 64;
			return sm2_sign(c, st->ossl_key, st->in, len, o->buf);
		}
		o->len = o->cap;
		return sign_init(c, st, st->ossl_key, 0) == 0 &&
		       EVP_DigestSign(c, o->buf, &o->len, st->in, len) > 0 ? 0 : -1;
	case K_DIGEST:
		if (EVP_Digest(st->in, len, o->buf, &dl, st->md, NULL) <= 0)
			return -1;
		o->len = dl;
		return 0;
	default:
		p11b_next_iv(o->iv);
		if (gcm_init(cx, st, o->iv, 1) != 0 ||
		    EVP_EncryptUpdate(cx, o->buf, &l1, st->in, (int)len) <= 0 ||
		    EVP_EncryptFinal_ex(cx, o->buf + l1, &l2) <= 0 ||
		    EVP_CIPHER_CTX_ctrl(cx, EVP_CTRL_GCM_GET_TAG, 16, o->buf + l1 + l2) <= 0)
			return -1;
		o->len = (size_t)(l1 + l2) + 16;
		return 0;
	}
}

static int check_sig(const p11b_state *st, const p11b_out *o, int token)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	uint8_t *der = NULL;
	const uint8_t *sig = o->buf;
	size_t sl = o->len;
	int ok = 0, n;

	if (st->m->alg == A_SM2) {
		ok = c != NULL && o->len == 64 &&
		     sm2_verify(c, token ? st->tok_pub : st->ossl_key, st->in, st->m->len, o->buf);
		goto out;
	}
	if (token && st->m->alg == A_P256) {
		if (o->len != 64 || (n = rs_to_der(o->buf, o->len, &der)) <= 0)
			goto out;
		sig = der;
		sl = (size_t)n;
	}
	ok = c != NULL && sign_init(c, st, token ? st->tok_pub : st->ossl_key, 1) == 0 &&
	     EVP_DigestVerify(c, sig, sl, st->in, st->m->len) == 1;
out:
	OPENSSL_free(der);
	EVP_MD_CTX_free(c);
	return ok ? 0 : -1;
}

static int check_gcm(const p11b_state *st, const p11b_out *o)
{
	EVP_CIPHER_CTX *cx = EVP_CIPHER_CTX_new();
	size_t len = st->m->len;
	uint8_t *pt = malloc(len + 16);
	int l1 = 0, l2 = 0, ok;

	ok = cx != NULL && pt != NULL && o->len == len + 16 &&
	     gcm_init(cx, st, o->iv, 0) == 0 &&
	     EVP_DecryptUpdate(cx, pt, &l1, o->buf, (int)len) > 0 &&
	     EVP_CIPHER_CTX_ctrl(cx, EVP_CTRL_GCM_SET_TAG, 16, o->buf + len) > 0 &&
	     EVP_DecryptFinal_ex(cx, pt + l1, &l2) > 0 &&
	     (size_t)(l1 + l2) == len && memcmp(pt, st->in, len) == 0;
	free(pt);
	EVP_CIPHER_CTX_free(cx);
	return ok ? 0 : -1;
}

/* 0 when o is a right answer for st's input; token: o came from the token. */
int p11b_ossl_check(const p11b_state *st, const p11b_out *o, int token)
{
	uint8_t d[EVP_MAX_MD_SIZE];
	unsigned dl;

	switch (st->m->kind) {
	case K_SIGN:
		return check_sig(st, o, token);
	case K_DIGEST:
		return EVP_Digest(st->in, st->m->len, d, &dl, st->md, NULL) > 0 &&
		       o->len == dl && memcmp(o->buf, d, dl) == 0 ? 0 : -1;
	default:
		return check_gcm(st, o);
	}
}
