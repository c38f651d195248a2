/* pk_ossl.c - see pk_ossl.h. */
#include "pk_ossl.h"

#include <string.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

EVP_PKEY *po_rsa_gen(int bits)
{
	return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits);
}

static const char *po_rsa_names[8] = {
	OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
	OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
	OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
	OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

size_t po_rsa_comp(EVP_PKEY *k, int idx, uint8_t *out, size_t cap)
{
	BIGNUM *b = NULL;
	size_t n = 0;

	if (EVP_PKEY_get_bn_param(k, po_rsa_names[idx], &b) && (size_t)BN_num_bytes(b) <= cap)
		n = (size_t)BN_bn2bin(b, out);
	BN_free(b);
	return n;
}

size_t po_rsa_import_enc(EVP_PKEY *k, uint8_t *out, size_t cap)
{
	uint8_t t[1024];
	size_t pos = 0, n;
	int i;

	for (i = 0; i < 8; i++) {
		n = po_rsa_comp(k, i, t, sizeof t);
		if (n == 0 || pos + 2 + n > cap)
			return 0;
		out[pos] = (uint8_t)(n >> 8);
		out[pos + 1] = (uint8_t)n;
		memcpy(out + pos + 2, t, n);
		pos += 2 + n;
	}
	return pos;
}

static EVP_PKEY *po_fromdata(const char *alg, OSSL_PARAM_BLD *b, int sel)
{
	OSSL_PARAM *p = OSSL_PARAM_BLD_to_param(b);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
	EVP_PKEY *k = NULL;

	if (p && c && EVP_PKEY_fromdata_init(c) > 0)
		EVP_PKEY_fromdata(c, &k, sel, p);
	EVP_PKEY_CTX_free(c);
	OSSL_PARAM_free(p);
	OSSL_PARAM_BLD_free(b);
	return k;
}

EVP_PKEY *po_rsa_pub(const uint8_t *n, size_t nlen, const uint8_t *e, size_t elen)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *bn = BN_bin2bn(n, (int)nlen, NULL), *be = BN_bin2bn(e, (int)elen, NULL);
	EVP_PKEY *k;

	OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, bn);
	OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, be);
	k = po_fromdata("RSA", b, EVP_PKEY_PUBLIC_KEY);
	BN_free(bn);
	BN_free(be);
	return k;
}

EVP_PKEY *po_ec_gen(const char *group)
{
	if (strcmp(group, "SM2") == 0)
		return EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
	return EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
}

size_t po_ec_priv(EVP_PKEY *k, uint8_t *d, size_t flen)
{
	BIGNUM *b = NULL;
	size_t n = 0;

	if (EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &b) &&
	    BN_bn2binpad(b, d, (int)flen) == (int)flen)
		n = flen;
	BN_free(b);
	return n;
}

size_t po_ec_pub(EVP_PKEY *k, uint8_t *pub, size_t cap)
{
	size_t n = 0;

	EVP_PKEY_set_utf8_string_param(k, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, "uncompressed");
	if (!EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, pub, cap, &n))
		return 0;
	return n;
}

static const char *po_gname(const char *group)
{
	return strcmp(group, "SM2") == 0 ? "SM2" : group;
}

EVP_PKEY *po_ec_from_pub(const char *group, const uint8_t *pub, size_t len)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();

	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, po_gname(group), 0);
	OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, len);
	return po_fromdata(strcmp(group, "SM2") == 0 ? "SM2" : "EC", b, EVP_PKEY_PUBLIC_KEY);
}

EVP_PKEY *po_ec_from_priv(const char *group, const uint8_t *d, size_t dlen)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *bd = BN_bin2bn(d, (int)dlen, NULL);
	EC_GROUP *g = EC_GROUP_new_by_curve_name(strcmp(group, "P-256") == 0 ? NID_X9_62_prime256v1 :
	                                         strcmp(group, "P-384") == 0 ? NID_secp384r1 : NID_sm2);
	EC_POINT *q = EC_POINT_new(g);
	uint8_t pub[100];
	size_t pl;
	EVP_PKEY *k;

	EC_POINT_mul(g, q, bd, NULL, NULL, NULL);
	pl = EC_POINT_point2oct(g, q, POINT_CONVERSION_UNCOMPRESSED, pub, sizeof pub, NULL);
	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, po_gname(group), 0);
	OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bd);
	OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, pl);
	k = po_fromdata(strcmp(group, "SM2") == 0 ? "SM2" : "EC", b, EVP_PKEY_KEYPAIR);
	BN_free(bd);
	EC_POINT_free(q);
	EC_GROUP_free(g);
	return k;
}

