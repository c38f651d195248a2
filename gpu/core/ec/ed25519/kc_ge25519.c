/*
 * kc_ge25519.c - Edwards25519 group operations (see kc_ge25519.h).
 *
 * Formulas: ref10 (SUPERCOP, public domain), i.e. the a = -1 extended
 * coordinates of Hisil-Wong-Carter-Dawson 2008, section 3.1 (unified,
 * complete addition) and the dedicated doubling.  Fixed-base scalar
 * multiplication uses ref10's signed radix-16 comb over a 32 x 8 table of
 * multiples of B (kc_ge25519_tab.c), selecting entries by a full scan.
 */
#include "kc_ge25519.h"
#include "../../kc_util.h"
#include "../../pv_err.h"

/* d = -121665/121666 and 2d, canonical limbs (checked by the unit tests). */
KC_PRIV void ge25519_const_d(kc_f25519 d)
{
	static const int32_t k[10] = {
		56195235, 13857412, 51736253, 6949390, 114729,
		24766616, 60832955, 30306712, 48412415, 21499315
	};
	kc_f25519_copy(d, k);
}

KC_PRIV void ge25519_const_d2(kc_f25519 d2)
{
	static const int32_t k[10] = {
		45281625, 27714825, 36363642, 13898781, 229458,
		15978800, 54557047, 27058993, 29715967, 9444199
	};
	kc_f25519_copy(d2, k);
}

KC_API void kc_ge25519_p3_0(kc_ge25519_p3 *h)
{
	kc_f25519_0(h->X);
	kc_f25519_1(h->Y);
	kc_f25519_1(h->Z);
	kc_f25519_0(h->T);
}

KC_API int kc_ge25519_frombytes(kc_ge25519_p3 *h, const uint8_t s[32])
{
	kc_f25519 u, v, one, d, x, negx;
	uint32_t ok, sign, xzero;

	sign = (uint32_t)(s[31] >> 7);
	ok = kc_f25519_bytes_canonical(s);
	kc_f25519_frombytes(h->Y, s);
	kc_f25519_1(one);
	kc_f25519_1(h->Z);
	ge25519_const_d(d);
	kc_f25519_sq(u, h->Y);
	kc_f25519_mul(v, u, d);
	kc_f25519_sub(u, u, one);            /* u = y^2 - 1 */
	kc_f25519_add(v, v, one);            /* v = d y^2 + 1 (never 0) */
	ok &= kc_f25519_sqrt_ratio(x, u, v);
	xzero = kc_f25519_iszero(x);
	ok &= kc_ctl_not(xzero & sign);      /* x == 0 with sign 1 is invalid */
	kc_f25519_neg(negx, x);
	kc_f25519_cmov(x, negx, kc_f25519_isneg(x) ^ sign);
	kc_f25519_copy(h->X, x);
	kc_f25519_mul(h->T, h->X, h->Y);
	if (!ok) {
		kc_ge25519_p3_0(h);
		return PV_ERR_PUBKEY;
	}
	return 0;
}

KC_API void kc_ge25519_p2_tobytes(uint8_t s[32], const kc_ge25519_p2 *h)
{
	kc_f25519 recip, x, y;

	kc_f25519_invert(recip, h->Z);
	kc_f25519_mul(x, h->X, recip);
	kc_f25519_mul(y, h->Y, recip);
	kc_f25519_tobytes(s, y);
	s[31] ^= (uint8_t)(kc_f25519_isneg(x) << 7);
	kc_wipe(recip, sizeof recip);
	kc_wipe(x, sizeof x);
	kc_wipe(y, sizeof y);
}

KC_API void kc_ge25519_p3_tobytes(uint8_t s[32], const kc_ge25519_p3 *h)
{
	kc_ge25519_p2 p;
	kc_ge25519_p3_to_p2(&p, h);
	kc_ge25519_p2_tobytes(s, &p);
	kc_wipe(&p, sizeof p);
}

KC_API void kc_ge25519_p3_to_p2(kc_ge25519_p2 *r, const kc_ge25519_p3 *p)
{
	kc_f25519_copy(r->X, p->X);
	kc_f25519_copy(r->Y, p->Y);
	kc_f25519_copy(r->Z, p->Z);
}

KC_API void kc_ge25519_p3_to_cached(kc_ge25519_cached *r, const kc_ge25519_p3 *p)
{
	kc_f25519 d2;
	ge25519_const_d2(d2);
	kc_f25519_add(r->YplusX, p->Y, p->X);
	kc_f25519_sub(r->YminusX, p->Y, p->X);
	kc_f25519_copy(r->Z, p->Z);
	kc_f25519_mul(r->T2d, p->T, d2);
}

KC_API void kc_ge25519_p1p1_to_p2(kc_ge25519_p2 *r, const kc_ge25519_p1p1 *p)
{
	kc_f25519_mul(r->X, p->X, p->T);
	kc_f25519_mul(r->Y, p->Y, p->Z);
	kc_f25519_mul(r->Z, p->Z, p->T);
}

