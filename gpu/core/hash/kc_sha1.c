/* kc_sha1.c - SHA-1 (FIPS 180-4, 6.1). */
#include "kc_sha1.h"
#include "kc_md.h"
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
	kc_md_update(KC_MD_SHA1, s->h, s->buf, &s->count, data, len);
}

KC_API void kc_sha1_final(kc_sha1_state *s, uint8_t *out)
{
	kc_md_final(KC_MD_SHA1, s->h, s->buf, s->count, out, KC_SHA1_LEN);
	kc_wipe(s, sizeof *s);
}
