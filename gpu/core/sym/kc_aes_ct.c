/*
 * kc_aes_ct.c - AES-128/192/256, bitsliced, two blocks per pass.
 *
 * State: 32 bytes (two blocks, eight little-endian words) transposed by
 * kc_bs_ortho8 into eight bit-planes q[0..7]; bit p of a plane is the byte
 * at row r, block b, column c with p = 8 r + 4 b + c.  SubBytes is the
 * table-free S-box of kc_sbox_ct.c; ShiftRows rotates the 4-bit column
 * groups of each row byte; MixColumns reaches row r + k by rotating the
 * plane by 8 k bits.  The key schedule runs its SubWord through the same
 * S-box; round keys are stored bitsliced (8 words per round, the key bytes
 * replicated for both blocks).
 */
#include "gpu/core/sym/kc_sym_int.h"

/* inside every 4-bit group: bit c <- bit (c + k) mod 4 */
KC_PRIV uint32_t kc_aes_rn1(uint32_t x) { return ((x >> 1) & 0x77777777u) | ((x << 3) & 0x88888888u); }
KC_PRIV uint32_t kc_aes_rn2(uint32_t x) { return ((x >> 2) & 0x33333333u) | ((x << 2) & 0xCCCCCCCCu); }
KC_PRIV uint32_t kc_aes_rn3(uint32_t x) { return ((x >> 3) & 0x11111111u) | ((x << 1) & 0xEEEEEEEEu); }

/* row r (bits 8r..8r+7): new column c = old column c + r */
KC_PRIV void kc_aes_shift_rows(uint32_t q[8])
{
	int i;
	KC_UNROLL
	for (i = 0; i < 8; i++) {
		uint32_t x = q[i];
		q[i] = (x & 0x000000FFu) | (kc_aes_rn1(x) & 0x0000FF00u)
			| (kc_aes_rn2(x) & 0x00FF0000u) | (kc_aes_rn3(x) & 0xFF000000u);
	}
}

KC_PRIV void kc_aes_inv_shift_rows(uint32_t q[8])
{
	int i;
	KC_UNROLL
	for (i = 0; i < 8; i++) {
		uint32_t x = q[i];
		q[i] = (x & 0x000000FFu) | (kc_aes_rn3(x) & 0x0000FF00u)
			| (kc_aes_rn2(x) & 0x00FF0000u) | (kc_aes_rn1(x) & 0xFF000000u);
	}
}

/* s = 2 * s in GF(2^8), bitsliced */
KC_PRIV void kc_aes_xtime(uint32_t s[8])
{
	uint32_t t7 = s[7];
	s[7] = s[6];
	s[6] = s[5];
	s[5] = s[4];
	s[4] = s[3] ^ t7;
	s[3] = s[2] ^ t7;
	s[2] = s[1];
	s[1] = s[0] ^ t7;
	s[0] = t7;
}

/* b_r = 2 (a_r ^ a_{r+1}) ^ a_{r+1} ^ a_{r+2} ^ a_{r+3} */
KC_PRIV void kc_aes_mix_columns(uint32_t q[8])
{
	uint32_t s[8], t[8];
	int i;

	KC_UNROLL
	for (i = 0; i < 8; i++) {
		uint32_t r1 = kc_rotr32(q[i], 8);         /* row r + 1 */
		s[i] = q[i] ^ r1;
		t[i] = r1 ^ kc_rotr32(q[i], 16) ^ kc_rotr32(q[i], 24);
	}
	kc_aes_xtime(s);
	KC_UNROLL
	for (i = 0; i < 8; i++)
		q[i] = s[i] ^ t[i];
}

/* InvMixColumns = MixColumns o (a_r ^= 4 (a_r ^ a_{r+2})) (Rijndael book, 4.1.3) */
KC_PRIV void kc_aes_inv_mix_columns(uint32_t q[8])
{
	uint32_t w[8];
	int i;

	KC_UNROLL
	for (i = 0; i < 8; i++)
		w[i] = q[i] ^ kc_rotr32(q[i], 16);
	kc_aes_xtime(w);
	kc_aes_xtime(w);
	KC_UNROLL
	for (i = 0; i < 8; i++)
		q[i] ^= w[i];
	kc_aes_mix_columns(q);
}

