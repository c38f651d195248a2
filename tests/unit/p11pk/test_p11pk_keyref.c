/*
 * test_p11pk_keyref.c - the key of an operation against C_DestroyObject
 * and C_SetAttributeValue from other threads, through the real module.
 *
 * C_SignInit resolves a session key by taking a reference to the object on
 * the slot's list (token/tk_object.c, tk_resolve; no copy under the
 * token's lock), and the operation keeps what it needs (the vault blob,
 * the flags) from that snapshot.  The semantics checked here (SoftHSMv2's
 * too: its operation keeps its own key):
 *   - an operation initialised before C_DestroyObject of its key finishes
 *     with CKR_OK and a right signature; a C_SignInit after it answers
 *     CKR_KEY_HANDLE_INVALID;
 *   - C_SetAttributeValue after C_SignInit (CKA_SIGN to FALSE) does not
 *     change the running operation; the next C_SignInit answers
 *     CKR_KEY_FUNCTION_NOT_PERMITTED;
 *   - threads signing in a loop while another replaces the key object
 *     (C_SetAttributeValue of CKA_LABEL, each one frees the previous
 *     object's list reference) and then destroys it see only CKR_OK with
 *     a right MAC / signature, or CKR_KEY_HANDLE_INVALID from C_SignInit
 *     once it is gone.  Run it under valgrind or ASan for the memory side:
 *     meson test --wrap='valgrind --error-exitcode=1' p11pk_keyref.
 * Results are collected per thread and asserted in the main thread (CUnit
 * is not thread-safe).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/hmac.h>

#include "../p11crypto/pc.h"
#include "pk_ossl.h"
#include "tsupport.h"

#define NTHR 8

static CK_BBOOL T = CK_TRUE, F = CK_FALSE;
static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };

/* The key of a test: an ECDSA P-256 pair or an HMAC-SHA256 secret key
 * (session objects made by pc_s), and how to check an output. */
typedef struct tkey {
	CK_MECHANISM_TYPE mech;
	CK_OBJECT_HANDLE key, pub;
	EVP_PKEY *oss;                /* ECDSA: the public key for OpenSSL */
	uint8_t v[32];                /* HMAC: the key's value */
} tkey;

static void ec_gen(tkey *k)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_VERIFY, &T, sizeof T },
	                      { CKA_EC_PARAMS, (void *)oid_p256, sizeof oid_p256 } };
	CK_ATTRIBUTE st[] = { { CKA_PRIVATE, &F, sizeof F }, { CKA_SIGN, &T, sizeof T } };
	uint8_t pt_der[80];
	CK_ATTRIBUTE a = { CKA_EC_POINT, pt_der, sizeof pt_der };

	memset(k, 0, sizeof *k);
	k->mech = CKM_ECDSA_SHA256;
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &m, pt, 2, st, 2, &k->pub, &k->key), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_GetAttributeValue(pc_s, k->pub, &a, 1), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(a.ulValueLen, 67);
	k->oss = po_ec_from_pub("P-256", pt_der + 2, 65);
	CU_ASSERT_FATAL(k->oss != NULL);
}

static void hmac_gen(tkey *k)
{
	memset(k, 0, sizeof *k);
	k->mech = CKM_SHA256_HMAC;
	ts_rand(k->v, sizeof k->v);
	CU_ASSERT_EQUAL_FATAL(pc_key(CKK_GENERIC_SECRET, k->v, sizeof k->v, 0, &k->key), CKR_OK);
}

static void key_done(tkey *k)
{
	if (k->pub != CK_INVALID_HANDLE)
		pkt_f->C_DestroyObject(pc_s, k->pub);
	EVP_PKEY_free(k->oss);
}

/* 1 if out is k's signature / MAC of msg. */
static int out_ok(const tkey *k, const uint8_t *msg, size_t n, const uint8_t *out, CK_ULONG ol)
{
	uint8_t der[80], mac[32];
	unsigned ml = sizeof mac;

	if (k->oss != NULL)
		return ol == 64 && po_verify(k->oss, EVP_sha256(), 0, 0, NULL, msg, n, der,
		                             po_rs2der(out, 32, der));
	return HMAC(EVP_sha256(), k->v, sizeof k->v, msg, n, mac, &ml) != NULL &&
	       ol == 32 && memcmp(out, mac, 32) == 0;
}

/* ---- C_SignInit, the key changes, C_Sign: a barrier the main thread
 * takes part in ---- */
static pthread_barrier_t bar;

typedef struct thr {
	pthread_t th;
	CK_SESSION_HANDLE s;
	const tkey *k;
	uint8_t msg[32];
	CK_RV init_rv, sign_rv, reinit_rv;
	int sig_ok;
} thr;

