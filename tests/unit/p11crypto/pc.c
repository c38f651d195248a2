/*
 * pc.c - helpers of the p11crypto suite (see pc.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/host/pv_master.h"
#include "pc.h"
#include "tsupport.h"

CK_SLOT_ID pc_slot;
CK_SESSION_HANDLE pc_s;

void pc_setup(void)
{
	char conf[300], mk[300];
	uint8_t key[PV_MASTER_KEY_LEN];
	FILE *fp;

	pkt_setup();
	snprintf(mk, sizeof mk, "%s/master.key", pkt_dir);
	ts_rand(key, sizeof key);
	if (pv_master_write(mk, key, NULL) != 0) {
		fprintf(stderr, "pv_master_write failed\n");
		exit(1);
	}
	snprintf(conf, sizeof conf, "%s/pixelvault.conf", pkt_dir);
	fp = fopen(conf, "a");
	if (fp == NULL) {
		perror(conf);
		exit(1);
	}
	fprintf(fp, "master_key = %s\nworkers = 2\n", mk);
	fclose(fp);
	if (pkt_f->C_Initialize(NULL) != CKR_OK) {
		fprintf(stderr, "C_Initialize failed\n");
		exit(1);
	}
}

CU_pSuite pc_suite(const char *name)
{
	CU_pSuite s = NULL;

	pc_setup();
	if (CU_initialize_registry() != CUE_SUCCESS ||
	    (s = CU_add_suite(name, NULL, NULL)) == NULL) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		exit(1);
	}
	return s;
}

int pc_run(void)
{
	int rc = ts_run();

	pc_teardown();
	return rc;
}

void pc_token(void)
{
	pc_slot = pkt_new_token("p11crypto", 0);
	pc_s = pkt_open(pc_slot, 1);
	CU_ASSERT_FATAL(pc_s != CK_INVALID_HANDLE);
}

void pc_token_user(const char *label)
{
	pc_slot = pkt_new_token(label, 1);
	pc_s = pkt_open(pc_slot, 1);
	CU_ASSERT_FATAL(pkt_f->C_Login(pc_s, CKU_USER, (CK_UTF8CHAR_PTR)PKT_USER_PIN,
	                               strlen(PKT_USER_PIN)) == CKR_OK);
}

void pc_teardown(void)
{
	pkt_f->C_CloseAllSessions(pc_slot);
	pkt_f->C_Finalize(NULL);
}

CK_RV pc_key(CK_KEY_TYPE kt, const uint8_t *v, size_t n, int opts,
             CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_BBOOL *u = (opts & PC_NO_USAGE) ? &f : &t;
	CK_BBOOL *sens = (opts & PC_EXTRACTABLE) ? &f : &t;
	CK_BBOOL *ext = (opts & PC_EXTRACTABLE) ? &t : &f;
	CK_ATTRIBUTE a[] = {
		{ CKA_CLASS, &c, sizeof c },
		{ CKA_KEY_TYPE, &kt, sizeof kt },
		{ CKA_VALUE, (void *)v, n },
		{ CKA_ENCRYPT, u, 1 }, { CKA_DECRYPT, u, 1 },
		{ CKA_SIGN, u, 1 }, { CKA_VERIFY, u, 1 },
		{ CKA_WRAP, u, 1 }, { CKA_UNWRAP, u, 1 }, { CKA_DERIVE, u, 1 },
		{ CKA_SENSITIVE, sens, 1 }, { CKA_EXTRACTABLE, ext, 1 },
		{ CKA_PRIVATE, &f, 1 },        /* the suite has no login */
	};
	return pkt_f->C_CreateObject(pc_s, a, sizeof a / sizeof a[0], h);
}

long pc_value(CK_OBJECT_HANDLE k, uint8_t *out, size_t cap)
{
	CK_ATTRIBUTE a = { CKA_VALUE, out, cap };

	if (pkt_f->C_GetAttributeValue(pc_s, k, &a, 1) != CKR_OK)
		return -1;
	return (long)a.ulValueLen;
}

CK_RV pc_crypt(CK_MECHANISM *m, CK_OBJECT_HANDLE k, int enc,
               const uint8_t *in, size_t n, uint8_t *out, CK_ULONG *outl)
{
	CK_RV rv = enc ? pkt_f->C_EncryptInit(pc_s, m, k)
	               : pkt_f->C_DecryptInit(pc_s, m, k);

	if (rv != CKR_OK)
		return rv;
	return enc ? pkt_f->C_Encrypt(pc_s, (CK_BYTE_PTR)in, n, out, outl)
	           : pkt_f->C_Decrypt(pc_s, (CK_BYTE_PTR)in, n, out, outl);
}

