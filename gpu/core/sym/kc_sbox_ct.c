/*
 * kc_sbox_ct.c - bitsliced, table-free S-boxes of AES and SM4.
 *
 * Both S-boxes are an affine map around the inverse in GF(2^8):
 *   AES: S(x) = L(x^-1) ^ 0x63             in GF(2)[x]/(x^8+x^4+x^3+x+1)
 *   SM4: S(x) = A(A(x) ^ 0xD3)^-1 ^ 0xD3   in GF(2)[x]/(x^8+x^7+x^6+x^5+x^4+x^2+1)
 * (SM4: the affine description of Liu et al.; it reproduces the table of
 * GB/T 32907-2016, checked against OpenSSL by the unit tests.)
 *
 * The inverse (0 -> 0) is computed in the tower field
 * GF(2^4)[y]/(y^2 + y + lambda): both fields are mapped into the tower by a
 * field isomorphism, merged with the affine maps into one linear map on
 * each side (kc_sbox_tower.h, generated and verified by gen_sbox_tower.py):
 *   (a y + b)^-1 = (a d) y + (a + b) d,  d = (lambda a^2 + a b + b^2)^-1
 * with GF(2^4) products and the GF(2^4) inverse d^-1 = d^14.
 *
 * Everything runs on bitsliced operands, 32 bytes at once (q[i] holds bit i
 * of every byte): AND/XOR/NOT on whole words only, no table, no branch, no
 * index that depends on the data.
 *
 * Wiping: the temporaries of these S-box helpers are not wiped on return.
 * They are register values overwritten by the next call; a volatile wipe
 * here cost 40% of the cipher's speed on the host and would force the
 * plane arrays into local memory on the GPU.  The callers (one pass of
 * kc_aes_ct_encrypt / _decrypt, kc_sm4_crypt, the key schedules) wipe their
 * state before they return.
 */
#include "gpu/core/sym/kc_sym_int.h"
#include "gpu/core/sym/kc_sbox_tower.h"

KC_API void kc_bs_from_words(uint32_t q[8], const uint32_t *w, size_t nw)
{
	size_t k;
	int i;

	KC_UNROLL
	for (i = 0; i < 8; i++)
		q[i] = 0;
	for (k = 0; k < nw; k++) {
		uint32_t v = w[k];
		KC_UNROLL
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
		KC_UNROLL
		for (i = 0; i < 8; i++) {
			uint32_t x = (q[i] >> (4 * k)) & 0xFu;
			x = (x & 1u) | ((x & 2u) << 7) | ((x & 4u) << 14) | ((x & 8u) << 21);
			v |= x << i;
		}
		w[k] = v;
	}
}

/* exchange the bits of b under mask with the bits of a under mask << n */
KC_PRIV void kc_bs_swapmove(uint32_t *a, uint32_t *b, uint32_t mask, unsigned n)
{
	uint32_t t = ((*a >> n) ^ *b) & mask;
	*b ^= t;
	*a ^= t << n;
}

KC_API void kc_bs_ortho8(uint32_t a[8])
{
	kc_bs_swapmove(&a[0], &a[1], 0x55555555u, 1);
	kc_bs_swapmove(&a[2], &a[3], 0x55555555u, 1);
	kc_bs_swapmove(&a[4], &a[5], 0x55555555u, 1);
	kc_bs_swapmove(&a[6], &a[7], 0x55555555u, 1);
	kc_bs_swapmove(&a[0], &a[2], 0x33333333u, 2);
	kc_bs_swapmove(&a[1], &a[3], 0x33333333u, 2);
	kc_bs_swapmove(&a[4], &a[6], 0x33333333u, 2);
	kc_bs_swapmove(&a[5], &a[7], 0x33333333u, 2);
	kc_bs_swapmove(&a[0], &a[4], 0x0F0F0F0Fu, 4);
	kc_bs_swapmove(&a[1], &a[5], 0x0F0F0F0Fu, 4);
	kc_bs_swapmove(&a[2], &a[6], 0x0F0F0F0Fu, 4);
	kc_bs_swapmove(&a[3], &a[7], 0x0F0F0F0Fu, 4);
}

/* r = a * b in GF(2^4) = GF(2)[x]/(x^4 + x + 1); r may alias a or b. */
KC_PRIV void kc_gf16_mul(uint32_t r[4], const uint32_t a[4], const uint32_t b[4])
{
	uint32_t c0, c1, c2, c3, c4, c5, c6;

	c0 = a[0] & b[0];
	c1 = (a[0] & b[1]) ^ (a[1] & b[0]);
	c2 = (a[0] & b[2]) ^ (a[1] & b[1]) ^ (a[2] & b[0]);
	c3 = (a[0] & b[3]) ^ (a[1] & b[2]) ^ (a[2] & b[1]) ^ (a[3] & b[0]);
	c4 = (a[1] & b[3]) ^ (a[2] & b[2]) ^ (a[3] & b[1]);
	c5 = (a[2] & b[3]) ^ (a[3] & b[2]);
	c6 = a[3] & b[3];
	/* x^4 = x + 1, x^5 = x^2 + x, x^6 = x^3 + x^2 */
	r[0] = c0 ^ c4;
	r[1] = c1 ^ c4 ^ c5;
	r[2] = c2 ^ c5 ^ c6;
	r[3] = c3 ^ c6;
}

/* r = a^2 (linear); r must not alias a */
KC_PRIV void kc_gf16_sq(uint32_t r[4], const uint32_t a[4])
{
	r[0] = a[0] ^ a[2];
	r[1] = a[2];
	r[2] = a[1] ^ a[3];
	r[3] = a[3];
}

/* q = q^-1 in the tower field (0 -> 0); low nibble planes q[0..3] = b,
 * high q[4..7] = a. */
KC_PRIV void kc_tower_inv(uint32_t q[8])
{
	uint32_t d[4], t[4], u[4], v[4];
	int i;

	kc_gf16_mul(d, q + 4, q);             /* a b */
	KC_TW_LAMSQ(t, q + 4);                /* lambda a^2 */
	kc_gf16_sq(u, q);                     /* b^2 */
	KC_UNROLL
	for (i = 0; i < 4; i++)
		d[i] ^= t[i] ^ u[i];              /* delta */
	kc_gf16_sq(t, d);                     /* d^2 */
	kc_gf16_sq(u, t);                     /* d^4 */
	kc_gf16_mul(t, t, u);                 /* d^6 */
	kc_gf16_sq(v, u);                     /* d^8 */
	kc_gf16_mul(d, t, v);                 /* d^14 = delta^-1 */
	KC_UNROLL
	for (i = 0; i < 4; i++)
		u[i] = q[i] ^ q[4 + i];           /* a + b */
	kc_gf16_mul(q + 4, q + 4, d);         /* a d */
	kc_gf16_mul(q, u, d);                 /* (a + b) d */
}

KC_API void kc_bs_aes_sbox(uint32_t q[8])
{
	uint32_t x[8];

	KC_TW_AES_IN(x, q);
	kc_tower_inv(x);
	KC_TW_AES_OUT(q, x);
}

KC_API void kc_bs_aes_inv_sbox(uint32_t q[8])
{
	uint32_t x[8];

	KC_TW_AESINV_IN(x, q);
	kc_tower_inv(x);
	KC_TW_AESINV_OUT(q, x);
}

KC_API void kc_bs_sm4_sbox(uint32_t q[8])
{
	uint32_t x[8];

	KC_TW_SM4_IN(x, q);
	kc_tower_inv(x);
	KC_TW_SM4_OUT(q, x);
}
