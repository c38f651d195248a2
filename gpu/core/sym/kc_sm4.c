/*
 * kc_sm4.c - SM4 (GB/T 32907-2016), up to 8 blocks per pass.
 *
 * The nonlinear layer tau (four S-boxes on a 32-bit word) of every round is
 * computed for all blocks of the pass at once by the bitsliced, table-free
 * S-box of kc_sbox_ct.c (8 words = 32 bytes).  No table is indexed by data.
 */
#include "gpu/core/sym/kc_sym_int.h"

/* tau on n (<= 8) words at once.  Byte order inside a word does not matter:
 * the S-box is applied bytewise. */
KC_PRIV void kc_sm4_tau(uint32_t *x, size_t n)
{
	uint32_t q[8];
	kc_bs_from_words(q, x, n);
	kc_bs_sm4_sbox(q);
	kc_bs_to_words(x, q, n);
	/* q is not wiped per round (see kc_sbox_ct.c); kc_sm4_crypt wipes */
}

KC_PRIV uint32_t kc_sm4_ck(uint32_t i)
{
	uint32_t j, v = 0;
	for (j = 0; j < 4; j++)
		v = (v << 8) | (((4 * i + j) * 7) & 0xFFu);
	return v;
}

KC_API void kc_sm4_keysched(uint32_t *rk, const uint8_t key[16])
{
	uint32_t k[4], t;
	uint32_t i;
	static const uint32_t fk[4] = { 0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu };

	for (i = 0; i < 4; i++)
		k[i] = kc_load_be32(key + 4 * i) ^ fk[i];
	for (i = 0; i < 32; i++) {
		t = k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ kc_sm4_ck(i);
		kc_sm4_tau(&t, 1);
		t = t ^ kc_rotl32(t, 13) ^ kc_rotl32(t, 23);
		k[i & 3] ^= t;
		rk[i] = k[i & 3];
	}
	kc_wipe(k, sizeof k);
	kc_wipe(&t, sizeof t);
}

/* One round on all 8 lanes: a ^= T(b ^ c ^ d ^ k).  Lanes beyond the
 * caller's blocks carry zeros; the S-box layer costs the same for 1 or 8
 * lanes, and fixed trip counts keep the lane arrays in registers on the GPU. */
KC_PRIV void kc_sm4_round(uint32_t a[8], const uint32_t b[8], const uint32_t c[8], const uint32_t d[8], uint32_t k)
{
	uint32_t t[8];
	int i;

	KC_UNROLL
	for (i = 0; i < 8; i++)
		t[i] = b[i] ^ c[i] ^ d[i] ^ k;
	kc_bs_ortho8(t);
	kc_bs_sm4_sbox(t);
	kc_bs_ortho8(t);
	KC_UNROLL
	for (i = 0; i < 8; i++)
		a[i] ^= t[i] ^ kc_rotl32(t[i], 2) ^ kc_rotl32(t[i], 10) ^ kc_rotl32(t[i], 18) ^ kc_rotl32(t[i], 24);
}

KC_API void kc_sm4_crypt(const uint32_t *rk, uint32_t decrypt, const uint8_t *in, uint8_t *out, size_t n)
{
	uint32_t x0[8], x1[8], x2[8], x3[8];
	uint32_t r;
	int b;

	KC_UNROLL
	for (b = 0; b < 8; b++) {
		int on = (size_t)b < n;
		x0[b] = on ? kc_load_be32(in + 16 * b) : 0u;
		x1[b] = on ? kc_load_be32(in + 16 * b + 4) : 0u;
		x2[b] = on ? kc_load_be32(in + 16 * b + 8) : 0u;
		x3[b] = on ? kc_load_be32(in + 16 * b + 12) : 0u;
	}
	for (r = 0; r < 32; r += 4) {
		if (decrypt) {
			kc_sm4_round(x0, x1, x2, x3, rk[31 - r]);
			kc_sm4_round(x1, x2, x3, x0, rk[30 - r]);
			kc_sm4_round(x2, x3, x0, x1, rk[29 - r]);
			kc_sm4_round(x3, x0, x1, x2, rk[28 - r]);
		} else {
			kc_sm4_round(x0, x1, x2, x3, rk[r]);
			kc_sm4_round(x1, x2, x3, x0, rk[r + 1]);
			kc_sm4_round(x2, x3, x0, x1, rk[r + 2]);
			kc_sm4_round(x3, x0, x1, x2, rk[r + 3]);
		}
	}
	KC_UNROLL
	for (b = 0; b < 8; b++) {
		if ((size_t)b < n) {
			kc_store_be32(out + 16 * b, x3[b]);
			kc_store_be32(out + 16 * b + 4, x2[b]);
			kc_store_be32(out + 16 * b + 8, x1[b]);
			kc_store_be32(out + 16 * b + 12, x0[b]);
		}
	}
	kc_wipe(x0, sizeof x0);
	kc_wipe(x1, sizeof x1);
	kc_wipe(x2, sizeof x2);
	kc_wipe(x3, sizeof x3);
}
