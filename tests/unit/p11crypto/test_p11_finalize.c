/*
 * test_p11_finalize.c - C_Finalize while other threads are inside the
 * module.
 *
 * Each round initialises the library, starts 16 threads that sign (HMAC,
 * ECDSA and its verification), encrypt (AES-CBC), digest, search and open
 * and close sessions without pause, and calls C_Finalize at a random
 * moment (in some rounds from two threads at once).  C_Finalize waits for
 * the calls in flight, so until then a thread gets only right answers,
 * and after that only CKR_CRYPTOKI_NOT_INITIALIZED; a call made after
 * C_Finalize returned must get exactly that.  Under ASan this is the
 * use-after-free check of the library's teardown, under TSan its
 * data-race check.
 *
 * The other tests: C_Finalize waits for a slow call (an SO login, its
 * PBKDF2) and does not cut it short; C_Finalize and C_Initialize called
 * from inside the module (from the application's own mutex callback) are
 * refused at once instead of waiting for the call that made the callback.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "pc.h"
#include "tsupport.h"

#define NTH     16
#define ROUNDS  100
#define MSG     1024

static uint8_t msg[MSG], mkey[32], akey[32], iv[16];
static uint8_t want_sha[32], want_mac[32], want_cbc[MSG];
static const char aes_label[] = "fin-aes", mac_label[] = "fin-mac",
                  ec_label[] = "fin-ec";
static CK_OBJECT_HANDLE aes_key, mac_key, ec_priv, ec_pub;
static _Atomic int fin_done;            /* C_Finalize of the round has returned */

typedef struct {
	CK_SESSION_HANDLE h;
	unsigned seed;
	long ok, wrong;
	int stopped;                   /* saw CKR_CRYPTOKI_NOT_INITIALIZED */
} worker;

/* rv of one call begun when fin_done was late: right answers before
 * C_Finalize returned, CKR_CRYPTOKI_NOT_INITIALIZED at any time, and
 * nothing but that once it has returned.  0 to go on. */
static int step_rv(worker *w, CK_RV rv, int late, const char *what)
{
	if (rv == CKR_CRYPTOKI_NOT_INITIALIZED) {
		w->stopped = 1;
		return -1;
	}
	if (rv != CKR_OK || late) {
		printf("\n  %s: CK_RV 0x%lx%s\n", what, (unsigned long)rv,
		       late ? " after C_Finalize returned" : "");
		w->wrong++;
		return -1;
	}
	return 0;
}

