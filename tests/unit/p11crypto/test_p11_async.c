/*
 * test_p11_async.c - PKCS#11 3.2 asynchronous sessions through the real
 * module: the "PKCS 11" 3.2 interface, CKF_ASYNC_SESSION,
 * C_AsyncComplete / C_AsyncGetID / C_AsyncJoin.
 *
 * One thread keeps many sessions' calls pending at once (the use they
 * exist for), every answer checked against OpenSSL (public-key
 * signatures: by the token's C_Verify); the calls that must
 * not pend (size queries, short buffers, sessions without the flag);
 * the errors; closing sessions, all of a slot's sessions and C_Finalize
 * with calls still pending; and two threads completing the same
 * sessions' calls, each completed exactly once (TSan's case).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "pc.h"
#include "ts_ossl.h"

#define NS    64                       /* sessions of the one thread      */
#define MAXM  (64u << 10)

static CK_FUNCTION_LIST_3_2 *F;        /* the 3.2 list                     */
static CK_OBJECT_HANDLE mac_key, aes_key;
static uint8_t mkey[32], akey[32];

_Static_assert(offsetof(CK_FUNCTION_LIST_3_2, C_AsyncComplete) ==
               sizeof(CK_FUNCTION_LIST_3_0) + 7 * sizeof(void *),
               "the 3.2 list's layout (OASIS pkcs11f.h order)");

static CK_SESSION_HANDLE open_async(void)
{
	CK_SESSION_HANDLE h = 0;

	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION | CKF_ASYNC_SESSION,
	                                     NULL, NULL, &h) == CKR_OK);
	return h;
}

/* C_AsyncComplete(fn) until it stops answering CKR_PENDING. */
static CK_RV complete(CK_SESSION_HANDLE h, const char *fn, CK_ASYNC_DATA *res)
{
	CK_RV rv;

	memset(res, 0, sizeof *res);
	while ((rv = F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)fn, res)) == CKR_PENDING)
		;
	return rv;
}

static void t_setup(void)
{
	CK_TOKEN_INFO ti;

	pc_token();
	F = pc_list32();
	CU_ASSERT_FATAL(F->C_AsyncComplete != NULL && F->C_AsyncGetID != NULL &&
	                F->C_AsyncJoin != NULL);
	CU_ASSERT_FATAL(pkt_f->C_GetTokenInfo(pc_slot, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_ASYNC_SESSION_SUPPORTED);
	ts_rand(mkey, sizeof mkey);
	ts_rand(akey, sizeof akey);
	CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, mkey, sizeof mkey, 0, &mac_key) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_AES, akey, sizeof akey, 0, &aes_key) == CKR_OK);
}

