/*
 * test_p11_attrlen.c - attribute values longer than the token takes.
 *
 * Every call that makes or changes an object from a template (create -
 * data, certificate, secret and private keys -, copy, set, generate,
 * generate pair, unwrap, derive) answers CKR_ATTRIBUTE_VALUE_INVALID to a
 * value longer than TK_ATTR_VALUE_MAX, and makes nothing: never a
 * truncated value (SQLite takes int lengths: 2^31 bytes became 0, 2^32+1
 * became 1).  The lengths are fake: the buffer behind them is 16 bytes of
 * heap, so a call that read it before refusing is an ASan report.  A
 * search for such a value matches nothing.  A value of exactly
 * TK_ATTR_VALUE_MAX bytes is stored and read back whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "token/tk.h"
#include "tsupport.h"

static const CK_ULONG huge[] = {
	TK_ATTR_VALUE_MAX + 1, 1UL << 31, (1UL << 32) + 1, (CK_ULONG)-1,
};
#define NHUGE (sizeof huge / sizeof huge[0])

/* 32 bytes behind every fake length (and a valid P-256 scalar, 1, for a
 * template whose only fault is its long value) */
static uint8_t *small;
static CK_OBJECT_HANDLE data_obj, aes_key, hkdf_key, ec_priv;
static uint8_t wrapped[64], point[65];
static CK_ULONG wrapped_len;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };

/* Objects visible in pc_s. */
static CK_ULONG count_objects(void)
{
	CK_OBJECT_HANDLE h[64];
	CK_ULONG n = 0, total = 0;

	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(pc_s, NULL, 0) == CKR_OK);
	do {
		CU_ASSERT_FATAL(pkt_f->C_FindObjects(pc_s, h, 64, &n) == CKR_OK);
		total += n;
	} while (n == 64);
	CU_ASSERT_FATAL(pkt_f->C_FindObjectsFinal(pc_s) == CKR_OK);
	return total;
}

static void t_setup(void)
{
	CK_OBJECT_CLASS dc = CKO_DATA;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE d[] = { { CKA_CLASS, &dc, sizeof dc }, { CKA_TOKEN, &t, 1 },
	                     { CKA_LABEL, "data", 4 } };
	CK_MECHANISM gm = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pub[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 } };
	CK_ATTRIBUTE prv[] = { { CKA_DERIVE, &t, 1 }, { CKA_PRIVATE, &f, 1 } };
	CK_MECHANISM kw = { CKM_AES_KEY_WRAP_PAD, NULL, 0 };
	uint8_t kv[32], der[80];
	CK_ATTRIBUTE ecp = { CKA_EC_POINT, der, sizeof der };
	CK_OBJECT_HANDLE ec_pub, x;

	pc_token();
	small = calloc(1, 32);
	CU_ASSERT_FATAL(small != NULL);
	small[31] = 1;
	ts_rand(kv, sizeof kv);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, d, 3, &data_obj) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_AES, kv, 32, 0, &aes_key) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, kv, 32, 0, &hkdf_key) == CKR_OK);
	/* a wrapped key and a peer point that C_UnwrapKey and ECDH accept */
	CU_ASSERT_FATAL(pc_key(CKK_AES, kv, 16, PC_EXTRACTABLE, &x) == CKR_OK);
	wrapped_len = sizeof wrapped;
	CU_ASSERT_FATAL(pkt_f->C_WrapKey(pc_s, &kw, aes_key, x, wrapped, &wrapped_len) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &gm, pub, 1, prv, 2, &ec_pub,
	                                         &ec_priv) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_GetAttributeValue(pc_s, ec_pub, &ecp, 1) == CKR_OK);
	CU_ASSERT_FATAL(ecp.ulValueLen == 67 && der[0] == 0x04 && der[1] == 65);
	memcpy(point, der + 2, sizeof point);
}

#define BAD(call) do { \
	CK_RV rv_ = (call); \
	if (rv_ != CKR_ATTRIBUTE_VALUE_INVALID) \
		printf("\n  %s, length %lu: CK_RV 0x%lx\n", #call, (unsigned long)len, \
		       (unsigned long)rv_); \
	CU_ASSERT(rv_ == CKR_ATTRIBUTE_VALUE_INVALID); \
} while (0)