#define STEP(w, call) \
	({ int late_ = atomic_load(&fin_done); step_rv((w), (call), late_, #call); })

static void check(worker *w, int good)
{
	if (good)
		w->ok++;
	else
		w->wrong++;
}

static void op_cbc(worker *w)
{
	CK_MECHANISM m = { CKM_AES_CBC, iv, sizeof iv };
	uint8_t out[MSG];
	CK_ULONG ol = sizeof out;

	if (STEP(w, pkt_f->C_EncryptInit(w->h, &m, aes_key)) ||
	    STEP(w, pkt_f->C_Encrypt(w->h, msg, MSG, out, &ol)))
		return;
	check(w, ol == MSG && memcmp(out, want_cbc, MSG) == 0);
}

static void op_mac(worker *w)
{
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	uint8_t out[32];
	CK_ULONG ol = sizeof out;

	if (STEP(w, pkt_f->C_SignInit(w->h, &m, mac_key)) ||
	    STEP(w, pkt_f->C_Sign(w->h, msg, MSG, out, &ol)))
		return;
	check(w, ol == 32 && memcmp(out, want_mac, 32) == 0);
}

static void op_ecdsa(worker *w)
{
	CK_MECHANISM m = { CKM_ECDSA, NULL, 0 };
	uint8_t sig[64];
	CK_ULONG sl = sizeof sig;

	if (STEP(w, pkt_f->C_SignInit(w->h, &m, ec_priv)) ||
	    STEP(w, pkt_f->C_Sign(w->h, want_sha, 32, sig, &sl)) ||
	    STEP(w, pkt_f->C_VerifyInit(w->h, &m, ec_pub)) ||
	    STEP(w, pkt_f->C_Verify(w->h, want_sha, 32, sig, sl)))
		return;
	check(w, sl == 64);
}

static void op_digest(worker *w)
{
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	uint8_t out[32];
	CK_ULONG ol = sizeof out, cut = (CK_ULONG)(rand_r(&w->seed) % MSG);

	if (STEP(w, pkt_f->C_DigestInit(w->h, &m)) ||
	    STEP(w, pkt_f->C_DigestUpdate(w->h, msg, cut)) ||
	    STEP(w, pkt_f->C_DigestUpdate(w->h, msg + cut, MSG - cut)) ||
	    STEP(w, pkt_f->C_DigestFinal(w->h, out, &ol)))
		return;
	check(w, ol == 32 && memcmp(out, want_sha, 32) == 0);
}

static void op_find(worker *w)
{
	CK_ATTRIBUTE t = { CKA_LABEL, (void *)mac_label, sizeof mac_label - 1 };
	CK_OBJECT_HANDLE got[4];
	CK_ULONG n = 0;

	if (STEP(w, pkt_f->C_FindObjectsInit(w->h, &t, 1)) ||
	    STEP(w, pkt_f->C_FindObjects(w->h, got, 4, &n)) ||
	    STEP(w, pkt_f->C_FindObjectsFinal(w->h)))
		return;
	check(w, n == 1 && got[0] == mac_key);
}

static void op_session(worker *w)
{
	CK_SESSION_HANDLE h;
	CK_SESSION_INFO si;

	if (STEP(w, pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL, &h)) ||
	    STEP(w, pkt_f->C_GetSessionInfo(h, &si)) ||
	    STEP(w, pkt_f->C_CloseSession(h)))
		return;
	check(w, si.slotID == pc_slot);
}

static void *work(void *arg)
{
	worker *w = arg;

	if (STEP(w, pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL, &w->h)))
		return NULL;
	while (!w->stopped && w->wrong == 0) {
		switch (rand_r(&w->seed) % 6) {
		case 0: op_cbc(w); break;
		case 1: op_mac(w); break;
		case 2: op_ecdsa(w); break;
		case 3: op_digest(w); break;
		case 4: op_find(w); break;
		default: op_session(w); break;
		}
	}
	return NULL;
}

static void *finalize_too(void *arg)
{
	*(CK_RV *)arg = pkt_f->C_Finalize(NULL);
	return NULL;
}

static void pause_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

static CK_OBJECT_HANDLE find_one(CK_SESSION_HANDLE h, const char *label)
{
	CK_ATTRIBUTE t = { CKA_LABEL, (void *)label, strlen(label) };
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;
	CK_ULONG n = 0;

	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(h, &t, 1) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_FindObjects(h, &o, 1, &n) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_FindObjectsFinal(h) == CKR_OK);
	CU_ASSERT_FATAL(n == 1);
	return o;
}

/* Token objects (they outlive C_Finalize), public (no login needed). */
static void t_setup(void)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	CK_OBJECT_CLASS sk = CKO_SECRET_KEY;
	CK_KEY_TYPE aes = CKK_AES, gen = CKK_GENERIC_SECRET;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE a[] = {
		{ CKA_CLASS, &sk, sizeof sk }, { CKA_KEY_TYPE, &aes, sizeof aes },
		{ CKA_VALUE, akey, sizeof akey }, { CKA_LABEL, (void *)aes_label, sizeof aes_label - 1 },
		{ CKA_TOKEN, &t, 1 }, { CKA_PRIVATE, &f, 1 }, { CKA_ENCRYPT, &t, 1 },
	};
	CK_ATTRIBUTE mk[] = {
		{ CKA_CLASS, &sk, sizeof sk }, { CKA_KEY_TYPE, &gen, sizeof gen },
		{ CKA_VALUE, mkey, sizeof mkey }, { CKA_LABEL, (void *)mac_label, sizeof mac_label - 1 },
		{ CKA_TOKEN, &t, 1 }, { CKA_PRIVATE, &f, 1 }, { CKA_SIGN, &t, 1 },
	};
	CK_ATTRIBUTE pub[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 },
	                       { CKA_VERIFY, &t, 1 }, { CKA_TOKEN, &t, 1 },
	                       { CKA_LABEL, (void *)ec_label, sizeof ec_label - 1 } };
	CK_ATTRIBUTE prv[] = { { CKA_SIGN, &t, 1 }, { CKA_PRIVATE, &f, 1 }, { CKA_TOKEN, &t, 1 },
	                       { CKA_LABEL, (void *)ec_label, sizeof ec_label - 1 } };
	CK_MECHANISM gm = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	EVP_CIPHER_CTX *c;
	unsigned int ml = 0;
	int l1 = 0, l2 = 0;

	pc_token();
	ts_rand(msg, sizeof msg);
	ts_rand(mkey, sizeof mkey);
	ts_rand(akey, sizeof akey);
	ts_rand(iv, sizeof iv);
	CU_ASSERT_FATAL(EVP_Digest(msg, MSG, want_sha, NULL, EVP_sha256(), NULL) == 1);
	CU_ASSERT_FATAL(HMAC(EVP_sha256(), mkey, sizeof mkey, msg, MSG, want_mac, &ml) != NULL);
	CU_ASSERT_FATAL((c = EVP_CIPHER_CTX_new()) != NULL);
	CU_ASSERT_FATAL(EVP_EncryptInit_ex(c, EVP_aes_256_cbc(), NULL, akey, iv) == 1);
	EVP_CIPHER_CTX_set_padding(c, 0);
	CU_ASSERT_FATAL(EVP_EncryptUpdate(c, want_cbc, &l1, msg, MSG) == 1);
	CU_ASSERT_FATAL(EVP_EncryptFinal_ex(c, want_cbc + l1, &l2) == 1 && l1 + l2 == MSG);
	EVP_CIPHER_CTX_free(c);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, a, 7, &aes_key) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, mk, 7, &mac_key) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &gm, pub, 4, prv, 4, &ec_pub,
	                                         &ec_priv) == CKR_OK);
}

