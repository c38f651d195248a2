/*
 * kc_sc25519.c - arithmetic modulo L = 2^252 + c,
 *   c = 27742317777372353535851937790883648493.
 *
 * Scalars are split into signed 21-bit limbs held in int64 (ref10,
 * SUPERCOP, public domain).  A limb s[i] at weight 2^(21 i), i >= 12, is
 * folded down with 2^252 == -c (mod L), where
 *   -c = 666643 + 470296 2^21 + 654183 2^42 - 997805 2^63
 *        + 136657 2^84 - 683901 2^105.
 * The sequence of folds and carries is ref10's (its bounds analysis holds),
 * written with loops over public indices.  No data-dependent branches.
 */
#include "kc_sc25519.h"
#include "kc_f25519.h"             /* KC_ED_UNROLL */
#include "../../kc_util.h"

/* fold limb i (12 <= i <= 23) down by 12 limbs */
KC_PRIV void sc25519_fold(int64_t *s, int i)
{
	int64_t v = s[i];
	s[i - 12] += v * 666643;
	s[i - 11] += v * 470296;
	s[i - 10] += v * 654183;
	s[i - 9] -= v * 997805;
	s[i - 8] += v * 136657;
	s[i - 7] -= v * 683901;
	s[i] = 0;
}

/* rounded carry from limb i to limb i+1 */
KC_PRIV void sc25519_carry_r(int64_t *s, int i)
{
	int64_t c = (s[i] + ((int64_t)1 << 20)) >> 21;
	s[i + 1] += c;
	s[i] -= c * ((int64_t)1 << 21);
}

/* floor carry from limb i to limb i+1 */
KC_PRIV void sc25519_carry_f(int64_t *s, int i)
{
	int64_t c = s[i] >> 21;
	s[i + 1] += c;
	s[i] -= c * ((int64_t)1 << 21);
}

/* w bits of the little-endian string p (n bytes) from bit off (public). */
KC_PRIV int64_t sc25519_bits(const uint8_t *p, unsigned n, unsigned off, unsigned w)
{
	unsigned byte = off >> 3, sh = off & 7u, k;
	uint64_t acc = 0;
	for (k = 0; k < 5 && byte + k < n; k++)
		acc |= (uint64_t)p[byte + k] << (8 * k);
	return (int64_t)((acc >> sh) & (((uint64_t)1 << w) - 1));
}

/* s[0..23] -> out = s mod L (32 bytes).  s is wiped. */
KC_PRIV void sc25519_reduce24(uint8_t out[32], int64_t *s)
{
	uint64_t acc;
	unsigned bits, k;
	int i;

	for (i = 23; i >= 18; i--)
		sc25519_fold(s, i);
	for (i = 6; i <= 16; i += 2)
		sc25519_carry_r(s, i);
	for (i = 7; i <= 15; i += 2)
		sc25519_carry_r(s, i);
	for (i = 17; i >= 12; i--)
		sc25519_fold(s, i);
	for (i = 0; i <= 10; i += 2)
		sc25519_carry_r(s, i);
	for (i = 1; i <= 11; i += 2)
		sc25519_carry_r(s, i);
	sc25519_fold(s, 12);
	for (i = 0; i <= 11; i++)
		sc25519_carry_f(s, i);
	sc25519_fold(s, 12);
	for (i = 0; i <= 10; i++)
		sc25519_carry_f(s, i);

	acc = 0;
	bits = 0;
	k = 0;
	for (i = 0; i < 12; i++) {
		acc |= (uint64_t)s[i] << bits;
		bits += 21;
		while (bits >= 8) {
			out[k++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
	out[31] = (uint8_t)acc;              /* bits 248..251 */
	kc_wipe(s, 24 * sizeof(int64_t));
}

KC_API void kc_sc25519_reduce(uint8_t out[32], const uint8_t s[64])
{
	int64_t t[24];
	int i;
	for (i = 0; i < 23; i++)
		t[i] = sc25519_bits(s, 64, 21u * (unsigned)i, 21);
	t[23] = sc25519_bits(s, 64, 483, 29);
	sc25519_reduce24(out, t);
}

KC_API void kc_sc25519_muladd(uint8_t out[32], const uint8_t a[32],
                              const uint8_t b[32], const uint8_t c[32])
{
	int64_t al[12], bl[12], s[24];
	int i, j;

	for (i = 0; i < 11; i++) {
		al[i] = sc25519_bits(a, 32, 21u * (unsigned)i, 21);
		bl[i] = sc25519_bits(b, 32, 21u * (unsigned)i, 21);
		s[i] = sc25519_bits(c, 32, 21u * (unsigned)i, 21);
	}
	al[11] = sc25519_bits(a, 32, 231, 25);
	bl[11] = sc25519_bits(b, 32, 231, 25);
	s[11] = sc25519_bits(c, 32, 231, 25);
	for (i = 12; i < 24; i++)
		s[i] = 0;
	KC_ED_UNROLL
	for (i = 0; i < 12; i++)
		KC_ED_UNROLL
		for (j = 0; j < 12; j++)
			s[i + j] += al[i] * bl[j];

	for (i = 0; i <= 22; i += 2)
		sc25519_carry_r(s, i);
	for (i = 1; i <= 21; i += 2)
		sc25519_carry_r(s, i);
	sc25519_reduce24(out, s);
	kc_wipe(al, sizeof al);
	kc_wipe(bl, sizeof bl);
}

KC_API uint32_t kc_sc25519_is_canonical(const uint8_t s[32])
{
	static const uint8_t L[32] = {
		0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
		0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10
	};
	uint32_t borrow = 0;
	int i;
	/* borrow out of s - L is 1 exactly when s < L */
	for (i = 0; i < 32; i++) {
		uint32_t d = (uint32_t)s[i] - (uint32_t)L[i] - borrow;
		borrow = (d >> 8) & 1u;
	}
	return borrow;
}