KC_API void kc_ge25519_p1p1_to_p3(kc_ge25519_p3 *r, const kc_ge25519_p1p1 *p)
{
	kc_f25519_mul(r->X, p->X, p->T);
	kc_f25519_mul(r->Y, p->Y, p->Z);
	kc_f25519_mul(r->Z, p->Z, p->T);
	kc_f25519_mul(r->T, p->X, p->Y);
}

KC_API void kc_ge25519_p3_neg(kc_ge25519_p3 *r, const kc_ge25519_p3 *p)
{
	kc_f25519_neg(r->X, p->X);
	kc_f25519_copy(r->Y, p->Y);
	kc_f25519_copy(r->Z, p->Z);
	kc_f25519_neg(r->T, p->T);
}

/* Shared body of add/sub: m1, m2 are the (Y+X), (Y-X) factors of q,
 * neg selects the subtraction variant (public). */
KC_PRIV void ge25519_addsub(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p,
                            const int32_t *m1, const int32_t *m2,
                            const int32_t *qz, const int32_t *qt, int neg)
{
	kc_f25519 t0;

	kc_f25519_add(r->X, p->Y, p->X);
	kc_f25519_sub(r->Y, p->Y, p->X);
	kc_f25519_mul(r->Z, r->X, m1);
	kc_f25519_mul(r->Y, r->Y, m2);
	kc_f25519_mul(r->T, qt, p->T);
	if (qz)
		kc_f25519_mul(r->X, p->Z, qz);
	else
		kc_f25519_copy(r->X, p->Z);
	kc_f25519_add(t0, r->X, r->X);
	kc_f25519_sub(r->X, r->Z, r->Y);
	kc_f25519_add(r->Y, r->Z, r->Y);
	if (neg) {
		kc_f25519_sub(r->Z, t0, r->T);
		kc_f25519_add(r->T, t0, r->T);
	} else {
		kc_f25519_add(r->Z, t0, r->T);
		kc_f25519_sub(r->T, t0, r->T);
	}
	kc_wipe(t0, sizeof t0);
}

KC_API void kc_ge25519_add(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_cached *q)
{
	ge25519_addsub(r, p, q->YplusX, q->YminusX, q->Z, q->T2d, 0);
}

KC_API void kc_ge25519_sub(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_cached *q)
{
	ge25519_addsub(r, p, q->YminusX, q->YplusX, q->Z, q->T2d, 1);
}

KC_API void kc_ge25519_madd(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_precomp *q)
{
	ge25519_addsub(r, p, q->yplusx, q->yminusx, (const int32_t *)0, q->xy2d, 0);
}

KC_API void kc_ge25519_msub(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p, const kc_ge25519_precomp *q)
{
	ge25519_addsub(r, p, q->yminusx, q->yplusx, (const int32_t *)0, q->xy2d, 1);
}

KC_API void kc_ge25519_p2_dbl(kc_ge25519_p1p1 *r, const kc_ge25519_p2 *p)
{
	kc_f25519 t0;

	kc_f25519_sq(r->X, p->X);
	kc_f25519_sq(r->Z, p->Y);
	kc_f25519_sq(r->T, p->Z);
	kc_f25519_add(r->T, r->T, r->T);     /* 2 Z^2 */
	kc_f25519_add(r->Y, p->X, p->Y);
	kc_f25519_sq(t0, r->Y);
	kc_f25519_add(r->Y, r->Z, r->X);
	kc_f25519_sub(r->Z, r->Z, r->X);
	kc_f25519_sub(r->X, t0, r->Y);
	kc_f25519_sub(r->T, r->T, r->Z);
	kc_wipe(t0, sizeof t0);
}

KC_API void kc_ge25519_p3_dbl(kc_ge25519_p1p1 *r, const kc_ge25519_p3 *p)
{
	kc_ge25519_p2 q;
	kc_ge25519_p3_to_p2(&q, p);
	kc_ge25519_p2_dbl(r, &q);
	kc_wipe(&q, sizeof q);
}