/* One round: the library initialised (the slot and the token objects
 * found again), NTH threads at work, C_Finalize after 0-3 ms. */
static void one_round(int r, long *ok, long *wrong)
{
	CK_SESSION_HANDLE h;
	worker w[NTH];
	pthread_t th[NTH], fin2;
	CK_RV rv, rv2 = CKR_OK;
	int i, two = r % 4 == 3;

	if (r > 0)
		CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL,
	                                     &h) == CKR_OK);
	CU_ASSERT_FATAL(find_one(h, aes_label) == aes_key);
	CU_ASSERT_FATAL(find_one(h, mac_label) == mac_key);
	CU_ASSERT_FATAL(pkt_f->C_CloseSession(h) == CKR_OK);
	atomic_store(&fin_done, 0);
	for (i = 0; i < NTH; i++) {
		memset(&w[i], 0, sizeof w[i]);
		w[i].seed = ts_rand_u32(0xffffffffu);
		CU_ASSERT_FATAL(pthread_create(&th[i], NULL, work, &w[i]) == 0);
	}
	pause_us((long)ts_rand_u32(3000));
	if (two)
		CU_ASSERT_FATAL(pthread_create(&fin2, NULL, finalize_too, &rv2) == 0);
	rv = pkt_f->C_Finalize(NULL);
	if (two) {
		pthread_join(fin2, NULL);
		/* one of the two finalised, the other found nothing to do */
		CU_ASSERT((rv == CKR_OK && rv2 == CKR_CRYPTOKI_NOT_INITIALIZED) ||
		          (rv2 == CKR_OK && rv == CKR_CRYPTOKI_NOT_INITIALIZED));
	} else {
		CU_ASSERT(rv == CKR_OK);
	}
	atomic_store(&fin_done, 1);
	for (i = 0; i < NTH; i++) {
		pthread_join(th[i], NULL);
		*ok += w[i].ok;
		*wrong += w[i].wrong;
		CU_ASSERT(w[i].stopped);
	}
}

static void t_finalize_under_load(void)
{
	long ok = 0, wrong = 0;
	int r;

	for (r = 0; r < ROUNDS; r++)
		one_round(r, &ok, &wrong);
	printf("\n  %d rounds of C_Finalize under %d working threads: %ld right"
	       " answers, %ld wrong\n", ROUNDS, NTH, ok, wrong);
	CU_ASSERT(wrong == 0);
	CU_ASSERT(ok > 0);
	/* the library starts again and serves */
	atomic_store(&fin_done, 0);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	{
		worker z = { 0 };
		CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL,
		                                     NULL, &z.h) == CKR_OK);
		op_cbc(&z);
		op_mac(&z);
		op_ecdsa(&z);
		CU_ASSERT(z.ok == 3 && z.wrong == 0 && !z.stopped);
		pc_s = z.h;
	}
}

/* ---- a slow call in flight ---- */

static void *slow_login(void *arg)
{
	CK_SESSION_HANDLE h = *(CK_SESSION_HANDLE *)arg;

	return (void *)(uintptr_t)pkt_f->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)PKT_SO_PIN,
	                                         sizeof PKT_SO_PIN - 1);
}