/* ---- DER helpers --------------------------------------------------------- */

static size_t der_len(uint8_t *o, size_t n)
{
	if (n < 128) { o[0] = (uint8_t)n; return 1; }
	if (n < 256) { o[0] = 0x81; o[1] = (uint8_t)n; return 2; }
	o[0] = 0x82; o[1] = (uint8_t)(n >> 8); o[2] = (uint8_t)n; return 3;
}

static size_t der_int(uint8_t *o, const uint8_t *v, size_t n)
{
	size_t h, pad;

	while (n > 1 && v[0] == 0) { v++; n--; }
	pad = (v[0] & 0x80) ? 1 : 0;
	o[0] = 0x02;
	h = 1 + der_len(o + 1, n + pad);
	if (pad) o[h] = 0;
	memcpy(o + h + pad, v, n);
	return h + pad + n;
}

static size_t der_oct(uint8_t *o, const uint8_t *v, size_t n)
{
	size_t h;

	o[0] = 0x04;
	h = 1 + der_len(o + 1, n);
	memcpy(o + h, v, n);
	return h + n;
}

static size_t der_seq(uint8_t *out, const uint8_t *body, size_t n)
{
	size_t h;

	out[0] = 0x30;
	h = 1 + der_len(out + 1, n);
	memmove(out + h, body, n);
	return h + n;
}

/* Read a TLV with tag t at *p (end e): returns value pointer, sets *n. */
static const uint8_t *der_get(const uint8_t **p, const uint8_t *e, int t, size_t *n)
{
	const uint8_t *q = *p;
	size_t l;

	if (e - q < 2 || q[0] != t)
		return NULL;
	q++;
	if (*q < 0x80) { l = *q++; }
	else if (*q == 0x81 && e - q >= 2) { l = q[1]; q += 2; }
	else if (*q == 0x82 && e - q >= 3) { l = ((size_t)q[1] << 8) | q[2]; q += 3; }
	else return NULL;
	if ((size_t)(e - q) < l)
		return NULL;
	*p = q + l;
	*n = l;
	return q;
}

size_t po_rs2der(const uint8_t *rs, size_t flen, uint8_t *der)
{
	uint8_t body[2 * 60];
	size_t n = der_int(body, rs, flen);

	n += der_int(body + n, rs + flen, flen);
	return der_seq(der, body, n);
}

static int put_int(const uint8_t *v, size_t n, uint8_t *dst, size_t flen)
{
	while (n > 0 && v[0] == 0) { v++; n--; }
	if (n > flen)
		return 0;
	memset(dst, 0, flen - n);
	memcpy(dst + flen - n, v, n);
	return 1;
}

int po_der2rs(const uint8_t *der, size_t len, size_t flen, uint8_t *rs)
{
	const uint8_t *p = der, *e = der + len, *s, *v;
	size_t n, sl;

	if (!(s = der_get(&p, e, 0x30, &sl)))
		return 0;
	p = s;
	e = s + sl;
	if (!(v = der_get(&p, e, 0x02, &n)) || !put_int(v, n, rs, flen))
		return 0;
	if (!(v = der_get(&p, e, 0x02, &n)) || !put_int(v, n, rs + flen, flen))
		return 0;
	return 1;
}

long po_sm2_raw2der(const uint8_t *raw, size_t len, uint8_t *der, size_t cap)
{
	uint8_t *body;
	size_t n;
	long r;

	if (len < 97 || cap < len + 32)
		return -1;
	body = OPENSSL_malloc(len + 32);
	n = der_int(body, raw + 1, 32);
	n += der_int(body + n, raw + 33, 32);
	n += der_oct(body + n, raw + 65, 32);
	n += der_oct(body + n, raw + 97, len - 97);
	r = (long)der_seq(der, body, n);
	OPENSSL_free(body);
	return r;
}