static void *init_wait_sign(void *arg)
{
	thr *t = arg;
	CK_MECHANISM m = { t->k->mech, NULL, 0 };
	uint8_t sig[64];
	CK_ULONG sl = sizeof sig;

	t->init_rv = pkt_f->C_SignInit(t->s, &m, t->k->key);
	pthread_barrier_wait(&bar);           /* every operation initialised */
	pthread_barrier_wait(&bar);           /* the key changed or gone */
	t->sign_rv = pkt_f->C_Sign(t->s, t->msg, sizeof t->msg, sig, &sl);
	t->sig_ok = t->sign_rv == CKR_OK && out_ok(t->k, t->msg, sizeof t->msg, sig, sl);
	t->reinit_rv = pkt_f->C_SignInit(t->s, &m, t->k->key);
	if (t->reinit_rv == CKR_OK) {
		sl = sizeof sig;
		pkt_f->C_Sign(t->s, t->msg, sizeof t->msg, sig, &sl);
	}
	return NULL;
}

/* NTHR threads C_SignInit on k; then change(k); then they C_Sign and
 * C_SignInit again.  Asserts the C_SignInit, C_Sign and second C_SignInit
 * results. */
static void around_init(const tkey *k, void (*change)(const tkey *), CK_RV reinit_want)
{
	thr t[NTHR];
	int i;

	memset(t, 0, sizeof t);
	CU_ASSERT_FATAL(pthread_barrier_init(&bar, NULL, NTHR + 1) == 0);
	for (i = 0; i < NTHR; i++) {
		t[i].s = pkt_open(pc_slot, 0);
		t[i].k = k;
		ts_rand(t[i].msg, sizeof t[i].msg);
		CU_ASSERT_FATAL(pthread_create(&t[i].th, NULL, init_wait_sign, &t[i]) == 0);
	}
	pthread_barrier_wait(&bar);
	change(k);
	pthread_barrier_wait(&bar);
	for (i = 0; i < NTHR; i++) {
		pthread_join(t[i].th, NULL);
		pkt_f->C_CloseSession(t[i].s);
		CU_ASSERT_EQUAL(t[i].init_rv, CKR_OK);
		CU_ASSERT_EQUAL(t[i].sign_rv, CKR_OK);    /* the key as it was at Init */
		CU_ASSERT(t[i].sig_ok);
		CU_ASSERT_EQUAL(t[i].reinit_rv, reinit_want);
	}
	pthread_barrier_destroy(&bar);
}

static void destroy_key(const tkey *k)
{
	CU_ASSERT_EQUAL(pkt_f->C_DestroyObject(pc_s, k->key), CKR_OK);
}

static void t_destroy_ecdsa(void)
{
	tkey k;

	ec_gen(&k);
	around_init(&k, destroy_key, CKR_KEY_HANDLE_INVALID);
	key_done(&k);
}

static void t_destroy_hmac(void)
{
	tkey k;

	hmac_gen(&k);
	around_init(&k, destroy_key, CKR_KEY_HANDLE_INVALID);
	key_done(&k);
}

static void forbid_sign(const tkey *k)
{
	CK_ATTRIBUTE a[] = { { CKA_SIGN, &F, sizeof F }, { CKA_LABEL, "changed", 7 } };

	CU_ASSERT_EQUAL(pkt_f->C_SetAttributeValue(pc_s, k->key, a, 2), CKR_OK);
}

/* (C_SetAttributeValue of a private key is not supported yet: tk_attr.c's
 * class table; a secret key here.) */
static void t_set_attribute_hmac(void)
{
	tkey k;
	CK_BBOOL b = CK_TRUE;
	char lbl[16];
	CK_ATTRIBUTE q[] = { { CKA_SIGN, &b, sizeof b }, { CKA_LABEL, lbl, sizeof lbl } };

	hmac_gen(&k);
	around_init(&k, forbid_sign, CKR_KEY_FUNCTION_NOT_PERMITTED);
	/* the object itself changed */
	CU_ASSERT_EQUAL(pkt_f->C_GetAttributeValue(pc_s, k.key, q, 2), CKR_OK);
	CU_ASSERT_EQUAL(b, CK_FALSE);
	CU_ASSERT(q[1].ulValueLen == 7 && memcmp(lbl, "changed", 7) == 0);
	CU_ASSERT_EQUAL(pkt_f->C_DestroyObject(pc_s, k.key), CKR_OK);
	key_done(&k);
}

/* ---- the hammer: sign in a loop while the key is replaced, then destroyed ---- */
static long sigs;                 /* signatures so far, every thread (atomic) */
static int gone;                  /* the key was destroyed (atomic) */

typedef struct ham {
	pthread_t th;
	const tkey *k;
	uint8_t msg[32];
	long ok, invalid, bad_out, wrong_rv;
	CK_RV first_wrong;
} ham;

