/* kc_sha1.c - SHA-1 (FIPS 180-4, 6.1). */
#include "kc_sha1.h"
#include "../kc_util.h"

KC_API void kc_sha1_compress(uint32_t h[5], const uint8_t *block)
{
	uint32_t w[16], a, b, c, d, e, f, k, t;
	unsigned i;

	KC_UNROLL
	for (i = 0; i < 16; i++)
		w[i] = kc_load_be32(block + 4 * i);
	a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4];
	KC_UNROLL
	for (i = 0; i < 80; i++) {
		if (i >= 16) {
			t = w[(i - 3) & 15] ^ w[(i - 8) & 15] ^ w[(i - 14) & 15] ^ w[i & 15];
			w[i & 15] = kc_rotl32(t, 1);
		}
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = kc_rotl32(a, 5) + f + e + k + w[i & 15];
		e = d; d = c; c = kc_rotl32(b, 30); b = a; a = t;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
	KC_WIPE_REGS(w, sizeof w);
}

KC_API void kc_sha1_init(kc_sha1_state *s)
{
	s->h[0] = 0x67452301; s->h[1] = 0xefcdab89; s->h[2] = 0x98badcfe;
	s->h[3] = 0x10325476; s->h[4] = 0xc3d2e1f0;
	s->pad_ = 0;
	s->count = 0;
	kc_memset(s->buf, 0, sizeof s->buf);
}

KC_API void kc_sha1_update(kc_sha1_state *s, const void *data, size_t len)
{
	const uint8_t *p = (const uint8_t *)data;
	size_t fill = (size_t)(s->count & (KC_SHA1_BLOCK - 1));

	s->count += (uint64_t)len;
	if (fill) {
		size_t n = KC_SHA1_BLOCK - fill;
		if (n > len)
			n = len;
		kc_memcpy(s->buf + fill, p, n);
		p += n;
		len -= n;
		fill += n;
		if (fill < KC_SHA1_BLOCK)
			return;
		kc_sha1_compress(s->h, s->buf);
	}
	while (len >= KC_SHA1_BLOCK) {
		kc_sha1_compress(s->h, p);
		p += KC_SHA1_BLOCK;
		len -= KC_SHA1_BLOCK;
	}
	kc_memcpy(s->buf, p, len);
}

KC_API void kc_sha1_final(kc_sha1_state *s, uint8_t *out)
{
	size_t fill = (size_t)(s->count & (KC_SHA1_BLOCK - 1));
	unsigned i;

	s->buf[fill++] = 0x80;
	if (fill > KC_SHA1_BLOCK - 8) {
		kc_memset(s->buf + fill, 0, KC_SHA1_BLOCK - fill);
		kc_sha1_compress(s->h, s->buf);
		fill = 0;
	}
	kc_memset(s->buf + fill, 0, KC_SHA1_BLOCK - 8 - fill);
	kc_store_be64(s->buf + KC_SHA1_BLOCK - 8, s->count << 3);
	kc_sha1_compress(s->h, s->buf);
	for (i = 0; i < 5; i++)
		kc_store_be32(out + 4 * i, s->h[i]);
	kc_wipe(s, sizeof *s);
}
