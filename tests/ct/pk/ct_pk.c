/*
 * ct_pk.c - constant-time check of gpu/core/pk under valgrind (ctgrind).
 *
 * A 1024-bit key is generated first (key generation is not under test);
 * then p, q, dp, dq, qinv, d, the DRBG state (blinding) and the messages
 * are marked secret, and we run:
 *   - kc_bn_modexp with a secret base and a secret exponent,
 *   - the key-generation arithmetic on secret operands (inverses, gcd,
 *     division, reductions; the prime search itself is not covered),
 *   - CRT signing: kc_rsa_private on a secret block, PKCS#1 v1.5 signing of
 *     a secret digest, PSS signing,
 *   - PKCS#1 v1.5 and OAEP decryption of valid and invalid ciphertexts
 *     (the padding checks run on secret plaintext),
 * and mark the results public only to check them.
 */
#include <stdlib.h>
#include <string.h>

#include "ct.h"
#include "gpu/core/hash/kc_drbg.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/pk/kc_bn.h"
#include "gpu/core/pk/kc_rsa.h"
#include "gpu/core/pv_err.h"

static int fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "ct_pk: check failed: %s (line %d)\n", #c, __LINE__); fails++; } } while (0)

static void secret_key(kc_rsa_priv *sk)
{
	CT_SECRET(sk->d, sizeof sk->d);
	CT_SECRET(sk->p, sizeof sk->p);
	CT_SECRET(sk->q, sizeof sk->q);
	CT_SECRET(sk->dp, sizeof sk->dp);
	CT_SECRET(sk->dq, sizeof sk->dq);
	CT_SECRET(sk->qinv, sizeof sk->qinv);
}

static void secret_rng(kc_drbg *d)
{
	CT_SECRET(d->K, sizeof d->K);
	CT_SECRET(d->V, sizeof d->V);
}