/* A random chunk length for n remaining bytes. */
static size_t pc_chunk(size_t n)
{
	size_t c;

	switch (ts_rand_u32(4)) {
	case 0:  c = ts_rand_u32(17); break;
	case 1:  c = 16 * ts_rand_u32(5); break;
	default: c = ts_rand_u32((uint32_t)n + 1); break;
	}
	return c > n ? n : c;
}

CK_RV pc_crypt_multi(CK_MECHANISM *m, CK_OBJECT_HANDLE k, int enc,
                     const uint8_t *in, size_t n, uint8_t *out, CK_ULONG *outl)
{
	size_t done = 0, pos = 0, cap = *outl;
	CK_ULONG l;
	CK_RV rv = enc ? pkt_f->C_EncryptInit(pc_s, m, k)
	               : pkt_f->C_DecryptInit(pc_s, m, k);

	if (rv != CKR_OK)
		return rv;
	while (pos < n) {
		size_t c = pc_chunk(n - pos);
		l = cap - done;
		rv = enc ? pkt_f->C_EncryptUpdate(pc_s, (CK_BYTE_PTR)in + pos, c, out + done, &l)
		         : pkt_f->C_DecryptUpdate(pc_s, (CK_BYTE_PTR)in + pos, c, out + done, &l);
		if (rv != CKR_OK)
			return rv;
		done += l;
		pos += c;
	}
	l = cap - done;
	rv = enc ? pkt_f->C_EncryptFinal(pc_s, out + done, &l)
	         : pkt_f->C_DecryptFinal(pc_s, out + done, &l);
	if (rv == CKR_OK)
		*outl = done + l;
	return rv;
}

CK_RV pc_digest(CK_MECHANISM *m, const uint8_t *in, size_t n, int multi,
                uint8_t *out, CK_ULONG *outl)
{
	size_t pos = 0;
	CK_RV rv = pkt_f->C_DigestInit(pc_s, m);

	if (rv != CKR_OK)
		return rv;
	if (!multi)
		return pkt_f->C_Digest(pc_s, (CK_BYTE_PTR)in, n, out, outl);
	while (pos < n) {
		size_t c = pc_chunk(n - pos);
		if ((rv = pkt_f->C_DigestUpdate(pc_s, (CK_BYTE_PTR)in + pos, c)) != CKR_OK)
			return rv;
		pos += c;
	}
	return pkt_f->C_DigestFinal(pc_s, out, outl);
}

CK_RV pc_sign(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *in, size_t n,
              int multi, uint8_t *out, CK_ULONG *outl)
{
	size_t pos = 0;
	CK_RV rv = pkt_f->C_SignInit(pc_s, m, k);

	if (rv != CKR_OK)
		return rv;
	if (!multi)
		return pkt_f->C_Sign(pc_s, (CK_BYTE_PTR)in, n, out, outl);
	while (pos < n) {
		size_t c = pc_chunk(n - pos);
		if ((rv = pkt_f->C_SignUpdate(pc_s, (CK_BYTE_PTR)in + pos, c)) != CKR_OK)
			return rv;
		pos += c;
	}
	return pkt_f->C_SignFinal(pc_s, out, outl);
}

CK_RV pc_verify(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *in,
                size_t n, int multi, const uint8_t *sig, size_t sl)
{
	size_t pos = 0;
	CK_RV rv = pkt_f->C_VerifyInit(pc_s, m, k);

	if (rv != CKR_OK)
		return rv;
	if (!multi)
		return pkt_f->C_Verify(pc_s, (CK_BYTE_PTR)in, n, (CK_BYTE_PTR)sig, sl);
	while (pos < n) {
		size_t c = pc_chunk(n - pos);
		if ((rv = pkt_f->C_VerifyUpdate(pc_s, (CK_BYTE_PTR)in + pos, c)) != CKR_OK)
			return rv;
		pos += c;
	}
	return pkt_f->C_VerifyFinal(pc_s, (CK_BYTE_PTR)sig, sl);
}

CK_FUNCTION_LIST_3_2 *pc_list32(void)
{
	CK_RV (*get)(CK_UTF8CHAR_PTR, CK_VERSION_PTR, CK_INTERFACE_PTR_PTR, CK_FLAGS);
	CK_VERSION v32 = { 3, 2 };
	CK_INTERFACE *ifc = NULL;
	CK_FUNCTION_LIST_3_2 *f;

	get = (CK_RV (*)(CK_UTF8CHAR_PTR, CK_VERSION_PTR, CK_INTERFACE_PTR_PTR, CK_FLAGS))
	      dlsym(pkt_dl, "C_GetInterface");
	CU_ASSERT_FATAL(get != NULL);
	CU_ASSERT_FATAL(get((CK_UTF8CHAR_PTR)"PKCS 11", &v32, &ifc, 0) == CKR_OK);
	f = ifc->pFunctionList;
	CU_ASSERT_FATAL(f->v30.version.major == 3 && f->v30.version.minor == 2);
	return f;
}
