/*
 * test_p11_cancel.c - PKCS#11 3.0's Init without a mechanism, through
 * the real module: C_EncryptInit / C_DecryptInit / C_DigestInit /
 * C_SignInit / C_VerifyInit (and 3.2's C_VerifySignatureInit) with
 * pMechanism NULL end the session's active operation of that kind, of
 * either family (symmetric, digest, MAC, public key) and either
 * verification style, mid-way through a multi-part one too; the next
 * call finds none, and a new Init starts a fresh one whose answer is
 * OpenSSL's.  With no operation active it is CKR_OK as well; an invalid
 * session is CKR_SESSION_HANDLE_INVALID; an operation with a call
 * pending in an async session cannot be ended (CKR_OPERATION_CANCEL_FAILED)
 * until C_AsyncComplete has taken the answer.
 */
#include <string.h>
#include <openssl/evp.h>

#include "pc.h"
#include "ts_ossl.h"
#include "tsupport.h"

static CK_FUNCTION_LIST_3_2 *F;
static CK_OBJECT_HANDLE aes_key, mac_key, ec_pub, ec_prv;
static uint8_t akey[32], mkey[32];

static void t_setup(void)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	CK_MECHANISM g = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 }, { CKA_VERIFY, &t, 1 } };
	CK_ATTRIBUTE st[] = { { CKA_SIGN, &t, 1 }, { CKA_PRIVATE, &f, 1 } };

	pc_token();
	F = pc_list32();
	ts_rand(akey, sizeof akey);
	ts_rand(mkey, sizeof mkey);
	CU_ASSERT_FATAL(pc_key(CKK_AES, akey, sizeof akey, 0, &aes_key) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, mkey, sizeof mkey, 0, &mac_key) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &g, pt, 2, st, 2, &ec_pub, &ec_prv) == CKR_OK);
}

/* Each kind and family: begun (multi-part where it has parts), ended by
 * the Init without a mechanism, gone, begun again and right. */