int main(void)
{
	static kc_rsa_priv sk;
	static uint32_t tmp[KC_BN_MODEXP_TMP(32)];
	kc_rsa_pub pk;
	kc_drbg rng;
	uint8_t seed[48], blk[128], sig[128], out[128], msg[40], hash[32];
	uint8_t ct1[3][128], ct2[3][128];
	uint32_t m[32], x[32], e[32], r2[32], m0i;
	size_t k, ol;
	int rc, i;

	for (i = 0; i < 48; i++)
		seed[i] = (uint8_t)(i * 7 + 1);
	CHECK(kc_drbg_init(&rng, seed, sizeof seed, (const uint8_t *)"ct", 2, (const uint8_t *)0, 0) == PV_OK);
	CHECK(kc_rsa_keygen(&rng, 1024, 65537, &sk) == PV_OK);
	kc_rsa_pub_from_priv(&pk, &sk);
	k = kc_rsa_len(sk.bits);
	/* ciphertexts for part 3, made while everything is public (encryption
	 * is not under test: its DRBG padding bytes steer a rejection loop) */
	for (i = 0; i < (int)sizeof msg; i++)
		msg[i] = (uint8_t)(0x30 + i);
	for (i = 0; i < 3; i++) {
		CHECK(kc_rsa_pkcs1_encrypt(&pk, &rng, msg, (size_t)(10 + 10 * i), ct1[i]) == PV_OK);
		CHECK(kc_rsa_oaep_encrypt(&pk, &rng, KC_HASH_SHA256, KC_HASH_SHA1, (const uint8_t *)"lbl", 3,
		                          msg, (size_t)(5 + 10 * i), ct2[i]) == PV_OK);
	}
	ct1[2][5] ^= 0x40;         /* garbage padding */
	ct2[2][7] ^= 0x01;
	secret_key(&sk);
	secret_rng(&rng);

	/* 1. modexp: public modulus n, secret base and exponent */
	kc_bn_decode(m, 32, pk.n, sizeof pk.n);
	m0i = kc_bn_ninv32(m[0]);
	kc_bn_r2(r2, m, 32, m0i, 1);
	for (i = 0; i < 32; i++) {
		x[i] = 0x01020304u * (uint32_t)(i + 1);
		e[i] = 0xa5a5a5a5u ^ (uint32_t)i;
	}
	x[31] &= 0x7fffffffu;
	CT_SECRET(x, sizeof x);
	CT_SECRET(e, sizeof e);
	kc_bn_modexp(x, e, 1024, r2, m, 32, m0i, tmp);
	CT_PUBLIC(x, sizeof x);
	CT_REPORT("kc_bn_modexp (secret base, secret exponent)");

	/* 1b. key-generation building blocks on secret operands (512-bit
	 * "primes" p, q from the key, as limbs) */
	{
		uint32_t p[16], q[16], a[32], b[32], g[16], t[3 * 32 + 1], qq[32], rr[32], r2p[16];
		uint32_t ok;
		kc_bn_decode(p, 16, sk.p, sizeof sk.p);
		kc_bn_decode(q, 16, sk.q, sizeof sk.q);
		/* q^-1 mod p (CRT coefficient) */
		kc_bn_reduce(g, q, 16, p, 16);
		ok = kc_bn_modinv_odd(g, p, 16, t);
		CT_PUBLIC(&ok, sizeof ok);
		CHECK(ok == 1);
		/* e^-1 mod (p - 1) */
		p[0] ^= 1u;
		ok = kc_bn_inv_small_e(a, 65537, p, 16, t);
		p[0] ^= 1u;
		CT_PUBLIC(&ok, sizeof ok);
		CHECK(ok == 1);
		/* gcd of the odd halves, long division, wide reduction mod p */
		kc_bn_zero(a, 32);
		kc_bn_zero(b, 32);
		kc_bn_decode(a, 16, sk.p, sizeof sk.p);
		kc_bn_decode(b, 16, sk.q, sizeof sk.q);
		kc_bn_rshift1(a, 16, 0);
		kc_bn_rshift1(b, 16, 0);
		kc_bn_gcd_odd(g, a, b, 16, t);
		kc_bn_div(qq, rr, a, b, 16);
		kc_bn_decode(a, 32, sk.n, sizeof sk.n);
		kc_bn_r2(r2p, p, 16, kc_bn_ninv32(p[0]), 1);
		kc_bn_mod_wide(rr, a, r2p, p, 16, kc_bn_ninv32(p[0]));
		CT_PUBLIC(rr, 16 * sizeof(uint32_t));
		CHECK(kc_bn_iszero(rr, 16));          /* n mod p == 0 */
		CT_REPORT("modinv_odd, inv_small_e, gcd_odd, div, reduce, mod_wide (secret operands)");
	}

	/* 2. CRT private operation on a secret block, and signatures */
	memset(blk, 0x11, sizeof blk);
	blk[0] = 0;
	CT_SECRET(blk, sizeof blk);
	rc = kc_rsa_private(&sk, &rng, blk, k, sig);
	CT_PUBLIC(&rc, sizeof rc);
	CT_PUBLIC(sig, sizeof sig);
	CHECK(rc == PV_OK);
	CHECK(kc_rsa_public(&pk, sig, k, out) == PV_OK);
	CT_PUBLIC(blk, sizeof blk);
	CHECK(memcmp(out, blk, k) == 0);
	CT_REPORT("kc_rsa_private (CRT, blinding, fault check)");

	memset(hash, 0x42, sizeof hash);
	CT_SECRET(hash, sizeof hash);
	rc = kc_rsa_pkcs1_sign(&sk, &rng, KC_HASH_SHA256, hash, sizeof hash, sig);
	CT_PUBLIC(&rc, sizeof rc);
	CT_PUBLIC(sig, sizeof sig);
	CT_PUBLIC(hash, sizeof hash);
	CHECK(rc == PV_OK);
	CHECK(kc_rsa_pkcs1_verify(&pk, KC_HASH_SHA256, hash, sizeof hash, sig, k) == PV_OK);
	CT_REPORT("kc_rsa_pkcs1_sign");

	CT_SECRET(hash, sizeof hash);
	rc = kc_rsa_pss_sign(&sk, &rng, KC_HASH_SHA256, KC_HASH_SHA256, 32, hash, sizeof hash, sig);
	CT_PUBLIC(&rc, sizeof rc);
	CT_PUBLIC(sig, sizeof sig);
	CT_PUBLIC(hash, sizeof hash);
	CHECK(rc == PV_OK);
	CHECK(kc_rsa_pss_verify(&pk, KC_HASH_SHA256, KC_HASH_SHA256, 32, hash, sizeof hash, sig, k) == PV_OK);
	CT_REPORT("kc_rsa_pss_sign");

	/* 3. decryption padding checks: valid and invalid ciphertexts */
	for (i = 0; i < 3; i++) {
		rc = kc_rsa_pkcs1_decrypt(&sk, &rng, ct1[i], k, out, &ol);
		CT_PUBLIC(&rc, sizeof rc);
		CT_PUBLIC(&ol, sizeof ol);
		CT_PUBLIC(out, sizeof out);
		if (i < 2)
			CHECK(rc == PV_OK && ol == (size_t)(10 + 10 * i) && memcmp(out, msg, ol) == 0);
		else
			CHECK(rc == PV_ERR_ENC_INVALID && ol == 0);
	}
	CT_REPORT("kc_rsa_pkcs1_decrypt (valid and invalid padding)");

	for (i = 0; i < 3; i++) {
		rc = kc_rsa_oaep_decrypt(&sk, &rng, KC_HASH_SHA256, KC_HASH_SHA1, (const uint8_t *)"lbl", 3,
		                         ct2[i], k, out, &ol);
		CT_PUBLIC(&rc, sizeof rc);
		CT_PUBLIC(&ol, sizeof ol);
		CT_PUBLIC(out, sizeof out);
		if (i < 2)
			CHECK(rc == PV_OK && ol == (size_t)(5 + 10 * i) && memcmp(out, msg, ol) == 0);
		else
			CHECK(rc == PV_ERR_ENC_INVALID && ol == 0);
	}
	CT_REPORT("kc_rsa_oaep_decrypt (valid and invalid padding)");

	kc_rsa_priv_clear(&sk);
	kc_drbg_clear(&rng);
	fprintf(stderr, "ct_pk: %s\n", fails ? "FAILED" : "done");
	return fails ? 1 : 0;
}