KC_API void kc_ge25519_scalarmult_base(kc_ge25519_p3 *h, const uint8_t a[32])
{
	int8_t e[64];
	int8_t carry;
	kc_ge25519_p1p1 r;
	kc_ge25519_p2 s;
	kc_ge25519_precomp t;
	unsigned i;

	/* 64 radix-16 digits, then recentred into [-8, 8) (last one [-8, 8]) */
	for (i = 0; i < 32; i++) {
		e[2 * i] = (int8_t)(a[i] & 15);
		e[2 * i + 1] = (int8_t)((a[i] >> 4) & 15);
	}
	carry = 0;
	for (i = 0; i < 63; i++) {
		e[i] = (int8_t)(e[i] + carry);
		carry = (int8_t)((e[i] + 8) >> 4);
		e[i] = (int8_t)(e[i] - carry * 16);
	}
	e[63] = (int8_t)(e[63] + carry);

	/* odd digits: sum e[2i+1] 256^i B, then times 16, then even digits */
	kc_ge25519_p3_0(h);
	for (i = 1; i < 64; i += 2) {
		kc_ge25519_base_select(&t, i / 2, e[i]);
		kc_ge25519_madd(&r, h, &t);
		kc_ge25519_p1p1_to_p3(h, &r);
	}
	kc_ge25519_p3_dbl(&r, h);
	kc_ge25519_p1p1_to_p2(&s, &r);
	kc_ge25519_p2_dbl(&r, &s);
	kc_ge25519_p1p1_to_p2(&s, &r);
	kc_ge25519_p2_dbl(&r, &s);
	kc_ge25519_p1p1_to_p2(&s, &r);
	kc_ge25519_p2_dbl(&r, &s);
	kc_ge25519_p1p1_to_p3(h, &r);
	for (i = 0; i < 64; i += 2) {
		kc_ge25519_base_select(&t, i / 2, e[i]);
		kc_ge25519_madd(&r, h, &t);
		kc_ge25519_p1p1_to_p3(h, &r);
	}
	kc_wipe(e, sizeof e);
	kc_wipe(&r, sizeof r);
	kc_wipe(&s, sizeof s);
	kc_wipe(&t, sizeof t);
}

/* Signed sliding window (width 5) of a public scalar, ref10's "slide":
 * r[i] in {0, +-1, +-3, ..., +-15}, sum r[i] 2^i = a. */
KC_PRIV void ge25519_slide(int8_t *r, const uint8_t *a)
{
	int i, b, k;

	for (i = 0; i < 256; i++)
		r[i] = (int8_t)(1 & (a[i >> 3] >> (i & 7)));
	for (i = 0; i < 256; i++) {
		if (!r[i])
			continue;
		for (b = 1; b <= 6 && i + b < 256; b++) {
			if (!r[i + b])
				continue;
			if (r[i] + (r[i + b] * (1 << b)) <= 15) {
				r[i] = (int8_t)(r[i] + r[i + b] * (1 << b));
				r[i + b] = 0;
			} else if (r[i] - (r[i + b] * (1 << b)) >= -15) {
				r[i] = (int8_t)(r[i] - r[i + b] * (1 << b));
				for (k = i + b; k < 256; k++) {
					if (!r[k]) {
						r[k] = 1;
						break;
					}
					r[k] = 0;
				}
			} else {
				break;
			}
		}
	}
}

KC_API void kc_ge25519_double_scalarmult_vartime(kc_ge25519_p2 *r, const uint8_t a[32],
                                                 const kc_ge25519_p3 *A, const uint8_t b[32])
{
	int8_t aslide[256], bslide[256];
	kc_ge25519_cached Ai[8];             /* A, 3A, 5A, ..., 15A */
	kc_ge25519_precomp Bi;
	kc_ge25519_p1p1 t;
	kc_ge25519_p3 u, A2;
	int i;

	ge25519_slide(aslide, a);
	ge25519_slide(bslide, b);

	kc_ge25519_p3_to_cached(&Ai[0], A);
	kc_ge25519_p3_dbl(&t, A);
	kc_ge25519_p1p1_to_p3(&A2, &t);
	for (i = 0; i < 7; i++) {
		kc_ge25519_add(&t, &A2, &Ai[i]);
		kc_ge25519_p1p1_to_p3(&u, &t);
		kc_ge25519_p3_to_cached(&Ai[i + 1], &u);
	}

	kc_f25519_0(r->X);
	kc_f25519_1(r->Y);
	kc_f25519_1(r->Z);
	for (i = 255; i >= 0; i--)
		if (aslide[i] || bslide[i])
			break;
	for (; i >= 0; i--) {
		kc_ge25519_p2_dbl(&t, r);
		if (aslide[i] > 0) {
			kc_ge25519_p1p1_to_p3(&u, &t);
			kc_ge25519_add(&t, &u, &Ai[aslide[i] / 2]);
		} else if (aslide[i] < 0) {
			kc_ge25519_p1p1_to_p3(&u, &t);
			kc_ge25519_sub(&t, &u, &Ai[(-aslide[i]) / 2]);
		}
		if (bslide[i] > 0) {
			kc_ge25519_p1p1_to_p3(&u, &t);
			kc_ge25519_base_odd(&Bi, (unsigned)(bslide[i] / 2));
			kc_ge25519_madd(&t, &u, &Bi);
		} else if (bslide[i] < 0) {
			kc_ge25519_p1p1_to_p3(&u, &t);
			kc_ge25519_base_odd(&Bi, (unsigned)((-bslide[i]) / 2));
			kc_ge25519_msub(&t, &u, &Bi);
		}
		kc_ge25519_p1p1_to_p2(r, &t);
	}
}