static void t_each_kind(void)
{
	uint8_t iv[16], msg[100], out[200], want[200], sig[64];
	CK_MECHANISM cbc = { CKM_AES_CBC_PAD, iv, sizeof iv }, sha = { CKM_SHA256, NULL, 0 };
	CK_MECHANISM hm = { CKM_SHA256_HMAC, NULL, 0 }, ecs = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_ULONG ol = sizeof out, sl = sizeof sig;
	size_t wl = 0;

	ts_rand(iv, sizeof iv);
	ts_rand(msg, sizeof msg);
	/* encryption, mid-way through its parts */
	CU_ASSERT_FATAL(pkt_f->C_EncryptInit(pc_s, &cbc, aes_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptUpdate(pc_s, msg, 40, out, &ol) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, NULL, 0) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_EncryptUpdate(pc_s, msg, 40, out, &ol) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, NULL, 0) == CKR_OK);       /* none: still OK */
	CU_ASSERT_FATAL(ts_ossl_crypt(EVP_aes_256_cbc(), 1, 1, akey, iv, sizeof iv, NULL, 0, 0,
	                              msg, sizeof msg, want, &wl) == 1);
	ol = sizeof out;
	CU_ASSERT(pc_crypt(&cbc, aes_key, 1, msg, sizeof msg, out, &ol) == CKR_OK);
	CU_ASSERT(ol == wl && memcmp(out, want, wl) == 0);
	/* decryption */
	CU_ASSERT_FATAL(pkt_f->C_DecryptInit(pc_s, &cbc, aes_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_DecryptInit(pc_s, NULL, 0) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_Decrypt(pc_s, want, wl, out, &ol) == CKR_OPERATION_NOT_INITIALIZED);
	/* a digest after an update */
	CU_ASSERT_FATAL(pkt_f->C_DigestInit(pc_s, &sha) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestUpdate(pc_s, msg, 10) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestInit(pc_s, NULL) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, out, &ol) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT_FATAL(EVP_Digest(msg, sizeof msg, want, NULL, EVP_sha256(), NULL) == 1);
	ol = sizeof out;
	CU_ASSERT(pc_digest(&sha, msg, sizeof msg, 1, out, &ol) == CKR_OK);
	CU_ASSERT(ol == 32 && memcmp(out, want, 32) == 0);
	/* a MAC and a public-key signature */
	CU_ASSERT_FATAL(pkt_f->C_SignInit(pc_s, &hm, mac_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_SignInit(pc_s, NULL, 0) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_Sign(pc_s, msg, sizeof msg, out, &ol) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT_FATAL(pkt_f->C_SignInit(pc_s, &ecs, ec_prv) == CKR_OK);
	CU_ASSERT(pkt_f->C_SignUpdate(pc_s, msg, 10) == CKR_OK);
	CU_ASSERT(pkt_f->C_SignInit(pc_s, NULL, 0) == CKR_OK);
	CU_ASSERT(pkt_f->C_SignFinal(pc_s, sig, &sl) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pc_sign(&ecs, ec_prv, msg, sizeof msg, 0, sig, &sl) == CKR_OK && sl == 64);
	/* verification, of either style, ended by either Init */
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(pc_s, &ecs, ec_pub) == CKR_OK);
	CU_ASSERT(F->C_VerifySignatureInit(pc_s, NULL, 0, NULL, 0) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(pc_s, msg, sizeof msg, sig, sl) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT_FATAL(F->C_VerifySignatureInit(pc_s, &ecs, ec_pub, sig, sl) == CKR_OK);
	CU_ASSERT(pkt_f->C_VerifyInit(pc_s, NULL, 0) == CKR_OK);
	CU_ASSERT(F->C_VerifySignature(pc_s, msg, sizeof msg) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pc_verify(&ecs, ec_pub, msg, sizeof msg, 0, sig, sl) == CKR_OK);
	/* one kind ended, the others untouched */
	CU_ASSERT_FATAL(pkt_f->C_DigestInit(pc_s, &sha) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_SignInit(pc_s, &hm, mac_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_SignInit(pc_s, NULL, 0) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_Digest(pc_s, msg, sizeof msg, out, &ol) == CKR_OK);
	CU_ASSERT(ol == 32 && memcmp(out, want, 32) == 0);
	CU_ASSERT(pkt_f->C_EncryptInit(0x7ffff, NULL, 0) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DigestInit(0x7ffff, NULL) == CKR_SESSION_HANDLE_INVALID);
}

/* A call pending in an async session holds its operation. */
static void t_pending(void)
{
	CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h = 0;
	uint8_t msg[500], out[32], want[32];
	CK_ULONG ol = sizeof out;
	CK_ASYNC_DATA res;
	CK_RV rv;

	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION | CKF_ASYNC_SESSION,
	                                     NULL, NULL, &h) == CKR_OK);
	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(EVP_Digest(msg, sizeof msg, want, NULL, EVP_sha256(), NULL) == 1);
	CU_ASSERT_FATAL(pkt_f->C_DigestInit(h, &sha) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_Digest(h, msg, sizeof msg, out, &ol) == CKR_PENDING);
	CU_ASSERT(pkt_f->C_DigestInit(h, NULL) == CKR_OPERATION_CANCEL_FAILED);
	memset(&res, 0, sizeof res);
	while ((rv = F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Digest", &res)) == CKR_PENDING)
		;
	CU_ASSERT(rv == CKR_OK && res.ulValue == 32 && memcmp(out, want, 32) == 0);
	CU_ASSERT(pkt_f->C_DigestInit(h, NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_cancel");

	CU_add_test(s, "setup: token, keys, the 3.2 interface", t_setup);
	CU_add_test(s, "each kind and family ended by its Init without a mechanism, begun again, right",
	            t_each_kind);
	CU_add_test(s, "a call pending in an async session: CKR_OPERATION_CANCEL_FAILED until taken",
	            t_pending);
	return pc_run();
}
