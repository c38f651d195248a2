/*
 * test_p11_vsig.c - PKCS#11 3.2 signature-first verification through the
 * real module's "PKCS 11" 3.2 interface: C_VerifySignatureInit with the
 * signature, then C_VerifySignature (single part) or
 * C_VerifySignatureUpdate + C_VerifySignatureFinal.
 *
 * Every mechanism family: HMAC-SHA-256 and AES-CMAC against OpenSSL's
 * MACs, ECDSA P-256, RSA-2048 PKCS#1 v1.5 and Ed25519 against the token's
 * own signatures (C_Sign; C_Verify agrees on each).  A right signature is
 * CKR_OK, one changed bit or a shorter one is refused, and either answer
 * ends the operation.  The two styles do not mix: each style's calls are
 * CKR_OPERATION_NOT_INITIALIZED to the other's operation (which goes on),
 * and an Init of either style is CKR_OPERATION_ACTIVE beside the other.
 * The Init's checks: a signature longer than any mechanism makes, a NULL
 * signature, a key without CKA_VERIFY.  In a CKF_ASYNC_SESSION session
 * C_VerifySignature pends and C_AsyncComplete("C_VerifySignature") takes
 * its answer, while the Init's signature (the token's copy) is all the
 * request has: the caller's buffer is wiped before the answer.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "pc.h"
#include "tsupport.h"

static CK_FUNCTION_LIST_3_2 *F;        /* the 3.2 list                     */
static CK_OBJECT_HANDLE mac_key, aes_key, no_verify_key;
static uint8_t mkey[32], akey[32];
static CK_OBJECT_HANDLE ec_pub, ec_prv, rsa_pub, rsa_prv, ed_pub, ed_prv;
static CK_MECHANISM hmac_m = { CKM_SHA256_HMAC, NULL, 0 }, cmac_m = { CKM_AES_CMAC, NULL, 0 };
static CK_MECHANISM ecdsa_m = { CKM_ECDSA_SHA256, NULL, 0 };
static CK_MECHANISM rsa_m = { CKM_SHA256_RSA_PKCS, NULL, 0 }, ed_m = { CKM_EDDSA, NULL, 0 };

static CK_RV genpair(CK_MECHANISM_TYPE mech, const uint8_t *ecp, size_t ecpl, CK_ULONG bits,
                     CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *prv)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE pt[2] = { { CKA_VERIFY, &t, sizeof t } }, st[] = {
		{ CKA_SIGN, &t, sizeof t }, { CKA_PRIVATE, &f, sizeof f } };

	if (ecp != NULL)
		pt[1] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)ecp, ecpl };
	else
		pt[1] = (CK_ATTRIBUTE){ CKA_MODULUS_BITS, &bits, sizeof bits };
	return pkt_f->C_GenerateKeyPair(pc_s, &m, pt, 2, st, 2, pub, prv);
}

static void t_setup(void)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t ed[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };

	pc_token();
	F = pc_list32();
	CU_ASSERT_FATAL(F->C_VerifySignatureInit != NULL && F->C_VerifySignature != NULL &&
	                F->C_VerifySignatureUpdate != NULL && F->C_VerifySignatureFinal != NULL);
	ts_rand(mkey, sizeof mkey);
	ts_rand(akey, sizeof akey);
	CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, mkey, sizeof mkey, 0, &mac_key) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_AES, akey, sizeof akey, 0, &aes_key) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, mkey, sizeof mkey, PC_NO_USAGE,
	                       &no_verify_key) == CKR_OK);
	CU_ASSERT_FATAL(genpair(CKM_EC_KEY_PAIR_GEN, p256, sizeof p256, 0, &ec_pub, &ec_prv) == CKR_OK);
	CU_ASSERT_FATAL(genpair(CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0, 2048, &rsa_pub, &rsa_prv) == CKR_OK);
	CU_ASSERT_FATAL(genpair(CKM_EC_EDWARDS_KEY_PAIR_GEN, ed, sizeof ed, 0, &ed_pub, &ed_prv) == CKR_OK);
}

/* OpenSSL's AES-256-CMAC of m. */
static void ossl_cmac(const uint8_t *m, size_t n, uint8_t out[16])
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	EVP_MAC_CTX *c = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM p[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)"AES-256-CBC", 0),
		OSSL_PARAM_construct_end() };
	size_t ol = 0;

	CU_ASSERT_FATAL(c != NULL);
	CU_ASSERT_FATAL(EVP_MAC_init(c, akey, sizeof akey, p) == 1);
	CU_ASSERT_FATAL(EVP_MAC_update(c, m, n) == 1);
	CU_ASSERT_FATAL(EVP_MAC_final(c, out, &ol, 16) == 1 && ol == 16);
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(mac);
}

