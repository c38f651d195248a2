/*
 * test_p11_close.c - sessions closed while their operations run.
 *
 * Each round opens 8 sessions and gives each to a thread that digests
 * (one call and multi-part) and MACs in it without pause, checking every
 * answer against OpenSSL; the main thread closes the sessions at random
 * moments, in random order, so a close lands between calls, between the
 * parts of an operation and inside a call that is in the vault (the token
 * then leaves the operation table to that call, which frees it).  Until
 * its session closes a thread must get only right answers; after, only
 * CKR_SESSION_HANDLE_INVALID.  Under ASan this is the use-after-free
 * check of that hand-over, under TSan its data-race check.
 *
 * The second test races public-key Inits (ECDSA verify, which a
 * signature of the wrong length ends at once) against their sessions'
 * closes: once C_CloseSession has returned, the session's next call must
 * answer CKR_SESSION_HANDLE_INVALID; an operation there means an Init
 * that looked its key up, lost its session to the close and stored its
 * operation after all (left behind under a handle that a later life of
 * the library hands out again).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "pc.h"
#include "tsupport.h"

#define NTH     8
#define ROUNDS  24
#define MSG     4096

static uint8_t msg[MSG], mkey[32];
static uint8_t want_sha[32], want_mac[32];
static CK_OBJECT_HANDLE mac_key, ec_pub;

typedef struct {
	CK_SESSION_HANDLE h;
	unsigned seed;
	long ok, wrong;
	int closed;                    /* saw CKR_SESSION_HANDLE_INVALID */
	_Atomic int gone;              /* C_CloseSession(h) has returned */
} worker;

/* rv of one step: OK with the right answer, or the end of the session. */
static int step_rv(worker *w, CK_RV rv)
{
	if (rv == CKR_OK)
		return 0;
	if (rv == CKR_SESSION_HANDLE_INVALID) {
		w->closed = 1;
	} else {
		printf("\n  session %lu: unexpected CK_RV 0x%lx\n", (unsigned long)w->h,
		       (unsigned long)rv);
		w->wrong++;
	}
	return -1;
}

/* A completed operation's answer against OpenSSL's. */
static void tally(worker *w, const uint8_t *out, CK_ULONG ol, const uint8_t *want)
{
	if (ol == 32 && memcmp(out, want, 32) == 0)
		w->ok++;
	else
		w->wrong++;
}

static void one_digest(worker *w)
{
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	uint8_t out[32];
	CK_ULONG ol = sizeof out;

	if (step_rv(w, pkt_f->C_DigestInit(w->h, &m)) ||
	    step_rv(w, pkt_f->C_Digest(w->h, msg, MSG, out, &ol)))
		return;
	tally(w, out, ol, want_sha);
}

static void multi_digest(worker *w)
{
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	uint8_t out[32];
	CK_ULONG ol = sizeof out, cut = 1 + (CK_ULONG)(rand_r(&w->seed) % (MSG - 1));

	if (step_rv(w, pkt_f->C_DigestInit(w->h, &m)) ||
	    step_rv(w, pkt_f->C_DigestUpdate(w->h, msg, cut)) ||
	    step_rv(w, pkt_f->C_DigestUpdate(w->h, msg + cut, MSG - cut)) ||
	    step_rv(w, pkt_f->C_DigestFinal(w->h, out, &ol)))
		return;
	tally(w, out, ol, want_sha);
}

static void one_mac(worker *w)
{
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	uint8_t out[32];
	CK_ULONG ol = sizeof out;

	if (step_rv(w, pkt_f->C_SignInit(w->h, &m, mac_key)) ||
	    step_rv(w, pkt_f->C_Sign(w->h, msg, MSG, out, &ol)))
		return;
	tally(w, out, ol, want_mac);
}

/* ECDSA VerifyInit, then a Verify that ends it at once (a 3-byte
 * signature: CKR_SIGNATURE_LEN_RANGE): mostly the Init's own path. */
static void one_verify_init(worker *w)
{
	CK_MECHANISM m = { CKM_ECDSA, NULL, 0 };
	uint8_t bad[3] = { 0 };
	CK_RV rv;

	int gone;

	if (step_rv(w, pkt_f->C_VerifyInit(w->h, &m, ec_pub)))
		return;
	gone = atomic_load(&w->gone);
	rv = pkt_f->C_Verify(w->h, msg, 32, bad, sizeof bad);
	if (gone && rv != CKR_SESSION_HANDLE_INVALID) {
		printf("\n  session %lu: closed, but its Verify found an operation"
		       " (CK_RV 0x%lx)\n", (unsigned long)w->h, (unsigned long)rv);
		w->wrong++;
	} else if (rv == CKR_SIGNATURE_LEN_RANGE) {
		w->ok++;
	} else {
		(void)step_rv(w, rv);
	}
}

