/* pvault_pkey.c - private key files -> PKCS#11 components (parsing only). */
#include "provisioning/pvault_pkey.h"
#include "gpu/core/kc_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <p11-kit/pkcs11.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#define PVAULT_CKK_SM2 (0x80505600UL | 0x01UL)

static const unsigned char oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const unsigned char oid_p384[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
static const unsigned char oid_sm2[]  = { 0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d };
static const unsigned char oid_ed25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };

static int add(unsigned long *types, unsigned char **vals, size_t *lens, int *n, int max,
               unsigned long t, const unsigned char *v, size_t l)
{
	if (*n >= max || (vals[*n] = (unsigned char *)malloc(l ? l : 1)) == NULL)
		return -1;
	memcpy(vals[*n], v, l);
	types[*n] = t;
	lens[*n] = l;
	(*n)++;
	return 0;
}
#define ADDP(t, v, l) add(k->ptype, k->pval, k->plen, &k->np, PVAULT_PKEY_MAXC, (t), (v), (l))
#define ADDQ(t, v, l) add(k->qtype, k->qval, k->qlen, &k->nq, 2, (t), (v), (l))

/* a BIGNUM parameter, big endian, left-padded to pad bytes (0 = minimal) */
static int bn_param(EVP_PKEY *pk, const char *name, unsigned char *buf, size_t cap,
                    size_t pad, size_t *len)
{
	BIGNUM *bn = NULL;
	int n;
	if (!EVP_PKEY_get_bn_param(pk, name, &bn))
		return -1;
	n = BN_num_bytes(bn);
	if (pad == 0)
		pad = (size_t)n;
	if ((size_t)n > pad || pad > cap || BN_bn2binpad(bn, buf, (int)pad) < 0) {
		BN_clear_free(bn);
		return -1;
	}
	BN_clear_free(bn);
	*len = pad;
	return 0;
}

static int octet_string(const unsigned char *p, size_t n, unsigned char *out, size_t cap, size_t *len)
{
	if (n > 127 || n + 2 > cap)
		return -1;
	out[0] = 0x04;
	out[1] = (unsigned char)n;
	memcpy(out + 2, p, n);
	*len = n + 2;
	return 0;
}

static int from_pkey(EVP_PKEY *pk, pvault_pkey *k)
{
	unsigned char b[1100], q[200];
	size_t l = 0, ql = 0;
	int rc = -3;

	if (EVP_PKEY_is_a(pk, "RSA")) {
		static const struct { const char *p; unsigned long t; } rsa[] = {
			{ OSSL_PKEY_PARAM_RSA_D, CKA_PRIVATE_EXPONENT },
			{ OSSL_PKEY_PARAM_RSA_FACTOR1, CKA_PRIME_1 },
			{ OSSL_PKEY_PARAM_RSA_FACTOR2, CKA_PRIME_2 },
			{ OSSL_PKEY_PARAM_RSA_EXPONENT1, CKA_EXPONENT_1 },
			{ OSSL_PKEY_PARAM_RSA_EXPONENT2, CKA_EXPONENT_2 },
			{ OSSL_PKEY_PARAM_RSA_COEFFICIENT1, CKA_COEFFICIENT } };
		size_t i;
		k->key_type = CKK_RSA;
		k->bits = (unsigned)EVP_PKEY_get_bits(pk);
		k->name = "RSA";
		if (bn_param(pk, OSSL_PKEY_PARAM_RSA_N, b, sizeof b, 0, &l) || ADDP(CKA_MODULUS, b, l) ||
		    ADDQ(CKA_MODULUS, b, l))
			goto out;
		if (bn_param(pk, OSSL_PKEY_PARAM_RSA_E, b, sizeof b, 0, &l) ||
		    ADDP(CKA_PUBLIC_EXPONENT, b, l) || ADDQ(CKA_PUBLIC_EXPONENT, b, l))
			goto out;
		for (i = 0; i < sizeof rsa / sizeof rsa[0]; i++)
			if (bn_param(pk, rsa[i].p, b, sizeof b, 0, &l) || ADDP(rsa[i].t, b, l))
				goto out;
		rc = 0;
	} else if (EVP_PKEY_is_a(pk, "EC") || EVP_PKEY_is_a(pk, "SM2")) {
		char grp[64] = "";
		const unsigned char *oid;
		size_t oidl, fl;
		if (!EVP_PKEY_get_utf8_string_param(pk, OSSL_PKEY_PARAM_GROUP_NAME, grp, sizeof grp, NULL))
			goto out;
		if (!strcmp(grp, "prime256v1") || !strcmp(grp, "P-256")) {
			oid = oid_p256; oidl = sizeof oid_p256; fl = 32; k->name = "EC P-256"; k->key_type = CKK_EC;
		} else if (!strcmp(grp, "secp384r1") || !strcmp(grp, "P-384")) {
			oid = oid_p384; oidl = sizeof oid_p384; fl = 48; k->name = "EC P-384"; k->key_type = CKK_EC;
		} else if (!strcmp(grp, "SM2")) {
			oid = oid_sm2; oidl = sizeof oid_sm2; fl = 32; k->name = "SM2"; k->key_type = PVAULT_CKK_SM2;
		} else
			goto out;
		k->bits = (unsigned)(fl * 8);
		if (ADDP(CKA_EC_PARAMS, oid, oidl) || ADDQ(CKA_EC_PARAMS, oid, oidl))
			goto out;
		if (bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, b, sizeof b, fl, &l) || ADDP(CKA_VALUE, b, l))
			goto out;
		if (!EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, q, sizeof q, &ql) ||
		    octet_string(q, ql, b, sizeof b, &l) || ADDQ(CKA_EC_POINT, b, l))
			goto out;
		rc = 0;
	} else if (EVP_PKEY_is_a(pk, "ED25519")) {
		k->key_type = CKK_EC_EDWARDS;
		k->name = "Ed25519";
		k->bits = 255;
		l = 32;
		ql = 32;
		if (ADDP(CKA_EC_PARAMS, oid_ed25519, sizeof oid_ed25519) ||
		    ADDQ(CKA_EC_PARAMS, oid_ed25519, sizeof oid_ed25519) ||
		    !EVP_PKEY_get_raw_private_key(pk, b, &l) || l != 32 || ADDP(CKA_VALUE, b, l) ||
		    !EVP_PKEY_get_raw_public_key(pk, q, &ql) || ql != 32 ||
		    octet_string(q, ql, b, sizeof b, &l) || ADDQ(CKA_EC_POINT, b, l))
			goto out;
		rc = 0;
	}
