/*
 * test_p11pk_slow.c - RSA-3072 and RSA-4096 key pairs generated in the
 * vault through C_GenerateKeyPair (seconds each): the public object gives
 * an OpenSSL key that passes EVP_PKEY_public_check with the requested size,
 * and n = p*q consistency is checked through the private operation:
 * PKCS#1 v1.5 and PSS signatures made by the token verify with OpenSSL, and
 * OAEP ciphertexts made by OpenSSL decrypt on the token.  (No test-only
 * export of the private key exists.)  Suite p11pk_slow, timeout 900.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/rsa.h>

#include "../p11crypto/pc.h"
#include "pk_ossl.h"
#include "tsupport.h"

static void keysize(CK_ULONG bits)
{
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_MECHANISM g = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_MODULUS_BITS, &bits, sizeof bits }, { CKA_VERIFY, &t, sizeof t } };
	CK_ATTRIBUTE st[] = { { CKA_PRIVATE, &f, sizeof f }, { CKA_SIGN, &t, sizeof t },
	                      { CKA_DECRYPT, &t, sizeof t } };
	CK_OBJECT_HANDLE pub, priv;
	uint8_t n[600], e[8], msg[100], sig[600], ct[600], out[600];
	CK_ATTRIBUTE a[2] = { { CKA_MODULUS, n, sizeof n }, { CKA_PUBLIC_EXPONENT, e, sizeof e } };
	CK_MECHANISM sm = { CKM_SHA512_RSA_PKCS, NULL, 0 };
	CK_RSA_PKCS_PSS_PARAMS pp = { CKM_SHA384, CKG_MGF1_SHA384, 48 };
	CK_MECHANISM pm = { CKM_SHA384_RSA_PKCS_PSS, &pp, sizeof pp };
	CK_RSA_PKCS_OAEP_PARAMS op = { CKM_SHA512, CKG_MGF1_SHA512, 0, NULL, 0 };
	CK_MECHANISM om = { CKM_RSA_PKCS_OAEP, &op, sizeof op };
	CK_ULONG sl, ol;
	EVP_PKEY *o;
	long cl;

	CU_ASSERT_EQUAL_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &g, pt, 2, st, 3, &pub, &priv), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_GetAttributeValue(pc_s, pub, a, 2), CKR_OK);
	CU_ASSERT_EQUAL(a[0].ulValueLen, bits / 8);
	o = po_rsa_pub(n, a[0].ulValueLen, e, a[1].ulValueLen);
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT(po_pub_check(o));
	CU_ASSERT_EQUAL(EVP_PKEY_get_bits(o), (int)bits);
	ts_rand(msg, sizeof msg);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &sm, priv), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT(po_verify(o, EVP_sha512(), RSA_PKCS1_PADDING, 0, NULL, msg, sizeof msg, sig, sl));
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &pm, priv), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT(po_verify(o, EVP_sha384(), RSA_PKCS1_PSS_PADDING, 48, EVP_sha384(), msg, sizeof msg, sig, sl));
	cl = po_encrypt(o, RSA_PKCS1_OAEP_PADDING, EVP_sha512(), EVP_sha512(), NULL, 0, msg, sizeof msg, ct, sizeof ct);
	CU_ASSERT_EQUAL_FATAL(cl, (long)(bits / 8));
	ol = sizeof out;
	CU_ASSERT_EQUAL(pkt_f->C_DecryptInit(pc_s, &om, priv), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_Decrypt(pc_s, ct, (CK_ULONG)cl, out, &ol), CKR_OK);
	CU_ASSERT(ol == sizeof msg && memcmp(out, msg, sizeof msg) == 0);
	EVP_PKEY_free(o);
}

static void t_3072(void) { keysize(3072); }
static void t_4096(void) { keysize(4096); }

int main(void)
{
	CU_pSuite s = pc_suite("p11pk_slow");

	CU_add_test(s, "token", pc_token);
	CU_add_test(s, "RSA-3072 key pair in the vault", t_3072);
	CU_add_test(s, "RSA-4096 key pair in the vault", t_4096);
	return pc_run();
}
