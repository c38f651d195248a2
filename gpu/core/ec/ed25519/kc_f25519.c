/*
 * kc_f25519.c - GF(2^255 - 19) in ten radix-2^25.5 limbs (see kc_f25519.h).
 *
 * The multiplication and the reduction follow ref10 (SUPERCOP, public
 * domain): limb products f[i]*g[j] land at limb i+j, doubled when i and j
 * are both odd (2^26 * 2^25 half-limb offsets) and multiplied by 19 when
 * i+j >= 10 (2^255 == 19 mod p).  Carries are rounded (add half, shift) and
 * written as multiplications so that no negative value is left-shifted.
 * Every loop has a fixed trip count; nothing depends on the data.
 */
#include "kc_f25519.h"
#include "../../kc_util.h"

KC_API void kc_f25519_0(kc_f25519 h)
{
	int i;
	for (i = 0; i < 10; i++)
		h[i] = 0;
}

KC_API void kc_f25519_1(kc_f25519 h)
{
	kc_f25519_0(h);
	h[0] = 1;
}

KC_API void kc_f25519_copy(kc_f25519 h, const kc_f25519 f)
{
	int i;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++)
		h[i] = f[i];
}

KC_API void kc_f25519_add(kc_f25519 h, const kc_f25519 f, const kc_f25519 g)
{
	int i;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++)
		h[i] = f[i] + g[i];
}

KC_API void kc_f25519_sub(kc_f25519 h, const kc_f25519 f, const kc_f25519 g)
{
	int i;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++)
		h[i] = f[i] - g[i];
}

KC_API void kc_f25519_neg(kc_f25519 h, const kc_f25519 f)
{
	int i;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++)
		h[i] = -f[i];
}

/* One rounded carry out of limb i (public i) into limb i+1, or into limb 0
 * times 19 for i == 9. */
KC_PRIV void f25519_carry1(int64_t *h, int i)
{
	int w = (i & 1) ? 25 : 26;
	int64_t c = (h[i] + ((int64_t)1 << (w - 1))) >> w;
	h[i] -= c * ((int64_t)1 << w);
	if (i == 9)
		h[0] += c * 19;
	else
		h[i + 1] += c;
}

/* Reduce 64-bit limb sums (as produced by mul) to the carried form. */
KC_PRIV void f25519_reduce64(kc_f25519 out, int64_t *h)
{
	int i;
	f25519_carry1(h, 0);
	f25519_carry1(h, 4);
	f25519_carry1(h, 1);
	f25519_carry1(h, 5);
	f25519_carry1(h, 2);
	f25519_carry1(h, 6);
	f25519_carry1(h, 3);
	f25519_carry1(h, 7);
	f25519_carry1(h, 4);
	f25519_carry1(h, 8);
	f25519_carry1(h, 9);
	f25519_carry1(h, 0);
	KC_ED_UNROLL
	for (i = 0; i < 10; i++)
		out[i] = (int32_t)h[i];
}

KC_API void kc_f25519_mul(kc_f25519 h, const kc_f25519 f, const kc_f25519 g)
{
	int64_t t[10], f2[10], g19[10];
	int i, j;

	KC_ED_UNROLL
	for (i = 0; i < 10; i++) {
		t[i] = 0;
		f2[i] = (i & 1) ? 2 * (int64_t)f[i] : (int64_t)f[i];
		g19[i] = 19 * (int64_t)g[i];
	}
	KC_ED_UNROLL
	for (i = 0; i < 10; i++) {
		KC_ED_UNROLL
		for (j = 0; j < 10; j++) {
			int64_t a = ((i & j) & 1) ? f2[i] : (int64_t)f[i];
			int64_t b = (i + j >= 10) ? g19[j] : (int64_t)g[j];
			t[(i + j) % 10] += a * b;
		}
	}
	f25519_reduce64(h, t);
}

/* Squaring: the symmetric products are computed once and doubled. */
KC_API void kc_f25519_sq(kc_f25519 h, const kc_f25519 f)
{
	int64_t t[10], f2[10], f19[10];
	int i, j;

	KC_ED_UNROLL
	for (i = 0; i < 10; i++) {
		t[i] = 0;
		f2[i] = (i & 1) ? 2 * (int64_t)f[i] : (int64_t)f[i];
		f19[i] = 19 * (int64_t)f[i];
	}
	KC_ED_UNROLL
	for (i = 0; i < 10; i++) {
		/* diagonal term i == j */
		{
			int64_t a = (i & 1) ? f2[i] : (int64_t)f[i];
			int64_t b = (2 * i >= 10) ? f19[i] : (int64_t)f[i];
			t[(2 * i) % 10] += a * b;
		}
		KC_ED_UNROLL
		for (j = i + 1; j < 10; j++) {
			int64_t a = ((i & j) & 1) ? f2[i] : (int64_t)f[i];
			int64_t b = (i + j >= 10) ? f19[j] : (int64_t)f[j];
			t[(i + j) % 10] += 2 * (a * b);
		}
	}
	f25519_reduce64(h, t);
}

