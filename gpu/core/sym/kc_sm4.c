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

KC_API void kc_sm4_crypt(const uint32_t *rk, uint32_t decrypt, const uint8_t *in, uint8_t *out, size_t n)
{
	uint32_t x[4][8], t[8];
	uint32_t i, r;
	size_t b;

	for (b = 0; b < n; b++)
		for (i = 0; i < 4; i++)
			x[i][b] = kc_load_be32(in + 16 * b + 4 * i);
	for (r = 0; r < 32; r++) {
		uint32_t k = rk[decrypt ? 31 - r : r];
		for (b = 0; b < n; b++)
			t[b] = x[(r + 1) & 3][b] ^ x[(r + 2) & 3][b] ^ x[(r + 3) & 3][b] ^ k;
		kc_sm4_tau(t, n);
		for (b = 0; b < n; b++) {
			uint32_t v = t[b];
			x[r & 3][b] ^= v ^ kc_rotl32(v, 2) ^ kc_rotl32(v, 10) ^ kc_rotl32(v, 18) ^ kc_rotl32(v, 24);
		}
	}
	for (b = 0; b < n; b++)
		for (i = 0; i < 4; i++)
			kc_store_be32(out + 16 * b + 4 * i, x[3 - i][b]);
	kc_wipe(x, sizeof x);
	kc_wipe(t, sizeof t);
}
