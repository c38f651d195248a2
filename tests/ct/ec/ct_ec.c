/*
 * ct_ec.c - ctgrind check of gpu/core/ec (P-256, P-384, SM2).
 *
 * Secrets marked undefined: private scalars, the scalar of the raw scalar
 * multiplications, and the DRBG state (so every nonce and every generated
 * key is secret too).  Under valgrind any branch or memory index on them is
 * an error.  The ec sources are compiled into this program with
 * -DKC_CT_VALIDATION, which only turns KC_EC_DECLASSIFY into
 * VALGRIND_MAKE_MEM_DEFINED for the decisions that are public by design
 * (candidate rejected, key out of range, r/s output, SM2 check result, and
 * the blinded product a*b that signing inverts in variable time - without
 * that declassification this program fails in kc_ecf_inv_vartime).
 * Results are marked public again and checked (verify, the other ECDH side),
 * so the program also fails without valgrind if something is wrong.
 */
#include <stdio.h>
#include <string.h>

#include "ct.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/pv_err.h"

static int fails;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "ct_ec: FAIL %s:%d %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

static void seed(kc_drbg *d, uint8_t tag)
{
	uint8_t ent[32];

	memset(ent, tag, sizeof ent);
	kc_drbg_init(d, ent, sizeof ent, NULL, 0, NULL, 0);
	CT_SECRET(d->K, sizeof d->K);
	CT_SECRET(d->V, sizeof d->V);
}

static void scalar_mults(void)
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_P256);
	uint8_t k[32], pa[65], pb[65], peer_priv[32], peer[65];
	kc_ec_pt R, P;
	size_t i;

	for (i = 0; i < sizeof k; i++) {
		k[i] = (uint8_t)(0x3c + 7 * i);
		peer_priv[i] = (uint8_t)(0x51 + 3 * i);
	}
	CHECK(kc_ec_pubkey(KC_EC_P256, peer_priv, peer) == PV_OK);
	CHECK(kc_ecp_decode(c, &P, peer, sizeof peer) == PV_OK);

	/* fixed base: k*G (comb) */
	CT_SECRET(k, sizeof k);
	kc_ecp_mulgen(c, &R, k);
	kc_ecp_encode(c, pa, &R);
	CT_PUBLIC(pa, sizeof pa);
	CT_REPORT("P-256 k*G (comb)");
	/* variable base: k*P (window) */
	kc_ecp_mul(c, &R, &P, k);
	kc_ecp_encode(c, pb, &R);
	CT_PUBLIC(pb, sizeof pb);
	CT_REPORT("P-256 k*P (fixed window)");
	CT_PUBLIC(k, sizeof k);
	/* consistency: k*(d*G) == d*(k*G) through the public API */
	{
		uint8_t s1[32];

		CHECK(kc_ecdh(KC_EC_P256, peer_priv, pa, sizeof pa, s1) == PV_OK);
		CHECK(memcmp(s1, pb + 1, 32) == 0);
	}
}

static void ecdsa(int curve, const char *name)
{
	size_t flen = kc_ec_flen(curve);
	uint8_t priv[48], pub[97], h[48], sig[96];
	kc_drbg d;
	size_t i;

	for (i = 0; i < flen; i++) {
		priv[i] = (uint8_t)(0x11 * (i + 1));
		h[i] = (uint8_t)(0xa5 ^ i);
	}
	CHECK(kc_ec_pubkey(curve, priv, pub) == PV_OK);
	seed(&d, 0x42);
	CT_SECRET(priv, flen);
	CHECK(kc_ecdsa_sign(curve, priv, h, flen, &d, sig) == PV_OK);
	CT_PUBLIC(sig, 2 * flen);
	CT_PUBLIC(priv, flen);
	CHECK(kc_ecdsa_verify(curve, pub, 1 + 2 * flen, h, flen, sig, 2 * flen) == PV_OK);
	CT_REPORT(name);
}

/* The two halves: a nonce from a secret DRBG state, then a signature
 * with a secret key (r is declassified as it would be in a signature). */
static void ecdsa_pre(int curve, const char *name)
{
	size_t flen = kc_ec_flen(curve);
	uint8_t priv[48], pub[97], h[48], sig[96];
	kc_ec_pre pre;
	kc_drbg d;
	size_t i;

	for (i = 0; i < flen; i++) {
		priv[i] = (uint8_t)(0x13 * (i + 1));
		h[i] = (uint8_t)(0x5a ^ i);
	}
	CHECK(kc_ec_pubkey(curve, priv, pub) == PV_OK);
	seed(&d, 0x24);
	CHECK(kc_ecdsa_precompute(curve, &d, &pre) == PV_OK);
	CT_SECRET(priv, flen);
	CHECK(kc_ecdsa_sign_pre(curve, priv, h, flen, &pre, sig) == PV_OK);
	CT_PUBLIC(sig, 2 * flen);
	CT_PUBLIC(priv, flen);
	CHECK(kc_ecdsa_verify(curve, pub, 1 + 2 * flen, h, flen, sig, 2 * flen) == PV_OK);
	CT_REPORT(name);
}

/* SM2's two halves, as ecdsa_pre: kc_sm2_precompute from a secret DRBG
 * state, then kc_sm2_sign_pre with a secret key. */
