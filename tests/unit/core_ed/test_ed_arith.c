/*
 * test_ed_arith.c - GF(2^255-19), scalars mod L and the Edwards25519 group
 * of gpu/core/ec/ed25519 against OpenSSL's BIGNUM (independent oracle):
 * field operations on random and edge-case inputs, square roots, scalar
 * reduction and muladd, point decoding (RFC 8032 5.1.3) and fixed-base /
 * double-scalar multiplication against affine Edwards arithmetic in BN,
 * and a BN reference signer (RFC 8032 5.1.6 written out with OpenSSL's
 * SHA-512 and BN) for pure Ed25519, Ed25519ctx and Ed25519ph.
 */
#include "ed_test.h"
#include <openssl/bn.h>
#include "gpu/core/ec/ed25519/kc_f25519.h"
#include "gpu/core/ec/ed25519/kc_sc25519.h"
#include "gpu/core/ec/ed25519/kc_ge25519.h"
#include "gpu/core/ec/ed25519/kc_ed25519.h"
#include "gpu/core/pv_err.h"
#include <openssl/evp.h>

static BN_CTX *bx;
static BIGNUM *P, *L, *D;

#define NRAND 3000

static void bn_init(void)
{
	BIGNUM *t;
	if (bx)
		return;
	t = BN_new();
	bx = BN_CTX_new();
	P = BN_new(); L = BN_new(); D = BN_new();
	BN_set_bit(P, 255); BN_sub_word(P, 19);
	BN_dec2bn(&L, "27742317777372353535851937790883648493");
	BN_set_bit(L, 252);
	/* d = -121665 / 121666 */
	BN_set_word(t, 121666);
	BN_mod_inverse(D, t, P, bx);
	BN_set_word(t, 121665);
	BN_mod_mul(D, D, t, P, bx);
	BN_sub(D, P, D);
	BN_free(t);
}

static BIGNUM *bn_le(const uint8_t *s, size_t n)
{
	return BN_lebin2bn(s, (int)n, NULL);
}

static void bn_out(const BIGNUM *a, uint8_t out[32])
{
	BN_bn2lebinpad(a, out, 32);
}

