/*
 * kc_sbox_ct.c - bitsliced, table-free S-boxes of AES and SM4.
 *
 * Both S-boxes are an affine map around the inverse in GF(2^8):
 *   AES: S(x) = L(x^254) ^ 0x63            in GF(2)[x]/(x^8+x^4+x^3+x+1)
 *   SM4: S(x) = A(A(x) ^ 0xD3)^254 ^ 0xD3  in GF(2)[x]/(x^8+x^7+x^6+x^5+x^4+x^2+1)
 * (SM4: the affine description of Liu et al.; it reproduces the table of
 * GB/T 32907-2016, checked against OpenSSL by the unit tests.)
 *
 * The inverse is x^254 by an addition chain (4 multiplications, 7
 * squarings) on bitsliced operands: 32 bytes at once, q[i] holding bit i of
 * every byte.  Only AND/XOR on whole words: no table, no branch, no index
 * that depends on the data.
 */
#include "gpu/core/sym/kc_sym_int.h"

#define KC_POLY_AES 0x1Bu   /* low byte of x^8 + x^4 + x^3 + x + 1 */
#define KC_POLY_SM4 0xF5u   /* low byte of x^8 + x^7 + x^6 + x^5 + x^4 + x^2 + 1 */

KC_API void kc_bs_from_words(uint32_t q[8], const uint32_t *w, size_t nw)
{
	size_t k;
	int i;

	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		q[i] = 0;
	for (k = 0; k < nw; k++) {
		uint32_t v = w[k];
		KC_SYM_UNROLL
		for (i = 0; i < 8; i++) {
			uint32_t x = (v >> i) & 0x01010101u;
			x = (x | (x >> 7) | (x >> 14) | (x >> 21)) & 0xFu;
			q[i] |= x << (4 * k);
		}
	}
}

KC_API void kc_bs_to_words(uint32_t *w, const uint32_t q[8], size_t nw)
{
	size_t k;
	int i;

	for (k = 0; k < nw; k++) {
		uint32_t v = 0;
		KC_SYM_UNROLL
		for (i = 0; i < 8; i++) {
			uint32_t x = (q[i] >> (4 * k)) & 0xFu;
			x = (x & 1u) | ((x & 2u) << 7) | ((x & 4u) << 14) | ((x & 8u) << 21);
			v |= x << i;
		}
		w[k] = v;
	}
}

/* Reduce a 15-coefficient bitsliced product modulo the field polynomial:
 * x^8 = x^4 + x^3 + x + 1 (AES) or x^7 + x^6 + x^5 + x^4 + x^2 + 1 (SM4).
 * poly selects the field; it is a compile-time constant, never data. */
KC_PRIV void kc_bs_gf_reduce(uint32_t c[15], uint32_t poly)
{
	int k;

	if (poly == KC_POLY_AES) {
		KC_SYM_UNROLL
		for (k = 14; k >= 8; k--) {
			c[k - 4] ^= c[k];
			c[k - 5] ^= c[k];
			c[k - 7] ^= c[k];
			c[k - 8] ^= c[k];
		}
	} else {
		KC_SYM_UNROLL
		for (k = 14; k >= 8; k--) {
			c[k - 1] ^= c[k];
			c[k - 2] ^= c[k];
			c[k - 3] ^= c[k];
			c[k - 4] ^= c[k];
			c[k - 6] ^= c[k];
			c[k - 8] ^= c[k];
		}
	}
}

/* r = a * b; r may alias a or b. */
KC_PRIV void kc_bs_gf_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8], uint32_t poly)
{
	uint32_t c[15];
	int i, j;

	KC_SYM_UNROLL
	for (i = 0; i < 15; i++)
		c[i] = 0;
	KC_SYM_UNROLL
	for (i = 0; i < 8; i++) {
		KC_SYM_UNROLL
		for (j = 0; j < 8; j++)
			c[i + j] ^= a[i] & b[j];
	}
	kc_bs_gf_reduce(c, poly);
	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		r[i] = c[i];
}

/* r = a^(2^n); r may alias a.  Squaring is linear: spread, then reduce. */
KC_PRIV void kc_bs_gf_sqn(uint32_t r[8], const uint32_t a[8], int n, uint32_t poly)
{
	uint32_t c[15];
	int i, m;

	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		r[i] = a[i];
	for (m = 0; m < n; m++) {
		KC_SYM_UNROLL
		for (i = 0; i < 8; i++) {
			c[2 * i] = r[i];
			if (i < 7)
				c[2 * i + 1] = 0;
		}
		kc_bs_gf_reduce(c, poly);
		KC_SYM_UNROLL
		for (i = 0; i < 8; i++)
			r[i] = c[i];
	}
}

/* q = q^254 (the inverse, with 0 -> 0). */
KC_PRIV void kc_bs_gf_inv(uint32_t q[8], uint32_t poly)
{
	uint32_t x2[8], x3[8], x12[8], t[8];

	kc_bs_gf_sqn(x2, q, 1, poly);
	kc_bs_gf_mul(x3, x2, q, poly);
	kc_bs_gf_sqn(x12, x3, 2, poly);
	kc_bs_gf_mul(t, x12, x3, poly);     /* x^15 */
	kc_bs_gf_sqn(t, t, 4, poly);        /* x^240 */
	kc_bs_gf_mul(t, t, x12, poly);      /* x^252 */
	kc_bs_gf_mul(q, t, x2, poly);       /* x^254 */
}

KC_API void kc_bs_aes_sbox(uint32_t q[8])
{
	uint32_t x[8];
	int i;

	kc_bs_gf_inv(q, KC_POLY_AES);
	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		x[i] = q[i];
	/* b_i = a_i ^ a_{i+4} ^ a_{i+5} ^ a_{i+6} ^ a_{i+7} ^ (0x63)_i */
	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		q[i] = x[i] ^ x[(i + 4) & 7] ^ x[(i + 5) & 7] ^ x[(i + 6) & 7] ^ x[(i + 7) & 7];
	q[0] = ~q[0];
	q[1] = ~q[1];
	q[5] = ~q[5];
	q[6] = ~q[6];
}

KC_API void kc_bs_aes_inv_sbox(uint32_t q[8])
{
	uint32_t x[8];
	int i;

	/* a_i = b_{i+2} ^ b_{i+5} ^ b_{i+7} ^ (0x05)_i */
	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		x[i] = q[i];
	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		q[i] = x[(i + 2) & 7] ^ x[(i + 5) & 7] ^ x[(i + 7) & 7];
	q[0] = ~q[0];
	q[2] = ~q[2];
	kc_bs_gf_inv(q, KC_POLY_AES);
}

/* SM4 affine part: y_i = x_i ^ x_{i+1} ^ x_{i+2} ^ x_{i+5} ^ x_{i+7} ^ (0xD3)_i */
KC_PRIV void kc_bs_sm4_affine(uint32_t q[8])
{
	uint32_t x[8];
	int i;

	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		x[i] = q[i];
	KC_SYM_UNROLL
	for (i = 0; i < 8; i++)
		q[i] = x[i] ^ x[(i + 1) & 7] ^ x[(i + 2) & 7] ^ x[(i + 5) & 7] ^ x[(i + 7) & 7];
	q[0] = ~q[0];
	q[1] = ~q[1];
	q[4] = ~q[4];
	q[6] = ~q[6];
	q[7] = ~q[7];
}

KC_API void kc_bs_sm4_sbox(uint32_t q[8])
{
	kc_bs_sm4_affine(q);
	kc_bs_gf_inv(q, KC_POLY_SM4);
	kc_bs_sm4_affine(q);
}