static void sm2_pre(void)
{
	uint8_t priv[32], pub[65], e[32], sig[64];
	kc_ec_pre pre;
	kc_drbg d;
	size_t i;

	for (i = 0; i < 32; i++) {
		priv[i] = (uint8_t)(0x31 + 7 * i);
		e[i] = (uint8_t)(0xa5 ^ i);
	}
	CHECK(kc_ec_pubkey(KC_EC_SM2, priv, pub) == PV_OK);
	seed(&d, 0x42);
	CHECK(kc_sm2_precompute(&d, &pre) == PV_OK);
	CT_SECRET(priv, sizeof priv);
	CHECK(kc_sm2_sign_pre(priv, e, &pre, sig) == PV_OK);
	CT_PUBLIC(sig, sizeof sig);
	CT_PUBLIC(priv, sizeof priv);
	CHECK(kc_sm2_verify_digest(pub, sizeof pub, e, sig, sizeof sig) == PV_OK);
	CT_REPORT("SM2 nonce computed ahead + sign");
}

static void ecdh(void)
{
	uint8_t a[32], b[32], qa[65], qb[65], s1[32], s2[32];
	size_t i;

	for (i = 0; i < 32; i++) {
		a[i] = (uint8_t)(0x77 - i);
		b[i] = (uint8_t)(0x19 + 5 * i);
	}
	CHECK(kc_ec_pubkey(KC_EC_P256, a, qa) == PV_OK);
	CHECK(kc_ec_pubkey(KC_EC_P256, b, qb) == PV_OK);
	CT_SECRET(a, sizeof a);
	CHECK(kc_ecdh(KC_EC_P256, a, qb, sizeof qb, s1) == PV_OK);
	CT_PUBLIC(s1, sizeof s1);
	CT_PUBLIC(a, sizeof a);
	CHECK(kc_ecdh(KC_EC_P256, b, qa, sizeof qa, s2) == PV_OK);
	CHECK(memcmp(s1, s2, 32) == 0);
	CT_REPORT("P-256 ECDH");
}

static void keygen(void)
{
	uint8_t priv[32], pub[65], chk[65];
	kc_drbg d;

	seed(&d, 0x99);
	CHECK(kc_ec_keygen(KC_EC_P256, &d, priv, pub) == PV_OK);
	CT_PUBLIC(pub, sizeof pub);
	CHECK(kc_ec_point_check(KC_EC_P256, pub, sizeof pub) == PV_OK);
	CT_PUBLIC(priv, sizeof priv);
	CHECK(kc_ec_pubkey(KC_EC_P256, priv, chk) == PV_OK);
	CHECK(memcmp(chk, pub, sizeof pub) == 0);
	CT_REPORT("P-256 keygen");
}

static void sm2(void)
{
	uint8_t priv[32], pub[65], sig[64], ct[97 + 20], pt[20];
	const uint8_t msg[20] = "ctgrind sm2 message";
	size_t i, ctlen = sizeof ct, ptlen = sizeof pt;
	kc_drbg d;

	for (i = 0; i < 32; i++)
		priv[i] = (uint8_t)(0x23 + 11 * i);
	CHECK(kc_ec_pubkey(KC_EC_SM2, priv, pub) == PV_OK);
	seed(&d, 0x07);
	CT_SECRET(priv, sizeof priv);
	CHECK(kc_sm2_sign(priv, NULL, NULL, 0, msg, sizeof msg, &d, sig) == PV_OK);
	CT_PUBLIC(sig, sizeof sig);
	CT_REPORT("SM2 sign");
	CHECK(kc_sm2_encrypt(pub, sizeof pub, msg, sizeof msg, &d, ct, &ctlen) == PV_OK);
	CT_PUBLIC(ct, sizeof ct);
	CT_REPORT("SM2 encrypt");
	CHECK(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen) == PV_OK);
	CT_PUBLIC(pt, sizeof pt);
	CT_REPORT("SM2 decrypt");
	ct[sizeof ct - 1] ^= 1;          /* failing check: same code path */
	ptlen = sizeof pt;
	CHECK(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen) == PV_ERR_ENC_INVALID);
	CT_PUBLIC(pt, sizeof pt);
	CT_PUBLIC(priv, sizeof priv);
	CHECK(kc_sm2_verify(pub, sizeof pub, NULL, 0, msg, sizeof msg, sig, sizeof sig) == PV_OK);
	ct[sizeof ct - 1] ^= 1;
	ptlen = sizeof pt;
	CHECK(kc_sm2_decrypt(priv, ct, ctlen, pt, &ptlen) == PV_OK && memcmp(pt, msg, sizeof msg) == 0);
}

int main(void)
{
	scalar_mults();
	ecdsa(KC_EC_P256, "P-256 ECDSA sign (hedged RFC 6979)");
	ecdsa(KC_EC_P384, "P-384 ECDSA sign (hedged RFC 6979)");
	ecdsa_pre(KC_EC_P256, "P-256 ECDSA nonce computed ahead + sign");
	ecdsa_pre(KC_EC_P384, "P-384 ECDSA nonce computed ahead + sign");
	ecdh();
	keygen();
	sm2();
	sm2_pre();
	fprintf(stderr, "ct_ec: %s\n", fails ? "FAILED" : "done");
	return fails != 0;
}