KC_API void kc_f25519_sqn(kc_f25519 h, const kc_f25519 f, unsigned n)
{
	unsigned i;
	kc_f25519_sq(h, f);
	for (i = 1; i < n; i++)
		kc_f25519_sq(h, h);
}

/* Shared prefix of the inversion and pow22523 chains (ref10):
 * z11 = z^11, z2_250 = z^(2^250 - 1). */
KC_PRIV void f25519_chain250(kc_f25519 z11, kc_f25519 z2_250, const kc_f25519 z)
{
	kc_f25519 t0, t1, t2;

	kc_f25519_sq(t0, z);                 /* 2 */
	kc_f25519_sqn(t1, t0, 2);            /* 8 */
	kc_f25519_mul(t1, z, t1);            /* 9 */
	kc_f25519_mul(z11, t0, t1);          /* 11 */
	kc_f25519_sq(t0, z11);               /* 22 */
	kc_f25519_mul(t1, t1, t0);           /* 31 = 2^5 - 1 */
	kc_f25519_sqn(t0, t1, 5);
	kc_f25519_mul(t1, t0, t1);           /* 2^10 - 1 */
	kc_f25519_sqn(t0, t1, 10);
	kc_f25519_mul(t0, t0, t1);           /* 2^20 - 1 */
	kc_f25519_sqn(t2, t0, 20);
	kc_f25519_mul(t0, t2, t0);           /* 2^40 - 1 */
	kc_f25519_sqn(t0, t0, 10);
	kc_f25519_mul(t1, t0, t1);           /* 2^50 - 1 */
	kc_f25519_sqn(t0, t1, 50);
	kc_f25519_mul(t0, t0, t1);           /* 2^100 - 1 */
	kc_f25519_sqn(t2, t0, 100);
	kc_f25519_mul(t0, t2, t0);           /* 2^200 - 1 */
	kc_f25519_sqn(t0, t0, 50);
	kc_f25519_mul(z2_250, t0, t1);       /* 2^250 - 1 */
	kc_wipe(t0, sizeof t0);
	kc_wipe(t1, sizeof t1);
	kc_wipe(t2, sizeof t2);
}

KC_API void kc_f25519_invert(kc_f25519 h, const kc_f25519 f)
{
	kc_f25519 z11, t;

	f25519_chain250(z11, t, f);
	kc_f25519_sqn(t, t, 5);              /* 2^255 - 32 */
	kc_f25519_mul(h, t, z11);            /* 2^255 - 21 = p - 2 */
	kc_wipe(z11, sizeof z11);
	kc_wipe(t, sizeof t);
}

KC_API void kc_f25519_pow22523(kc_f25519 h, const kc_f25519 f)
{
	kc_f25519 z11, t;

	f25519_chain250(z11, t, f);
	kc_f25519_sqn(t, t, 2);              /* 2^252 - 4 */
	kc_f25519_mul(h, t, f);              /* 2^252 - 3 */
	kc_wipe(z11, sizeof z11);
	kc_wipe(t, sizeof t);
}

KC_API uint32_t kc_f25519_sqrt_ratio(kc_f25519 x, const kc_f25519 u, const kc_f25519 v)
{
	/* sqrt(-1) = 2^((p-1)/4) mod p, canonical limbs */
	static const int32_t sqrtm1[10] = {
		34513072, 25610706, 9377949, 3500415, 12389472,
		33281959, 41962654, 31548777, 326685, 11406482
	};
	kc_f25519 v3, v7, t, check, negu, xi;
	uint32_t ok_pos, ok_neg;

	kc_f25519_sq(v3, v);
	kc_f25519_mul(v3, v3, v);            /* v^3 */
	kc_f25519_sq(v7, v3);
	kc_f25519_mul(v7, v7, v);            /* v^7 */
	kc_f25519_mul(t, u, v7);             /* u v^7 */
	kc_f25519_pow22523(t, t);            /* (u v^7)^((p-5)/8) */
	kc_f25519_mul(t, t, v3);
	kc_f25519_mul(x, t, u);              /* x = u v^3 (u v^7)^((p-5)/8) */

	kc_f25519_sq(check, x);
	kc_f25519_mul(check, check, v);      /* v x^2 */
	kc_f25519_neg(negu, u);
	ok_pos = kc_f25519_eq(check, u);
	ok_neg = kc_f25519_eq(check, negu);
	kc_f25519_copy(t, sqrtm1);
	kc_f25519_mul(xi, x, t);
	kc_f25519_cmov(x, xi, ok_neg);

	kc_wipe(v3, sizeof v3);
	kc_wipe(v7, sizeof v7);
	kc_wipe(t, sizeof t);
	kc_wipe(check, sizeof check);
	kc_wipe(negu, sizeof negu);
	kc_wipe(xi, sizeof xi);
	return ok_pos | ok_neg;
}

