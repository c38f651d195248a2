/*
 * fuzz_pkey.c - libFuzzer harness for the private-key import path of
 * `pvault key import --type pkey`: the file parser (provisioning/
 * pvault_pkey.c: PEM, DER, PKCS#8 - encrypted ones with the passphrase
 * "fuzz" -, PKCS#12; OpenSSL decodes, our code maps its components and
 * the curve's OID), the certificate parser (pvault_cert.c) on the same
 * bytes, and then the token's import of the components it found
 * (C_CreateObject of a private key: token/tk_pk_import's checks, the
 * vault's IMPORT_KEY, the public object made beside it), as pvault does.
 *
 * Input: the file's bytes, as they are.  The token's failure on a parsed
 * key must be a precise CK_RV: CKR_GENERAL_ERROR, CKR_FUNCTION_FAILED and
 * CKR_DEVICE_ERROR fail the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fz_token.h"
#include "provisioning/pvault_cert.h"
#include "provisioning/pvault_pkey.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static CK_FUNCTION_LIST *fp_f;
static CK_SESSION_HANDLE fp_s;
static int fp_fd = -1;
static char fp_path[64];

static void fp_setup(void)
{
	CK_SLOT_ID slot;

	fp_f = fz_token(&slot, &fp_s, NULL);
	/* the parsers take a path: a memory file, rewritten per input */
	fp_fd = memfd_create("fuzz_pkey", 0);
	if (fp_fd < 0) {
		perror("memfd_create");
		exit(1);
	}
	snprintf(fp_path, sizeof fp_path, "/proc/self/fd/%d", fp_fd);
}

static void fp_rv(const char *what, CK_RV rv)
{
	if (rv == CKR_GENERAL_ERROR || rv == CKR_FUNCTION_FAILED || rv == CKR_DEVICE_ERROR) {
		fprintf(stderr, "fuzz_pkey: %s answered 0x%lx\n", what, (unsigned long)rv);
		abort();
	}
}

/* Import k as pkey_import does, then destroy what was made (all objects
 * with the harness's CKA_ID): the token stays empty between inputs. */
static void fp_import(const pvault_pkey *k)
{
	static const CK_BYTE id[2] = { 'f', 'z' };
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kt = k->key_type;
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	CK_ATTRIBUTE t[8 + PVAULT_PKEY_MAXC], f = { CKA_ID, (void *)id, sizeof id };
	CK_OBJECT_HANDLE h, hs[8];
	CK_ULONG nt = 0, got, i;
	int c;

#define A(ty, p, l) do { t[nt].type = (ty); t[nt].pValue = (void *)(p); \
		t[nt].ulValueLen = (CK_ULONG)(l); nt++; } while (0)
	A(CKA_CLASS, &cls, sizeof cls); A(CKA_KEY_TYPE, &kt, sizeof kt);
	A(CKA_TOKEN, &no, 1); A(CKA_PRIVATE, &yes, 1); A(CKA_SENSITIVE, &yes, 1);
	A(CKA_SIGN, &yes, 1); A(CKA_ID, id, sizeof id);
	for (c = 0; c < k->np; c++)
		A(k->ptype[c], k->pval[c], k->plen[c]);
#undef A
	fp_rv("C_CreateObject", fp_f->C_CreateObject(fp_s, t, nt, &h));
	if (fp_f->C_FindObjectsInit(fp_s, &f, 1) != CKR_OK)
		abort();
	if (fp_f->C_FindObjects(fp_s, hs, 8, &got) != CKR_OK)
		got = 0;
	(void)fp_f->C_FindObjectsFinal(fp_s);
	for (i = 0; i < got; i++)
		fp_rv("C_DestroyObject", fp_f->C_DestroyObject(fp_s, hs[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pvault_pkey k;
	pvault_cert c;

	if (fp_f == NULL)
		fp_setup();
	if (ftruncate(fp_fd, 0) != 0 || pwrite(fp_fd, data, size, 0) != (ssize_t)size)
		abort();
	if (pvault_pkey_parse(fp_path, "fuzz", &k) == 0) {
		fp_import(&k);
		pvault_pkey_clear(&k);
	}
	memset(&c, 0, sizeof c);
	if (pvault_cert_parse(fp_path, &c) == 0)
		pvault_cert_clear(&c);
	return 0;
}