/* One fake length in every template-taking call. */
static void refuse_len(CK_ULONG len)
{
	CK_OBJECT_CLASS dc = CKO_DATA, sk = CKO_SECRET_KEY, pk = CKO_PRIVATE_KEY,
	                cc = CKO_CERTIFICATE;
	CK_KEY_TYPE aes = CKK_AES, ec = CKK_EC, gen = CKK_GENERIC_SECRET;
	CK_CERTIFICATE_TYPE x509 = CKC_X_509;
	CK_ULONG klen = 32;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE;
	CK_ATTRIBUTE data_label[] = { { CKA_CLASS, &dc, sizeof dc }, { CKA_TOKEN, &t, 1 },
	                              { CKA_LABEL, small, len } };
	CK_ATTRIBUTE data_value[] = { { CKA_CLASS, &dc, sizeof dc }, { CKA_VALUE, small, len } };
	CK_ATTRIBUTE cert[] = { { CKA_CLASS, &cc, sizeof cc },
	                        { CKA_CERTIFICATE_TYPE, &x509, sizeof x509 },
	                        { CKA_SUBJECT, small, 4 }, { CKA_VALUE, small, len } };
	CK_ATTRIBUTE secret[] = { { CKA_CLASS, &sk, sizeof sk }, { CKA_KEY_TYPE, &aes, sizeof aes },
	                          { CKA_VALUE, small, len } };
	CK_ATTRIBUTE secret_id[] = { { CKA_CLASS, &sk, sizeof sk }, { CKA_KEY_TYPE, &aes, sizeof aes },
	                             { CKA_VALUE, small, 16 }, { CKA_ID, small, len } };
	CK_ATTRIBUTE priv[] = { { CKA_CLASS, &pk, sizeof pk }, { CKA_KEY_TYPE, &ec, sizeof ec },
	                        { CKA_EC_PARAMS, (void *)p256, sizeof p256 },
	                        { CKA_VALUE, small, len } };
	CK_ATTRIBUTE priv_label[] = { { CKA_CLASS, &pk, sizeof pk }, { CKA_KEY_TYPE, &ec, sizeof ec },
	                              { CKA_EC_PARAMS, (void *)p256, sizeof p256 },
	                              { CKA_VALUE, small, 32 }, { CKA_PRIVATE, &f, 1 },
	                              { CKA_LABEL, small, len } };
	CK_ATTRIBUTE label[] = { { CKA_LABEL, small, len } };
	CK_ATTRIBUTE pub_priv[] = { { CKA_PRIVATE, &f, 1 } };
	CK_ATTRIBUTE priv_long[] = { { CKA_PRIVATE, &f, 1 }, { CKA_LABEL, small, len } };
	CK_ATTRIBUTE gen_key[] = { { CKA_VALUE_LEN, &klen, sizeof klen }, { CKA_PRIVATE, &f, 1 },
	                           { CKA_LABEL, small, len } };
	CK_ATTRIBUTE ec_pub_t[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 },
	                            { CKA_LABEL, small, len } };
	CK_ATTRIBUTE ec_ok_t[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 } };
	CK_ATTRIBUTE unwrap_t[] = { { CKA_CLASS, &sk, sizeof sk }, { CKA_KEY_TYPE, &aes, sizeof aes },
	                            { CKA_PRIVATE, &f, 1 }, { CKA_LABEL, small, len } };
	CK_ATTRIBUTE derive_t[] = { { CKA_CLASS, &sk, sizeof sk }, { CKA_KEY_TYPE, &gen, sizeof gen },
	                            { CKA_VALUE_LEN, &klen, sizeof klen }, { CKA_PRIVATE, &f, 1 },
	                            { CKA_LABEL, small, len } };
	CK_MECHANISM kg = { CKM_AES_KEY_GEN, NULL, 0 }, pg = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM kw = { CKM_AES_KEY_WRAP_PAD, NULL, 0 };
	CK_HKDF_PARAMS hp = { CK_TRUE, CK_TRUE, CKM_SHA256, CKF_HKDF_SALT_NULL, NULL, 0, 0,
	                      NULL, 0 };
	CK_MECHANISM hkdf = { CKM_HKDF_DERIVE, &hp, sizeof hp };
	CK_ECDH1_DERIVE_PARAMS ep = { CKD_NULL, 0, NULL, sizeof point, point };
	CK_MECHANISM ecdh = { CKM_ECDH1_DERIVE, &ep, sizeof ep };
	CK_OBJECT_HANDLE pub_h, priv_h;
	CK_ATTRIBUTE got = { CKA_LABEL, NULL, 0 };

	BAD(pkt_f->C_CreateObject(pc_s, data_label, 3, &h));
	BAD(pkt_f->C_CreateObject(pc_s, data_value, 2, &h));
	BAD(pkt_f->C_CreateObject(pc_s, cert, 4, &h));
	BAD(pkt_f->C_CreateObject(pc_s, secret, 3, &h));
	BAD(pkt_f->C_CreateObject(pc_s, secret_id, 4, &h));
	BAD(pkt_f->C_CreateObject(pc_s, priv, 4, &h));
	BAD(pkt_f->C_CreateObject(pc_s, priv_label, 6, &h));
	BAD(pkt_f->C_SetAttributeValue(pc_s, data_obj, label, 1));
	BAD(pkt_f->C_CopyObject(pc_s, data_obj, label, 1, &h));
	BAD(pkt_f->C_GenerateKey(pc_s, &kg, gen_key, 3, &h));
	BAD(pkt_f->C_GenerateKeyPair(pc_s, &pg, ec_pub_t, 2, pub_priv, 1, &pub_h, &priv_h));
	BAD(pkt_f->C_GenerateKeyPair(pc_s, &pg, ec_ok_t, 1, priv_long, 2, &pub_h, &priv_h));
	BAD(pkt_f->C_UnwrapKey(pc_s, &kw, aes_key, wrapped, wrapped_len, unwrap_t, 4, &h));
	BAD(pkt_f->C_DeriveKey(pc_s, &hkdf, hkdf_key, derive_t, 5, &h));
	BAD(pkt_f->C_DeriveKey(pc_s, &ecdh, ec_priv, derive_t, 5, &h));
	/* the data object's label is what it was */
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, data_obj, &got, 1) == CKR_OK);
	CU_ASSERT(got.ulValueLen == 4);
	/* no stored value can be that long: a search finds nothing */
	{
		CK_OBJECT_HANDLE f[4];
		CK_ULONG n = 1;
		CU_ASSERT(pkt_f->C_FindObjectsInit(pc_s, label, 1) == CKR_OK);
		CU_ASSERT(pkt_f->C_FindObjects(pc_s, f, 4, &n) == CKR_OK && n == 0);
		CU_ASSERT(pkt_f->C_FindObjectsFinal(pc_s) == CKR_OK);
	}
}

