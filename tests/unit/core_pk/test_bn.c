/* test_bn.c - big-number layer (gpu/core/pk/kc_bn.h) against OpenSSL BN on
 * random inputs of every size the RSA code uses. */
#include <CUnit/Basic.h>
#include <openssl/bn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/pk/kc_bn.h"
#include "tsupport.h"

static BN_CTX *bctx;

static void to_limbs(uint32_t *x, size_t nl, const BIGNUM *b)
{
	uint8_t buf[4 * 2 * KC_BN_MAX_LIMBS + 8];
	CU_ASSERT_FATAL(BN_num_bytes(b) <= (int)(4 * nl));
	BN_bn2binpad(b, buf, (int)(4 * nl));
	CU_ASSERT(kc_bn_decode(x, nl, buf, 4 * nl) == 1);
}

static BIGNUM *from_limbs(const uint32_t *x, size_t nl)
{
	uint8_t buf[4 * 2 * KC_BN_MAX_LIMBS + 8];
	kc_bn_encode(buf, 4 * nl, x, nl);
	return BN_bin2bn(buf, (int)(4 * nl), NULL);
}

static BIGNUM *rand_bits(int bits, int odd)
{
	BIGNUM *b = BN_new();
	BN_rand(b, bits, BN_RAND_TOP_ONE, odd ? BN_RAND_BOTTOM_ODD : BN_RAND_BOTTOM_ANY);
	return b;
}

static int check_eq(const uint32_t *x, size_t nl, const BIGNUM *want, const char *what)
{
	BIGNUM *got = from_limbs(x, nl);
	int ok = BN_cmp(got, want) == 0;
	if (!ok) {
		char *g = BN_bn2hex(got), *w = BN_bn2hex(want);
		fprintf(stderr, "%s mismatch:\n got %s\nwant %s\n", what, g, w);
		OPENSSL_free(g);
		OPENSSL_free(w);
	}
	BN_free(got);
	return ok;
}

