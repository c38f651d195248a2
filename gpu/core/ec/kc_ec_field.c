/*
 * kc_ec_field.c - constant-time arithmetic modulo the field prime p or the
 * group order n of P-256 / P-384 / SM2, in Montgomery form.
 *
 * 32-bit limbs with 64-bit products (the GPU's IMAD.WIDE); CIOS Montgomery
 * multiplication with one final conditional subtraction done by masks.  Loop
 * bounds depend only on the curve (public), never on values.
 */
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/kc_util.h"
#ifndef __CUDACC__
#include "gpu/core/cpu/kc_cpu.h"   /* the host's 64-bit product */
#endif

/* The host's Montgomery product with 64-bit limbs (gpu/core/cpu): the
 * same integer as kc_ecf_mul_nl's (R = 2^(32 nl) either way); returns 1
 * when it wrote r. */
#ifndef KC_CPU_MONTMUL
#define KC_CPU_MONTMUL(d, x, y, m, nl) 0
#endif

/* r = a - b over nl limbs; returns the borrow (0/1). */
KC_PRIV uint32_t kc_ecf_sub_raw(uint32_t nl, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
	uint32_t i, br = 0;

	for (i = 0; i < nl; i++) {
		uint64_t d = (uint64_t)a[i] - (uint64_t)b[i] - (uint64_t)br;
		r[i] = (uint32_t)d;
		br = (uint32_t)(d >> 63);
	}
	return br;
}

KC_API void kc_ecf_cmov(uint32_t *r, const uint32_t *a, uint32_t ctl, uint32_t nwords)
{
	uint32_t i, mask = (uint32_t)0 - ctl;

	for (i = 0; i < nwords; i++)
		r[i] ^= mask & (r[i] ^ a[i]);
}

/* r = a + b mod m; nl is a literal at every call (unrolled). */
KC_PRIV void kc_ecf_add_nl(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b,
                           const uint32_t nl)
{
	uint32_t s[KC_EC_MAXL], d[KC_EC_MAXL];
	uint32_t i, c = 0, br = 0, mask;
	uint64_t w;

	for (i = 0; i < nl; i++) {
		w = (uint64_t)a[i] + b[i] + c;
		s[i] = (uint32_t)w;
		c = (uint32_t)(w >> 32);
	}
	for (i = 0; i < nl; i++) {
		w = (uint64_t)s[i] - m->m[i] - br;
		d[i] = (uint32_t)w;
		br = (uint32_t)(w >> 63);
	}
	/* keep d when the sum overflowed or did not borrow */
	mask = (uint32_t)0 - (c | (br ^ 1u));
	for (i = 0; i < nl; i++)
		r[i] = s[i] ^ (mask & (s[i] ^ d[i]));
}

/* r = a - b mod m */
KC_PRIV void kc_ecf_sub_nl(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b,
                           const uint32_t nl)
{
	uint32_t d[KC_EC_MAXL];
	uint32_t i, c = 0, br = 0, mask;
	uint64_t w;

	for (i = 0; i < nl; i++) {
		w = (uint64_t)a[i] - b[i] - br;
		d[i] = (uint32_t)w;
		br = (uint32_t)(w >> 63);
	}
	/* add m back when it borrowed */
	mask = (uint32_t)0 - br;
	for (i = 0; i < nl; i++) {
		w = (uint64_t)d[i] + (m->m[i] & mask) + c;
		r[i] = (uint32_t)w;
		c = (uint32_t)(w >> 32);
	}
}

KC_EC_NOINLINE KC_API void kc_ecf_add(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
	if (m->nl == 8)                       /* public: the curve */
		kc_ecf_add_nl(m, r, a, b, 8);
	else
		kc_ecf_add_nl(m, r, a, b, 12);
}

KC_EC_NOINLINE KC_API void kc_ecf_sub(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
	if (m->nl == 8)
		kc_ecf_sub_nl(m, r, a, b, 8);
	else
		kc_ecf_sub_nl(m, r, a, b, 12);
}

KC_API void kc_ecf_reduce_once(const kc_ec_mod *m, uint32_t *r, const uint32_t *a)
{
	uint32_t d[KC_EC_MAXL], t[KC_EC_MAXL];
	uint32_t br;

	kc_memcpy(t, a, m->nl * sizeof(uint32_t));
	br = kc_ecf_sub_raw(m->nl, d, t, m->m);
	kc_ecf_cmov(t, d, br ^ 1u, m->nl);
	kc_memcpy(r, t, m->nl * sizeof(uint32_t));
}

/* CIOS body; always called with a literal nl (8 or 12) so that the
 * compiler unrolls it (registers instead of local memory on the GPU). */