static void t_refused(void)
{
	CK_ULONG before = count_objects();
	size_t i;

	for (i = 0; i < NHUGE; i++)
		refuse_len(huge[i]);
	CU_ASSERT(count_objects() == before);       /* nothing was made */
}

/* TK_ATTR_VALUE_MAX bytes of label and value: stored, found, read back
 * whole, from the store after the library starts again too. */
static void t_largest(void)
{
	const size_t n = TK_ATTR_VALUE_MAX;
	uint8_t *lab = malloc(n), *val = malloc(n), *back = malloc(n);
	CK_OBJECT_CLASS dc = CKO_DATA;
	CK_BBOOL t = CK_TRUE;
	CK_ATTRIBUTE d[] = { { CKA_CLASS, &dc, sizeof dc }, { CKA_TOKEN, &t, 1 },
	                     { CKA_LABEL, lab, n }, { CKA_VALUE, val, n } };
	CK_OBJECT_HANDLE h, f[2];
	CK_ULONG nf = 0;
	int pass;

	CU_ASSERT_FATAL(lab != NULL && val != NULL && back != NULL);
	ts_rand(lab, n);
	ts_rand(val, n);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, d, 4, &h) == CKR_OK);
	for (pass = 0; pass < 2; pass++) {
		CK_ATTRIBUTE g[] = { { CKA_LABEL, back, n } };
		memset(back, 0, n);
		CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, h, g, 1) == CKR_OK);
		CU_ASSERT(g[0].ulValueLen == n && memcmp(back, lab, n) == 0);
		g[0].type = CKA_VALUE;
		g[0].ulValueLen = n;
		memset(back, 0, n);
		CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, h, g, 1) == CKR_OK);
		CU_ASSERT(g[0].ulValueLen == n && memcmp(back, val, n) == 0);
		CU_ASSERT(pkt_f->C_FindObjectsInit(pc_s, &d[2], 1) == CKR_OK);
		CU_ASSERT(pkt_f->C_FindObjects(pc_s, f, 2, &nf) == CKR_OK);
		CU_ASSERT(nf == 1 && f[0] == h);
		CU_ASSERT(pkt_f->C_FindObjectsFinal(pc_s) == CKR_OK);
		if (pass == 0) {
			CU_ASSERT_FATAL(pkt_f->C_Finalize(NULL) == CKR_OK);
			CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
			pc_s = pkt_open(pc_slot, 1);
			CU_ASSERT_FATAL(pc_s != CK_INVALID_HANDLE);
		}
	}
	CU_ASSERT(pkt_f->C_DestroyObject(pc_s, h) == CKR_OK);
	free(lab);
	free(val);
	free(back);
	free(small);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_attrlen");

	CU_add_test(s, "setup: token, a data object, keys", t_setup);
	CU_add_test(s, "values longer than the token takes are refused, unread", t_refused);
	CU_add_test(s, "the longest value is stored whole", t_largest);
	return pc_run();
}
