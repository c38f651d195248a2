/*
 * kc_cpu_sha.c - SHA-256's compression with the SHA extensions (kc_cpu.h).
 *
 * SHA256RNDS2 runs two rounds on the state held as ABEF / CDGH;
 * SHA256MSG1 / MSG2 extend the schedule four words at a time:
 *   W[4t..4t+3] = MSG2(MSG1(W_{t-4}, W_{t-3}) + W[4t-7..4t-4], W_{t-1}),
 * W[4t-7..4t-4] being ALIGNR(W_{t-1}, W_{t-2}, 4).  No data-dependent
 * branch or index; the schedule and state stay in registers.
 */
#include "gpu/core/cpu/kc_cpu.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/hash/kc_sha2.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("sha,ssse3,sse4.1")))
int kc_cpu_sha256(uint32_t h[8], const uint8_t *block)
{
	static const uint32_t K[64] __attribute__((aligned(16))) = KC_SHA256_K;
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
	__m128i s0, s1, t, abef, cdgh, w[4];
	int i;

	if (!(kc_cpu_features() & KC_CPU_SHA))
		return 0;
	/* h[0..3] = DCBA, h[4..7] = HGFE (lanes low to high) -> ABEF, CDGH */
	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)h), 0xb1);        /* CDAB */
	s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)(h + 4)), 0x1b); /* EFGH */
	s0 = _mm_alignr_epi8(t, s1, 8);                                                        /* ABEF */
	s1 = _mm_blend_epi16(s1, t, 0xf0);                                                     /* CDGH */
	abef = s0;
	cdgh = s1;
	KC_UNROLL
	for (i = 0; i < 16; i++) {
		if (i < 4)
			w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(block + 16 * i)), bswap);
		else
			w[i & 3] = _mm_sha256msg2_epu32(
				_mm_add_epi32(_mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]),
				              _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4)),
				w[(i + 3) & 3]);
		t = _mm_add_epi32(w[i & 3], _mm_load_si128((const __m128i *)(const void *)(K + 4 * i)));
		s1 = _mm_sha256rnds2_epu32(s1, s0, t);
		s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(t, 0x0e));
	}
	s0 = _mm_add_epi32(s0, abef);
	s1 = _mm_add_epi32(s1, cdgh);
	/* ABEF, CDGH -> DCBA, HGFE */
	t = _mm_shuffle_epi32(s0, 0x1b);         /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xb1);        /* DCHG */
	s0 = _mm_blend_epi16(t, s1, 0xf0);       /* DCBA */
	s1 = _mm_alignr_epi8(s1, t, 8);          /* HGFE */
	_mm_storeu_si128((__m128i *)(void *)h, s0);
	_mm_storeu_si128((__m128i *)(void *)(h + 4), s1);
	for (i = 0; i < 4; i++)
		w[i] = _mm_setzero_si128();
	__asm__ volatile("" : : "r"(w) : "memory");
	return 1;
}

#else

int kc_cpu_sha256(uint32_t h[8], const uint8_t *block)
{
	(void)h; (void)block;
	return 0;
}

#endif
