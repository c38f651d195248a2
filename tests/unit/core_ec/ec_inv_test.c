/*
 * ec_inv_test.c - the variable-time inversion of gpu/core/ec/kc_ec_inv.c
 * (kc_ecf_inv_vartime) and the blinded inversion (kc_ecf_inv_blind) for
 * both moduli (p and n) of P-256, P-384 and SM2, against OpenSSL's
 * BN_mod_inverse and against the constant-time Fermat inversion
 * (kc_ecf_inv): random inputs, and edge inputs chosen for the GCD itself
 * (its input is the Montgomery form): 1, 2, small values, powers of two
 * (long runs of zero limbs), 2^i - 1, m - 1, m - 2, (m + 1) / 2, and 0,
 * which maps to 0.  Every result is also checked as a * a^-1 == 1.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/Basic.h>
#include <openssl/bn.h>
#include <openssl/rand.h>

#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "tsupport.h"

#define NRAND 2000

static void to_bn(const kc_ec_mod *m, const uint32_t *a, BIGNUM *r)
{
	uint8_t buf[48];

	kc_ecf_encode(m, buf, a);
	BN_bin2bn(buf, (int)(4 * m->nl), r);
}

static void from_bn(const kc_ec_mod *m, const BIGNUM *b, uint32_t *a)
{
	uint8_t buf[48];

	BN_bn2binpad(b, buf, (int)(4 * m->nl));
	kc_ecf_decode(m, a, buf);
}

/* Checks the inversion of X (Montgomery form, X < m).  Returns 1 if OK. */
static int check_one(const kc_ec_mod *m, const uint32_t *X, BIGNUM *M, BN_CTX *bc)
{
	uint32_t y[KC_EC_MAXL], f[KC_EC_MAXL], b[KC_EC_MAXL], yb[KC_EC_MAXL];
	uint32_t x[KC_EC_MAXL], yr[KC_EC_MAXL], one[KC_EC_MAXL], chk[KC_EC_MAXL];
	BIGNUM *bx = BN_new(), *by = BN_new(), *ref = BN_new();
	int ok = 1, zero;
	uint32_t i;

	memset(y, 0xee, sizeof y);
	kc_ecf_inv_vartime(m, y, X);
	kc_ecf_inv(m, f, X);
	if (memcmp(y, f, 4 * m->nl) != 0)
		ok = 0;                                   /* = Fermat */
	/* blinded, with a random b in [1, m) */
	do {
		uint8_t rb[48];

		RAND_bytes(rb, (int)(4 * m->nl));
		kc_ecf_decode(m, b, rb);
	} while (!kc_ecf_lt(m->nl, b, m->m) || kc_ecf_is_zero(m, b));
	kc_ecf_inv_blind(m, yb, X, b);
	if (memcmp(yb, f, 4 * m->nl) != 0)
		ok = 0;
	zero = kc_ecf_is_zero(m, X);
	kc_ecf_from_mont(m, x, X);
	kc_ecf_from_mont(m, yr, y);
	to_bn(m, x, bx);
	to_bn(m, yr, by);
	if (zero) {
		if (!BN_is_zero(by))
			ok = 0;
	} else {
		if (BN_mod_inverse(ref, bx, M, bc) == NULL || BN_cmp(ref, by) != 0)
			ok = 0;                               /* = OpenSSL */
		kc_ecf_mul(m, chk, X, y);                 /* a a^-1 = 1 (Montgomery) */
		for (i = 0; i < KC_EC_MAXL; i++)
			one[i] = m->one[i];
		if (memcmp(chk, one, 4 * m->nl) != 0)
			ok = 0;
	}
	BN_free(bx);
	BN_free(by);
	BN_free(ref);
	return ok;
}

static void run_mod(const kc_ec_mod *m, const char *name)
{
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *M = BN_new(), *t = BN_new();
	uint32_t X[KC_EC_MAXL];
	uint32_t nb = 32 * m->nl;
	int bad = 0, cnt = 0, i;

	to_bn(m, m->m, M);
	/* edge values of the GCD's input */
	for (i = 0; i <= 17; i++) {
		BN_set_word(t, (BN_ULONG)i);
		from_bn(m, t, X);
		bad += !check_one(m, X, M, bc);
		cnt++;
	}
	for (i = 1; i < (int)nb; i += (i < 40 ? 1 : 7)) {
		BN_zero(t);
		BN_set_bit(t, i);                       /* 2^i */
		if (BN_cmp(t, M) < 0) {
			from_bn(m, t, X);
			bad += !check_one(m, X, M, bc);
			cnt++;
		}
		BN_sub_word(t, 1);                      /* 2^i - 1 */
		from_bn(m, t, X);
		bad += !check_one(m, X, M, bc);
		cnt++;
	}
	for (i = 0; i < (int)(nb / 32); i++) {      /* whole zero limbs */
		BN_zero(t);
		BN_set_bit(t, 32 * i);                  /* 2^(32 i) */
		from_bn(m, t, X);
		bad += !check_one(m, X, M, bc);
		BN_set_bit(t, (int)nb - 2);             /* 2^(N-2) + 2^(32 i) */
		from_bn(m, t, X);
		bad += !check_one(m, X, M, bc);
		cnt += 2;
	}
	for (i = 1; i <= 2; i++) {
		BN_copy(t, M);
		BN_sub_word(t, (BN_ULONG)i);            /* m - 1, m - 2 */
		from_bn(m, t, X);
		bad += !check_one(m, X, M, bc);
		cnt++;
	}
	BN_copy(t, M);
	BN_add_word(t, 1);
	BN_rshift1(t, t);                           /* (m + 1) / 2 */
	from_bn(m, t, X);
	bad += !check_one(m, X, M, bc);
	cnt++;
	for (i = 0; i < NRAND; i++) {
		BN_rand_range(t, M);
		from_bn(m, t, X);
		bad += !check_one(m, X, M, bc);
		cnt++;
	}
	if (bad)
		fprintf(stderr, "ec_inv: %s: %d of %d wrong\n", name, bad, cnt);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(cnt > NRAND);
	BN_free(M);
	BN_free(t);
	BN_CTX_free(bc);
}

static void test_curve(int curve, const char *pn, const char *nn)
{
	const kc_ec_params *c = kc_ec_params_get(curve);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	run_mod(&c->p, pn);
	run_mod(&c->n, nn);
}

static void test_p256(void) { test_curve(KC_EC_P256, "P-256 p", "P-256 n"); }
static void test_p384(void) { test_curve(KC_EC_P384, "P-384 p", "P-384 n"); }
static void test_sm2(void) { test_curve(KC_EC_SM2, "SM2 p", "SM2 n"); }

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("ec_inv", NULL, NULL);
	CU_add_test(s, "P-256 p and n: vartime / blinded inverse = OpenSSL = Fermat", test_p256);
	CU_add_test(s, "P-384 p and n: vartime / blinded inverse = OpenSSL = Fermat", test_p384);
	CU_add_test(s, "SM2 p and n: vartime / blinded inverse = OpenSSL = Fermat", test_sm2);
	return ts_run();
}