/* C_Finalize while a thread is in C_Login (the PIN's PBKDF2, far longer
 * than the pause): the login ends with its own answer, then the library
 * is finalised.  A login that had not begun yet when the gate closed
 * (a busy machine) answers CKR_CRYPTOKI_NOT_INITIALIZED: tried again
 * with a longer pause. */
static void t_finalize_waits(void)
{
	CK_SESSION_HANDLE h;
	CK_SESSION_INFO si;
	pthread_t th;
	void *res = NULL;
	CK_RV rv;
	int i;

	pkt_f->C_CloseAllSessions(pc_slot);
	for (i = 0; i < 5; i++) {
		if (i > 0)
			CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
		CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
		                                     NULL, NULL, &h) == CKR_OK);
		CU_ASSERT_FATAL(pthread_create(&th, NULL, slow_login, &h) == 0);
		pause_us(2000L << i);
		rv = pkt_f->C_Finalize(NULL);
		pthread_join(th, &res);
		CU_ASSERT(rv == CKR_OK);
		if ((CK_RV)(uintptr_t)res != CKR_CRYPTOKI_NOT_INITIALIZED)
			break;
	}
	CU_ASSERT((CK_RV)(uintptr_t)res == CKR_OK);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_CRYPTOKI_NOT_INITIALIZED);
}

/* ---- C_Finalize and C_Initialize from inside the module ---- */

/* Armed: the application's mutex callback of that kind calls back into
 * the library (once). */
enum { CB_NONE, CB_CREATE, CB_LOCK };
static _Atomic int cb_armed;
static CK_RV cb_fin_rv, cb_init_rv;
static int cb_calls;

static void cb_call_in(int kind)
{
	int want = kind;

	if (atomic_compare_exchange_strong(&cb_armed, &want, CB_NONE)) {
		cb_fin_rv = pkt_f->C_Finalize(NULL);
		cb_init_rv = pkt_f->C_Initialize(NULL);
		cb_calls++;
	}
}

static CK_RV cb_create(CK_VOID_PTR_PTR m)
{
	pthread_mutex_t *pm;

	cb_call_in(CB_CREATE);
	if ((pm = malloc(sizeof *pm)) == NULL)
		return CKR_HOST_MEMORY;
	pthread_mutex_init(pm, NULL);
	*m = pm;
	return CKR_OK;
}

static CK_RV cb_destroy(CK_VOID_PTR m)
{
	pthread_mutex_destroy(m);
	free(m);
	return CKR_OK;
}

static CK_RV cb_lock(CK_VOID_PTR m)
{
	cb_call_in(CB_LOCK);
	pthread_mutex_lock(m);
	return CKR_OK;
}

static CK_RV cb_unlock(CK_VOID_PTR m)
{
	pthread_mutex_unlock(m);
	return CKR_OK;
}

static void t_finalize_in_callback(void)
{
	CK_C_INITIALIZE_ARGS a = { cb_create, cb_destroy, cb_lock, cb_unlock, 0, NULL };
	CK_SESSION_HANDLE h;
	CK_SESSION_INFO si;

	/* from inside C_Initialize: both refused, the outer one succeeds */
	atomic_store(&cb_armed, CB_CREATE);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(&a) == CKR_OK);
	CU_ASSERT(cb_calls == 1);
	CU_ASSERT(cb_fin_rv == CKR_FUNCTION_FAILED);
	CU_ASSERT(cb_init_rv == CKR_FUNCTION_FAILED);
	/* from inside an ordinary call: C_Finalize refused, C_Initialize
	 * answers what it answers to any second initialisation */
	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL,
	                                     &h) == CKR_OK);
	atomic_store(&cb_armed, CB_LOCK);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_OK);
	CU_ASSERT(cb_calls == 2);
	CU_ASSERT(cb_fin_rv == CKR_FUNCTION_FAILED);
	CU_ASSERT(cb_init_rv == CKR_CRYPTOKI_ALREADY_INITIALIZED);
	/* the library still works and finalises normally */
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_Initialize(NULL) == CKR_OK);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_finalize");

	CU_add_test(s, "setup: token objects, OpenSSL's answers", t_setup);
	CU_add_test(s, "C_Finalize racing 16 working threads", t_finalize_under_load);
	CU_add_test(s, "C_Finalize waits for a login in progress", t_finalize_waits);
	CU_add_test(s, "C_Finalize / C_Initialize from a callback are refused",
	            t_finalize_in_callback);
	return pc_run();
}
