/* kc_sha256.c - SHA-224 and SHA-256 (FIPS 180-4, 6.2 and 6.3). */
#include "kc_sha2.h"
#include "kc_md.h"
#include "../kc_util.h"
#ifndef __CUDACC__
#include "gpu/core/cpu/kc_cpu.h"   /* the host's SHA extensions */
#endif

/* The host's SHA instructions (gpu/core/cpu/kc_cpu.h): returns 1 when it
 * compressed the block into h. */
#ifndef KC_CPU_SHA256
#define KC_CPU_SHA256(h, block) 0
#endif

KC_PRIV uint32_t kc_sha256_ch(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); }
KC_PRIV uint32_t kc_sha256_maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }

/* The 64 rounds as 4 passes of one 16-round body: inside the (unrolled)
 * body every index of the 16-word schedule w is a constant, so w stays in
 * registers.  Round i of a pass uses w[i] and then replaces it with the
 * word 16 rounds later, so all four passes are the same code (the last
 * pass computes 16 words it does not use) - on the GPU a fully unrolled
 * compression is ~25 KB of instructions, run once per block, which the
 * instruction caches do not hold with eight requests per multiprocessor,
 * and a first pass without the schedule would be a second copy. */
KC_API void kc_sha256_compress(uint32_t h[8], const uint8_t *block)
{
	static const uint32_t K[64] = KC_SHA256_K;
	uint32_t w[16], a, b, c, d, e, f, g, hh, t1, t2;
	unsigned i, j;

	if (KC_CPU_SHA256(h, block))
		return;
	KC_UNROLL
	for (i = 0; i < 16; i++)
		w[i] = kc_load_be32(block + 4 * i);
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
	for (j = 0; j < 64; j += 16) {
		KC_UNROLL
		for (i = 0; i < 16; i++) {
			uint32_t w15 = w[(i + 1) & 15], w2 = w[(i + 14) & 15];
			t1 = hh + (kc_rotr32(e, 6) ^ kc_rotr32(e, 11) ^ kc_rotr32(e, 25))
			     + kc_sha256_ch(e, f, g) + K[j + i] + w[i];
			t2 = (kc_rotr32(a, 2) ^ kc_rotr32(a, 13) ^ kc_rotr32(a, 22)) + kc_sha256_maj(a, b, c);
			hh = g; g = f; f = e; e = d + t1;
			d = c; c = b; b = a; a = t1 + t2;
			/* w[i] := schedule word j + 16 + i (w[(i + 1) & 15] etc. are
			 * still words j + i + 1 ... of this pass or the next) */
			w[i] += (kc_rotr32(w15, 7) ^ kc_rotr32(w15, 18) ^ (w15 >> 3)) + w[(i + 9) & 15]
			        + (kc_rotr32(w2, 17) ^ kc_rotr32(w2, 19) ^ (w2 >> 10));
		}
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
	KC_WIPE_REGS(w, sizeof w);
}

KC_API void kc_sha256_init(kc_sha256_state *s)
{
	s->h[0] = 0x6a09e667; s->h[1] = 0xbb67ae85; s->h[2] = 0x3c6ef372; s->h[3] = 0xa54ff53a;
	s->h[4] = 0x510e527f; s->h[5] = 0x9b05688c; s->h[6] = 0x1f83d9ab; s->h[7] = 0x5be0cd19;
	s->count = 0;
	kc_memset(s->buf, 0, sizeof s->buf);
}

KC_API void kc_sha224_init(kc_sha256_state *s)
{
	s->h[0] = 0xc1059ed8; s->h[1] = 0x367cd507; s->h[2] = 0x3070dd17; s->h[3] = 0xf70e5939;
	s->h[4] = 0xffc00b31; s->h[5] = 0x68581511; s->h[6] = 0x64f98fa7; s->h[7] = 0xbefa4fa4;
	s->count = 0;
	kc_memset(s->buf, 0, sizeof s->buf);
}

KC_API void kc_sha256_update(kc_sha256_state *s, const void *data, size_t len)
{
	kc_md_update(KC_MD_SHA256, s->h, s->buf, &s->count, data, len);
}

KC_API void kc_sha256_final_n(kc_sha256_state *s, uint8_t *out, size_t outlen)
{
	kc_md_final(KC_MD_SHA256, s->h, s->buf, s->count, out, outlen);
	kc_wipe(s, sizeof *s);
}

KC_API void kc_sha256_final(kc_sha256_state *s, uint8_t *out) { kc_sha256_final_n(s, out, KC_SHA256_LEN); }
KC_API void kc_sha224_final(kc_sha256_state *s, uint8_t *out) { kc_sha256_final_n(s, out, KC_SHA224_LEN); }
