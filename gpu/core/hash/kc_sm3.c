/* kc_sm3.c - SM3 (GB/T 32905-2016). */
#include "kc_sm3.h"
#include "kc_md.h"
#include "../kc_util.h"

KC_PRIV uint32_t kc_sm3_p0(uint32_t x) { return x ^ kc_rotl32(x, 9) ^ kc_rotl32(x, 17); }
KC_PRIV uint32_t kc_sm3_p1(uint32_t x) { return x ^ kc_rotl32(x, 15) ^ kc_rotl32(x, 23); }

KC_API void kc_sm3_compress(uint32_t h[8], const uint8_t *block)
{
	uint32_t w[68], a, b, c, d, e, f, g, hh, ss1, ss2, tt1, tt2, ff, gg, tj, a12;
	unsigned j;

	KC_UNROLL
	for (j = 0; j < 16; j++)
		w[j] = kc_load_be32(block + 4 * j);
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	/* the message expansion runs 4 words ahead of the rounds, so that
	 * unrolled only ~20 words are live at a time */
	KC_UNROLL
	for (j = 0; j < 64; j++) {
		const unsigned x = j + 4;
		if (x >= 16)
			w[x] = kc_sm3_p1(w[x - 16] ^ w[x - 9] ^ kc_rotl32(w[x - 3], 15))
			       ^ kc_rotl32(w[x - 13], 7) ^ w[x - 6];
		if (j < 16) {
			tj = 0x79cc4519;
			ff = a ^ b ^ c;
			gg = e ^ f ^ g;
		} else {
			tj = 0x7a879d8a;
			ff = (a & b) | (a & c) | (b & c);
			gg = (e & f) | (~e & g);
		}
		a12 = kc_rotl32(a, 12);
		ss1 = kc_rotl32(a12 + e + kc_rotl32(tj, j & 31), 7);
		ss2 = ss1 ^ a12;
		tt1 = ff + d + ss2 + (w[j] ^ w[j + 4]);
		tt2 = gg + hh + ss1 + w[j];
		d = c; c = kc_rotl32(b, 9); b = a; a = tt1;
		hh = g; g = kc_rotl32(f, 19); f = e; e = kc_sm3_p0(tt2);
	}
	h[0] ^= a; h[1] ^= b; h[2] ^= c; h[3] ^= d;
	h[4] ^= e; h[5] ^= f; h[6] ^= g; h[7] ^= hh;
	KC_WIPE_REGS(w, sizeof w);
}

KC_API void kc_sm3_init(kc_sm3_state *s)
{
	s->h[0] = 0x7380166f; s->h[1] = 0x4914b2b9; s->h[2] = 0x172442d7; s->h[3] = 0xda8a0600;
	s->h[4] = 0xa96f30bc; s->h[5] = 0x163138aa; s->h[6] = 0xe38dee4d; s->h[7] = 0xb0fb0e4e;
	s->count = 0;
	kc_memset(s->buf, 0, sizeof s->buf);
}

KC_API void kc_sm3_update(kc_sm3_state *s, const void *data, size_t len)
{
	kc_md_update(KC_MD_SM3, s->h, s->buf, &s->count, data, len);
}

KC_API void kc_sm3_final(kc_sm3_state *s, uint8_t *out)
{
	kc_md_final(KC_MD_SM3, s->h, s->buf, s->count, out, KC_SM3_LEN);
	kc_wipe(s, sizeof *s);
}
