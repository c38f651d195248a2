/* pvault_cert.c - parse an X.509 certificate (PEM or DER) for
 * `pvault key import --type cert`.  OpenSSL is used here only to PARSE the
 * file (no crypto in provisioning/); the DER pieces go to the token as a
 * CKO_CERTIFICATE object beside the key with the same CKA_ID. */
#include "provisioning/pvault_cert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

static int der_of(int (*fn)(const void *, unsigned char **), const void *obj,
                  unsigned char **out, size_t *len)
{
	int n = fn(obj, out);
	if (n <= 0)
		return -1;
	*len = (size_t)n;
	return 0;
}

static int i2d_x509(const void *o, unsigned char **p) { return i2d_X509((X509 *)o, p); }
static int i2d_name(const void *o, unsigned char **p) { return i2d_X509_NAME((X509_NAME *)o, p); }
static int i2d_int(const void *o, unsigned char **p) { return i2d_ASN1_INTEGER((ASN1_INTEGER *)o, p); }

int pvault_cert_parse(const char *path, pvault_cert *c)
{
	BIO *b = BIO_new_file(path, "rb");
	X509 *x = NULL;
	int rc = -1;

	memset(c, 0, sizeof *c);
	if (b == NULL)
		return -1;
	x = PEM_read_bio_X509(b, NULL, NULL, NULL);
	if (x == NULL) {
		(void)BIO_reset(b);
		x = d2i_X509_bio(b, NULL);
	}
	BIO_free(b);
	if (x == NULL)
		return -2;
	if (der_of(i2d_x509, x, &c->der, &c->der_len) == 0 &&
	    der_of(i2d_name, X509_get_subject_name(x), &c->subject, &c->subject_len) == 0 &&
	    der_of(i2d_name, X509_get_issuer_name(x), &c->issuer, &c->issuer_len) == 0 &&
	    der_of(i2d_int, X509_get0_serialNumber(x), &c->serial, &c->serial_len) == 0)
		rc = 0;
	X509_free(x);
	if (rc)
		pvault_cert_clear(c);
	return rc;
}

void pvault_cert_clear(pvault_cert *c)
{
	OPENSSL_free(c->der);
	OPENSSL_free(c->subject);
	OPENSSL_free(c->issuer);
	OPENSSL_free(c->serial);
	memset(c, 0, sizeof *c);
}