/* Signature-first verification of sig over msg in session h: single part,
 * or in chunks of 1..97 bytes. */
static CK_RV vsig(CK_SESSION_HANDLE h, CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *msg,
                  size_t n, const uint8_t *sig, size_t sl, int multi)
{
	size_t pos = 0, c;
	CK_RV rv = F->C_VerifySignatureInit(h, m, k, (CK_BYTE_PTR)sig, sl);

	if (rv != CKR_OK)
		return rv;
	if (!multi)
		return F->C_VerifySignature(h, (CK_BYTE_PTR)msg, n);
	while (pos < n) {
		c = 1 + ts_rand_u32(97);
		c = c > n - pos ? n - pos : c;
		if ((rv = F->C_VerifySignatureUpdate(h, (CK_BYTE_PTR)msg + pos, c)) != CKR_OK)
			return rv;
		pos += c;
	}
	return F->C_VerifySignatureFinal(h);
}

/* sig (sl bytes) is msg's right signature under (m, k): both ways of the
 * new style accept it, C_Verify agrees, and each refusal (a changed bit, a
 * byte short) ends the operation. */
static void check_family(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *msg, size_t n,
                         const uint8_t *sig, size_t sl)
{
	uint8_t bad[512];
	int multi;

	CU_ASSERT_FATAL(sl <= sizeof bad);
	for (multi = 0; multi < 2; multi++) {
		CU_ASSERT(vsig(pc_s, m, k, msg, n, sig, sl, multi) == CKR_OK);
		CU_ASSERT(F->C_VerifySignature(pc_s, (CK_BYTE_PTR)msg, n) == CKR_OPERATION_NOT_INITIALIZED);
		memcpy(bad, sig, sl);
		bad[ts_rand_u32((uint32_t)sl)] ^= (uint8_t)(1u << ts_rand_u32(8));
		CU_ASSERT(vsig(pc_s, m, k, msg, n, bad, sl, multi) == CKR_SIGNATURE_INVALID);
		CU_ASSERT(F->C_VerifySignatureFinal(pc_s) == CKR_OPERATION_NOT_INITIALIZED);
		{
			CK_RV rv = vsig(pc_s, m, k, msg, n, sig, sl - 1, multi);
			CU_ASSERT(rv == CKR_SIGNATURE_LEN_RANGE || rv == CKR_SIGNATURE_INVALID);
		}
		CU_ASSERT(F->C_VerifySignature(pc_s, (CK_BYTE_PTR)msg, n) == CKR_OPERATION_NOT_INITIALIZED);
	}
	CU_ASSERT(pc_verify(m, k, msg, n, 0, sig, sl) == CKR_OK);
}

static void t_macs(void)
{
	uint8_t msg[3000], mac[32], cm[16];
	unsigned int ml = 0;
	size_t n;

	for (n = 0; n <= sizeof msg; n += 1499) {
		ts_rand(msg, n);
		CU_ASSERT_FATAL(HMAC(EVP_sha256(), mkey, sizeof mkey, msg, n, mac, &ml) != NULL);
		check_family(&hmac_m, mac_key, msg, n, mac, ml);
		ossl_cmac(msg, n, cm);
		check_family(&cmac_m, aes_key, msg, n, cm, sizeof cm);
	}
}

static void t_public_key(void)
{
	struct { CK_MECHANISM *m; CK_OBJECT_HANDLE pub, prv; CK_ULONG len; } pk[] = {
		{ &ecdsa_m, 0, 0, 64 }, { &rsa_m, 0, 0, 256 }, { &ed_m, 0, 0, 64 } };
	uint8_t msg[700], sig[256];
	CK_ULONG sl;
	size_t i;

	pk[0].pub = ec_pub; pk[0].prv = ec_prv;
	pk[1].pub = rsa_pub; pk[1].prv = rsa_prv;
	pk[2].pub = ed_pub; pk[2].prv = ed_prv;
	for (i = 0; i < sizeof pk / sizeof pk[0]; i++) {
		ts_rand(msg, sizeof msg);
		sl = sizeof sig;
		CU_ASSERT_FATAL(pc_sign(pk[i].m, pk[i].prv, msg, sizeof msg, 0, sig, &sl) == CKR_OK);
		CU_ASSERT(sl == pk[i].len);
		check_family(pk[i].m, pk[i].pub, msg, sizeof msg, sig, sl);
	}
}