KC_PRIV void kc_aes_ark(uint32_t q[8], const uint32_t *k)
{
	int i;
	KC_UNROLL
	for (i = 0; i < 8; i++)
		q[i] ^= k[i];
}

/* SubWord on a little-endian packed 32-bit word */
KC_PRIV uint32_t kc_aes_sub_word(uint32_t x)
{
	uint32_t q[8];
	kc_bs_from_words(q, &x, 1);
	kc_bs_aes_sbox(q);
	kc_bs_to_words(&x, q, 1);
	kc_wipe(q, sizeof q);
	return x;
}

KC_API int kc_aes_ct_keysched(uint32_t *rk, uint32_t *nr, const uint8_t *key, size_t keylen)
{
	uint32_t w[60], two[8];
	uint32_t nk, nw, i, rcon, t;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return PV_ERR_KEY_SIZE;
	nk = (uint32_t)(keylen >> 2);
	*nr = nk + 6;
	nw = 4 * (*nr + 1);
	for (i = 0; i < nk; i++)
		w[i] = kc_load_le32(key + 4 * i);
	rcon = 1;
	for (i = nk; i < nw; i++) {
		t = w[i - 1];
		if (i % nk == 0) {
			t = kc_aes_sub_word(kc_rotr32(t, 8)) ^ rcon;
			rcon = ((rcon << 1) ^ ((rcon >> 7) * 0x11Bu)) & 0xFFu;
		} else if (nk > 6 && i % nk == 4) {
			t = kc_aes_sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i <= *nr; i++) {
		two[0] = w[4 * i]; two[1] = w[4 * i + 1]; two[2] = w[4 * i + 2]; two[3] = w[4 * i + 3];
		two[4] = two[0]; two[5] = two[1]; two[6] = two[2]; two[7] = two[3];
		kc_bs_ortho8(two);
		kc_memcpy(rk + 8 * i, two, sizeof two);
	}
	kc_wipe(w, sizeof w);
	kc_wipe(two, sizeof two);
	kc_wipe(&t, sizeof t);
	return PV_OK;
}

KC_PRIV void kc_aes_load2(uint32_t q[8], const uint8_t *in, size_t n)
{
	size_t i;
	KC_UNROLL
	for (i = 0; i < 8; i++)
		q[i] = (i < 4 * n) ? kc_load_le32(in + 4 * i) : 0u;
	kc_bs_ortho8(q);
}

/* q is consumed (transposed back in place) */
KC_PRIV void kc_aes_store2(uint8_t *out, uint32_t q[8], size_t n)
{
	size_t i;
	kc_bs_ortho8(q);
	KC_UNROLL
	for (i = 0; i < 8; i++)
		if (i < 4 * n)
			kc_store_le32(out + 4 * i, q[i]);
}

KC_API void kc_aes_ct_encrypt(const uint32_t *rk, uint32_t nr, const uint8_t *in, uint8_t *out, size_t n)
{
	uint32_t q[8];
	uint32_t r;

	kc_aes_load2(q, in, n);
	kc_aes_ark(q, rk);
	for (r = 1; r < nr; r++) {
		kc_bs_aes_sbox(q);
		kc_aes_shift_rows(q);
		kc_aes_mix_columns(q);
		kc_aes_ark(q, rk + 8 * r);
	}
	kc_bs_aes_sbox(q);
	kc_aes_shift_rows(q);
	kc_aes_ark(q, rk + 8 * nr);
	kc_aes_store2(out, q, n);
	kc_wipe(q, sizeof q);
}

KC_API void kc_aes_ct_decrypt(const uint32_t *rk, uint32_t nr, const uint8_t *in, uint8_t *out, size_t n)
{
	uint32_t q[8];
	uint32_t r;

	kc_aes_load2(q, in, n);
	kc_aes_ark(q, rk + 8 * nr);
	for (r = nr - 1; r > 0; r--) {
		kc_aes_inv_shift_rows(q);
		kc_bs_aes_inv_sbox(q);
		kc_aes_ark(q, rk + 8 * r);
		kc_aes_inv_mix_columns(q);
	}
	kc_aes_inv_shift_rows(q);
	kc_bs_aes_inv_sbox(q);
	kc_aes_ark(q, rk);
	kc_aes_store2(out, q, n);
	kc_wipe(q, sizeof q);
}