long po_sm2_der2raw(const uint8_t *der, size_t len, uint8_t *raw, size_t cap)
{
	const uint8_t *p = der, *e = der + len, *s, *v;
	size_t n, sl;

	if (!(s = der_get(&p, e, 0x30, &sl)))
		return -1;
	p = s;
	e = s + sl;
	raw[0] = 4;
	if (!(v = der_get(&p, e, 0x02, &n)) || !put_int(v, n, raw + 1, 32))
		return -1;
	if (!(v = der_get(&p, e, 0x02, &n)) || !put_int(v, n, raw + 33, 32))
		return -1;
	if (!(v = der_get(&p, e, 0x04, &n)) || n != 32)
		return -1;
	memcpy(raw + 65, v, 32);
	if (!(v = der_get(&p, e, 0x04, &n)) || 97 + n > cap)
		return -1;
	memcpy(raw + 97, v, n);
	return (long)(97 + n);
}

/* ---- EVP wrappers ---------------------------------------------------------- */

static int po_setpad(EVP_PKEY_CTX *pc, int pad, int saltlen, const EVP_MD *mgf1)
{
	if (pad == 0)
		return 1;
	if (EVP_PKEY_CTX_set_rsa_padding(pc, pad) <= 0)
		return 0;
	if (pad == RSA_PKCS1_PSS_PADDING) {
		if (EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, saltlen) <= 0)
			return 0;
		if (mgf1 && EVP_PKEY_CTX_set_rsa_mgf1_md(pc, mgf1) <= 0)
			return 0;
	}
	return 1;
}

int po_verify(EVP_PKEY *k, const EVP_MD *md, int pad, int saltlen, const EVP_MD *mgf1,
              const uint8_t *msg, size_t len, const uint8_t *sig, size_t siglen)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	int ok = 0;

	if (EVP_DigestVerifyInit(c, &pc, md, NULL, k) > 0 && po_setpad(pc, pad, saltlen, mgf1))
		ok = EVP_DigestVerify(c, sig, siglen, msg, len) == 1;
	EVP_MD_CTX_free(c);
	return ok;
}

size_t po_sign(EVP_PKEY *k, const EVP_MD *md, int pad, int saltlen, const EVP_MD *mgf1,
               const uint8_t *msg, size_t len, uint8_t *sig, size_t cap)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	size_t n = cap;

	if (EVP_DigestSignInit(c, &pc, md, NULL, k) <= 0 || !po_setpad(pc, pad, saltlen, mgf1) ||
	    EVP_DigestSign(c, sig, &n, msg, len) <= 0)
		n = 0;
	EVP_MD_CTX_free(c);
	return n;
}

int po_verify_hash(EVP_PKEY *k, const EVP_MD *md, int pad, int saltlen,
                   const uint8_t *h, size_t hl, const uint8_t *sig, size_t siglen)
{
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	int ok = 0;

	if (EVP_PKEY_verify_init(pc) > 0 && po_setpad(pc, pad, saltlen, NULL) &&
	    (md == NULL || EVP_PKEY_CTX_set_signature_md(pc, md) > 0))
		ok = EVP_PKEY_verify(pc, sig, siglen, h, hl) == 1;
	EVP_PKEY_CTX_free(pc);
	return ok;
}

static EVP_MD_CTX *po_sm2_ctx(EVP_PKEY *k, const uint8_t *id, size_t idlen, int sign)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	static const uint8_t defid[] = "1234567812345678";

	if (id == NULL) {
		id = defid;
		idlen = 16;
	}
	EVP_PKEY_CTX_set1_id(pc, id, idlen);
	EVP_MD_CTX_set_pkey_ctx(c, pc);
	if ((sign ? EVP_DigestSignInit(c, NULL, EVP_sm3(), NULL, k)
	          : EVP_DigestVerifyInit(c, NULL, EVP_sm3(), NULL, k)) <= 0) {
		EVP_MD_CTX_free(c);
		EVP_PKEY_CTX_free(pc);
		return NULL;
	}
	return c;
}