/* random 32 bytes, every 8th one an edge case */
static void rand_fe_bytes(uint8_t s[32], unsigned i)
{
	static const uint8_t pm[32] = { 0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
	ts_rand(s, 32);
	switch (i % 16) {
	case 0: memset(s, 0, 32); s[0] = (uint8_t)(i / 16 % 3); break;      /* 0,1,2 */
	case 1: memcpy(s, pm, 32); s[0] = (uint8_t)(0xec + i / 16 % 20); break; /* p-1 .. 2^255-1 */
	case 2: memset(s, 0xff, 32); break;                                    /* 2^256-1 */
	case 3: memset(s, 0, 32); s[31] = 0x80; break;                         /* bit 255 only */
	case 4: memcpy(s, pm, 32); s[0] = (uint8_t)(0xed - 1 - i / 16 % 8); break; /* just below p */
	default: break;
	}
}

static void fe_to_bn_ref(BIGNUM *r, const uint8_t s[32])
{
	uint8_t t[32];
	BIGNUM *a;
	memcpy(t, s, 32);
	t[31] &= 0x7f;                       /* frombytes ignores bit 255 */
	a = bn_le(t, 32);
	BN_nnmod(r, a, P, bx);
	BN_free(a);
}

static int fe_check(const kc_f25519 f, const BIGNUM *want)
{
	uint8_t a[32], b[32];
	kc_f25519_tobytes(a, f);
	bn_out(want, b);
	return memcmp(a, b, 32) == 0;
}

static void test_fe_bytes(void)
{
	unsigned i, bad = 0, badc = 0;
	BIGNUM *r = BN_new(), *raw;
	bn_init();
	for (i = 0; i < NRAND; i++) {
		uint8_t s[32], t[32];
		kc_f25519 f;
		int canon;
		rand_fe_bytes(s, i);
		kc_f25519_frombytes(f, s);
		fe_to_bn_ref(r, s);
		if (!fe_check(f, r))
			bad++;
		memcpy(t, s, 32);
		t[31] &= 0x7f;
		raw = bn_le(t, 32);
		canon = BN_cmp(raw, P) < 0;
		if ((int)kc_f25519_bytes_canonical(s) != canon)
			badc++;
		BN_free(raw);
	}
	printf("\n    fe bytes: %u cases, %u bad roundtrip, %u bad canonical\n", NRAND, bad, badc);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(badc, 0);
	BN_free(r);
}

static void test_fe_ops(void)
{
	unsigned i, bad[12] = { 0 }, k;
	BIGNUM *a = BN_new(), *b = BN_new(), *c = BN_new(), *r = BN_new(), *e = BN_new();
	bn_init();
	for (i = 0; i < NRAND; i++) {
		uint8_t sa[32], sb[32], sc[32];
		kc_f25519 fa, fb, fc, h, x, y, z, w;
		uint32_t ctl;
		rand_fe_bytes(sa, i);
		rand_fe_bytes(sb, i * 7 + 3);
		rand_fe_bytes(sc, i * 5 + 1);
		kc_f25519_frombytes(fa, sa);
		kc_f25519_frombytes(fb, sb);
		kc_f25519_frombytes(fc, sc);
		fe_to_bn_ref(a, sa);
		fe_to_bn_ref(b, sb);
		fe_to_bn_ref(c, sc);

		kc_f25519_mul(h, fa, fb);
		BN_mod_mul(r, a, b, P, bx);
		bad[0] += !fe_check(h, r);

		kc_f25519_sq(h, fa);
		BN_mod_sqr(r, a, P, bx);
		bad[1] += !fe_check(h, r);

		kc_f25519_add(h, fa, fb);
		BN_mod_add(r, a, b, P, bx);
		bad[2] += !fe_check(h, r);

		kc_f25519_sub(h, fa, fb);
		BN_mod_sub(r, a, b, P, bx);
		bad[3] += !fe_check(h, r);

		kc_f25519_neg(h, fa);
		BN_mod_sub(r, P, a, P, bx);
		bad[4] += !fe_check(h, r);

		/* worst-case limb growth used by the group code: a sum of three
		 * carried values fed into mul and sq */
		kc_f25519_mul(x, fa, fb);
		kc_f25519_mul(y, fb, fc);
		kc_f25519_mul(z, fa, fc);
		kc_f25519_sub(w, x, y);
		kc_f25519_sub(w, w, z);              /* ab - bc - ac */
		kc_f25519_mul(h, w, w);
		kc_f25519_sq(x, w);
		BN_mod_mul(r, a, b, P, bx);
		BN_mod_mul(e, b, c, P, bx);
		BN_mod_sub(r, r, e, P, bx);
		BN_mod_mul(e, a, c, P, bx);
		BN_mod_sub(r, r, e, P, bx);
		BN_mod_sqr(r, r, P, bx);
		bad[5] += !fe_check(h, r) + !fe_check(x, r);

		kc_f25519_invert(h, fa);
		if (BN_is_zero(a))
			BN_zero(r);
		else
			BN_mod_inverse(r, a, P, bx);
		bad[6] += !fe_check(h, r);

		kc_f25519_pow22523(h, fa);
		BN_zero(e);
		BN_set_bit(e, 252);
		BN_sub_word(e, 3);
		BN_mod_exp(r, a, e, P, bx);
		bad[7] += !fe_check(h, r);

		k = 1 + i % 7;
		kc_f25519_sqn(h, fa, k);
		BN_zero(e);
		BN_set_bit(e, (int)k);
		BN_mod_exp(r, a, e, P, bx);
		bad[8] += !fe_check(h, r);

		/* cmov / cswap with both control values */
		ctl = (uint32_t)(i & 1);
		kc_f25519_copy(x, fa);
		kc_f25519_cmov(x, fb, ctl);
		bad[9] += !fe_check(x, ctl ? b : a);
		kc_f25519_copy(x, fa);
		kc_f25519_copy(y, fb);
		kc_f25519_cswap(x, y, ctl);
		bad[9] += !fe_check(x, ctl ? b : a) + !fe_check(y, ctl ? a : b);

		bad[10] += kc_f25519_isneg(fa) != (uint32_t)BN_is_odd(a);
		bad[10] += kc_f25519_iszero(fa) != (uint32_t)BN_is_zero(a);
		bad[11] += kc_f25519_eq(fa, fb) != (uint32_t)(BN_cmp(a, b) == 0);
		bad[11] += kc_f25519_eq(fa, fa) != 1u;
	}
	printf("\n    fe ops: %u cases; bad mul %u sq %u add %u sub %u neg %u chain %u inv %u "
	       "pow22523 %u sqn %u cmov/cswap %u isneg/iszero %u eq %u\n", NRAND,
	       bad[0], bad[1], bad[2], bad[3], bad[4], bad[5], bad[6], bad[7], bad[8],
	       bad[9], bad[10], bad[11]);
	for (k = 0; k < 12; k++)
		CU_ASSERT_EQUAL(bad[k], 0);
	BN_free(a); BN_free(b); BN_free(c); BN_free(r); BN_free(e);
}

/* Euler's criterion: 1 if a is a square mod p (0 counts as a square). */
static int bn_is_square(const BIGNUM *a)
{
	BIGNUM *e = BN_new(), *r = BN_new();
	int sq;
	BN_copy(e, P);
	BN_sub_word(e, 1);
	BN_rshift1(e, e);
	BN_mod_exp(r, a, e, P, bx);
	sq = BN_is_zero(r) || BN_is_one(r);
	BN_free(e);
	BN_free(r);
	return sq;
}

static void test_fe_sqrt_ratio(void)
{
	unsigned i, bad = 0, nsq = 0;
	BIGNUM *u = BN_new(), *v = BN_new(), *w = BN_new(), *x = BN_new();
	bn_init();
	for (i = 0; i < 600; i++) {
		uint8_t su[32], sv[32];
		kc_f25519 fu, fv, fx;
		uint32_t ok;
		int want;
		rand_fe_bytes(su, i);
		do {
			ts_rand(sv, 32);
			if (i % 5 == 0) { memset(sv, 0, 32); sv[0] = 1; }   /* v = 1 */
			fe_to_bn_ref(v, sv);
		} while (BN_is_zero(v));
		kc_f25519_frombytes(fu, su);
		kc_f25519_frombytes(fv, sv);
		fe_to_bn_ref(u, su);
		ok = kc_f25519_sqrt_ratio(fx, fu, fv);
		BN_mod_inverse(w, v, P, bx);
		BN_mod_mul(w, w, u, P, bx);
		want = bn_is_square(w);
		nsq += (unsigned)want;
		if ((int)ok != want) {
			bad++;
			continue;
		}
		if (ok) {             /* x^2 v == u */
			uint8_t sx[32];
			kc_f25519_tobytes(sx, fx);
			BN_free(x);
			x = bn_le(sx, 32);
			BN_mod_sqr(x, x, P, bx);
			BN_mod_mul(x, x, v, P, bx);
			if (BN_cmp(x, u) != 0)
				bad++;
		}
	}
	printf("\n    sqrt_ratio: 600 cases (%u squares), %u bad\n", nsq, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(nsq > 100 && nsq < 500);   /* both branches exercised */
	BN_free(u); BN_free(v); BN_free(w); BN_free(x);
}

static void rand_sc_bytes(uint8_t *s, size_t n, unsigned i)
{
	uint8_t lb[32];
	ts_rand(s, n);
	switch (i % 8) {
	case 0: memset(s, 0xff, n); break;
	case 1: memset(s, 0, n); break;
	case 2: /* L + small, L - small */
		memset(s, 0, n);
		bn_out(L, lb);
		memcpy(s, lb, 32);
		s[0] = (uint8_t)(s[0] + (int)(i / 8 % 5) - 2);
		break;
	default: break;
	}
}

static void test_sc(void)
{
	unsigned i, bad_red = 0, bad_mad = 0, bad_can = 0;
	BIGNUM *a, *b, *c, *r = BN_new();
	bn_init();
	for (i = 0; i < NRAND; i++) {
		uint8_t s64[64], sa[32], sb[32], sc[32], out[32], want[32];
		rand_sc_bytes(s64, 64, i);
		kc_sc25519_reduce(out, s64);
		a = bn_le(s64, 64);
		BN_nnmod(r, a, L, bx);
		bn_out(r, want);
		bad_red += memcmp(out, want, 32) != 0;
		BN_free(a);

		rand_sc_bytes(sa, 32, i);
		rand_sc_bytes(sb, 32, i / 3 + 1);
		rand_sc_bytes(sc, 32, i / 5 + 2);
		kc_sc25519_muladd(out, sa, sb, sc);
		a = bn_le(sa, 32); b = bn_le(sb, 32); c = bn_le(sc, 32);
		BN_mul(r, a, b, bx);
		BN_add(r, r, c);
		BN_nnmod(r, r, L, bx);
		bn_out(r, want);
		bad_mad += memcmp(out, want, 32) != 0;
		bad_can += kc_sc25519_is_canonical(sa) != (uint32_t)(BN_cmp(a, L) < 0);
		BN_free(a); BN_free(b); BN_free(c);
	}
	printf("\n    scalars: %u cases; bad reduce %u, muladd %u, is_canonical %u\n",
	       NRAND, bad_red, bad_mad, bad_can);
	CU_ASSERT_EQUAL(bad_red, 0);
	CU_ASSERT_EQUAL(bad_mad, 0);
	CU_ASSERT_EQUAL(bad_can, 0);
	BN_free(r);
}

/* ---- affine Edwards arithmetic in BN (RFC 8032 5.1.4), the oracle ---- */
typedef struct { BIGNUM *x, *y; } bpt;

static void bpt_init(bpt *p) { p->x = BN_new(); p->y = BN_new(); BN_zero(p->x); BN_one(p->y); }
static void bpt_free(bpt *p) { BN_free(p->x); BN_free(p->y); }

static void bpt_add(bpt *r, const bpt *p, const bpt *q)
{
	BIGNUM *t = BN_new(), *n1 = BN_new(), *n2 = BN_new(), *d1 = BN_new(), *d2 = BN_new();
	BN_mod_mul(t, p->x, q->x, P, bx);
	BN_mod_mul(t, t, p->y, P, bx);
	BN_mod_mul(t, t, q->y, P, bx);
	BN_mod_mul(t, t, D, P, bx);          /* d x1 x2 y1 y2 */
	BN_one(d1);
	BN_mod_add(d1, d1, t, P, bx);
	BN_one(d2);
	BN_mod_sub(d2, d2, t, P, bx);
	BN_mod_mul(n1, p->x, q->y, P, bx);
	BN_mod_mul(t, q->x, p->y, P, bx);
	BN_mod_add(n1, n1, t, P, bx);
	BN_mod_mul(n2, p->y, q->y, P, bx);
	BN_mod_mul(t, p->x, q->x, P, bx);
	BN_mod_add(n2, n2, t, P, bx);
	BN_mod_inverse(d1, d1, P, bx);
	BN_mod_inverse(d2, d2, P, bx);
	BN_mod_mul(r->x, n1, d1, P, bx);
	BN_mod_mul(r->y, n2, d2, P, bx);
	BN_free(t); BN_free(n1); BN_free(n2); BN_free(d1); BN_free(d2);
}

static void bpt_mul(bpt *r, const BIGNUM *k, const bpt *p)
{
	bpt acc, q;
	int i;
	bpt_init(&acc);
	bpt_init(&q);
	BN_copy(q.x, p->x);
	BN_copy(q.y, p->y);
	for (i = 0; i < BN_num_bits(k); i++) {
		if (BN_is_bit_set(k, i))
			bpt_add(&acc, &acc, &q);
		bpt_add(&q, &q, &q);
	}
	BN_copy(r->x, acc.x);
	BN_copy(r->y, acc.y);
	bpt_free(&acc);
	bpt_free(&q);
}

static void bpt_enc(uint8_t out[32], const bpt *p)
{
	bn_out(p->y, out);
	out[31] |= (uint8_t)(BN_is_odd(p->x) << 7);
}

static void bpt_base(bpt *b)
{
	BIGNUM *t = BN_new();
	/* y = 4/5, x even, from the curve equation */
	BN_set_word(t, 5);
	BN_mod_inverse(b->y, t, P, bx);
	BN_mul_word(b->y, 4);
	BN_nnmod(b->y, b->y, P, bx);
	{
		BIGNUM *u = BN_new(), *v = BN_new();
		BN_mod_sqr(u, b->y, P, bx);
		BN_mod_mul(v, u, D, P, bx);
		BN_sub_word(u, 1);
		BN_add_word(v, 1);
		BN_mod_inverse(v, v, P, bx);
		BN_mod_mul(u, u, v, P, bx);
		BN_mod_sqrt(b->x, u, P, bx);
		if (BN_is_odd(b->x))
			BN_sub(b->x, P, b->x);
		BN_free(u); BN_free(v);
	}
	BN_free(t);
}

static void test_ge_decode(void)
{
	unsigned i, bad = 0, nok = 0, nnc = 0;
	BIGNUM *y, *u = BN_new(), *v = BN_new();
	bn_init();
	for (i = 0; i < 1000; i++) {
		uint8_t s[32], t[32];
		kc_ge25519_p3 A;
		int rc, want, sign;
		ts_rand(s, 32);
		if (i < 8) {             /* y = 1 and y = p-1 (x = 0), both signs */
			memset(s, 0, 32);
			if (i & 2) { memset(s, 0xff, 32); s[0] = 0xec; s[31] = 0x7f; }
			else s[0] = 1;
			s[31] |= (uint8_t)((i & 1) << 7);
		} else if (i < 8 + 38) { /* y in [p, 2^255-1]: non-canonical */
			memset(s, 0xff, 32);
			s[0] = (uint8_t)(0xed + (i - 8) / 2);
			s[31] = (uint8_t)(0x7f | (((i - 8) & 1) << 7));
		}
		sign = s[31] >> 7;
		memcpy(t, s, 32);
		t[31] &= 0x7f;
		y = bn_le(t, 32);
		if (BN_cmp(y, P) >= 0) {
			want = 0;
			nnc++;
		} else {
			BN_mod_sqr(u, y, P, bx);
			BN_mod_mul(v, u, D, P, bx);
			BN_mod_sub(u, u, BN_value_one(), P, bx);
			BN_mod_add(v, v, BN_value_one(), P, bx);
			BN_mod_inverse(v, v, P, bx);
			BN_mod_mul(u, u, v, P, bx);       /* x^2 */
			want = bn_is_square(u) && !(BN_is_zero(u) && sign);
		}
		rc = kc_ge25519_frombytes(&A, s);
		if ((rc == 0) != want || (rc != 0 && rc != PV_ERR_PUBKEY)) {
			bad++;
		} else if (rc == 0) {
			uint8_t e[32];
			nok++;
			kc_ge25519_p3_tobytes(e, &A);
			bad += memcmp(e, s, 32) != 0;
		}
		BN_free(y);
	}
	printf("\n    decode: 1000 encodings (%u valid, %u non-canonical y), %u bad\n", nok, nnc, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(nnc, 38);
	CU_ASSERT(nok > 300);
	BN_free(u); BN_free(v);
}

static void test_ge_scalarmult(void)
{
	unsigned i, bad_base = 0, bad_dbl = 0;
	bpt B, R, Q, A;
	BIGNUM *k, *k2;
	bn_init();
	bpt_init(&B); bpt_init(&R); bpt_init(&Q); bpt_init(&A);
	bpt_base(&B);
	for (i = 0; i < 24; i++) {
		uint8_t a[32], b[32], enc[32], want[32], pa[32];
		kc_ge25519_p3 h, Ad;
		kc_ge25519_p2 r2;
		ts_rand(a, 32);
		switch (i) {
		case 0: memset(a, 0, 32); break;                 /* identity */
		case 1: memset(a, 0, 32); a[0] = 1; break;       /* B */
		case 2: bn_out(L, a); break;                     /* [L]B = identity */
		case 3: memset(a, 0xff, 32); a[31] = 0x7f; break;/* largest allowed */
		case 4: memset(a, 0x88, 32); a[31] = 0x08; break;/* all digits 8 */
		default: a[31] &= 0x7f; break;
		}
		kc_ge25519_scalarmult_base(&h, a);
		kc_ge25519_p3_tobytes(enc, &h);
		k = bn_le(a, 32);
		bpt_mul(&R, k, &B);
		bpt_enc(want, &R);
		bad_base += memcmp(enc, want, 32) != 0;

		/* r = a A + b B with A = [c]B for a random c, scalars < 2^255 */
		ts_rand(b, 32);
		ts_rand(pa, 32);
		pa[31] &= 0x7f;
		b[31] &= 0x7f;
		if (i == 5) memset(b, 0, 32);
		if (i == 6) memset(a, 0, 32);
		if (i == 7) { memset(b, 0xff, 32); b[31] = 0x7f; }
		if (i == 8) { memset(a, 0xff, 32); a[31] = 0x7f; }
		kc_ge25519_scalarmult_base(&Ad, pa);
		kc_ge25519_double_scalarmult_vartime(&r2, a, &Ad, b);
		kc_ge25519_p2_tobytes(enc, &r2);
		BN_free(k);
		k = bn_le(pa, 32);
		bpt_mul(&A, k, &B);
		BN_free(k);
		k = bn_le(a, 32);
		k2 = bn_le(b, 32);
		bpt_mul(&R, k, &A);
		bpt_mul(&Q, k2, &B);
		bpt_add(&R, &R, &Q);
		bpt_enc(want, &R);
		bad_dbl += memcmp(enc, want, 32) != 0;
		BN_free(k);
		BN_free(k2);
	}
	printf("\n    scalarmult: 24 fixed-base, 24 double-scalar vs BN affine; bad %u / %u\n",
	       bad_base, bad_dbl);
	CU_ASSERT_EQUAL(bad_base, 0);
	CU_ASSERT_EQUAL(bad_dbl, 0);
	bpt_free(&B); bpt_free(&R); bpt_free(&Q); bpt_free(&A);
}

/* SHA-512 of up to four concatenated pieces (OpenSSL EVP) */
static void ref_sha512(uint8_t out[64], const void *a, size_t al, const void *b, size_t bl,
                       const void *c, size_t cl, const void *d, size_t dl)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	unsigned n = 64;
	EVP_DigestInit_ex(m, EVP_sha512(), NULL);
	EVP_DigestUpdate(m, a, al);
	EVP_DigestUpdate(m, b, bl);
	EVP_DigestUpdate(m, c, cl);
	EVP_DigestUpdate(m, d, dl);
	EVP_DigestFinal_ex(m, out, &n);
	EVP_MD_CTX_free(m);
}

/* Reference signature per RFC 8032 5.1.6 with BN arithmetic and OpenSSL's
 * SHA-512; dom == 0: pure, 1: ctx (F = 0), 2: ph (F = 1, M -> SHA-512(M)). */
static void ref_sign(const uint8_t seed[32], int dom, const uint8_t *ctx, size_t ctxlen,
                     const uint8_t *msg, size_t len, uint8_t sig[64], uint8_t pub[32])
{
	static const char tag[] = "SigEd25519 no Ed25519 collisions";
	uint8_t h[64], d[64], ph[64], pre[2 + 32 + 255];
	size_t plen = 0;
	bpt B, A, R;
	BIGNUM *s, *r, *k, *S = BN_new();

	ref_sha512(h, seed, 32, "", 0, "", 0, "", 0);
	h[0] &= 248; h[31] &= 127; h[31] |= 64;
	if (dom) {
		memcpy(pre, tag, 32);
		pre[32] = (uint8_t)(dom == 2);
		pre[33] = (uint8_t)ctxlen;
		memcpy(pre + 34, ctx, ctxlen);
		plen = 34 + ctxlen;
	}
	if (dom == 2) {
		ref_sha512(ph, msg, len, "", 0, "", 0, "", 0);
		msg = ph;
		len = 64;
	}
	bpt_init(&B); bpt_init(&A); bpt_init(&R);
	bpt_base(&B);
	s = bn_le(h, 32);
	bpt_mul(&A, s, &B);
	bpt_enc(pub, &A);
	ref_sha512(d, pre, plen, h + 32, 32, msg, len, "", 0);
	r = bn_le(d, 64);
	BN_nnmod(r, r, L, bx);
	bpt_mul(&R, r, &B);
	bpt_enc(sig, &R);
	ref_sha512(d, pre, plen, sig, 32, pub, 32, msg, len);
	k = bn_le(d, 64);
	BN_mod_mul(S, k, s, L, bx);
	BN_mod_add(S, S, r, L, bx);
	bn_out(S, sig + 32);
	BN_free(s); BN_free(r); BN_free(k); BN_free(S);
	bpt_free(&B); bpt_free(&A); bpt_free(&R);
}

static void test_variants_vs_ref(void)
{
	unsigned i, bad = 0;
	bn_init();
	for (i = 0; i < 18; i++) {
		uint8_t seed[32], ctx[255], msg[300], sig[64], want[64], pub[32], dg[64];
		size_t ctxlen = i < 3 ? (size_t)(i == 2 ? 255 : i) : ts_rand_u32(256);
		size_t len = ts_rand_u32(sizeof msg);
		int dom = (int)(i % 3);
		ts_rand(seed, 32);
		ts_rand(ctx, sizeof ctx);
		ts_rand(msg, sizeof msg);
		ref_sign(seed, dom, ctx, ctxlen, msg, len, want, pub);
		if (dom == 0)
			bad += kc_ed25519_sign(seed, pub, msg, len, sig) != 0;
		else
			bad += kc_ed25519_sign_ex(seed, pub, dom == 1 ? KC_ED25519_CTX : KC_ED25519_PH,
			                          ctx, ctxlen, msg, len, sig) != 0;
		bad += memcmp(sig, want, 64) != 0;
		if (dom == 2) {        /* the same through a caller-computed digest */
			ref_sha512(dg, msg, len, "", 0, "", 0, "", 0);
			bad += kc_ed25519_sign_ex(seed, NULL, KC_ED25519_PH_DIGEST, ctx, ctxlen,
			                          dg, 64, sig) != 0 || memcmp(sig, want, 64) != 0;
			bad += kc_ed25519_verify_ex(pub, KC_ED25519_PH_DIGEST, ctx, ctxlen,
			                            dg, 64, want, 64) != 0;
		}
		if (dom)
			bad += kc_ed25519_verify_ex(pub, dom == 1 ? KC_ED25519_CTX : KC_ED25519_PH,
			                            ctx, ctxlen, msg, len, want, 64) != 0;
		else
			bad += kc_ed25519_verify(pub, msg, len, want, 64) != 0;
	}
	printf("\n    pure / ctx / ph vs BN reference signer: 18 cases, %u bad\n", bad);
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	static const ed_test t[] = {
		{ "f25519 bytes / canonical", test_fe_bytes },
		{ "f25519 operations vs BN", test_fe_ops },
		{ "f25519 sqrt_ratio vs Euler", test_fe_sqrt_ratio },
		{ "sc25519 reduce / muladd / canonical vs BN", test_sc },
		{ "ge25519 decode (RFC 8032 5.1.3) vs BN", test_ge_decode },
		{ "ge25519 scalar multiplication vs BN affine", test_ge_scalarmult },
		{ "Ed25519 / ctx / ph vs BN reference signer", test_variants_vs_ref },
	};
	int rc = ed_run("core_ed arith", t, sizeof t / sizeof t[0]);
	BN_free(P); BN_free(L); BN_free(D);
	BN_CTX_free(bx);
	return rc;
}
