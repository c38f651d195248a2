/*
 * test_ed_oracle.c - Ed25519 of gpu/core against OpenSSL (EVP_PKEY_ED25519)
 * on random keys and messages (0 .. 4 KiB): equal public keys, equal
 * (deterministic) signatures, each side verifies the other's signatures;
 * tampered signatures, messages and keys are rejected.  Also: key
 * generation from the HMAC_DRBG, argument checks and error codes.
 */
#include "ed_test.h"
#include "gpu/core/ec/ed25519/kc_ed25519.h"
#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/pv_err.h"

#define NKEYS 300

static const uint8_t Lbytes[32] = {
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2,
	0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10
};

static size_t pick_len(unsigned i)
{
	static const size_t edge[] = { 0, 1, 2, 31, 32, 33, 63, 64, 65, 111, 112, 113,
		127, 128, 129, 255, 256, 1023, 1024, 4096 };
	if (i < sizeof edge / sizeof edge[0])
		return edge[i];
	return (size_t)ts_rand_u32(4097);
}

static void test_random(void)
{
	unsigned i, bad_pub = 0, bad_sig = 0, bad_ov = 0, bad_vo = 0, bad_tamper = 0;
	unsigned ntamper = 0;
	static uint8_t msg[4097];

	for (i = 0; i < NKEYS; i++) {
		uint8_t seed[32], pub[32], opub[32], sig[64], osig[64], t[64], p2[32];
		size_t len = pick_len(i), k;
		int rc;

		ts_rand(seed, sizeof seed);
		if (i == 0) memset(seed, 0, 32);
		if (i == 1) memset(seed, 0xff, 32);
		ts_rand(msg, len + 1);

		CU_ASSERT_FATAL(ossl_pub(seed, opub) == 0);
		CU_ASSERT_FATAL(ossl_sign(seed, msg, len, osig) == 0);
		bad_pub += kc_ed25519_pubkey(seed, pub) != 0 || memcmp(pub, opub, 32) != 0;
		bad_sig += kc_ed25519_sign(seed, pub, msg, len, sig) != 0 || memcmp(sig, osig, 64) != 0;
		bad_ov += ossl_verify(pub, msg, len, sig, 64) != 1;
		bad_vo += kc_ed25519_verify(opub, msg, len, osig, 64) != 0;

		/* tampering: a bit of the signature */
		memcpy(t, sig, 64);
		k = ts_rand_u32(512);
		t[k / 8] ^= (uint8_t)(1u << (k % 8));
		bad_tamper += kc_ed25519_verify(pub, msg, len, t, 64) == 0;
		bad_tamper += ossl_verify(pub, msg, len, t, 64) == 1;   /* oracle agrees */
		/* a bit of the message (or one extra byte for the empty one) */
		if (len) {
			k = ts_rand_u32((uint32_t)(8 * len));
			msg[k / 8] ^= (uint8_t)(1u << (k % 8));
			bad_tamper += kc_ed25519_verify(pub, msg, len, sig, 64) != PV_ERR_SIG_INVALID;
			msg[k / 8] ^= (uint8_t)(1u << (k % 8));
		}
		bad_tamper += kc_ed25519_verify(pub, msg, len + 1, sig, 64) != PV_ERR_SIG_INVALID;
		/* another key */
		ts_rand(p2, 32);
		CU_ASSERT_FATAL(ossl_pub(p2, p2) == 0);
		bad_tamper += kc_ed25519_verify(p2, msg, len, sig, 64) != PV_ERR_SIG_INVALID;
		/* S + L (the malleated twin of a valid signature): S >= L */
		{
			unsigned c = 0;
			memcpy(t, sig, 64);
			for (k = 0; k < 32; k++) {
				c += (unsigned)t[32 + k] + Lbytes[k];
				t[32 + k] = (uint8_t)c;
				c >>= 8;
			}
			bad_tamper += kc_ed25519_verify(pub, msg, len, t, 64) != PV_ERR_SIG_INVALID;
		}
		/* wrong lengths */
		rc = kc_ed25519_verify(pub, msg, len, sig, 63);
		bad_tamper += rc != PV_ERR_SIG_LEN;
		memcpy(t, sig, 64);
		bad_tamper += kc_ed25519_verify(pub, msg, len, t, 65) != PV_ERR_SIG_LEN;
		ntamper += 9;
	}
	printf("\n    OpenSSL oracle: %u keys, messages 0..4096 bytes: bad pubkeys %u, "
	       "bad signatures %u, OpenSSL rejects ours %u, we reject OpenSSL's %u; "
	       "tamper checks %u, accepted %u\n", NKEYS, bad_pub, bad_sig, bad_ov, bad_vo,
	       ntamper, bad_tamper);
	CU_ASSERT_EQUAL(bad_pub, 0);
	CU_ASSERT_EQUAL(bad_sig, 0);
	CU_ASSERT_EQUAL(bad_ov, 0);
	CU_ASSERT_EQUAL(bad_vo, 0);
	CU_ASSERT_EQUAL(bad_tamper, 0);
}

/* one long message (256 KiB) in both directions */
static void test_long_message(void)
{
	size_t len = 256 * 1024;
	uint8_t *m = (uint8_t *)malloc(len), seed[32], pub[32], sig[64], osig[64];
	CU_ASSERT_FATAL(m != NULL);
	ts_rand(m, len);
	ts_rand(seed, 32);
	CU_ASSERT(kc_ed25519_pubkey(seed, pub) == 0);
	CU_ASSERT(kc_ed25519_sign(seed, pub, m, len, sig) == 0);
	CU_ASSERT(ossl_sign(seed, m, len, osig) == 0);
	CU_ASSERT(memcmp(sig, osig, 64) == 0);
	CU_ASSERT(kc_ed25519_verify(pub, m, len, osig, 64) == 0);
	CU_ASSERT(ossl_verify(pub, m, len, sig, 64) == 1);
	m[len - 1] ^= 0x80;
	CU_ASSERT(kc_ed25519_verify(pub, m, len, sig, 64) == PV_ERR_SIG_INVALID);
	free(m);
}