int po_sm2_verify(EVP_PKEY *k, const uint8_t *id, size_t idlen,
                  const uint8_t *msg, size_t len, const uint8_t rs[64])
{
	EVP_MD_CTX *c = po_sm2_ctx(k, id, idlen, 0);
	uint8_t der[80];
	size_t dl = po_rs2der(rs, 32, der);
	int ok;

	if (c == NULL)
		return 0;
	ok = EVP_DigestVerify(c, der, dl, msg, len) == 1;
	EVP_PKEY_CTX_free(EVP_MD_CTX_get_pkey_ctx(c));
	EVP_MD_CTX_free(c);
	return ok;
}

int po_sm2_sign(EVP_PKEY *k, const uint8_t *id, size_t idlen,
                const uint8_t *msg, size_t len, uint8_t rs[64])
{
	EVP_MD_CTX *c = po_sm2_ctx(k, id, idlen, 1);
	uint8_t der[80];
	size_t dl = sizeof der;
	int ok;

	if (c == NULL)
		return 0;
	ok = EVP_DigestSign(c, der, &dl, msg, len) == 1 && po_der2rs(der, dl, 32, rs);
	EVP_PKEY_CTX_free(EVP_MD_CTX_get_pkey_ctx(c));
	EVP_MD_CTX_free(c);
	return ok;
}

static long po_crypt(int enc, EVP_PKEY *k, int pad, const EVP_MD *md, const EVP_MD *mgf1,
                     const uint8_t *label, size_t llen,
                     const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	size_t n = cap;
	long r = -1;

	if ((enc ? EVP_PKEY_encrypt_init(pc) : EVP_PKEY_decrypt_init(pc)) <= 0)
		goto out;
	if (pad && EVP_PKEY_CTX_set_rsa_padding(pc, pad) <= 0)
		goto out;
	if (pad == RSA_PKCS1_OAEP_PADDING) {
		if (md && EVP_PKEY_CTX_set_rsa_oaep_md(pc, md) <= 0)
			goto out;
		if (mgf1 && EVP_PKEY_CTX_set_rsa_mgf1_md(pc, mgf1) <= 0)
			goto out;
		if (llen) {
			void *l = OPENSSL_memdup(label, llen);
			if (EVP_PKEY_CTX_set0_rsa_oaep_label(pc, l, (int)llen) <= 0) {
				OPENSSL_free(l);
				goto out;
			}
		}
	}
	if ((enc ? EVP_PKEY_encrypt(pc, out, &n, in, len) : EVP_PKEY_decrypt(pc, out, &n, in, len)) > 0)
		r = (long)n;
out:
	EVP_PKEY_CTX_free(pc);
	return r;
}

long po_encrypt(EVP_PKEY *k, int pad, const EVP_MD *md, const EVP_MD *mgf1,
                const uint8_t *label, size_t llen,
                const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
	return po_crypt(1, k, pad, md, mgf1, label, llen, in, len, out, cap);
}

long po_decrypt(EVP_PKEY *k, int pad, const EVP_MD *md, const EVP_MD *mgf1,
                const uint8_t *label, size_t llen,
                const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
	return po_crypt(0, k, pad, md, mgf1, label, llen, in, len, out, cap);
}

size_t po_ecdh(EVP_PKEY *priv, EVP_PKEY *peer, uint8_t *out, size_t cap)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(priv, NULL);
	size_t n = cap;

	if (EVP_PKEY_derive_init(c) <= 0 || EVP_PKEY_derive_set_peer(c, peer) <= 0 ||
	    EVP_PKEY_derive(c, out, &n) <= 0)
		n = 0;
	EVP_PKEY_CTX_free(c);
	return n;
}

int po_pub_check(EVP_PKEY *k)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
	int ok = c && EVP_PKEY_public_check(c) == 1;

	EVP_PKEY_CTX_free(c);
	return ok;
}