/* The two styles do not mix; the Init's own checks. */
static void t_rules(void)
{
	uint8_t msg[100], mac[32], big[513];      /* one byte over RSA-4096's */
	unsigned int ml = 0;
	int pk;

	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(HMAC(EVP_sha256(), mkey, sizeof mkey, msg, sizeof msg, mac, &ml) != NULL);
	for (pk = 0; pk < 2; pk++) {
		CK_MECHANISM *m = pk ? &ecdsa_m : &hmac_m;
		CK_OBJECT_HANDLE k = pk ? ec_pub : mac_key;
		uint8_t sig[64];
		CK_ULONG sl = sizeof sig;

		if (pk) {
			CU_ASSERT_FATAL(pc_sign(&ecdsa_m, ec_prv, msg, sizeof msg, 0, sig, &sl) == CKR_OK);
		} else {
			memcpy(sig, mac, sizeof mac);
			sl = sizeof mac;
		}
		/* a signature-first operation: C_Verify* do not see it */
		CU_ASSERT_FATAL(F->C_VerifySignatureInit(pc_s, m, k, sig, sl) == CKR_OK);
		CU_ASSERT(pkt_f->C_Verify(pc_s, msg, sizeof msg, sig, sl) == CKR_OPERATION_NOT_INITIALIZED);
		CU_ASSERT(pkt_f->C_VerifyUpdate(pc_s, msg, 1) == CKR_OPERATION_NOT_INITIALIZED);
		CU_ASSERT(pkt_f->C_VerifyFinal(pc_s, sig, sl) == CKR_OPERATION_NOT_INITIALIZED);
		CU_ASSERT(pkt_f->C_VerifyInit(pc_s, m, k) == CKR_OPERATION_ACTIVE);
		CU_ASSERT(F->C_VerifySignatureInit(pc_s, m, k, sig, sl) == CKR_OPERATION_ACTIVE);
		CU_ASSERT(F->C_VerifySignature(pc_s, msg, sizeof msg) == CKR_OK);
		/* after an update, C_VerifySignature does not end it */
		CU_ASSERT_FATAL(F->C_VerifySignatureInit(pc_s, m, k, sig, sl) == CKR_OK);
		CU_ASSERT(F->C_VerifySignatureUpdate(pc_s, msg, 10) == CKR_OK);
		CU_ASSERT(F->C_VerifySignature(pc_s, msg, sizeof msg) == CKR_OPERATION_ACTIVE);
		CU_ASSERT(F->C_VerifySignatureUpdate(pc_s, msg + 10, sizeof msg - 10) == CKR_OK);
		CU_ASSERT(F->C_VerifySignatureFinal(pc_s) == CKR_OK);
		/* a C_VerifyInit operation: C_VerifySignature* do not see it */
		CU_ASSERT_FATAL(pkt_f->C_VerifyInit(pc_s, m, k) == CKR_OK);
		CU_ASSERT(F->C_VerifySignature(pc_s, msg, sizeof msg) == CKR_OPERATION_NOT_INITIALIZED);
		CU_ASSERT(F->C_VerifySignatureUpdate(pc_s, msg, 1) == CKR_OPERATION_NOT_INITIALIZED);
		CU_ASSERT(F->C_VerifySignatureFinal(pc_s) == CKR_OPERATION_NOT_INITIALIZED);
		CU_ASSERT(F->C_VerifySignatureInit(pc_s, m, k, sig, sl) == CKR_OPERATION_ACTIVE);
		CU_ASSERT(pkt_f->C_Verify(pc_s, msg, sizeof msg, sig, sl) == CKR_OK);
	}
	/* the Init's checks: nothing is left active after a refusal */
	ts_rand(big, sizeof big);
	CU_ASSERT(F->C_VerifySignatureInit(pc_s, &rsa_m, rsa_pub, big, sizeof big) ==
	          CKR_SIGNATURE_LEN_RANGE);
	CU_ASSERT(F->C_VerifySignatureInit(pc_s, &hmac_m, mac_key, big, sizeof big) ==
	          CKR_SIGNATURE_LEN_RANGE);
	CU_ASSERT(F->C_VerifySignatureFinal(pc_s) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(F->C_VerifySignatureInit(pc_s, &hmac_m, mac_key, NULL, 32) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(F->C_VerifySignatureInit(pc_s, NULL, mac_key, mac, 32) == CKR_OK);  /* ends none */
	CU_ASSERT(F->C_VerifySignatureInit(pc_s, &hmac_m, no_verify_key, mac, 32) ==
	          CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT(F->C_VerifySignatureInit(pc_s, &hmac_m, ec_pub, mac, 32) ==
	          CKR_KEY_TYPE_INCONSISTENT);
	CU_ASSERT(F->C_VerifySignatureFinal(pc_s) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(F->C_VerifySignature(pc_s + 1000, msg, 1) == CKR_SESSION_HANDLE_INVALID);
	/* an empty signature is refused by the verification, not the Init */
	CU_ASSERT_FATAL(F->C_VerifySignatureInit(pc_s, &hmac_m, mac_key, mac, 0) == CKR_OK);
	{
		CK_RV rv = F->C_VerifySignature(pc_s, msg, sizeof msg);
		CU_ASSERT(rv == CKR_SIGNATURE_LEN_RANGE || rv == CKR_SIGNATURE_INVALID);
	}
}

/* In an async session C_VerifySignature pends; the caller's copy of the
 * signature is gone before the answer, so only the token's can decide it. */
static void t_async(void)
{
	CK_SESSION_HANDLE h = 0;
	uint8_t msg[2000], sig[64], mac[32], copy[64];
	unsigned int ml = 0;
	CK_ULONG sl = sizeof sig;
	CK_ASYNC_DATA res;
	CK_RV rv;
	int pk, bad;

	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION | CKF_ASYNC_SESSION,
	                                     NULL, NULL, &h) == CKR_OK);
	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(HMAC(EVP_sha256(), mkey, sizeof mkey, msg, sizeof msg, mac, &ml) != NULL);
	CU_ASSERT_FATAL(pc_sign(&ecdsa_m, ec_prv, msg, sizeof msg, 0, sig, &sl) == CKR_OK);
	for (pk = 0; pk < 2; pk++) {
		for (bad = 0; bad < 2; bad++) {
			size_t len = pk ? sl : ml;
			memcpy(copy, pk ? sig : mac, len);
			copy[5] ^= (uint8_t)bad;
			CU_ASSERT_FATAL(F->C_VerifySignatureInit(h, pk ? &ecdsa_m : &hmac_m,
			                                         pk ? ec_pub : mac_key, copy, len) == CKR_OK);
			memset(copy, 0, sizeof copy);
			CU_ASSERT(F->C_VerifySignature(h, msg, sizeof msg) == CKR_PENDING);
			CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Verify", &res) ==
			          CKR_OPERATION_NOT_INITIALIZED);
			memset(&res, 0, sizeof res);
			while ((rv = F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_VerifySignature", &res)) ==
			       CKR_PENDING)
				;
			CU_ASSERT(rv == (bad ? CKR_SIGNATURE_INVALID : CKR_OK));
			CU_ASSERT(res.pValue == NULL && res.ulValue == 0);
			CU_ASSERT(F->C_VerifySignature(h, msg, sizeof msg) == CKR_OPERATION_NOT_INITIALIZED);
		}
	}
	/* a pending C_Verify is not a pending C_VerifySignature */
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(h, &hmac_m, mac_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(h, msg, sizeof msg, mac, ml) == CKR_PENDING);
	CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_VerifySignature", &res) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	while ((rv = F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Verify", &res)) == CKR_PENDING)
		;
	CU_ASSERT(rv == CKR_OK);
	/* closed with one pending: the close waits for it */
	CU_ASSERT_FATAL(F->C_VerifySignatureInit(h, &ecdsa_m, ec_pub, sig, sl) == CKR_OK);
	CU_ASSERT(F->C_VerifySignature(h, msg, sizeof msg) == CKR_PENDING);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_vsig");

	CU_add_test(s, "setup: token, keys, the 3.2 interface", t_setup);
	CU_add_test(s, "HMAC-SHA-256 and AES-CMAC: OpenSSL's MACs accepted, changed and short ones refused",
	            t_macs);
	CU_add_test(s, "ECDSA P-256, RSA-2048, Ed25519: the token's signatures accepted, changed and short ones refused",
	            t_public_key);
	CU_add_test(s, "the two styles do not mix; the Init's checks", t_rules);
	CU_add_test(s, "async sessions: C_VerifySignature pends on the token's copy of the signature",
	            t_async);
	return pc_run();
}
