/* kc_sm3.c - SM3 (GB/T 32905-2016). */
#include "kc_sm3.h"
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
	const uint8_t *p = (const uint8_t *)data;
	size_t fill = (size_t)(s->count & (KC_SM3_BLOCK - 1));

	s->count += (uint64_t)len;
	if (fill) {
		size_t n = KC_SM3_BLOCK - fill;
		if (n > len)
			n = len;
		kc_memcpy(s->buf + fill, p, n);
		p += n;
		len -= n;
		fill += n;
		if (fill < KC_SM3_BLOCK)
			return;
		kc_sm3_compress(s->h, s->buf);
	}
	while (len >= KC_SM3_BLOCK) {
		kc_sm3_compress(s->h, p);
		p += KC_SM3_BLOCK;
		len -= KC_SM3_BLOCK;
	}
	kc_memcpy(s->buf, p, len);
}

KC_API void kc_sm3_final(kc_sm3_state *s, uint8_t *out)
{
	size_t fill = (size_t)(s->count & (KC_SM3_BLOCK - 1));
	unsigned i;

	s->buf[fill++] = 0x80;
	if (fill > KC_SM3_BLOCK - 8) {
		kc_memset(s->buf + fill, 0, KC_SM3_BLOCK - fill);
		kc_sm3_compress(s->h, s->buf);
		fill = 0;
	}
	kc_memset(s->buf + fill, 0, KC_SM3_BLOCK - 8 - fill);
	kc_store_be64(s->buf + KC_SM3_BLOCK - 8, s->count << 3);
	kc_sm3_compress(s->h, s->buf);
	for (i = 0; i < 8; i++)
		kc_store_be32(out + 4 * i, s->h[i]);
	kc_wipe(s, sizeof *s);
}