/* Bit offset of limb i: ceil(25.5 * i). */
KC_PRIV unsigned f25519_off(unsigned i)
{
	return (51u * i + 1u) / 2u;
}

KC_API void kc_f25519_frombytes(kc_f25519 h, const uint8_t s[32])
{
	unsigned i, k;

	KC_ED_UNROLL
	for (i = 0; i < 10; i++) {
		unsigned off = f25519_off(i);
		unsigned w = (i & 1u) ? 25u : 26u;
		unsigned byte = off >> 3, sh = off & 7u;
		uint64_t acc = 0;
		/* gather up to 5 bytes (public positions) */
		for (k = 0; k < 5 && byte + k < 32; k++)
			acc |= (uint64_t)s[byte + k] << (8 * k);
		h[i] = (int32_t)((acc >> sh) & (((uint64_t)1 << w) - 1));
	}
}

KC_API void kc_f25519_tobytes(uint8_t s[32], const kc_f25519 f)
{
	int32_t h[10];
	int32_t q, c;
	uint64_t acc;
	unsigned bits, k;
	int i;

	kc_f25519_copy(h, f);
	/* Normalise limbs first so that the quotient estimate below is exact. */
	{
		int64_t t[10];
		KC_ED_UNROLL
		for (i = 0; i < 10; i++)
			t[i] = h[i];
		f25519_reduce64(h, t);
	}
	/* q = floor(h / p) in {0, 1}, computed from the top down (ref10). */
	q = (19 * h[9] + ((int32_t)1 << 24)) >> 25;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++)
		q = (h[i] + q) >> ((i & 1) ? 25 : 26);
	/* h - q p = h + 19 q - 2^255 q: add 19q, carry, drop bit 255. */
	h[0] += 19 * q;
	KC_ED_UNROLL
	for (i = 0; i < 9; i++) {
		int w = (i & 1) ? 25 : 26;
		c = h[i] >> w;
		h[i + 1] += c;
		h[i] -= c * ((int32_t)1 << w);
	}
	c = h[9] >> 25;
	h[9] -= c * ((int32_t)1 << 25);

	acc = 0;
	bits = 0;
	k = 0;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++) {
		acc |= (uint64_t)(uint32_t)h[i] << bits;
		bits += (i & 1) ? 25u : 26u;
		while (bits >= 8) {
			s[k++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
	s[31] = (uint8_t)acc;                /* the last 7 bits */
	kc_wipe(h, sizeof h);
}

KC_API uint32_t kc_f25519_bytes_canonical(const uint8_t s[32])
{
	/* p = 2^255 - 19: little endian ed ff .. ff 7f.  value >= p iff
	 * bytes 1..30 are all 0xff, (s[31] & 0x7f) == 0x7f and s[0] >= 0xed. */
	uint32_t all = 1;
	int i;
	for (i = 1; i < 31; i++)
		all &= kc_ctl_eq32(s[i], 0xff);
	all &= kc_ctl_eq32(s[31] & 0x7fu, 0x7f);
	all &= kc_ctl_not(kc_ctl_lt32(s[0], 0xed));
	return kc_ctl_not(all);
}

KC_API void kc_f25519_cmov(kc_f25519 f, const kc_f25519 g, uint32_t ctl)
{
	int32_t m = -(int32_t)ctl;
	int i;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++)
		f[i] ^= m & (f[i] ^ g[i]);
}

KC_API void kc_f25519_cswap(kc_f25519 f, kc_f25519 g, uint32_t ctl)
{
	int32_t m = -(int32_t)ctl;
	int i;
	KC_ED_UNROLL
	for (i = 0; i < 10; i++) {
		int32_t x = m & (f[i] ^ g[i]);
		f[i] ^= x;
		g[i] ^= x;
	}
}

KC_API uint32_t kc_f25519_isneg(const kc_f25519 f)
{
	uint8_t s[32];
	uint32_t r;
	kc_f25519_tobytes(s, f);
	r = (uint32_t)(s[0] & 1u);
	kc_wipe(s, sizeof s);
	return r;
}

KC_API uint32_t kc_f25519_iszero(const kc_f25519 f)
{
	uint8_t s[32];
	uint32_t acc = 0;
	int i;
	kc_f25519_tobytes(s, f);
	for (i = 0; i < 32; i++)
		acc |= s[i];
	kc_wipe(s, sizeof s);
	return kc_ctl_eq32(acc, 0);
}

KC_API uint32_t kc_f25519_eq(const kc_f25519 f, const kc_f25519 g)
{
	kc_f25519 d;
	uint32_t r;
	kc_f25519_sub(d, f, g);
	r = kc_f25519_iszero(d);
	kc_wipe(d, sizeof d);
	return r;
}
