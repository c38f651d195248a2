/*
 * ec_edge_test.c - scalar multiplication at edge scalars on P-256, P-384 and
 * SM2, against OpenSSL's EC_POINT_mul: 1..17, powers of two and 2^i - 1 at
 * limb and comb-tooth boundaries, n-1, n-2, n-3, (n+-1)/2, sparse and dense
 * bit patterns, random.  Fixed base (kc_ec_pubkey: comb) and variable base
 * (kc_ecdh: window, with G and with a random point as the peer), and the
 * compressed form of every result decoded back.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/Basic.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#include "ec_ossl.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/pv_err.h"
#include "tsupport.h"

static int nid_of(int curve)
{
	return curve == KC_EC_P256 ? NID_X9_62_prime256v1 : curve == KC_EC_P384 ? NID_secp384r1 : NID_sm2;
}

/* Fill ks with edge scalars in [1, n-1]; returns how many. */
static int edge_scalars(const BIGNUM *n, int bits, BIGNUM **ks, int max, BN_CTX *bc)
{
	int c = 0, i;
	static const int pows[] = { 0, 1, 2, 3, 4, 7, 8, 31, 32, 33, 63, 64, 65, 95, 96, 127, 128,
	                            129, 191, 192, 193, 223, 224, 255, 256, 287, 288, 319, 320,
	                            351, 352, 383 };
	BIGNUM *t;

	for (i = 1; i <= 17; i++) {
		ks[c] = BN_new();
		BN_set_word(ks[c++], (BN_ULONG)i);
	}
	for (i = 1; i <= 3; i++) {
		ks[c] = BN_dup(n);
		BN_sub_word(ks[c++], (BN_ULONG)i);
	}
	ks[c] = BN_dup(n); BN_rshift1(ks[c], ks[c]); c++;               /* (n-1)/2 */
	ks[c] = BN_dup(n); BN_add_word(ks[c], 1); BN_rshift1(ks[c], ks[c]); c++;   /* (n+1)/2 */
	for (i = 0; i < (int)(sizeof pows / sizeof pows[0]) && c + 2 < max; i++) {
		if (pows[i] >= bits)
			continue;
		t = BN_new();
		BN_set_bit(t, pows[i]);
		if (BN_cmp(t, n) < 0)
			ks[c++] = BN_dup(t);
		BN_sub_word(t, 1);
		if (!BN_is_zero(t) && BN_cmp(t, n) < 0)
			ks[c++] = BN_dup(t);
		BN_free(t);
	}
	/* 0x0101..., 0x7f7f..., 0x5555... patterns (reduced below n) */
	{
		static const uint8_t pat[] = { 0x01, 0x7f, 0x55, 0xaa, 0xf0, 0x80 };
		uint8_t buf[48];
		size_t k;

		for (k = 0; k < sizeof pat && c < max; k++) {
			memset(buf, pat[k], sizeof buf);
			ks[c] = BN_bin2bn(buf, bits / 8, NULL);
			BN_mod(ks[c], ks[c], n, bc);
			if (BN_is_zero(ks[c])) BN_one(ks[c]);
			c++;
		}
	}
	while (c < max) {
		ks[c] = BN_new();
		BN_rand_range(ks[c], n);
		if (BN_is_zero(ks[c])) BN_one(ks[c]);
		c++;
	}
	return c;
}

static void run_curve(int curve)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(nid_of(curve));
	BN_CTX *bc = BN_CTX_new();
	const BIGNUM *n = EC_GROUP_get0_order(g);
	int bits = BN_num_bits(n), cnt, i, bad = 0;
	size_t flen = kc_ec_flen(curve), publen = 1 + 2 * flen;
	BIGNUM *ks[96], *qd = BN_new();
	EC_POINT *R = EC_POINT_new(g), *Q = EC_POINT_new(g);
	uint8_t k[48], want[97], got[97], qb[97], gb[97], sec[48], comp[49];

	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	cnt = edge_scalars(n, bits, ks, 96, bc);
	/* a random peer Q and G itself, encoded */
	BN_rand_range(qd, n);
	EC_POINT_mul(g, Q, qd, NULL, NULL, bc);
	EC_POINT_point2oct(g, Q, POINT_CONVERSION_UNCOMPRESSED, qb, publen, bc);
	EC_POINT_point2oct(g, EC_GROUP_get0_generator(g), POINT_CONVERSION_UNCOMPRESSED, gb, publen, bc);
	for (i = 0; i < cnt; i++) {
		BN_bn2binpad(ks[i], k, (int)flen);
		/* fixed base */
		EC_POINT_mul(g, R, ks[i], NULL, NULL, bc);
		EC_POINT_point2oct(g, R, POINT_CONVERSION_UNCOMPRESSED, want, publen, bc);
		if (kc_ec_pubkey(curve, k, got) != PV_OK || memcmp(got, want, publen) != 0) {
			bad++;
			fprintf(stderr, "curve %d: k*G wrong for k = %s\n", curve, ts_hex(k, flen));
		}
		/* compressed round trip of the result */
		EC_POINT_point2oct(g, R, POINT_CONVERSION_COMPRESSED, comp, 1 + flen, bc);
		if (kc_ec_point_decode(curve, comp, 1 + flen, got) != PV_OK || memcmp(got, want, publen) != 0)
			bad++;
		/* variable base on G */
		if (kc_ecdh(curve, k, gb, publen, sec) != PV_OK || memcmp(sec, want + 1, flen) != 0) {
			bad++;
			fprintf(stderr, "curve %d: k*G (window) wrong for k = %s\n", curve, ts_hex(k, flen));
		}
		/* variable base on Q */
		EC_POINT_mul(g, R, NULL, Q, ks[i], bc);
		EC_POINT_point2oct(g, R, POINT_CONVERSION_UNCOMPRESSED, want, publen, bc);
		if (kc_ecdh(curve, k, qb, publen, sec) != PV_OK || memcmp(sec, want + 1, flen) != 0) {
			bad++;
			fprintf(stderr, "curve %d: k*Q wrong for k = %s\n", curve, ts_hex(k, flen));
		}
		BN_free(ks[i]);
	}
	fprintf(stderr, "curve %d: %d edge scalars x 4 checks, %d wrong\n", curve, cnt, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(cnt >= 60);
	BN_free(qd);
	EC_POINT_free(R);
	EC_POINT_free(Q);
	EC_GROUP_free(g);
	BN_CTX_free(bc);
}

static void test_p256(void) { run_curve(KC_EC_P256); }
static void test_p384(void) { run_curve(KC_EC_P384); }
static void test_sm2(void) { run_curve(KC_EC_SM2); }

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("ec_edge", NULL, NULL);
	CU_add_test(s, "P-256 edge scalars (comb, window) = OpenSSL", test_p256);
	CU_add_test(s, "P-384 edge scalars (comb, window) = OpenSSL", test_p384);
	CU_add_test(s, "SM2 edge scalars (comb, window) = OpenSSL", test_sm2);
	return ts_run();
}