out:
	kc_wipe(b, sizeof b);
	return rc;
}

static int pw_cb(char *buf, int size, int rw, void *u)
{
	const char *p = (const char *)u;
	int n;
	(void)rw;
	if (p == NULL)
		return 0;
	n = (int)strlen(p);
	if (n > size)
		n = size;
	memcpy(buf, p, (size_t)n);
	return n;
}

int pvault_pkey_parse(const char *path, const char *pass, pvault_pkey *k)
{
	BIO *b = BIO_new_file(path, "rb");
	EVP_PKEY *pk = NULL;
	PKCS12 *p12 = NULL;
	X509 *x = NULL;
	int rc;

	memset(k, 0, sizeof *k);
	if (b == NULL)
		return -1;
	pk = PEM_read_bio_PrivateKey(b, NULL, pw_cb, (void *)pass);
	if (pk == NULL) {
		(void)BIO_reset(b);
		pk = d2i_PKCS8PrivateKey_bio(b, NULL, pw_cb, (void *)pass);
	}
	if (pk == NULL) {
		(void)BIO_reset(b);
		pk = d2i_PrivateKey_bio(b, NULL);
	}
	if (pk == NULL) {
		(void)BIO_reset(b);
		p12 = d2i_PKCS12_bio(b, NULL);
		if (p12 != NULL && !PKCS12_parse(p12, pass ? pass : "", &pk, &x, NULL))
			pk = NULL;
		PKCS12_free(p12);
	}
	BIO_free(b);
	ERR_clear_error();
	if (pk == NULL) {
		X509_free(x);
		return -2;
	}
	rc = from_pkey(pk, k);
	if (rc == 0 && x != NULL) {
		unsigned char *p;
		int n;
		pvault_cert *c = &k->cert;
		p = NULL; n = i2d_X509(x, &p); c->der = p; c->der_len = n > 0 ? (size_t)n : 0;
		p = NULL; n = i2d_X509_NAME(X509_get_subject_name(x), &p); c->subject = p; c->subject_len = n > 0 ? (size_t)n : 0;
		p = NULL; n = i2d_X509_NAME(X509_get_issuer_name(x), &p); c->issuer = p; c->issuer_len = n > 0 ? (size_t)n : 0;
		p = NULL; n = i2d_ASN1_INTEGER(X509_get0_serialNumber(x), &p); c->serial = p; c->serial_len = n > 0 ? (size_t)n : 0;
		k->has_cert = c->der && c->subject && c->issuer && c->serial;
	}
	X509_free(x);
	EVP_PKEY_free(pk);
	if (rc)
		pvault_pkey_clear(k);
	return rc;
}

void pvault_pkey_clear(pvault_pkey *k)
{
	int i;
	for (i = 0; i < k->np; i++) {
		kc_wipe(k->pval[i], k->plen[i]);
		free(k->pval[i]);
	}
	for (i = 0; i < k->nq; i++)
		free(k->qval[i]);
	pvault_cert_clear(&k->cert);
	kc_wipe(k, sizeof *k);
}