static void t_interface(void)
{
	CK_INTERFACE list[8];
	CK_ULONG n = 8, i, n32 = 0;
	CK_INFO info;
	CK_SESSION_INFO si;
	CK_SESSION_HANDLE h = open_async();
	CK_FLAGS fl = 0;

	CU_ASSERT_FATAL(F->v30.C_GetInterfaceList(list, &n) == CKR_OK);
	for (i = 0; i < n; i++) {
		const CK_VERSION *v = list[i].pFunctionList;
		n32 += v->major == 3 && v->minor == 2;
	}
	CU_ASSERT(n == 3 && n32 == 1);
	CU_ASSERT(F->v30.C_GetInfo(&info) == CKR_OK);
	CU_ASSERT(info.cryptokiVersion.major == 3 && info.cryptokiVersion.minor == 2);
	CU_ASSERT(F->v30.C_GetSessionInfo(h, &si) == CKR_OK);
	CU_ASSERT(si.flags & CKF_ASYNC_SESSION);
	/* 3.2's other functions: no validated mode (flags 0), no KEM or
	 * authenticated-wrap mechanism; signature-first verification is
	 * test_p11_vsig.c's */
	fl = 99;
	CU_ASSERT(F->C_GetSessionValidationFlags(h, CKS_LAST_VALIDATION_OK, &fl) == CKR_OK);
	CU_ASSERT(fl == 0);
	CU_ASSERT(F->C_GetSessionValidationFlags(h, 7, &fl) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(F->C_GetSessionValidationFlags(h, CKS_LAST_VALIDATION_OK, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(F->C_GetSessionValidationFlags(h + 1000, CKS_LAST_VALIDATION_OK, &fl) ==
	          CKR_SESSION_HANDLE_INVALID);
	{
		CK_MECHANISM m = { CKM_AES_GCM, NULL, 0 };
		CK_BYTE ct[64];
		CK_ULONG cl = sizeof ct;
		CK_OBJECT_HANDLE k = 0;
		CU_ASSERT(F->C_EncapsulateKey(h, &m, aes_key, NULL, 0, ct, &cl, &k) ==
		          CKR_MECHANISM_INVALID);
		CU_ASSERT(F->C_DecapsulateKey(h, &m, aes_key, NULL, 0, ct, cl, &k) ==
		          CKR_MECHANISM_INVALID);
		CU_ASSERT(F->C_WrapKeyAuthenticated(h, &m, aes_key, mac_key, NULL, 0, ct, &cl) ==
		          CKR_MECHANISM_INVALID);
		CU_ASSERT(F->C_UnwrapKeyAuthenticated(h, &m, aes_key, ct, cl, NULL, 0, NULL, 0, &k) ==
		          CKR_MECHANISM_INVALID);
		CU_ASSERT(F->C_EncapsulateKey(h, NULL, 0, NULL, 0, NULL, NULL, NULL) ==
		          CKR_ARGUMENTS_BAD);
	}
	CU_ASSERT(F->C_VerifySignatureFinal(h) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(F->C_VerifySignatureFinal(h + 1000) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

/* One thread, NS sessions, every one's digest pending at once, 4 rounds
 * of random messages and digests; each answer OpenSSL's. */
static void t_many_pending(void)
{
	static const struct { CK_MECHANISM_TYPE ckm; const char *ossl; size_t len; } md[] = {
		{ CKM_SHA3_256, "SHA3-256", 32 }, { CKM_SHA256, "SHA256", 32 },
		{ CKM_SHA512, "SHA512", 64 }, { CKM_PV_SM3, "SM3", 32 },
	};
	static uint8_t msg[NS][MAXM];
	CK_SESSION_HANDLE h[NS];
	uint8_t out[NS][64], want[64];
	size_t len[NS], mi[NS];
	int done[NS], r, i, left, pending = 0, ok = 0;

	for (i = 0; i < NS; i++)
		h[i] = open_async();
	for (r = 0; r < 4; r++) {
		for (i = 0; i < NS; i++) {
			CK_MECHANISM m = { 0, NULL, 0 };
			CK_ULONG ol = sizeof out[i];
			CK_RV rv;

			mi[i] = ts_rand_u32(4);
			m.mechanism = md[mi[i]].ckm;
			len[i] = 1 + ts_rand_u32(MAXM);
			ts_rand(msg[i], len[i]);
			CU_ASSERT_FATAL(pkt_f->C_DigestInit(h[i], &m) == CKR_OK);
			rv = pkt_f->C_Digest(h[i], msg[i], len[i], out[i], &ol);
			CU_ASSERT(rv == CKR_PENDING);
			pending += rv == CKR_PENDING;
			done[i] = 0;
		}
		for (left = NS; left > 0; ) {
			for (i = 0; i < NS; i++) {
				CK_ASYNC_DATA res;
				CK_RV rv;
				unsigned int wl = 0;

				if (done[i])
					continue;
				memset(&res, 0, sizeof res);
				rv = F->C_AsyncComplete(h[i], (CK_UTF8CHAR_PTR)"C_Digest", &res);
				if (rv == CKR_PENDING)
					continue;
				done[i] = 1;
				left--;
				CU_ASSERT(rv == CKR_OK);
				CU_ASSERT(res.pValue == out[i] && res.ulValue == md[mi[i]].len);
				CU_ASSERT_FATAL(EVP_Digest(msg[i], len[i], want, &wl,
				                           EVP_get_digestbyname(md[mi[i]].ossl), NULL) == 1);
				if (rv == CKR_OK && res.ulValue == wl && memcmp(out[i], want, wl) == 0)
					ok++;
			}
		}
	}
	CU_ASSERT(pending == 4 * NS);
	CU_ASSERT(ok == 4 * NS);
	for (i = 0; i < NS; i++)
		CU_ASSERT(pkt_f->C_CloseSession(h[i]) == CKR_OK);
}

/* AES-GCM encryption and decryption and an HMAC, each pending, against
 * OpenSSL; a wrong tag's CKR_ENCRYPTED_DATA_INVALID comes through
 * C_AsyncComplete too. */
static void t_mechanisms(void)
{
	CK_SESSION_HANDLE h = open_async();
	uint8_t iv[12], aad[20], pt[5000], ct[5016], want[5016], back[5016], mac[32], wmac[32];
	CK_GCM_PARAMS gp = { iv, sizeof iv, 96, aad, sizeof aad, 128 };
	CK_MECHANISM gcm = { CKM_AES_GCM, &gp, sizeof gp };
	CK_MECHANISM hm = { CKM_SHA256_HMAC, NULL, 0 };
	CK_ULONG ol = sizeof ct;
	CK_ASYNC_DATA res;
	size_t wl = 0;
	unsigned int ml = 0;

	ts_rand(iv, sizeof iv);
	ts_rand(aad, sizeof aad);
	ts_rand(pt, sizeof pt);
	CU_ASSERT_FATAL(ts_ossl_crypt(EVP_aes_256_gcm(), 1, 0, akey, iv, sizeof iv, aad,
	                              sizeof aad, 16, pt, sizeof pt, want, &wl) == 1);
	CU_ASSERT_FATAL(pkt_f->C_EncryptInit(h, &gcm, aes_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_Encrypt(h, pt, sizeof pt, ct, &ol) == CKR_PENDING);
	CU_ASSERT(complete(h, "C_Encrypt", &res) == CKR_OK);
	CU_ASSERT(res.pValue == ct && res.ulValue == wl && memcmp(ct, want, wl) == 0);

	ol = sizeof back;
	CU_ASSERT_FATAL(pkt_f->C_DecryptInit(h, &gcm, aes_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_Decrypt(h, ct, wl, back, &ol) == CKR_PENDING);
	CU_ASSERT(complete(h, "C_Decrypt", &res) == CKR_OK);
	CU_ASSERT(res.ulValue == sizeof pt && memcmp(back, pt, sizeof pt) == 0);

	ct[7] ^= 1;
	ol = sizeof back;
	CU_ASSERT_FATAL(pkt_f->C_DecryptInit(h, &gcm, aes_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_Decrypt(h, ct, wl, back, &ol) == CKR_PENDING);
	CU_ASSERT(complete(h, "C_Decrypt", &res) == CKR_ENCRYPTED_DATA_INVALID);
	/* the failed call ended its operation */
	CU_ASSERT(pkt_f->C_Decrypt(h, ct, wl, back, &ol) == CKR_OPERATION_NOT_INITIALIZED);

	CU_ASSERT_FATAL(HMAC(EVP_sha256(), mkey, sizeof mkey, pt, sizeof pt, wmac, &ml) != NULL);
	ol = sizeof mac;
	CU_ASSERT_FATAL(pkt_f->C_SignInit(h, &hm, mac_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_Sign(h, pt, sizeof pt, mac, &ol) == CKR_PENDING);
	CU_ASSERT(complete(h, "C_Sign", &res) == CKR_OK);
	CU_ASSERT(res.ulValue == 32 && memcmp(mac, wmac, 32) == 0);
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(h, &hm, mac_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(h, pt, sizeof pt, wmac, 32) == CKR_PENDING);
	CU_ASSERT(complete(h, "C_Verify", &res) == CKR_OK);
	wmac[0] ^= 0x80;
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(h, &hm, mac_key) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(h, pt, sizeof pt, wmac, 32) == CKR_PENDING);
	CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Sign", &res) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(complete(h, "C_Verify", &res) == CKR_SIGNATURE_INVALID);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

/* Public-key signatures pending: P-256 in 16 sessions at once and
 * RSA-2048, each verified by the token in a plain session; a buffer that
 * may be short still answers at once. */
static void t_public_key(void)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	CK_MECHANISM ecg = { CKM_EC_KEY_PAIR_GEN, NULL, 0 }, rsg = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM ecs = { CKM_ECDSA_SHA256, NULL, 0 }, rss = { CKM_SHA256_RSA_PKCS, NULL, 0 };
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ULONG bits = 2048, ol;
	CK_ATTRIBUTE ecpub[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 }, { CKA_VERIFY, &t, 1 } };
	CK_ATTRIBUTE rspub[] = { { CKA_MODULUS_BITS, &bits, sizeof bits }, { CKA_VERIFY, &t, 1 } };
	CK_ATTRIBUTE prv[] = { { CKA_SIGN, &t, 1 }, { CKA_PRIVATE, &f, 1 } };
	CK_OBJECT_HANDLE ep, es, rp, rs;
	CK_SESSION_HANDLE h[16], v = pkt_open(pc_slot, 0);
	uint8_t msg[200], sig[16][64], rsig[256];
	CK_ASYNC_DATA res;
	int i, ok = 0;

	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &ecg, ecpub, 2, prv, 2, &ep, &es) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &rsg, rspub, 2, prv, 2, &rp, &rs) == CKR_OK);
	for (i = 0; i < 16; i++) {
		h[i] = open_async();
		ol = sizeof sig[i];
		CU_ASSERT_FATAL(pkt_f->C_SignInit(h[i], &ecs, es) == CKR_OK);
		CU_ASSERT(pkt_f->C_Sign(h[i], msg, sizeof msg, sig[i], &ol) == CKR_PENDING);
	}
	for (i = 15; i >= 0; i--) {
		CU_ASSERT(complete(h[i], "C_Sign", &res) == CKR_OK);
		CU_ASSERT(res.pValue == sig[i] && res.ulValue == 64);
		CU_ASSERT_FATAL(pkt_f->C_VerifyInit(v, &ecs, ep) == CKR_OK);
		ok += pkt_f->C_Verify(v, msg, sizeof msg, sig[i], 64) == CKR_OK;
	}
	CU_ASSERT(ok == 16);
	ol = sizeof rsig;
	CU_ASSERT_FATAL(pkt_f->C_SignInit(h[0], &rss, rs) == CKR_OK);
	CU_ASSERT(pkt_f->C_Sign(h[0], msg, sizeof msg, rsig, &ol) == CKR_PENDING);
	CU_ASSERT(complete(h[0], "C_Sign", &res) == CKR_OK);
	CU_ASSERT(res.ulValue == 256);
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(v, &rss, rp) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(v, msg, sizeof msg, rsig, 256) == CKR_OK);
	/* 255 bytes may be short for RSA-2048: answered at once, kept */
	ol = 255;
	CU_ASSERT_FATAL(pkt_f->C_SignInit(h[0], &rss, rs) == CKR_OK);
	CU_ASSERT(pkt_f->C_Sign(h[0], msg, sizeof msg, rsig, &ol) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(ol == 256);
	ol = sizeof rsig;
	CU_ASSERT(pkt_f->C_Sign(h[0], msg, sizeof msg, rsig, &ol) == CKR_PENDING);
	CU_ASSERT(complete(h[0], "C_Sign", &res) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(v, &rss, rp) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(v, msg, sizeof msg, rsig, 256) == CKR_OK);
	/* C_Verify pends too: right and wrong signatures, in an async session */
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(h[1], &ecs, ep) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(h[1], msg, sizeof msg, sig[1], 64) == CKR_PENDING);
	CU_ASSERT(complete(h[1], "C_Verify", &res) == CKR_OK);
	CU_ASSERT(res.pValue == NULL && res.ulValue == 0);
	rsig[9] ^= 1;
	CU_ASSERT_FATAL(pkt_f->C_VerifyInit(h[1], &rss, rp) == CKR_OK);
	CU_ASSERT(pkt_f->C_Verify(h[1], msg, sizeof msg, rsig, 256) == CKR_PENDING);
	CU_ASSERT(complete(h[1], "C_Verify", &res) == CKR_SIGNATURE_INVALID);
	CU_ASSERT(pkt_f->C_Verify(h[1], msg, sizeof msg, rsig, 256) == CKR_OPERATION_NOT_INITIALIZED);
	for (i = 0; i < 16; i++)
		CU_ASSERT(pkt_f->C_CloseSession(h[i]) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(v) == CKR_OK);
}

/* What must not pend, and the errors. */
static void t_rules(void)
{
	CK_SESSION_HANDLE h = open_async(), s = pkt_open(pc_slot, 0);
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	uint8_t msg[1000], out[32], want[32];
	CK_ULONG ol = 0, id = 0;
	CK_ASYNC_DATA res;

	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(EVP_Digest(msg, sizeof msg, want, NULL, EVP_sha256(), NULL) == 1);
	CU_ASSERT_FATAL(pkt_f->C_DigestInit(h, &m) == CKR_OK);
	/* a size query and a short buffer answer at once; the operation stays */
	CU_ASSERT(pkt_f->C_Digest(h, msg, sizeof msg, NULL, &ol) == CKR_OK && ol == 32);
	ol = 31;
	CU_ASSERT(pkt_f->C_Digest(h, msg, sizeof msg, out, &ol) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Digest", &res) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_Digest(h, msg, sizeof msg, out, &ol) == CKR_PENDING);
	/* while it pends: the same operation is busy, the name must match */
	CU_ASSERT(pkt_f->C_Digest(h, msg, sizeof msg, out, &ol) == CKR_OPERATION_ACTIVE);
	CU_ASSERT(pkt_f->C_DigestInit(h, &m) == CKR_OPERATION_ACTIVE);
	CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Encrypt", &res) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_NoSuchThing", &res) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Digest", NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(F->C_AsyncComplete(h, NULL, &res) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(F->C_AsyncGetID(h, (CK_UTF8CHAR_PTR)"C_Digest", &id) == CKR_STATE_UNSAVEABLE);
	CU_ASSERT(F->C_AsyncJoin(h, (CK_UTF8CHAR_PTR)"C_Digest", 1, out, sizeof out) ==
	          CKR_SAVED_STATE_INVALID);
	CU_ASSERT(complete(h, "C_Digest", &res) == CKR_OK);
	CU_ASSERT(res.ulValue == 32 && memcmp(out, want, 32) == 0);
	/* taken once: nothing is pending any more */
	CU_ASSERT(F->C_AsyncComplete(h, (CK_UTF8CHAR_PTR)"C_Digest", &res) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(F->C_AsyncGetID(h, (CK_UTF8CHAR_PTR)"C_Digest", &id) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_Digest(h, msg, sizeof msg, out, &ol) == CKR_OPERATION_NOT_INITIALIZED);

	/* a session without the flag answers at once */
	memset(out, 0, sizeof out);
	ol = sizeof out;
	CU_ASSERT_FATAL(pkt_f->C_DigestInit(s, &m) == CKR_OK);
	CU_ASSERT(pkt_f->C_Digest(s, msg, sizeof msg, out, &ol) == CKR_OK);
	CU_ASSERT(ol == 32 && memcmp(out, want, 32) == 0);
	CU_ASSERT(F->C_AsyncComplete(s, (CK_UTF8CHAR_PTR)"C_Digest", &res) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(F->C_AsyncComplete(h + s + 1000, (CK_UTF8CHAR_PTR)"C_Digest", &res) ==
	          CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_CloseSession(s) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

/* Pending calls whose sessions close: C_CloseSession waits for them (no
 * hang, nothing left behind: ASan), the handle is gone after. */
static void t_close_pending(void)
{
	static uint8_t msg[MAXM];
	CK_MECHANISM m = { CKM_SHA3_256, NULL, 0 };
	CK_SESSION_HANDLE h[16];
	uint8_t out[16][32];
	CK_ASYNC_DATA res;
	CK_ULONG ol;
	int i;

	ts_rand(msg, sizeof msg);
	for (i = 0; i < 16; i++) {
		h[i] = open_async();
		ol = sizeof out[i];
		CU_ASSERT_FATAL(pkt_f->C_DigestInit(h[i], &m) == CKR_OK);
		CU_ASSERT(pkt_f->C_Digest(h[i], msg, sizeof msg, out[i], &ol) == CKR_PENDING);
	}
	for (i = 0; i < 16; i++) {
		CU_ASSERT(pkt_f->C_CloseSession(h[i]) == CKR_OK);
		CU_ASSERT(F->C_AsyncComplete(h[i], (CK_UTF8CHAR_PTR)"C_Digest", &res) ==
		          CKR_SESSION_HANDLE_INVALID);
	}
}

/* Two threads completing the same sessions' calls: each call completed
 * once, by one of them, right. */
#define TS 16
static CK_SESSION_HANDLE th_h[TS];
static uint8_t th_out[TS][32];
static _Atomic int th_left, th_taken[TS], th_wrong;
static uint8_t th_want[32];

static void *completer(void *arg)
{
	(void)arg;
	while (atomic_load(&th_left) > 0) {
		int i;
		for (i = 0; i < TS; i++) {
			CK_ASYNC_DATA res;
			CK_RV rv;

			memset(&res, 0, sizeof res);
			rv = F->C_AsyncComplete(th_h[i], (CK_UTF8CHAR_PTR)"C_Digest", &res);
			if (rv == CKR_PENDING || rv == CKR_OPERATION_NOT_INITIALIZED)
				continue;
			if (rv != CKR_OK || res.ulValue != 32 || memcmp(th_out[i], th_want, 32) != 0)
				atomic_fetch_add(&th_wrong, 1);
			atomic_fetch_add(&th_taken[i], 1);
			atomic_fetch_sub(&th_left, 1);
		}
	}
	return NULL;
}

static void t_two_completers(void)
{
	static uint8_t msg[8192];
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	pthread_t t[2];
	int r, i, once = 1;

	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(EVP_Digest(msg, sizeof msg, th_want, NULL, EVP_sha256(), NULL) == 1);
	for (i = 0; i < TS; i++)
		th_h[i] = open_async();
	for (r = 0; r < 50; r++) {
		atomic_store(&th_left, TS);
		for (i = 0; i < TS; i++) {
			CK_ULONG ol = 32;
			atomic_store(&th_taken[i], 0);
			memset(th_out[i], 0, 32);
			CU_ASSERT_FATAL(pkt_f->C_DigestInit(th_h[i], &m) == CKR_OK);
			CU_ASSERT_FATAL(pkt_f->C_Digest(th_h[i], msg, sizeof msg, th_out[i], &ol) ==
			                CKR_PENDING);
		}
		CU_ASSERT_FATAL(pthread_create(&t[0], NULL, completer, NULL) == 0);
		CU_ASSERT_FATAL(pthread_create(&t[1], NULL, completer, NULL) == 0);
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
		for (i = 0; i < TS; i++)
			once &= atomic_load(&th_taken[i]) == 1;
	}
	CU_ASSERT(once);
	CU_ASSERT(atomic_load(&th_wrong) == 0);
	/* all of a slot's sessions closed with calls pending */
	for (i = 0; i < TS; i++) {
		CK_ULONG ol = 32;
		CU_ASSERT_FATAL(pkt_f->C_DigestInit(th_h[i], &m) == CKR_OK);
		CU_ASSERT(pkt_f->C_Digest(th_h[i], msg, sizeof msg, th_out[i], &ol) == CKR_PENDING);
	}
	CU_ASSERT(pkt_f->C_CloseAllSessions(pc_slot) == CKR_OK);
	CU_ASSERT(F->C_AsyncComplete(th_h[0], (CK_UTF8CHAR_PTR)"C_Digest", &(CK_ASYNC_DATA){ 0 }) ==
	          CKR_SESSION_HANDLE_INVALID);
}

/* Left pending on purpose: the teardown's C_Finalize waits for them. */
static void t_finalize_pending(void)
{
	static uint8_t msg[MAXM], out[4][32];
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	int i;

	ts_rand(msg, sizeof msg);
	for (i = 0; i < 4; i++) {
		CK_SESSION_HANDLE h = open_async();
		CK_ULONG ol = 32;
		CU_ASSERT_FATAL(pkt_f->C_DigestInit(h, &m) == CKR_OK);
		CU_ASSERT(pkt_f->C_Digest(h, msg, sizeof msg, out[i], &ol) == CKR_PENDING);
	}
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_async");

	CU_add_test(s, "setup: token, keys, the 3.2 interface, CKF_ASYNC_SESSION_SUPPORTED", t_setup);
	CU_add_test(s, "the 3.2 interface list, C_GetInfo, the session flag, 3.2's other functions",
	            t_interface);
	CU_add_test(s, "one thread, 64 sessions' digests pending at once, OpenSSL's answers",
	            t_many_pending);
	CU_add_test(s, "AES-GCM both ways, HMAC sign and verify pending, bad tags through C_AsyncComplete",
	            t_mechanisms);
	CU_add_test(s, "P-256 and RSA-2048 signatures and verifications pending",
	            t_public_key);
	CU_add_test(s, "size queries, short buffers and plain sessions do not pend; the errors",
	            t_rules);
	CU_add_test(s, "sessions closed with calls pending", t_close_pending);
	CU_add_test(s, "two threads completing the same calls: each once, right; C_CloseAllSessions",
	            t_two_completers);
	CU_add_test(s, "calls left pending for C_Finalize", t_finalize_pending);
	return pc_run();
}
