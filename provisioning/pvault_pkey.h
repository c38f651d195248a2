/* pvault_pkey.h - parse private key files (PEM, DER, PKCS#8, PKCS#12) for
 * pvault key import --type pkey.  OpenSSL parses; the components are
 * handed to the token (which imports them into the vault) and wiped. */
#ifndef PVAULT_PKEY_H
#define PVAULT_PKEY_H

#include <stddef.h>
#include "provisioning/pvault_cert.h"

#define PVAULT_PKEY_MAXC 8

typedef struct pvault_pkey {
	unsigned long key_type;          /* CKK_RSA, CKK_EC, CKK_EC_EDWARDS, SM2 */
	const char *name;                /* "RSA-2048", "EC P-256", ...          */
	unsigned bits;
	/* private components: CKA type + value (wiped by clear) */
	unsigned long ptype[PVAULT_PKEY_MAXC];
	unsigned char *pval[PVAULT_PKEY_MAXC];
	size_t plen[PVAULT_PKEY_MAXC];
	int np;
	/* public components */
	unsigned long qtype[2];
	unsigned char *qval[2];
	size_t qlen[2];
	int nq;
	int has_cert;                    /* a PKCS#12 file carried one */
	pvault_cert cert;
} pvault_pkey;

/* 0; -1 unreadable; -2 not a key file (or wrong passphrase); -3 a key type
 * or curve the vault does not support. */
int pvault_pkey_parse(const char *path, const char *pass, pvault_pkey *k);
void pvault_pkey_clear(pvault_pkey *k);

#endif
