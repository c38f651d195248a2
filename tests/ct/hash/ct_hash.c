/*
 * ct_hash.c - constant-time check of gpu/core/hash (ctgrind, see ../ct.h).
 *
 * Secrets marked undefined for valgrind memcheck:
 *   - HMAC key and message: HMAC-SHA-256, HMAC-SHA-512, HMAC-SHA3-256,
 *     HMAC-SM3 (multi-part, then verify of a tag), HMAC-SHA-1;
 *   - message of every hash and XOF;
 *   - password of PBKDF2-HMAC-SHA-256 (fast path) and -SHA-512, IKM of HKDF;
 *   - the whole HMAC_DRBG state (K, V), entropy, nonce, personalization,
 *     reseed entropy and additional inputs.
 * Only lengths, algorithm ids, the reseed counter and `seeded` are public.
 * Outputs are marked defined again and checked against known answers
 * (RFC 4231 test case 2 inputs; OpenSSL for the values it alone gives;
 * a NIST CAVP HMAC_DRBG vector).
 */
#include "ct.h"

#include <stdint.h>
#include <string.h>

#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_hmac.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/core/pv_err.h"

static int failures;

static void unhex(const char *h, uint8_t *out, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		unsigned v;
		sscanf(h + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

static void expect(const char *what, const uint8_t *got, size_t n, const char *hex)
{
	uint8_t want[256];
	CT_PUBLIC(got, n);
	unhex(hex, want, n);
	if (memcmp(got, want, n) != 0) {
		fprintf(stderr, "ct_hash: %s: wrong result\n", what);
		failures++;
	}
}

/* RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?" */
static void ct_hmac(uint32_t alg, const char *name, const char *hex)
{
	uint8_t key[4], msg[28], mac[KC_HASH_MAX_LEN];
	size_t n = kc_hash_len(alg);
	kc_hmac_ctx c;
	int rc;

	memcpy(key, "Jefe", 4);
	memcpy(msg, "what do ya want for nothing?", 28);
	CT_SECRET(key, sizeof key);
	CT_SECRET(msg, sizeof msg);
	kc_hmac_init(&c, alg, key, sizeof key);
	kc_hmac_update(&c, msg, 10);
	kc_hmac_update(&c, msg + 10, sizeof msg - 10);
	kc_hmac_final(&c, mac);
	/* verify with a secret tag: only the (public) verdict leaves */
	rc = kc_hmac_verify(alg, key, sizeof key, msg, sizeof msg, mac, n);
	CT_PUBLIC(&rc, sizeof rc);
	if (rc != PV_OK) {
		fprintf(stderr, "ct_hash: %s verify failed\n", name);
		failures++;
	}
	expect(name, mac, n, hex);
	CT_REPORT(name);
}

static void ct_digests(void)
{
	static const uint32_t algs[] = {
		KC_HASH_SHA1, KC_HASH_SHA224, KC_HASH_SHA256, KC_HASH_SHA384, KC_HASH_SHA512,
		KC_HASH_SHA3_224, KC_HASH_SHA3_256, KC_HASH_SHA3_384, KC_HASH_SHA3_512,
		KC_HASH_SM3, KC_HASH_SHAKE128, KC_HASH_SHAKE256
	};
	uint8_t msg[300], out[400], out2[400];
	size_t i, n;

	for (i = 0; i < sizeof msg; i++)
		msg[i] = (uint8_t)(i * 7 + 1);
	CT_SECRET(msg, sizeof msg);
	for (i = 0; i < sizeof algs / sizeof algs[0]; i++) {
		kc_hash_ctx c;
		n = kc_hash_len(algs[i]);
		if (n) {
			kc_hash(algs[i], msg, sizeof msg, out);
		} else {
			n = 333;
			kc_shake(algs[i], msg, sizeof msg, out, n);
		}
		kc_hash_init(&c, algs[i]);
		kc_hash_update(&c, msg, 1);
		kc_hash_update(&c, msg + 1, 200);
		kc_hash_update(&c, msg + 201, sizeof msg - 201);
		if (kc_hash_len(algs[i]))
			kc_hash_final(&c, out2);
		else
			kc_hash_xof(&c, out2, n);
		CT_PUBLIC(out, n);
		CT_PUBLIC(out2, n);
		if (memcmp(out, out2, n) != 0) {
			fprintf(stderr, "ct_hash: digest alg %u: chunked != one shot\n", algs[i]);
			failures++;
		}
	}
	CT_REPORT("SHA-1/2/3, SHAKE, SM3 digests");
}

static void ct_kdf(void)
{
	uint8_t pw[6], salt[4], ikm[22], out[64];

	memcpy(pw, "passwd", 6);
	memcpy(salt, "salt", 4);
	CT_SECRET(pw, sizeof pw);
	CT_SECRET(salt, sizeof salt);
	kc_pbkdf2_hmac(KC_HASH_SHA256, pw, sizeof pw, salt, sizeof salt, 1, out, 64);
	/* RFC 7914 section 11 */
	expect("PBKDF2-HMAC-SHA256 (c=1)", out, 64,
	       "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
	       "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
	kc_pbkdf2_hmac(KC_HASH_SHA256, pw, sizeof pw, salt, sizeof salt, 50, out, 32);
	kc_pbkdf2_hmac(KC_HASH_SHA512, pw, sizeof pw, salt, sizeof salt, 50, out, 64);
	CT_PUBLIC(out, sizeof out);
	CT_REPORT("PBKDF2-HMAC-SHA256/SHA512");

	/* RFC 5869 test case 3 (no salt, no info) */
	memset(ikm, 0x0b, sizeof ikm);
	CT_SECRET(ikm, sizeof ikm);
	kc_hkdf(KC_HASH_SHA256, NULL, 0, ikm, sizeof ikm, NULL, 0, out, 42);
	expect("HKDF-SHA256", out, 42,
	       "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
	       "9d201395faa4b61a96c8");
	CT_REPORT("HKDF-SHA256");
}

/* CAVP HMAC_DRBG.rsp (drbgvectors_pr_false), [SHA-256], PersonalizationString
 * and AdditionalInput 256 bits: every input and the state are secret. */
static void ct_drbg(void)
{
	uint8_t e[32], n[16], p[32], re[32], ra[32], a1[32], a2[32], out[128];
	kc_drbg d;
	int rc;

	unhex("cdb0d9117cc6dbc9ef9dcb06a97579841d72dc18b2d46a1cb61e314012bdf416", e, 32);
	unhex("d0c0d01d156016d0eb6b7e9c7c3c8da8", n, 16);
	unhex("6f0fb9eab3f9ea7ab0a719bfa879bf0aaed683307fda0c6d73ce018b6e34faaa", p, 32);
	unhex("8ec6f7d5a8e2e88f43986f70b86e050d07c84b931bcf18e601c5a3eee3064c82", re, 32);
	unhex("1ab4ca9014fa98a55938316de8ba5a68c629b0741bdd058c4d70c91cda5099b3", ra, 32);
	unhex("16e2d0721b58d839a122852abd3bf2c942a31c84d82fca74211871880d7162ff", a1, 32);
	unhex("53686f042a7b087d5d2eca0d2a96de131f275ed7151189f7ca52deaa78b79fb2", a2, 32);
	CT_SECRET(e, 32); CT_SECRET(n, 16); CT_SECRET(p, 32);
	CT_SECRET(re, 32); CT_SECRET(ra, 32); CT_SECRET(a1, 32); CT_SECRET(a2, 32);

	rc = kc_drbg_init(&d, e, 32, n, 16, p, 32);
	rc |= kc_drbg_reseed(&d, re, 32, ra, 32);
	/* the state itself is secret from here on */
	CT_SECRET(d.K, sizeof d.K);
	CT_SECRET(d.V, sizeof d.V);
	rc |= kc_drbg_generate(&d, out, sizeof out, a1, 32);
	rc |= kc_drbg_generate(&d, out, sizeof out, a2, 32);
	if (rc != PV_OK) {
		fprintf(stderr, "ct_hash: DRBG calls failed\n");
		failures++;
	}
	expect("HMAC_DRBG-SHA256", out, 128,
	       "dda04a2ca7b8147af1548f5d086591ca4fd951a345ce52b3cd49d47e84aa31a1"
	       "83e31fbc42a1ff1d95afec7143c8008c97bc2a9c091df0a763848391f68cb4a3"
	       "66ad89857ac725a53b303ddea767be8dc5f605b1b95f6d24c9f06be65a973a08"
	       "9320b3cc42569dcfd4b92b62a993785b0301b3fc452445656fce22664827b88f");
	/* a larger request without additional input, still on the secret state */
	{
		static uint8_t big[KC_DRBG_MAX_REQUEST + 100];
		rc = kc_drbg_generate(&d, big, sizeof big, NULL, 0);
		if (rc != PV_OK)
			failures++;
	}
	kc_drbg_clear(&d);
	CT_REPORT("HMAC_DRBG-SHA256 generate (secret state)");
}

int main(void)
{
	ct_hmac(KC_HASH_SHA256, "HMAC-SHA256",
	        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	ct_hmac(KC_HASH_SHA512, "HMAC-SHA512",
	        "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
	        "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737");
	ct_hmac(KC_HASH_SHA3_256, "HMAC-SHA3-256",
	        "c7d4072e788877ae3596bbb0da73b887c9171f93095b294ae857fbe2645e1ba5");
	ct_hmac(KC_HASH_SM3, "HMAC-SM3",
	        "2e87f1d16862e6d964b50a5200bf2b10b764faa9680a296a2405f24bec39f882");
	ct_hmac(KC_HASH_SHA1, "HMAC-SHA1",
	        "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
	ct_digests();
	ct_kdf();
	ct_drbg();
	if (failures)
		fprintf(stderr, "ct_hash: %d failures\n", failures);
	return failures ? 1 : 0;
}