static void *work_pk(void *arg)
{
	worker *w = arg;

	while (!w->closed && w->wrong == 0)
		one_verify_init(w);
	return NULL;
}

static void *work(void *arg)
{
	worker *w = arg;

	while (!w->closed) {
		switch (rand_r(&w->seed) % 3) {
		case 0: one_digest(w); break;
		case 1: multi_digest(w); break;
		default: one_mac(w); break;
		}
		if (w->wrong > 0)
			break;
	}
	return NULL;
}

static void pause_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

static void t_setup(void)
{
	unsigned int ml = 0;

	pc_token();
	ts_rand(msg, sizeof msg);
	ts_rand(mkey, sizeof mkey);
	CU_ASSERT_FATAL(EVP_Digest(msg, MSG, want_sha, NULL, EVP_sha256(), NULL) == 1);
	CU_ASSERT_FATAL(HMAC(EVP_sha256(), mkey, sizeof mkey, msg, MSG, want_mac, &ml) != NULL);
	CU_ASSERT_FATAL(ml == 32);
	CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, mkey, sizeof mkey, 0, &mac_key) == CKR_OK);
	{
		static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
		CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
		CK_OBJECT_HANDLE pr;
		CK_BBOOL t = CK_TRUE, f = CK_FALSE;
		CK_ATTRIBUTE pub[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 },
		                       { CKA_VERIFY, &t, 1 } };
		CK_ATTRIBUTE prv[] = { { CKA_SIGN, &t, 1 }, { CKA_PRIVATE, &f, 1 } };
		CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &m, pub, 2, prv, 2, &ec_pub, &pr) == CKR_OK);
	}
}

/* ROUNDS rounds of NTH sessions, each worked by a thread running fn and
 * closed by this one at random moments; every answer before a session's
 * close right, and some. */
static void close_rounds(void *(*fn)(void *), const char *what)
{
	long ok = 0, wrong = 0;
	worker w[NTH];
	pthread_t th[NTH];
	int r, i, order[NTH];

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < NTH; i++) {
			memset(&w[i], 0, sizeof w[i]);
			CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL,
			                                     NULL, &w[i].h) == CKR_OK);
			w[i].seed = ts_rand_u32(0xffffffffu);
			order[i] = i;
		}
		for (i = NTH - 1; i > 0; i--) {
			int j = (int)ts_rand_u32((uint32_t)i + 1u), t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		for (i = 0; i < NTH; i++)
			CU_ASSERT_FATAL(pthread_create(&th[i], NULL, fn, &w[i]) == 0);
		/* the first close after 0-2 ms, the others 0-500 us apart */
		pause_us((long)ts_rand_u32(2000));
		for (i = 0; i < NTH; i++) {
			CU_ASSERT(pkt_f->C_CloseSession(w[order[i]].h) == CKR_OK);
			atomic_store(&w[order[i]].gone, 1);
			pause_us((long)ts_rand_u32(500));
		}
		for (i = 0; i < NTH; i++) {
			pthread_join(th[i], NULL);
			ok += w[i].ok;
			wrong += w[i].wrong;
			CU_ASSERT(w[i].closed);
		}
	}
	printf("\n  %d rounds x %d sessions closed under %s: %ld right answers,"
	       " %ld wrong\n", ROUNDS, NTH, what, ok, wrong);
	CU_ASSERT(wrong == 0);
	CU_ASSERT(ok > 0);
}

static void t_close_under_load(void)
{
	close_rounds(work, "digests and MACs");
	/* the token still serves a new session */
	{
		worker z = { 0 };
		CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL,
		                                     NULL, &z.h) == CKR_OK);
		one_digest(&z);
		multi_digest(&z);
		one_mac(&z);
		CU_ASSERT(z.ok == 3 && z.wrong == 0 && !z.closed);
		CU_ASSERT(pkt_f->C_CloseSession(z.h) == CKR_OK);
	}
}

static void t_close_pk_init(void)
{
	close_rounds(work_pk, "ECDSA VerifyInits (ended by a short signature)");
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_close");

	CU_add_test(s, "setup: token, a MAC key, OpenSSL's answers", t_setup);
	CU_add_test(s, "sessions closed while their operations run", t_close_under_load);
	CU_add_test(s, "public-key Inits racing their sessions' closes leave nothing",
	            t_close_pk_init);
	return pc_run();
}