KC_PRIV void kc_ecf_mul_nl(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b,
                           const uint32_t nl)
{
	uint32_t t[KC_EC_MAXL + 2], d[KC_EC_MAXL];
	uint32_t i, j, u, c, br;
	uint64_t cs;

	for (i = 0; i < KC_EC_MAXL + 2; i++)
		t[i] = 0;
	for (i = 0; i < nl; i++) {
		uint32_t bi = b[i];

		c = 0;
		for (j = 0; j < nl; j++) {
			cs = (uint64_t)a[j] * bi + t[j] + c;
			t[j] = (uint32_t)cs;
			c = (uint32_t)(cs >> 32);
		}
		cs = (uint64_t)t[nl] + c;
		t[nl] = (uint32_t)cs;
		t[nl + 1] = (uint32_t)(cs >> 32);

		u = t[0] * m->m0i;
		cs = (uint64_t)u * m->m[0] + t[0];
		c = (uint32_t)(cs >> 32);
		for (j = 1; j < nl; j++) {
			cs = (uint64_t)u * m->m[j] + t[j] + c;
			t[j - 1] = (uint32_t)cs;
			c = (uint32_t)(cs >> 32);
		}
		cs = (uint64_t)t[nl] + c;
		t[nl - 1] = (uint32_t)cs;
		t[nl] = t[nl + 1] + (uint32_t)(cs >> 32);
	}
	/* t < 2m: subtract m once when t >= m */
	br = kc_ecf_sub_raw(nl, d, t, m->m);
	u = (uint32_t)0 - (t[nl] | (br ^ 1u));
	for (i = 0; i < nl; i++)
		r[i] = t[i] ^ (u & (t[i] ^ d[i]));
}

KC_EC_NOINLINE KC_API void kc_ecf_mul(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
	if (KC_CPU_MONTMUL(r, a, b, m->m, m->nl))
		return;
	if (m->nl == 8)                       /* public: the curve */
		kc_ecf_mul_nl(m, r, a, b, 8);
	else
		kc_ecf_mul_nl(m, r, a, b, 12);
}

KC_API void kc_ecf_to_mont(const kc_ec_mod *m, uint32_t *r, const uint32_t *a)
{
	kc_ecf_mul(m, r, a, m->r2);
}

KC_API void kc_ecf_from_mont(const kc_ec_mod *m, uint32_t *r, const uint32_t *a)
{
	uint32_t one[KC_EC_MAXL];
	uint32_t i;

	for (i = 0; i < KC_EC_MAXL; i++)
		one[i] = 0;
	one[0] = 1;
	kc_ecf_mul(m, r, a, one);
}

KC_EC_NOINLINE KC_API void kc_ecf_pow(const kc_ec_mod *m, uint32_t *r, const uint32_t *a, const uint32_t *e)
{
	uint32_t acc[KC_EC_MAXL], base[KC_EC_MAXL];
	int i;

	kc_memcpy(base, a, m->nl * sizeof(uint32_t));
	kc_memcpy(acc, m->one, m->nl * sizeof(uint32_t));
	for (i = (int)(m->nl * 32u) - 1; i >= 0; i--) {
		kc_ecf_mul(m, acc, acc, acc);
		if ((e[i >> 5] >> (i & 31)) & 1u)   /* public exponent */
			kc_ecf_mul(m, acc, acc, base);
	}
	kc_memcpy(r, acc, m->nl * sizeof(uint32_t));
	kc_wipe(acc, sizeof acc);
	kc_wipe(base, sizeof base);
}

KC_API void kc_ecf_inv(const kc_ec_mod *m, uint32_t *r, const uint32_t *a)
{
	kc_ecf_pow(m, r, a, m->em2);
}

KC_API uint32_t kc_ecf_is_zero(const kc_ec_mod *m, const uint32_t *a)
{
	uint32_t i, z = 0;

	for (i = 0; i < m->nl; i++)
		z |= a[i];
	return kc_ctl_eq32(z, 0);
}

KC_API uint32_t kc_ecf_eq(const kc_ec_mod *m, const uint32_t *a, const uint32_t *b)
{
	uint32_t i, z = 0;

	for (i = 0; i < m->nl; i++)
		z |= a[i] ^ b[i];
	return kc_ctl_eq32(z, 0);
}

KC_API uint32_t kc_ecf_lt(uint32_t nl, const uint32_t *a, const uint32_t *b)
{
	uint32_t d[KC_EC_MAXL];

	return kc_ecf_sub_raw(nl, d, a, b);
}

KC_API uint32_t kc_ecf_decode(const kc_ec_mod *m, uint32_t *r, const uint8_t *src)
{
	uint32_t i, nl = m->nl;

	for (i = 0; i < KC_EC_MAXL; i++)
		r[i] = 0;
	for (i = 0; i < nl; i++)
		r[i] = kc_load_be32(src + 4u * (nl - 1u - i));
	return kc_ecf_lt(nl, r, m->m);
}

KC_API void kc_ecf_encode(const kc_ec_mod *m, uint8_t *dst, const uint32_t *a)
{
	uint32_t i, nl = m->nl;

	for (i = 0; i < nl; i++)
		kc_store_be32(dst + 4u * (nl - 1u - i), a[i]);
}
