/* pvault_cert.h - X.509 parsing for pvault key import --type cert. */
#ifndef PVAULT_CERT_H
#define PVAULT_CERT_H

#include <stddef.h>

typedef struct pvault_cert {
	unsigned char *der, *subject, *issuer, *serial;   /* DER encodings */
	size_t der_len, subject_len, issuer_len, serial_len;
} pvault_cert;

/* 0; -1 unreadable; -2 not a PEM or DER certificate. */
int pvault_cert_parse(const char *path, pvault_cert *c);
void pvault_cert_clear(pvault_cert *c);

#endif