static const int sizes[] = { 64, 96, 512, 521, 1024, 1536, 2048, 3072, 4096 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void test_encode_decode(void)
{
	uint8_t in[20] = { 0 }, out[24];
	uint32_t x[4];
	int i;
	for (i = 0; i < 20; i++)
		in[i] = (uint8_t)(i + 1);
	CU_ASSERT(kc_bn_decode(x, 4, in, 20) == 0);    /* 20 bytes do not fit in 16 */
	CU_ASSERT(kc_bn_decode(x, 4, in + 4, 16) == 1);
	CU_ASSERT(x[0] == 0x11121314u && x[3] == 0x05060708u);
	kc_bn_encode(out, 24, x, 4);
	CU_ASSERT(memcmp(out, "\0\0\0\0\0\0\0\0", 8) == 0);
	CU_ASSERT(memcmp(out + 8, in + 4, 16) == 0);
	in[0] = 0; in[1] = 0; in[2] = 0; in[3] = 0;
	CU_ASSERT(kc_bn_decode(x, 4, in, 20) == 1);
}

/* Every byte length against nl limbs (partial top words, bytes beyond
 * nl limbs zero or not, unaligned sources) against OpenSSL BN. */
static void test_encode_decode_lengths(void)
{
	uint8_t in[64 + 3], out[64 + 3], want[64];
	uint32_t x[12];
	size_t len, nl, off;
	for (len = 0; len <= 64; len++)
		for (nl = 1; nl <= 12; nl++)
			for (off = 0; off < 4; off++) {
				size_t keep = len < 4 * nl ? len : 4 * nl, k;
				int fits = 1;
				BIGNUM *b;
				ts_rand(in + off, len);
				if ((len + nl + off) & 1)       /* half: the excess bytes zero */
					memset(in + off, 0, len - keep);
				for (k = 0; k < len - keep; k++)
					fits &= in[off + k] == 0;
				CU_ASSERT_EQUAL(kc_bn_decode(x, nl, in + off, len), (uint32_t)fits);
				b = BN_bin2bn(in + off + len - keep, (int)keep, NULL);
				CU_ASSERT(check_eq(x, nl, b, "decode"));
				/* and back into len bytes (x < 2^(8 keep)) */
				kc_bn_encode(out + off, len, x, nl);
				BN_bn2binpad(b, want, (int)len);
				CU_ASSERT(memcmp(out + off, want, len) == 0);
				BN_free(b);
			}
}

/* One nonzero byte anywhere above nl limbs makes decode report "does not
 * fit", at every alignment of the source's end (its word path). */
static void test_decode_excess(void)
{
	uint8_t in[4 * 8 + 48 + 8];
	uint32_t x[8];
	size_t off, ex, k;
	int bad = 0;
	for (off = 0; off < 8; off++)
		for (ex = 0; ex <= 48; ex++) {
			const size_t len = 4 * 8 + ex;
			memset(in, 0, sizeof in);
			ts_rand(in + off + ex, 32);
			bad += kc_bn_decode(x, 8, in + off, len) != 1u;
			{
				uint8_t back[32];
				kc_bn_encode(back, 32, x, 8);
				bad += memcmp(back, in + off + ex, 32) != 0;
			}
			for (k = 0; k < ex; k++) {
				in[off + k] = (uint8_t)(0x80u >> (k & 7u));
				bad += kc_bn_decode(x, 8, in + off, len) != 0u;
				in[off + k] = 0;
			}
		}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_arith(void)
{
	size_t s;
	int it;
	for (s = 0; s < NSIZES; s++) {
		int bits = sizes[s];
		size_t nl = (size_t)(bits + 31) / 32;
		for (it = 0; it < 8; it++) {
			BIGNUM *a = rand_bits(bits - (it & 3), 0), *b = rand_bits(bits, 0);
			BIGNUM *r = BN_new();
			uint32_t x[KC_BN_MAX_LIMBS], y[KC_BN_MAX_LIMBS], d[2 * KC_BN_MAX_LIMBS];
			uint32_t k = 3 + 2 * ts_rand_u32(1u << 20), rem, c;
			to_limbs(x, nl, a);
			to_limbs(y, nl, b);
			CU_ASSERT(kc_bn_lt(x, y, nl) == (BN_cmp(a, b) < 0));
			CU_ASSERT(kc_bn_eq(x, x, nl) == 1);
			CU_ASSERT(kc_bn_eq(x, y, nl) == (BN_cmp(a, b) == 0));
			CU_ASSERT(kc_bn_bitlen(x, nl) == (uint32_t)BN_num_bits(a));
			kc_bn_mul(d, x, nl, y, nl);
			BN_mul(r, a, b, bctx);
			CU_ASSERT(check_eq(d, 2 * nl, r, "mul"));
			CU_ASSERT(kc_bn_mod_small(x, nl, k) == BN_mod_word(a, k));
			memcpy(d, x, nl * 4);
			rem = kc_bn_div_small(d, nl, k);
			CU_ASSERT(rem == BN_mod_word(a, k));
			BN_copy(r, a);
			BN_div_word(r, k);
			CU_ASSERT(check_eq(d, nl, r, "div_small"));
			/* add / sub with carry */
			memcpy(d, x, nl * 4);
			c = kc_bn_add(d, y, nl, 1);
			BN_add(r, a, b);
			BN_mask_bits(r, (int)(32 * nl));
			CU_ASSERT(check_eq(d, nl, r, "add"));
			CU_ASSERT(c == (uint32_t)(BN_num_bits(a) >= 0 && BN_cmp(r, a) < 0));
			memcpy(d, x, nl * 4);
			kc_bn_add(d, y, nl, 0);
			CU_ASSERT(memcmp(d, x, nl * 4) == 0);
			BN_free(a); BN_free(b); BN_free(r);
		}
	}
}

static void test_reduce(void)
{
	size_t s;
	int it;
	for (s = 0; s < NSIZES; s++) {
		int bits = sizes[s];
		size_t nl = (size_t)(bits + 31) / 32;
		for (it = 0; it < 4; it++) {
			BIGNUM *m = rand_bits(bits - 3 * it, it & 1), *a = rand_bits(2 * bits, 0), *r = BN_new();
			uint32_t mm[KC_BN_MAX_LIMBS], aa[2 * KC_BN_MAX_LIMBS], rr[KC_BN_MAX_LIMBS];
			to_limbs(mm, nl, m);
			to_limbs(aa, 2 * nl, a);
			if (bits <= 1024) {   /* bit-serial: keep the suite fast */
				kc_bn_reduce(rr, aa, 2 * nl, mm, nl);
				BN_mod(r, a, m, bctx);
				CU_ASSERT(check_eq(rr, nl, r, "reduce"));
			}
			/* long division and odd gcd */
			if (bits <= 2048) {
				BIGNUM *qq = BN_new(), *rr2 = BN_new(), *x = rand_bits(bits, 1), *y = rand_bits(bits - 7 * it, 1), *g = BN_new(), *c = rand_bits(bits / 3, 1);
				uint32_t qd[KC_BN_MAX_LIMBS], rd[KC_BN_MAX_LIMBS], xa[KC_BN_MAX_LIMBS], ya[KC_BN_MAX_LIMBS], tt[2 * KC_BN_MAX_LIMBS];
				to_limbs(aa, nl, x);
				to_limbs(mm, nl, y);
				kc_bn_div(qd, rd, aa, mm, nl);
				BN_div(qq, rr2, x, y, bctx);
				CU_ASSERT(check_eq(qd, nl, qq, "div q"));
				CU_ASSERT(check_eq(rd, nl, rr2, "div r"));
				/* gcd with a planted common odd factor */
				{
					BIGNUM *f1 = rand_bits(bits - bits / 3 - 1, 1), *f2 = rand_bits(bits / 2, 1);
					BN_mul(x, c, f1, bctx);
					BN_mul(y, c, f2, bctx);
					BN_free(f1);
					BN_free(f2);
				}
				to_limbs(xa, nl, x);
				to_limbs(ya, nl, y);
				kc_bn_gcd_odd(rd, xa, ya, nl, tt);
				BN_gcd(g, x, y, bctx);
				CU_ASSERT(check_eq(rd, nl, g, "gcd_odd"));
				CU_ASSERT(BN_num_bits(g) >= bits / 3);   /* the planted factor */
				BN_free(qq); BN_free(rr2); BN_free(x); BN_free(y); BN_free(g); BN_free(c);
			}
			BN_free(m); BN_free(a); BN_free(r);
		}
	}
}

static void test_mont(void)
{
	size_t s;
	int it;
	for (s = 0; s < NSIZES; s++) {
		int bits = sizes[s];
		size_t nl = (size_t)(bits + 31) / 32;
		for (it = 0; it < 3; it++) {
			/* modulus with leading zero bits in its top limb on some rounds */
			BIGNUM *m = rand_bits(bits - 5 * it, 1), *r = BN_new(), *q = rand_bits(bits - 5 * it - 1, 0);
			BIGNUM *x = BN_new(), *e = BN_new(), *w = BN_new();
			uint32_t mm[KC_BN_MAX_LIMBS], r2[KC_BN_MAX_LIMBS], xx[KC_BN_MAX_LIMBS];
			uint32_t ee[KC_BN_MAX_LIMBS], ww[2 * KC_BN_MAX_LIMBS], rr[KC_BN_MAX_LIMBS];
			static uint32_t tmp[KC_BN_MODEXP_TMP(KC_BN_MAX_LIMBS)];
			uint32_t m0i, pe;
			size_t ebits;

			to_limbs(mm, nl, m);
			m0i = kc_bn_ninv32(mm[0]);
			CU_ASSERT(mm[0] * (0u - m0i) == 1u);
			BN_set_word(r, 0);
			BN_set_bit(r, (int)(64 * nl));
			BN_mod(r, r, m, bctx);
			/* no bound, a loose bound, the exact bit length; out of range
			 * bounds (0, above 32 nl) mean "no bound" */
			{
				const uint32_t bl = (uint32_t)BN_num_bits(m);
				const uint32_t mb[] = { 1, bl / 2, bl, 0, 32u * (uint32_t)nl + 1u };
				size_t b;
				for (b = 0; b < sizeof mb / sizeof mb[0]; b++) {
					kc_bn_zero(r2, nl);
					kc_bn_r2(r2, mm, nl, m0i, mb[b]);
					CU_ASSERT(check_eq(r2, nl, r, "r2"));
				}
			}
			/* modexp with a secret-size exponent */
			BN_rand_range(x, m);
			ebits = (size_t)(bits / 2 + it);
			BN_rand(e, (int)ebits, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
			to_limbs(xx, nl, x);
			kc_bn_zero(ee, KC_BN_MAX_LIMBS);
			to_limbs(ee, (ebits + 31) / 32, e);
			kc_bn_modexp(xx, ee, ebits, r2, mm, nl, m0i, tmp);
			BN_mod_exp(r, x, e, m, bctx);
			CU_ASSERT(check_eq(xx, nl, r, "modexp"));
			/* public exponent */
			pe = it == 0 ? 65537u : it == 1 ? 3u : 0x80000001u;
			to_limbs(xx, nl, x);
			kc_bn_modexp_pub(xx, pe, r2, mm, nl, m0i, tmp);
			BN_set_word(e, pe);
			BN_mod_exp(r, x, e, m, bctx);
			CU_ASSERT(check_eq(xx, nl, r, "modexp_pub"));
			/* wide reduction of w = x * q + y < m R */
			BN_mul(w, x, q, bctx);
			BN_add(w, w, x);
			to_limbs(ww, 2 * nl, w);
			kc_bn_mod_wide(rr, ww, r2, mm, nl, m0i);
			BN_mod(r, w, m, bctx);
			CU_ASSERT(check_eq(rr, nl, r, "mod_wide"));
			/* inverse mod odd m */
			to_limbs(xx, nl, x);
			{
				uint32_t okc = kc_bn_modinv_odd(xx, mm, nl, tmp);
				BIGNUM *g = BN_new();
				BN_gcd(g, x, m, bctx);
				CU_ASSERT(okc == (uint32_t)BN_is_one(g));
				if (BN_is_one(g)) {
					BN_mod_inverse(r, x, m, bctx);
					CU_ASSERT(check_eq(xx, nl, r, "modinv_odd"));
				}
				BN_free(g);
			}
			/* e^-1 mod an even modulus */
			{
				BIGNUM *ev = rand_bits(bits, 0), *g = BN_new(), *E = BN_new();
				uint32_t eu = it == 2 ? 3u : 65537u, okc;
				BN_clear_bit(ev, 0);
				BN_set_word(E, eu);
				to_limbs(mm, nl, ev);
				okc = kc_bn_inv_small_e(xx, eu, mm, nl, tmp);
				BN_gcd(g, E, ev, bctx);
				CU_ASSERT(okc == (uint32_t)BN_is_one(g));
				if (BN_is_one(g)) {
					BN_mod_inverse(r, E, ev, bctx);
					CU_ASSERT(check_eq(xx, nl, r, "inv_small_e"));
				}
				BN_free(ev); BN_free(g); BN_free(E);
			}
			BN_free(m); BN_free(r); BN_free(q); BN_free(x); BN_free(e); BN_free(w);
		}
	}
}

/* The Montgomery product at its edges, for every limb count to 128 (even
 * ones take the host's 64-bit limbs, odd ones the 32-bit code, unless
 * PIXELVAULT_CPU_ACCEL=0): moduli of all ones, of one top bit, random;
 * x, y in {0, 1, m - 1, random}, against x y / R mod m from OpenSSL. */
static void test_montmul_edges(void)
{
	size_t nl;
	int bad = 0, n = 0;

	for (nl = 1; nl <= KC_BN_MAX_LIMBS; nl += (nl < 20 ? 1 : 9)) {
		const int bits = (int)(32 * nl);
		int mk, xi, yi;
		for (mk = 0; mk < 3; mk++) {
			BIGNUM *m = BN_new(), *R = BN_new(), *Ri = BN_new(), *r = BN_new();
			BIGNUM *v[4];
			uint32_t mm[KC_BN_MAX_LIMBS], xx[KC_BN_MAX_LIMBS], yy[KC_BN_MAX_LIMBS], dd[KC_BN_MAX_LIMBS];
			if (mk == 0) {                       /* 2^bits - 1 */
				BN_set_bit(m, bits);
				BN_sub_word(m, 1);
			} else if (mk == 1) {                /* 2^(bits-1) + 1 */
				BN_set_bit(m, bits - 1);
				BN_add_word(m, 1);
			} else {
				BN_free(m);
				m = rand_bits(bits, 1);
			}
			BN_set_bit(R, bits);
			CU_ASSERT_FATAL(BN_mod_inverse(Ri, R, m, bctx) != NULL);
			v[0] = BN_new();
			v[1] = BN_new();
			BN_one(v[1]);
			v[2] = BN_dup(m);
			BN_sub_word(v[2], 1);
			v[3] = BN_new();
			BN_rand_range(v[3], m);
			to_limbs(mm, nl, m);
			for (xi = 0; xi < 4; xi++)
				for (yi = 0; yi < 4; yi++) {
					to_limbs(xx, nl, v[xi]);
					to_limbs(yy, nl, v[yi]);
					kc_bn_montmul(dd, xx, yy, mm, nl, kc_bn_ninv32(mm[0]));
					BN_mod_mul(r, v[xi], v[yi], m, bctx);
					BN_mod_mul(r, r, Ri, m, bctx);
					bad += !check_eq(dd, nl, r, "montmul");
					n++;
				}
			for (xi = 0; xi < 4; xi++)
				BN_free(v[xi]);
			BN_free(m);
			BN_free(R);
			BN_free(Ri);
			BN_free(r);
		}
	}
	printf("\n    montmul edges: %d products, %d wrong ", n, bad);
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	CU_pSuite s;
	int rc;
	bctx = BN_CTX_new();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("core_pk_bn", NULL, NULL);
	CU_add_test(s, "encode/decode", test_encode_decode);
	CU_add_test(s, "encode/decode, every length and alignment", test_encode_decode_lengths);
	CU_add_test(s, "decode: one byte above the limbs, every alignment", test_decode_excess);
	CU_add_test(s, "add/sub/cmp/mul/small vs OpenSSL", test_arith);
	CU_add_test(s, "generic reduction, division, gcd vs OpenSSL", test_reduce);
	CU_add_test(s, "Montgomery, modexp, inverses vs OpenSSL", test_mont);
	CU_add_test(s, "Montgomery product at its edges, 1..128 limbs", test_montmul_edges);
	rc = ts_run();
	BN_CTX_free(bctx);
	return rc;
}
