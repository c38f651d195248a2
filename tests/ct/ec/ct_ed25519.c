/*
 * ct_ed25519.c - constant-time check of gpu/core/ec/ed25519 (ctgrind, see
 * ../ct.h).
 *
 * Secret (marked undefined for valgrind memcheck): the 32-byte seed, the
 * clamped scalar derived from it, and the HMAC_DRBG state used by keygen.
 * Checked paths: public-key derivation (SHA-512, clamping, fixed-base
 * scalar multiplication with full-row table scans, point encoding with
 * field inversion), fixed-base multiplication on a secret scalar directly,
 * signing (nonce hash, [r]B, scalar reduction and muladd) with the public
 * key given and with it derived inside, Ed25519ctx / Ed25519ph signing,
 * key generation from the DRBG.
 * Public: the message and the public key (verification is variable time
 * by design and gets public inputs only).
 * Results are marked defined again and compared with RFC 8032 sections
 * 7.1 (TEST 1-3), 7.2 (first vector) and 7.3.
 */
#include "ct.h"

#include <stdint.h>
#include <string.h>

#include "gpu/core/ec/ed25519/kc_ed25519.h"
#include "gpu/core/ec/ed25519/kc_ge25519.h"
#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/hash/kc_hash.h"
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

static void expect(const char *what, uint8_t *got, size_t n, const uint8_t *want)
{
	CT_PUBLIC(got, n);
	if (memcmp(got, want, n) != 0) {
		fprintf(stderr, "ct_ed25519: %s: wrong result\n", what);
		failures++;
	}
}

static const struct { const char *sk, *pk, *msg, *sig; } rfc[] = {
	{ "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	  "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
	  "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
	  "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
};

int main(void)
{
	unsigned i;

	for (i = 0; i < sizeof rfc / sizeof rfc[0]; i++) {
		uint8_t seed[32], pk[32], msg[2], sig[64], pub[32], s[64], h[64];
		size_t mlen = strlen(rfc[i].msg) / 2;
		kc_ge25519_p3 P;

		unhex(rfc[i].sk, seed, 32);
		unhex(rfc[i].pk, pk, 32);
		unhex(rfc[i].msg, msg, mlen);
		unhex(rfc[i].sig, sig, 64);
		CT_SECRET(seed, sizeof seed);

		/* key derivation */
		if (kc_ed25519_pubkey(seed, pub) != 0)
			failures++;
		expect("pubkey", pub, 32, pk);

		/* fixed-base scalar multiplication on the secret scalar itself */
		kc_hash(KC_HASH_SHA512, seed, 32, h);
		h[0] &= 248;
		h[31] &= 127;
		h[31] |= 64;
		kc_ge25519_scalarmult_base(&P, h);
		kc_ge25519_p3_tobytes(pub, &P);
		expect("scalarmult_base", pub, 32, pk);

		/* signing, with the public key given (public) and derived */
		if (kc_ed25519_sign(seed, pk, msg, mlen, s) != 0)
			failures++;
		expect("sign", s, 64, sig);
		if (kc_ed25519_sign(seed, NULL, msg, mlen, s) != 0)
			failures++;
		expect("sign (pub derived)", s, 64, sig);

		/* verification: public inputs only */
		if (kc_ed25519_verify(pk, msg, mlen, s, 64) != 0)
			failures++;
		CT_PUBLIC(seed, sizeof seed);
	}
	CT_REPORT("ed25519 pubkey / scalarmult_base / sign");

	/* Ed25519ctx and Ed25519ph (RFC 8032 7.2 first vector, 7.3): the seed
	 * is secret, context and message public */
	{
		uint8_t seed[32], pk[32], msg[16], sig[64], s[64];
		unhex("0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6", seed, 32);
		unhex("dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292", pk, 32);
		unhex("f726936d19c800494e3fdaff20b276a8", msg, 16);
		unhex("55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a"
		      "8b36950b95130022907a7fb7c4e9b2d5f6cca685a587b4b21f4b888e4e7edb0d", sig, 64);
		CT_SECRET(seed, sizeof seed);
		if (kc_ed25519_sign_ex(seed, pk, KC_ED25519_CTX, (const uint8_t *)"foo", 3,
		                       msg, 16, s) != 0)
			failures++;
		expect("sign_ex ctx", s, 64, sig);
		CT_PUBLIC(seed, sizeof seed);

		unhex("833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42", seed, 32);
		unhex("98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae41"
		      "31f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406", sig, 64);
		CT_SECRET(seed, sizeof seed);
		if (kc_ed25519_sign_ex(seed, NULL, KC_ED25519_PH, NULL, 0,
		                       (const uint8_t *)"abc", 3, s) != 0)
			failures++;
		expect("sign_ex ph", s, 64, sig);
		CT_PUBLIC(seed, sizeof seed);
	}
	CT_REPORT("ed25519ctx / ed25519ph sign");

	/* key generation from a DRBG whose state is secret */
	{
		kc_drbg d;
		uint8_t ent[32], seed[32], pub[32], want[32];
		memset(ent, 0x42, sizeof ent);
		if (kc_drbg_init(&d, ent, sizeof ent, NULL, 0, NULL, 0) != 0)
			failures++;
		CT_SECRET(d.K, sizeof d.K);
		CT_SECRET(d.V, sizeof d.V);
		if (kc_ed25519_keygen(&d, seed, pub) != 0)
			failures++;
		CT_PUBLIC(seed, sizeof seed);
		CT_PUBLIC(pub, sizeof pub);
		kc_ed25519_pubkey(seed, want);
		expect("keygen", pub, 32, want);
		kc_drbg_clear(&d);
	}
	CT_REPORT("ed25519 keygen (DRBG)");

	if (failures)
		fprintf(stderr, "ct_ed25519: %d failures\n", failures);
	return failures ? 1 : 0;
}