static void test_sign_without_pub(void)
{
	unsigned i, bad = 0;
	for (i = 0; i < 20; i++) {
		uint8_t seed[32], pub[32], a[64], b[64], m[40];
		ts_rand(seed, 32);
		ts_rand(m, sizeof m);
		kc_ed25519_pubkey(seed, pub);
		bad += kc_ed25519_sign(seed, pub, m, sizeof m, a) != 0;
		bad += kc_ed25519_sign(seed, NULL, m, sizeof m, b) != 0;
		bad += memcmp(a, b, 64) != 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_keygen_drbg(void)
{
	kc_drbg d1, d2;
	uint8_t ent[48], seed[32], pub[32], want[32], opub[32];
	unsigned i;

	ts_rand(ent, sizeof ent);
	CU_ASSERT_FATAL(kc_drbg_init(&d1, ent, sizeof ent, NULL, 0, NULL, 0) == 0);
	CU_ASSERT_FATAL(kc_drbg_init(&d2, ent, sizeof ent, NULL, 0, NULL, 0) == 0);
	for (i = 0; i < 5; i++) {
		CU_ASSERT(kc_ed25519_keygen(&d1, seed, pub) == 0);
		CU_ASSERT(kc_drbg_generate(&d2, want, 32, NULL, 0) == 0);
		CU_ASSERT(memcmp(seed, want, 32) == 0);     /* seed = next 32 DRBG bytes */
		CU_ASSERT(ossl_pub(seed, opub) == 0 && memcmp(pub, opub, 32) == 0);
	}
	/* an unseeded DRBG: PV_ERR_RANDOM, outputs wiped */
	memset(&d1, 0, sizeof d1);
	memset(seed, 0xaa, 32);
	memset(pub, 0xaa, 32);
	CU_ASSERT(kc_ed25519_keygen(&d1, seed, pub) == PV_ERR_RANDOM);
	memset(want, 0, 32);
	CU_ASSERT(memcmp(seed, want, 32) == 0 && memcmp(pub, want, 32) == 0);
	kc_drbg_clear(&d2);
}

static void test_args_and_keys(void)
{
	uint8_t seed[32], pub[32], sig[64], bad[32], m[1] = { 0 };
	unsigned k;

	ts_rand(seed, 32);
	CU_ASSERT(kc_ed25519_pubkey(NULL, pub) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_pubkey(seed, NULL) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_pubkey(seed, pub) == 0);
	CU_ASSERT(kc_ed25519_sign(NULL, pub, m, 1, sig) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_sign(seed, pub, NULL, 1, sig) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_sign(seed, pub, m, 1, NULL) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_keygen(NULL, seed, pub) == PV_ERR_ARGS);
	/* empty message with msg == NULL equals an empty message */
	CU_ASSERT(kc_ed25519_sign(seed, pub, NULL, 0, sig) == 0);
	CU_ASSERT(kc_ed25519_verify(pub, NULL, 0, sig, 64) == 0);
	CU_ASSERT(kc_ed25519_verify(pub, m, 0, sig, 64) == 0);
	CU_ASSERT(ossl_verify(pub, m, 0, sig, 64) == 1);
	CU_ASSERT(kc_ed25519_verify(NULL, m, 0, sig, 64) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_verify(pub, NULL, 1, sig, 64) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_verify(pub, m, 0, NULL, 64) == PV_ERR_ARGS);
	CU_ASSERT(kc_ed25519_verify(pub, m, 0, sig, 0) == PV_ERR_SIG_LEN);

	/* public keys with y >= p (non-canonical, RFC 8032 5.1.3 step 1):
	 * PV_ERR_PUBKEY whatever the signature */
	for (k = 0; k < 19; k++) {
		memset(bad, 0xff, 32);
		bad[0] = (uint8_t)(0xed + k);
		bad[31] = 0x7f;
		CU_ASSERT(kc_ed25519_verify(bad, m, 0, sig, 64) == PV_ERR_PUBKEY);
		bad[31] = 0xff;
		CU_ASSERT(kc_ed25519_verify(bad, m, 0, sig, 64) == PV_ERR_PUBKEY);
	}
	/* x = 0 with the sign bit set ("-0"): y = 1 and y = p - 1 */
	memset(bad, 0, 32);
	bad[0] = 1;
	bad[31] = 0x80;
	CU_ASSERT(kc_ed25519_verify(bad, m, 0, sig, 64) == PV_ERR_PUBKEY);
	/* y = 2 is not on the curve ((y^2-1)/(d y^2+1) is a non-square) */
	memset(bad, 0, 32);
	bad[0] = 2;
	CU_ASSERT(kc_ed25519_verify(bad, m, 0, sig, 64) == PV_ERR_PUBKEY);
	CU_ASSERT(ossl_verify(bad, m, 0, sig, 64) == 0);
}

int main(void)
{
	static const ed_test t[] = {
		{ "random keys and messages vs OpenSSL", test_random },
		{ "256 KiB message vs OpenSSL", test_long_message },
		{ "sign with pub == NULL", test_sign_without_pub },
		{ "keygen from HMAC_DRBG", test_keygen_drbg },
		{ "arguments, error codes, invalid public keys", test_args_and_keys },
	};
	return ed_run("core_ed oracle", t, sizeof t / sizeof t[0]);
}