static void *hammer(void *arg)
{
	ham *h = arg;
	CK_MECHANISM m = { h->k->mech, NULL, 0 };
	CK_SESSION_HANDLE s;
	uint8_t out[64];
	CK_ULONG ol;
	CK_RV rv;
	int after = 0;

	if (pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL, &s) != CKR_OK) {
		h->wrong_rv++;
		return NULL;
	}
	/* until a few C_SignInit calls have seen the key gone */
	while (after < 3) {
		if (__atomic_load_n(&gone, __ATOMIC_ACQUIRE))
			after++;
		rv = pkt_f->C_SignInit(s, &m, h->k->key);
		if (rv == CKR_KEY_HANDLE_INVALID) {
			h->invalid++;
			continue;
		}
		if (rv == CKR_OK) {
			ol = sizeof out;
			rv = pkt_f->C_Sign(s, h->msg, sizeof h->msg, out, &ol);
		}
		if (rv != CKR_OK) {
			if (h->wrong_rv++ == 0)
				h->first_wrong = rv;
			continue;
		}
		__atomic_add_fetch(&h->ok, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&sigs, 1, __ATOMIC_RELAXED);
		if (!out_ok(h->k, h->msg, sizeof h->msg, out, ol))
			h->bad_out++;
	}
	pkt_f->C_CloseSession(s);
	return NULL;
}

/* NTHR signers on k; once they have made min_sigs signatures and (if
 * nrepl) the object was replaced nrepl times, it is destroyed. */
static void run_hammer(const tkey *k, int nrepl, long min_sigs)
{
	ham h[NTHR];
	char lbl[24];
	long ok = 0, inv = 0;
	int i, n = 0, waits;

	memset(h, 0, sizeof h);
	sigs = 0;
	gone = 0;
	for (i = 0; i < NTHR; i++) {
		h[i].k = k;
		ts_rand(h[i].msg, sizeof h[i].msg);
		CU_ASSERT_FATAL(pthread_create(&h[i].th, NULL, hammer, &h[i]) == 0);
	}
	/* every signer has signed once before the object changes (on two
	 * busy cores one thread could otherwise be starved until the key is
	 * gone, and have nothing to check; 10 s at most) */
	for (i = 0, waits = 0; i < NTHR && waits < 100000; ) {
		if (__atomic_load_n(&h[i].ok, __ATOMIC_RELAXED) > 0) {
			i++;
		} else {
			usleep(100);
			waits++;
		}
	}
	while (n < nrepl || __atomic_load_n(&sigs, __ATOMIC_RELAXED) < min_sigs) {
		if (n < nrepl) {
			CK_ATTRIBUTE a = { CKA_LABEL, lbl, 0 };
			a.ulValueLen = (CK_ULONG)snprintf(lbl, sizeof lbl, "label-%d", n++);
			CU_ASSERT_EQUAL(pkt_f->C_SetAttributeValue(pc_s, k->key, &a, 1), CKR_OK);
		} else {
			usleep(100);
		}
	}
	CU_ASSERT_EQUAL(pkt_f->C_DestroyObject(pc_s, k->key), CKR_OK);
	__atomic_store_n(&gone, 1, __ATOMIC_RELEASE);
	for (i = 0; i < NTHR; i++) {
		pthread_join(h[i].th, NULL);
		CU_ASSERT_EQUAL(h[i].wrong_rv, 0);
		if (h[i].wrong_rv != 0)
			fprintf(stderr, "thread %d: %ld unexpected CK_RV, first 0x%lx\n", i,
			        h[i].wrong_rv, (unsigned long)h[i].first_wrong);
		CU_ASSERT_EQUAL(h[i].bad_out, 0);
		CU_ASSERT(h[i].ok > 0);
		CU_ASSERT(h[i].invalid >= 3);             /* it saw the destroy */
		ok += h[i].ok;
		inv += h[i].invalid;
	}
	printf("\n    %d replacements, %ld signatures, %ld CKR_KEY_HANDLE_INVALID ",
	       n, ok, inv);
}

static void t_hammer_hmac(void)
{
	tkey k;

	hmac_gen(&k);
	run_hammer(&k, 2000, 2000);
	key_done(&k);
}

static void t_hammer_ecdsa(void)
{
	tkey k;

	ec_gen(&k);
	run_hammer(&k, 0, 200);
	key_done(&k);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11pk_keyref");

	CU_add_test(s, "token and session", pc_token);
	CU_add_test(s, "ECDSA: C_DestroyObject between C_SignInit and C_Sign (8 threads)",
	            t_destroy_ecdsa);
	CU_add_test(s, "HMAC: C_DestroyObject between C_SignInit and C_Sign (8 threads)",
	            t_destroy_hmac);
	CU_add_test(s, "HMAC: C_SetAttributeValue(CKA_SIGN false) after C_SignInit (8 threads)",
	            t_set_attribute_hmac);
	CU_add_test(s, "HMAC: 8 signers, the key replaced 2000 times, then destroyed",
	            t_hammer_hmac);
	CU_add_test(s, "ECDSA P-256: 8 signers, 200 signatures, the key destroyed",
	            t_hammer_ecdsa);
	return pc_run();
}
